"""``solve_chance``: the compiled expectimax of a face-down talon, every draw a chance event.
Held to the reference expectimax (solver.engine.reference_chance) move by move, its best
moves and its line up to the next draw checked, its budgets and Ctrl-C keeping only exact
values, and what it refuses refused."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import solver
from solver.engine import Analysis, ChanceAnalysis, ChanceInterrupted, solve, solve_chance
from solver.engine.chance_solving import MAX_FACE_DOWN, laid_out
from solver.engine.reference_chance import expectimax_values
from solver.errors import ArgumentError, HiddenInformationError
from solver.model.position import Position
from solver.native.constants import WIN_RAW
from solver.play.dealing import positions_with_talon_left

GAMES = ("brisque", "briscan")
# docs/solver.md, "The talon as chance": b leads a heart, not the clairvoyant's spade
WORKED = "brisque AJ.KQ.7.8/T87.A87.. JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1"
# a declares the four queens whatever the draws: a game won outright
FOUR_QUEENS = "brisque Q9.Q.Q.Q8/T7.J.TK9. KH 3 AKJ8.T987.J87.TKJ97 - a 6:39 tricks=2:6"


def face_down(p: Position) -> Position:
    """``p`` with its talon face down (a count in BPN), both hands still open."""
    q = p.copy()
    q.talon = None
    return Position(q.bpn())


def chance_answer(p: Position | str, **kwargs: object) -> ChanceAnalysis:
    a = solve_chance(p, **kwargs)  # type: ignore[arg-type]
    assert isinstance(a, ChanceAnalysis)
    return a


def assert_line_stops_at_the_draw(p: Position, a: ChanceAnalysis) -> None:
    """The principal variation draws face-down cards at its last move, never before."""
    q = laid_out(p)
    counts = [q.talon_count]
    for m in a.pv:
        assert m in q.legal_moves(), (p.bpn(), a.pv)
        q.push(m)
        counts.append(q.talon_count)
    assert a.pv_ends == "draw" and counts[-1] < counts[-2] and len(set(counts[:-1])) == 1, (p.bpn(), a.pv)


@pytest.mark.parametrize("game", GAMES)
def test_every_move_is_the_reference_expectimax(game):
    for p in map(face_down, positions_with_talon_left(2, 30, game)):
        a = chance_answer(p)
        reference = expectimax_values(p)
        assert {str(mv.move): mv.value for mv in a.moves} == reference, p.bpn()
        assert a.value == max(reference.values())
        assert {str(m) for m in a.best} == {m for m, v in reference.items() if v == a.value}
        assert a.exact and a.stopped == "solved" and a.method == "expectimax" and a.face_down == 3
        assert a.pv[0] in a.best
        assert_line_stops_at_the_draw(p, a)


def test_the_worked_example_of_the_docs():
    a = chance_answer(WORKED)
    assert a.value == -74 and [str(m) for m in a.best] == ["7H", "8H"]
    assert a.move_value("7S") == a.move_value("TS") == Fraction(-260, 3)
    assert a.move_value("AH") == -102
    assert a.win is None and a.bpn == WORKED and a.turn == "b"
    assert_line_stops_at_the_draw(Position(WORKED), a)
    # the clairvoyant, knowing the order Q A 7, would lead a spade
    clairvoyant = solve(Position(WORKED.replace(" 3 ", " QCAC7C ")))
    assert {str(m) for m in clairvoyant.best} == {"7S", "8S", "TS"}


def test_the_json_answer():
    d = json.loads(chance_answer(WORKED).to_json())
    assert d["method"] == "expectimax" and d["value"] == -74 and d["value_exact"] == "-74"
    assert d["best"] == ["7H", "8H"] and d["pv_ends"] == "draw" and d["pv"][0] == "7H"
    moves = {m["move"]: m for m in d["moves"]}
    assert moves["7S"] == {"move": "7S", "value": -86.667, "value_exact": "-260/3"}
    assert [m["move"] for m in d["moves"]] == [str(m) for m in Position(WORKED).legal_moves()]
    assert d["exact"] is True and d["stopped"] == "solved" and d["win"] is None and d["face_down"] == 3
    assert isinstance(d["nodes"], int) and d["nodes"] > 0


def test_a_game_won_whatever_the_draws_counts_win_raw():
    a = chance_answer(FOUR_QUEENS)
    assert a.value == WIN_RAW and a.win == "a" and [str(m) for m in a.best] == ["+kQ"]
    assert [str(m) for m in a.pv] == ["+kQ"] and a.pv_ends == "end"
    assert expectimax_values(Position(FOUR_QUEENS))["+kQ"] == WIN_RAW


def test_the_value_alone_and_one_best_move():
    for p in map(face_down, positions_with_talon_left(2, 5, "brisque", first_seed=50)):
        full = chance_answer(p)
        alone = chance_answer(p, every_move=False, pv=False)
        assert alone.value == full.value and alone.exact and alone.moves == [] and alone.pv == []
        assert len(alone.best) == 1 and alone.best[0] in full.best and alone.best[0] == full.best[0]


def test_a_budget_keeps_only_exact_values():
    p = Position(WORKED)
    reference = expectimax_values(p)
    nodes_after: dict[int, int] = {}
    full = chance_answer(p, nodes=10**8, progress=lambda done, _, nodes: nodes_after.setdefault(done, nodes))
    assert full.stopped == "solved" and full.exact and full.value == -74 and full.pv_ends == "draw"
    for nodes in (1, nodes_after[1] + 1, nodes_after[4] + 1):
        a = chance_answer(p, nodes=nodes)
        assert a.stopped == "budget" and not a.exact and a.pv == [] and a.pv_ends is None
        valued = {str(mv.move): mv.value for mv in a.moves if mv.value is not None}
        assert all(reference[m] == v for m, v in valued.items())
        assert a.value == (max(valued.values()) if valued else None)
        assert {str(m) for m in a.best} == {m for m, v in valued.items() if v == a.value}
        assert a.to_dict()["moves"][-1] == {"move": "AH", "value": None, "value_exact": None}
        assert len(valued) < 6 and (len(valued) > 0) == (nodes > 1)
    # an aborted search leaves nothing wrong behind in the tables
    assert {str(mv.move): mv.value for mv in chance_answer(p).moves} == reference


def test_ctrl_c_keeps_the_moves_valued():
    calls = []

    def progress(done: int, total: int, nodes: int) -> None:
        calls.append((done, total))
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(ChanceInterrupted) as stop:
        solve_chance(WORKED, progress=progress)
    a = stop.value.analysis
    assert sorted(set(calls)) == [(0, 6), (1, 6), (2, 6)]  # (a tick may say one twice)
    assert a.stopped == "interrupted" and not a.exact
    assert [mv.value for mv in a.moves][:3] == [Fraction(-260, 3), Fraction(-260, 3), None]
    assert isinstance(stop.value, KeyboardInterrupt)


def test_no_chance_left_is_the_double_dummy_answer():
    for p in positions_with_talon_left(1, 5, "briscan"):
        hidden = face_down(p)
        a = solve_chance(hidden)
        assert isinstance(a, Analysis) and a.method == "exact" and a.bpn == hidden.bpn()
        assert a.to_dict()["moves"] == solve(p).to_dict()["moves"]
    known = positions_with_talon_left(2, 1, "brisque")[0]  # the talon's order known
    assert solve_chance(known).to_dict() | {"nodes": 0, "seconds": 0} == solve(known).to_dict() | {
        "nodes": 0,
        "seconds": 0,
    }


def test_what_it_refuses():
    view = positions_with_talon_left(2, 1, "brisque")[0].view("a")
    with pytest.raises(HiddenInformationError, match="brisque analyse"):
        solve_chance(view)
    (deep,) = map(face_down, positions_with_talon_left(9, 1, "brisque"))
    assert deep.talon_count == MAX_FACE_DOWN + 2
    with pytest.raises(HiddenInformationError, match=r"at most 15 face-down cards.*brisque analyse"):
        solve_chance(deep)
    (fifteen,) = map(face_down, positions_with_talon_left(8, 1, "brisque"))
    assert chance_answer(fifteen, nodes=2000).stopped == "budget"  # (taken, within a budget)
    with pytest.raises(ArgumentError, match="not a depth"):
        solve_chance(WORKED, limit=solver.Limit(depth=2))
    with pytest.raises(ArgumentError, match="one way"):
        solve_chance(WORKED, limit=solver.Limit(nodes=10), nodes=10)


def test_solve_points_a_face_down_talon_to_solve_chance():
    with pytest.raises(HiddenInformationError, match="solve_chance"):
        solve(WORKED)
