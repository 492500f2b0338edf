"""``solution_tree`` and ``brisque tree``: node and edge values, best edges, transpositions,
the node bound, and every output format read back."""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import time

import networkx as nx
import pytest
from helpers import NOTATION_EXAMPLES, POSITIONS, communicate_or_kill

import solver
from solver.analysis.tree import TreeInterrupted, solution_tree, to_dot, write_tree
from solver.engine.solving import solve
from solver.errors import ArgumentError, PositionError
from solver.formats.bpd import read_bpd
from solver.model.moves import parse_move
from solver.model.position import Position

FP_LED = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"  # a to answer ♦K
FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
# a holds AS AH, b 7S 7H, diamonds trump: AS/7S then AH/7H or the other way round -> same position
TWO_ACES = "brisque A.A../7.7.. D 0 TKQJ98.TKQJ98.ATKQJ987.ATKQJ987 - a 98:0"
# a holds both marriages (hearts, diamonds = trump) and may declare them in either order
TWO_MARRIAGES = "brisque .KQ.KQ./.A7.A7. D 0 ATKQJ987.TJ98.TJ98.ATKQJ987 - a 84:0"
PETITE = "petite .7..7/.A..8 AC 21 AKQ..AKQ. - a 20:16 tricks=2:1"


def reachable(bpn: str, depth: int) -> dict[str, int]:
    """Every position within ``depth`` moves, by plain enumeration: {bpn: shortest distance}."""
    dist = {Position(bpn).bpn(): 0}
    frontier = [Position(bpn)]
    for d in range(1, depth + 1):
        nxt = []
        for p in frontier:
            if p.is_over():
                continue
            for m in p.legal_moves():
                q = p.copy()
                q.push(m)
                if q.bpn() not in dist:
                    dist[q.bpn()] = d
                    nxt.append(q)
        frontier = nxt
    return dist


def node_value(bpn: str) -> int:
    p = Position(bpn)
    return p.value() if p.is_over() else solve(p, pv=False).value


def check_tree(g, bpn: str, depth: int) -> None:
    """Every node and edge of a complete (not truncated) tree against solve()."""
    assert g.graph["truncated"] is False
    root = Position(bpn).bpn()
    assert g.graph["root"] == root
    assert g.graph["root_value"] == solve(Position(bpn)).value
    dist = reachable(bpn, depth)
    assert set(g.nodes) == set(dist)  # each position once, transpositions merged
    for n, attrs in g.nodes(data=True):
        p = Position(n)
        assert attrs["value"] == node_value(n), n
        assert attrs["turn"] == "ab"[p.turn]
        assert attrs["over"] == p.is_over()
        assert attrs["score"] == f"{p.score[0]}:{p.score[1]}"
        out = list(g.out_edges(n, data=True))
        if p.is_over() or dist[n] >= depth:
            assert out == []
            continue
        a = solve(p)
        assert attrs["value"] == a.value
        assert sorted(e[2]["move"] for e in out) == sorted(str(m) for m in p.legal_moves())
        for _, child, e in out:
            m = parse_move(e["move"])
            q = p.copy()
            q.push(m)
            assert child == q.bpn()
            assert e["player"] == "ab"[p.turn]
            assert e["value"] == a.move_value(m)
            assert e["best"] == (e["value"] == attrs["value"])
            cv = g.nodes[child]["value"]  # the child's value, for its own mover
            assert e["value"] == (cv if q.turn == p.turn else -cv)


@pytest.mark.parametrize("bpn,depth", [(FP_LED, 3), (FP, 2), (TWO_ACES, 4), (PETITE, 4)])
def test_tree_values_match_solve(bpn, depth):
    g = solution_tree(bpn, depth=depth)
    check_tree(g, bpn, depth)
    assert g.number_of_nodes() > 1
    assert any(e["best"] for *_, e in g.edges(data=True))


def test_tree_on_collection_endgames():
    for name in ("brisque-endgames.bpd", "briscan-endgames.bpd"):
        rec = read_bpd(str(POSITIONS / name))[0]
        g = solution_tree(rec.bpn, depth=2)
        check_tree(g, rec.bpn, 2)
        assert g.graph["root_value"] == rec.int_op("v")
        best_root = {e["move"] for _, _, e in g.out_edges(rec.bpn, data=True) if e["best"]}
        assert {str(m) for m in rec.moves("bm")} <= best_root


