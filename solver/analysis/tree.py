"""The solution tree of a position as a networkx directed graph.

Nodes are positions (their canonical BPN is the node id, so transpositions merge), with
the exact value for the player to move; edges are moves, with the move's value for the
player who makes it and ``best`` marking the moves that keep the value.

>>> g = solution_tree("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35", depth=1)
>>> g.number_of_nodes(), g.graph["root_value"]
(7, -4)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO

from solver.engine.solving import solve
from solver.errors import ArgumentError, Interrupted, PositionError
from solver.model.position import SEATS, Position, as_position
from solver.model.ranges import MAX_PLIES, MAX_TREE_NODES, whole_argument

if TYPE_CHECKING:  # networkx is imported when a tree is built: it costs more than the whole package
    import networkx as nx

FORMATS = ("graphml", "gexf", "json", "dot")


def solution_tree(
    position: Position | str,
    depth: int = 2,
    max_nodes: int = 2000,
    best_only: bool = False,
    progress: Callable[[int, int], object] | None = None,
) -> nx.DiGraph[str]:
    """The tree of every legal move (or only the best ones) ``depth`` moves deep.

    Each position above the last level is solved exactly (every move): from a whole deal or
    an early trick that takes minutes a position.  ``progress`` gets, before each solve, the
    positions solved so far and the positions in the tree.

    Stops expanding at ``max_nodes`` nodes: the graph's ``truncated`` attribute then says so.
    Ctrl-C raises :class:`TreeInterrupted` holding the tree built so far.
    ``depth`` (moves, from 1) and ``max_nodes`` (from 2) are whole numbers, or an
    :class:`~solver.errors.ArgumentError` quotes them.
    """
    import networkx as nx

    root = as_position(position).copy()
    depth = whole_argument(depth, "depth", 1, MAX_PLIES, "moves")
    max_nodes = whole_argument(max_nodes, "max_nodes", 2, MAX_TREE_NODES, "nodes")
    if root.has_hidden:
        raise PositionError(f"the solution tree needs every card known: {root.bpn()!r}")
    g: nx.DiGraph[str] = nx.DiGraph()
    g.graph.update(root=root.bpn(), depth=depth, truncated=False, interrupted=False)
    frontier = [(root, 0)]
    try:
        _expand(g, frontier, depth, max_nodes, best_only, progress)
    except KeyboardInterrupt:
        if root.bpn() not in g:
            raise  # (not even the root's value: nothing to return)
        g.graph["interrupted"] = True
        g.graph["root_value"] = g.nodes[root.bpn()]["value"]
        raise TreeInterrupted(g) from None
    g.graph["root_value"] = g.nodes[root.bpn()]["value"]
    return g


class TreeInterrupted(Interrupted["nx.DiGraph[str]"]):
    """Ctrl-C during :func:`solution_tree`: ``graph`` (the ``partial`` answer) holds the
    tree built so far, its ``interrupted`` attribute set (every node in it has its exact
    value; the positions not yet expanded are leaves).  A KeyboardInterrupt, so code that
    does not look for it stops as before.

    >>> issubclass(TreeInterrupted, KeyboardInterrupt)
    True
    """

    def __init__(self, graph: nx.DiGraph[str]):
        super().__init__(f"interrupted with {graph.number_of_nodes()} positions in the tree", graph)

    @property
    def graph(self) -> nx.DiGraph[str]:
        return self.partial


def _expand(
    g: nx.DiGraph[str],
    frontier: list[tuple[Position, int]],
    depth: int,
    max_nodes: int,
    best_only: bool,
    progress: Callable[[int, int], object] | None,
) -> None:
    """Grow ``g`` breadth first from ``frontier`` (see :func:`solution_tree`)."""
    seen: set[str] = set()
    solved = 0
    while frontier:
        p, d = frontier.pop(0)
        key = p.bpn()
        if key in seen:
            continue
        seen.add(key)
        _add_node(g, p)
        if p.is_over() or d >= depth:
            continue
        if progress is not None:
            progress(solved, g.number_of_nodes())
        a = solve(p, pv=False)
        solved += 1
        g.nodes[key]["value"] = int(a.value)  # graph files take plain ints
        best = {int(m) for m in a.best}
        for mv in a.moves:
            if best_only and int(mv.move) not in best:
                continue
            child = p.copy()
            child.push(mv.move)
            ck = child.bpn()
            if ck not in g:
                if g.number_of_nodes() >= max_nodes:
                    g.graph["truncated"] = True
                    frontier.clear()
                    break
                _add_node(g, child)
                frontier.append((child, d + 1))
            g.add_edge(
                key,
                ck,
                move=str(mv.move),
                player=SEATS[p.turn],
                value=int(mv.value),
                best=int(mv.move) in best,
            )


def _add_node(g: nx.DiGraph[str], p: Position) -> None:
    key = p.bpn()
    if key in g and "value" in g.nodes[key]:
        return
    attrs = dict(
        turn=SEATS[p.turn],
        trick=min(p.trick_number, p.rules.tricks_per_deal),
        score=f"{p.score[0]}:{p.score[1]}",
        over=p.is_over(),
    )
    if p.is_over():
        attrs["value"] = int(p.value())
    else:
        attrs["value"] = int(solve(p, pv=False, every_move=False).value)
    g.add_node(key, **attrs)


def write_tree(g: nx.DiGraph[str], fmt: str, out: BinaryIO) -> None:
    """Write the graph in ``fmt`` (graphml, gexf, json or dot) to a binary stream."""
    import networkx as nx

    if fmt == "graphml":
        nx.write_graphml(g, out)
    elif fmt == "gexf":
        nx.write_gexf(g, out)
    elif fmt == "json":
        data = nx.node_link_data(g, edges="edges")
        out.write(json.dumps(data, indent=1).encode())
    elif fmt == "dot":
        out.write(to_dot(g).encode())
    else:
        raise ArgumentError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}")


def to_dot(g: nx.DiGraph[str]) -> str:
    """Graphviz DOT text (networkx's own writer needs pydot or pygraphviz)."""
    ids = {n: f"n{i}" for i, n in enumerate(g.nodes)}
    lines = ["digraph solution {", '  node [shape=box, fontname="monospace"];']
    for n, a in g.nodes(data=True):
        label = f"{a['turn']} to move, trick {a['trick']}\\nscore {a['score']}\\nvalue {a['value']:+d}"
        style = ", style=bold" if n == g.graph.get("root") else ""
        lines.append(f'  {ids[n]} [label="{label}", tooltip="{n}"{style}];')
    for u, v, a in g.edges(data=True):
        style = ", color=red, penwidth=2" if a.get("best") else ""
        lines.append(f'  {ids[u]} -> {ids[v]} [label="{a["player"]} {a["move"]} {a["value"]:+d}"{style}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = ["FORMATS", "TreeInterrupted", "solution_tree", "to_dot", "write_tree"]
