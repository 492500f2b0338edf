"""Budgets combined with depths, budgets that suffice on game-won deals, and the bounded
JSON answer's schema (each test failed before its fix)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from solver.engine import Limit, Solver, solve
from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import random_position

FINAL = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # +44 for b, exact


@pytest.mark.parametrize(
    "limit", [dict(nodes=500, depth=3), dict(nodes=5, depth=1), dict(seconds=1e-6, depth=3)]
)
def test_a_final_phase_under_a_budget_and_a_depth_is_exact(limit):
    # it answered -17 (the score difference) for every move, "stopped": "depth", depth 0:
    # the one-trick look-ahead was cut short by the budget, and the budget's stop was
    # called the horizon's
    a = solve(FINAL, **limit)
    assert a.exact and a.stopped == "solved" and int(a.value) == 44
    assert {str(m.move): int(m.value) for m in a.moves} == {
        str(m.move): int(m.value) for m in solve(FINAL).moves
    }


def test_a_budget_that_runs_out_before_the_depth_says_so():
    p = random_position(3, "brisque", 1)
    a = solve(p, nodes=300, depth=4)
    # the look-ahead always runs: depth 1 reached; then the budget stopped the deepening
    assert not a.exact and a.stopped == "budget" and a.depth == 1
    d = a.to_dict()
    assert d["stopped"] == "budget" and d["depth"] == 1
    b = solve(p, depth=2)  # no budget: stopped at the horizon asked for
    assert b.stopped == "depth" and b.depth == 2


@pytest.mark.parametrize("seed", [3, 5, 54])
def test_a_budget_that_suffices_is_exact_on_a_game_won_deal(seed):
    # whole deals that b wins outright: the exact solve proves it by its game-win tests;
    # the budgeted one searched each move by MTD(f) from a margin's guess, and with 2.7
    # times the exact nodes (seed 5: 200,000 against 74,419) still had only +-10000
    p = random_position(seed, "brisque", 1)
    exact = Solver(p.rules).solve(p, pv=False)
    a = Solver(p.rules).solve(p, pv=False, limit=Limit(nodes=exact.nodes * 5 // 4))
    assert a.exact and a.value == exact.value, (seed, a.nodes, exact.nodes)
    assert [str(m) for m in a.best] == [str(m) for m in exact.best]
    # the value alone: the exact solve's search of the root, game-win tests first
    one = Solver(p.rules).solve(p, pv=False, every_move=False)
    b = Solver(p.rules).solve(p, pv=False, every_move=False, limit=Limit(nodes=one.nodes * 5 // 4))
    assert b.exact and b.value == exact.value and b.best and b.moves == [], (seed, b.nodes, one.nodes)


def test_a_budget_without_every_move_that_runs_out_gives_proven_bounds():
    for seed, nodes in ((5, 200), (5, 20_000), (3, 60_000)):
        p = random_position(seed, "brisque", 1)
        exact = Solver(p.rules).solve(p, pv=False, every_move=False)
        a = Solver(p.rules).solve(p, pv=False, every_move=False, limit=Limit(nodes=nodes))
        assert not a.exact and a.stopped == "budget" and a.best
        assert a.lower <= exact.value <= a.upper and a.lower <= a.value <= a.upper, (seed, nodes)


def test_every_move_of_a_bounded_answer_has_its_bounds():
    p = random_position(5, "brisque", 1)
    a = solve(p, nodes=30_000)  # some moves proven lost, the others open
    assert not a.exact
    moves = a.to_dict()["moves"]
    assert any(m["exact"] for m in moves) and not all(m["exact"] for m in moves)
    for m in moves:
        assert {"move", "value", "exact", "lower", "upper"} <= set(m), m
        if m["exact"]:
            assert m["lower"] == m["upper"] == m["value"], m
        else:
            assert m["lower"] <= m["value"] <= m["upper"], m
    # an exact answer keeps its moves as they were: move and value
    assert all(set(m) == {"move", "value"} for m in solve(FINAL).to_dict()["moves"])


def test_the_cli_json_of_a_bounded_answer_gives_every_move_its_bounds(tmp_path):
    bpn = random_position(5, "brisque", 1).bpn()
    out = subprocess.run(
        [sys.executable, "-m", "solver.cli", "solve", bpn, "--nodes", "30000", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # (the installed package, not the source tree without its engine)
        check=True,
    ).stdout
    d = json.loads(out)
    assert d["exact"] is False and d["stopped"] == "budget"
    assert all({"exact", "lower", "upper"} <= set(m) for m in d["moves"]), d["moves"]
    proven = [m for m in d["moves"] if m["exact"]]  # (9H and 7C: lost, -10000)
    assert proven and all(m["lower"] == m["upper"] == m["value"] for m in proven), d["moves"]


def _talon_positions(k: int, count: int) -> list[Position]:
    from solver.play.dealing import positions_with_talon_left

    return positions_with_talon_left(k, count, Rules())


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


@pytest.mark.slow
def test_a_budget_that_suffices_gives_the_exact_answer():
    import statistics

    from solver.engine import Limit, Solver

    ratios = []
    for p in _talon_positions(5, 8):
        exact = Solver(p.rules).solve(p, pv=False)
        # a budget a quarter above the exact solve's own nodes: it used to run out (the
        # round robin of sliced tests lost the work of every test cut short)
        a = Solver(p.rules).solve(p, pv=False, limit=Limit(nodes=exact.nodes * 5 // 4))
        assert a.exact and a.value == exact.value, p.bpn()
        assert [str(m) for m in a.best] == [str(m) for m in exact.best]
        ample = Solver(p.rules).solve(p, pv=False, limit=Limit(nodes=10**12))
        ratios.append(ample.nodes / exact.nodes)
    # the same work as the exact solve, but for the zero-window tests' points (each seen
    # from the root, not from the move's position): a few per cent either way
    assert statistics.median(ratios) <= 1.1 and max(ratios) <= 1.25, ratios


@pytest.mark.slow
def test_the_estimate_of_a_tiny_budget_is_a_look_ahead_not_the_score():
    from solver.engine import Limit, Solver

    for p in _talon_positions(6, 4):
        exact = Solver(p.rules).solve(p, pv=False)
        tiny = Solver(p.rules).solve(p, pv=False, limit=Limit(nodes=1))
        look = Solver(p.rules).solve(p, pv=False, limit=Limit(depth=1, guard=False))
        # every move is estimated by the one-trick look-ahead, kept inside what is proven
        assert [int(m.value) for m in tiny.moves] == [int(m.value) for m in look.moves]
        assert tiny.lower <= exact.value <= tiny.upper


def test_moves_that_nothing_known_tells_apart_are_all_best():
    from solver.engine.bounded import _finish
    from solver.native.engine import Engine

    p = Position(GOOD)
    a, b, c = (int(m) for m in p.legal_moves()[:3])
    eng: Engine | None = None
    lo, hi = {a: 5, b: 5, c: -40}, {a: 5, b: 5, c: 3}
    result = _finish(p, lo, hi, {a: 5, b: 5, c: 0}, [a, b, c], None, 0, time.perf_counter(), True, eng)  # type: ignore[arg-type]
    assert [int(m) for m in result.best] == [a, b] and result.method == "bounded"
    # c's upper bound is below the proven 5 of a and b: the value is proven (the bounds meet),
    # though c's is not
    assert result.exact and result.lower == result.upper == result.value
    assert not next(mv for mv in result.moves if int(mv.move) == c).exact


def test_a_budget_without_every_move_that_suffices_is_exact():
    from solver.engine import Limit, Solver

    for p in _talon_positions(5, 3):
        exact = Solver(p.rules).solve(p, every_move=False)
        a = Solver(p.rules).solve(p, every_move=False, limit=Limit(nodes=10**12))
        assert a.exact and a.method == "exact" and a.value == exact.value and a.lower == a.upper == a.value
        assert a.best and a.pv and a.moves == []