def test_docstring_example():
    g = solution_tree(FP_LED, depth=1)
    assert g.number_of_nodes() == 1 + len(Position(FP_LED).legal_moves())
    assert g.graph["root_value"] == -4
    best = {e["move"] for _, _, e in g.out_edges(FP_LED, data=True) if e["best"]}
    assert best == {str(m) for m in solve(FP_LED).best}


def test_card_play_transposition_is_merged():
    g = solution_tree(TWO_ACES, depth=4)
    merged = [n for n in g if g.in_degree(n) > 1]
    assert len(merged) == 1
    end = merged[0]
    assert Position(end).is_over()
    # reached by AS 7S AH 7H and by AH 7H AS 7S
    paths = sorted(
        tuple(g.edges[u, v]["move"] for u, v in zip(path, path[1:]))
        for path in nx.all_simple_paths(g, TWO_ACES, end)
    )
    assert paths == [("AH", "7H", "AS", "7S"), ("AS", "7S", "AH", "7H")]
    assert list(g.nodes).count(end) == 1
    assert g.number_of_nodes() == len(reachable(TWO_ACES, 4)) == 8
    # a tree that did not merge would have 9 nodes: one more end position
    assert g.number_of_edges() == g.number_of_nodes()


def test_two_marriages_in_either_order_are_one_position():
    """+mH +mD and +mD +mH reach the same position (same hands, same score, the same two
    marriages declared): the tree must hold it once."""
    p1 = Position(TWO_MARRIAGES)
    p1.push(parse_move("+mH"))
    p1.push(parse_move("+mD"))
    p2 = Position(TWO_MARRIAGES)
    p2.push(parse_move("+mD"))
    p2.push(parse_move("+mH"))
    assert p1.hands == p2.hands and p1.score == p2.score and p1.turn == p2.turn
    assert sorted(p1.melds[0]) == sorted(p2.melds[0])
    assert solve(p1).value == solve(p2).value
    g = solution_tree(TWO_MARRIAGES, depth=2)
    after_both = [n for n in g if "melds=" in n and Position(n).score == p1.score]
    assert len(after_both) == 1, f"the same position appears {len(after_both)} times: {after_both}"
    assert g.in_degree(after_both[0]) == 2


def test_best_only_follows_only_best_moves():
    g = solution_tree(FP_LED, depth=3, best_only=True)
    full = solution_tree(FP_LED, depth=3)
    assert g.number_of_nodes() < full.number_of_nodes()
    assert set(g.nodes) <= set(full.nodes)
    assert g.number_of_edges() > 0
    for u, v, e in g.edges(data=True):
        assert e["best"] is True
        assert e["value"] == g.nodes[u]["value"]
        assert full.edges[u, v] == e


def test_node_bound_truncates():
    g = solution_tree(FP, depth=4, max_nodes=12)
    assert g.graph["truncated"] is True
    assert 2 <= g.number_of_nodes() <= 12
    for n, attrs in g.nodes(data=True):  # what is there is still right
        assert attrs["value"] == node_value(n)
    full = solution_tree(FP, depth=4, max_nodes=100000)
    assert full.graph["truncated"] is False
    assert full.number_of_nodes() > 12
    assert set(g.nodes) <= set(full.nodes)


def test_exact_bound_is_not_truncation():
    n = solution_tree(FP_LED, depth=1).number_of_nodes()
    g = solution_tree(FP_LED, depth=1, max_nodes=n)
    assert g.graph["truncated"] is False and g.number_of_nodes() == n
    g = solution_tree(FP_LED, depth=1, max_nodes=n - 1)
    assert g.graph["truncated"] is True and g.number_of_nodes() <= n - 1


def test_hidden_cards_are_refused():
    with pytest.raises(PositionError):
        solution_tree("brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1")


# ---------------------------------------------------------------------------- formats
def parse_dot(text: str) -> tuple[set[str], list[tuple[str, str, str]]]:
    assert text.startswith("digraph") and text.rstrip().endswith("}")
    nodes = set(re.findall(r"^\s*(n\d+) \[label=", text, re.M))
    edges = re.findall(r'^\s*(n\d+) -> (n\d+) \[label="([^"]*)"', text, re.M)
    return nodes, edges


