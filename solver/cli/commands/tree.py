"""``brisque tree BPN``: the solution tree as a graph file (GraphML, GEXF, JSON, dot)."""

from __future__ import annotations

import os
import sys

import click

from solver.analysis.tree import TreeInterrupted, solution_tree, write_tree
from solver.cli.exits import BrisqueCommandError, interrupted_exit, unwritable
from solver.cli.inputs import read_position
from solver.cli.options import WholeNumber, output_option, quiet_option, shown_option
from solver.cli.output import StatusLine, on_terminal, writable_file
from solver.errors import PositionError
from solver.formats.words import plural
from solver.model.ranges import MAX_PLIES, MAX_TREE_NODES

TREE_FORMATS = ["graphml", "gexf", "json", "dot"]  # (brisque tree --format; -o FILE.EXT names one)


@click.command("tree")
@click.argument("bpn")
@shown_option("--depth", WholeNumber(1, MAX_PLIES), 2, "Moves (plies) below the position.")
@shown_option(
    "--max-nodes",
    WholeNumber(2, MAX_TREE_NODES),
    2000,
    "Stop expanding at this many nodes (a message on standard error says so).",
)
@click.option("--best-only", is_flag=True, help="Follow only the best moves.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(TREE_FORMATS),
    default=None,
    help="Gephi opens graphml/gexf, Graphviz dot.  Default: from the -o file's extension "
    "(.graphml, .gexf, .json, .dot), else graphml; a --format that contradicts the extension "
    "is refused.",
)
@output_option("Write to this file instead of standard output.")
@quiet_option()
def tree_cmd(
    bpn: str, depth: int, max_nodes: int, best_only: bool, fmt: str, output: str | None, quiet: bool
) -> None:
    """Write the solution tree of BPN as a graph: positions with their values, moves as
    edges with each move's value, the best moves marked, transpositions merged.

    Every position above the last level is solved exactly, every move: in the last
    talon tricks and the final phase that takes moments, from a whole deal or an early
    trick minutes a position (the same time as brisque solve of it), and --depth 2
    solves some ten positions.  A terminal shows the positions solved so far; Ctrl-C
    writes the tree built so far (every position in it valued) and exits 130.

    \b
    Examples:
      brisque tree "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35" --format dot | dot -Tsvg
      brisque tree "$(brisque deal --seed 2 --at 13)" --depth 4 -o tree.graphml
    """
    fmt = _tree_format(fmt, output)
    if output:
        writable_file(output, "tree")

    p = read_position(bpn, command="tree")
    progress = StatusLine(on_terminal(quiet))
    interrupted = False
    try:
        g = solution_tree(
            p,
            depth=depth,
            max_nodes=max_nodes,
            best_only=best_only,
            progress=lambda solved, nodes: progress.show(
                f"solving position {solved + 1} ({plural(nodes, 'position')} in the tree so far)"
            ),
        )
    except PositionError as exc:
        raise BrisqueCommandError(str(exc)) from None
    except TreeInterrupted as stop:  # Ctrl-C: the tree built so far is written, then exit 130
        g, interrupted = stop.graph, True
    finally:
        progress.clear()
    if g.graph["truncated"]:
        click.echo(
            f"tree truncated at {g.number_of_nodes()} nodes (--max-nodes {max_nodes}); "
            f"raise it or lower --depth",
            err=True,
        )
    if output:
        try:
            with open(output, "wb") as f:
                write_tree(g, fmt, f)
        except OSError as exc:  # (a full disk: the file named, not a traceback)
            raise unwritable("tree", output, exc) from None
        nodes, edges = plural(g.number_of_nodes(), "node"), plural(g.number_of_edges(), "edge")
        click.echo(f"{nodes}, {edges} written to {output}", err=True)
    else:
        write_tree(g, fmt, sys.stdout.buffer)
        sys.stdout.flush()
    if interrupted:
        click.echo(
            f"interrupted: the tree holds the {plural(g.number_of_nodes(), 'position')} valued so far "
            f"(graph attribute interrupted)",
            err=True,
        )
        interrupted_exit()


def _tree_format(fmt: str | None, output: str | None) -> str:
    """The format of ``brisque tree``: ``--format``, else the one the ``-o`` file's extension
    names, else graphml; a ``--format`` the extension contradicts is refused (a tree.dot
    holding GraphML would fail in Graphviz, far from its cause)."""
    ext = os.path.splitext(output or "")[1].lower().lstrip(".")
    named = ext if ext in TREE_FORMATS else None
    if fmt is None:
        return named or "graphml"
    if named is not None and named != fmt:
        raise BrisqueCommandError(
            f"--format {fmt} contradicts the extension of -o {output!r} (a .{ext} file holds {named}): "
            f"give -o with a .{fmt} extension, or leave --format out to write {named}"
        )
    return fmt