def read_back(fmt: str, data: bytes):
    if fmt == "graphml":
        return nx.read_graphml(io.BytesIO(data))
    if fmt == "gexf":
        return nx.read_gexf(io.BytesIO(data))
    if fmt == "json":
        return nx.node_link_graph(json.loads(data.decode()), edges="edges")
    raise AssertionError(fmt)


@pytest.fixture(scope="module")
def small_tree():
    return solution_tree(FP_LED, depth=2)


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json"])
def test_formats_read_back_with_networkx(small_tree, fmt):
    g = small_tree
    buf = io.BytesIO()
    write_tree(g, fmt, buf)
    h = read_back(fmt, buf.getvalue())
    assert h.number_of_nodes() == g.number_of_nodes()
    assert h.number_of_edges() == g.number_of_edges()
    assert h.is_directed()
    assert set(h.nodes) == set(g.nodes)
    for n, attrs in g.nodes(data=True):
        assert int(h.nodes[n]["value"]) == attrs["value"]
    for u, v, e in g.edges(data=True):
        assert h.edges[u, v]["move"] == e["move"]
        assert int(h.edges[u, v]["value"]) == e["value"]
        assert bool(h.edges[u, v]["best"]) == e["best"]


def test_dot_format(small_tree):
    g = small_tree
    buf = io.BytesIO()
    write_tree(g, "dot", buf)
    text = buf.getvalue().decode()
    assert text == to_dot(g)
    nodes, edges = parse_dot(text)
    assert len(nodes) == g.number_of_nodes()
    assert len(edges) == g.number_of_edges()
    assert {u for u, _, _ in edges} | {v for _, v, _ in edges} <= nodes
    labels = sorted(lbl for *_, lbl in edges)
    assert labels == sorted(f"{e['player']} {e['move']} {e['value']:+d}" for *_, e in g.edges(data=True))
    assert text.count("color=red") == sum(1 for *_, e in g.edges(data=True) if e["best"])


def test_unknown_format_is_refused(small_tree):
    with pytest.raises(ValueError):
        write_tree(small_tree, "svg", io.BytesIO())


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json", "dot"])
def test_cli_tree_every_format_to_a_file(invoke, tmp_path, fmt):
    out = tmp_path / f"t.{fmt}"
    res = invoke("tree", FP_LED, "--depth", 2, "--format", fmt, "-o", out)
    assert res.exit_code == 0, res.stderr
    g = solution_tree(FP_LED, depth=2)
    data = out.read_bytes()
    if fmt == "dot":
        nodes, edges = parse_dot(data.decode())
        assert (len(nodes), len(edges)) == (g.number_of_nodes(), g.number_of_edges())
    else:
        h = read_back(fmt, data)
        assert (h.number_of_nodes(), h.number_of_edges()) == (g.number_of_nodes(), g.number_of_edges())
    assert f"{g.number_of_nodes()} nodes, {g.number_of_edges()} edges written to {out}" in res.stderr
    assert "truncated" not in res.stderr
    assert res.stdout == ""


def test_cli_tree_to_stdout(invoke):
    res = invoke("tree", FP_LED, "--depth", 1, "--format", "json")
    assert res.exit_code == 0, res.stderr
    h = nx.node_link_graph(json.loads(res.stdout), edges="edges")
    assert h.number_of_nodes() == 1 + len(Position(FP_LED).legal_moves())
    assert res.stderr == ""


def test_cli_tree_truncation_message(invoke):
    res = invoke("tree", FP, "--depth", 4, "--max-nodes", 10, "--format", "graphml")
    assert res.exit_code == 0
    assert "truncated" in res.stderr and "10" in res.stderr
    h = nx.read_graphml(io.BytesIO(res.stdout_bytes))
    assert h.number_of_nodes() <= 10
    assert h.graph.get("truncated") in (True, "True", "true")


def test_cli_tree_refuses_hidden_cards(invoke):
    res = invoke("tree", "brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1")
    assert res.exit_code == 2
    assert "every card known" in res.stderr


# ---------------------------------------------------------------- Ctrl-C keeps the tree so far
class _Stop:
    """A progress callback that presses Ctrl-C before the ``n``-th solve."""

    def __init__(self, n: int):
        self.n = n

    def __call__(self, solved: int, nodes: int) -> None:
        if solved == self.n:
            raise KeyboardInterrupt


def test_an_interrupted_tree_holds_the_positions_valued_so_far():
    full = solution_tree(FP, depth=4, max_nodes=100000)
    with pytest.raises(TreeInterrupted) as info:
        solution_tree(FP, depth=4, max_nodes=100000, progress=_Stop(3))
    g = info.value.graph
    assert isinstance(info.value, KeyboardInterrupt)
    assert g.graph["interrupted"] is True and full.graph["interrupted"] is False
    assert 2 < g.number_of_nodes() < full.number_of_nodes()
    assert set(g.nodes) <= set(full.nodes) and set(g.edges) <= set(full.edges)
    assert g.graph["root_value"] == full.graph["root_value"]
    for n, attrs in g.nodes(data=True):
        assert attrs["value"] == full.nodes[n]["value"]


def test_an_interrupt_before_the_first_expansion_keeps_the_root_and_its_value():
    with pytest.raises(TreeInterrupted) as info:
        solution_tree(FP, depth=2, progress=_Stop(0))
    g = info.value.graph
    assert list(g.nodes) == [Position(FP).bpn()] and g.graph["root_value"] == node_value(FP)


@pytest.mark.slow
def test_brisque_tree_writes_the_tree_so_far_on_ctrl_c(tmp_path):
    """The real command, a SIGINT three seconds into a tree of minutes: the graph so far on
    standard output (read back by networkx), a message, exit 130, no traceback."""

    bpn = "brisque K.J8.9.AQ/A.K.AK.97 TD TC9SJS TQ87.ATQ97.QJ87.KJ8 - b 41:7 tricks=4:4"
    cmd = [sys.executable, "-m", "solver.cli", "tree", bpn, "--depth", "10", "--max-nodes", "1000000"]
    proc = subprocess.Popen(
        [*cmd, "--format", "json", "-q"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    time.sleep(3)
    assert proc.poll() is None, "the tree ended before the interrupt"
    proc.send_signal(signal.SIGINT)
    out, err = communicate_or_kill(proc, 60)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert b"interrupted: the tree holds the" in err
    data = json.loads(out)
    assert data["graph"]["interrupted"] is True
    g = nx.node_link_graph(data, edges="edges")
    assert g.number_of_nodes() > 1
    for n, attrs in list(g.nodes(data=True))[:30]:
        assert attrs["value"] == node_value(n)


FINAL = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


def test_the_tree_format_follows_the_output_extension(invoke, tmp_path):
    heads = {"dot": "digraph", "graphml": "<?xml", "json": "{", "gexf": "<?xml"}
    for ext, head in heads.items():
        out = tmp_path / f"tree.{ext}"
        r = invoke("tree", FINAL, "-o", out, "-q")
        assert r.exit_code == 0, r.output
        text = out.read_text(encoding="utf-8")
        assert text.startswith(head), (ext, text[:40])
        assert ("<gexf" in text) == (ext == "gexf") and ("<graphml" in text) == (ext == "graphml")
    other = tmp_path / "tree.txt"  # (an extension that names no format: graphml, as before)
    assert invoke("tree", FINAL, "-o", other, "-q").exit_code == 0 and "<graphml" in other.read_text()
    same = tmp_path / "same.dot"
    assert invoke("tree", FINAL, "-o", same, "--format", "dot", "-q").exit_code == 0


def test_a_tree_format_contradicting_the_extension_is_refused(invoke, tmp_path):
    out = tmp_path / "tree.dot"
    r = invoke("tree", FINAL, "-o", out, "--format", "graphml")
    assert r.exit_code == 2 and "--format graphml contradicts the extension" in r.stderr, r.output
    assert not out.exists()
    assert "extension" in invoke("tree", "--help").stdout


@pytest.mark.parametrize(
    "kwargs",
    [
        {"depth": 0},
        {"depth": -1},
        {"depth": 1.5},
        {"depth": "2"},
        {"depth": 10**20},
        {"max_nodes": 1},
        {"max_nodes": 1.5},
    ],
)
def test_solution_tree_checks_depth_and_max_nodes(kwargs):
    # depth=0, -1 and 1.5 gave a tree silently, depth="2" a bare TypeError
    ((name, value),) = kwargs.items()
    with pytest.raises(ArgumentError, match=f"{name}="):
        solver.solution_tree(FP, **kwargs)


def test_tree_depth_has_an_upper_end(brisque):
    r = brisque("tree", NOTATION_EXAMPLES[0], "--depth", "99999999999999999999")
    assert r.returncode == 2 and "is not a whole number from 1 to 1000" in r.stderr, r.stderr
