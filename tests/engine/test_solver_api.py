"""Properties of the public solver API: solve, solve_batch, can_reach, Solver, Analysis."""

from __future__ import annotations

import itertools
import json
import math
import random
import re

import pytest

import solver
from solver import errors
from solver.engine.results import Analysis, Limit
from solver.engine.solving import Solver, can_reach, solve, solve_batch
from solver.errors import (
    ArgumentError,
    ArgumentTypeError,
    HiddenInformationError,
    IllegalMoveError,
    PositionError,
)
from solver.model.position import Position
from solver.model.ranges import (
    MAX_SECONDS,
    MAX_TABLE_BITS,
    MIN_TABLE_BITS,
)
from solver.model.rules import Rules
from solver.model.value import Value
from solver.play.dealing import mixed_final_phase, random_position
from solver.play.match import run_match

NOTATION_KEYS = {"bpn", "turn", "method", "value", "best", "moves", "pv", "win", "nodes", "seconds"}
NOTATION_JSON = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"
HIDDEN = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
FOUR_KINGS = "brisque K.K.K.K/87..7.7 S 0 ATQJ9.ATQJ987.ATQJ98.ATQJ98 - a 60:44"
QUARTET_AGAINST = "brisque K.K7.K.K/Q.9.87.QJ S 0 TJ987.ATQJ8.ATQJ9.AT987 AS b 45:40"


def final_phase(game: str, n: int, first: int = 0) -> list[Position]:
    out, seed = [], first
    while len(out) < n:
        p = mixed_final_phase(seed, game)
        seed += 1
        if not p.is_over():
            out.append(p)
    return out


def talon_phase(game: str, trick: int, n: int, first: int = 0) -> list[Position]:
    """Double-dummy positions from trick ``trick``; every other one with a card led."""
    out, seed = [], first
    while len(out) < n:
        p = random_position(seed, game, trick)
        if seed % 2 and not p.is_over() and not p.in_window:
            rng = random.Random(seed)
            while p.trick < 0 and not p.is_over():
                p.push(rng.choice(p.legal_moves()))
            p.clear_stack()
        seed += 1
        if not p.is_over():
            out.append(p)
    return out


def windows(n: int) -> list[Position]:
    out, seed = [], 0
    while len(out) < n:
        p = random_position(seed, "brisque", 11)
        seed += 1
        if p.in_window:
            out.append(p)
    return out


def sample(game: str) -> list[Position]:
    """A mixed sample of one game: final phase, one talon trick left, deeper talon positions."""
    if game == "petite":
        return final_phase("petite", 200)
    talon_trick, deep = (10, 7) if game == "brisque" else (11, 8)
    extra = windows(10) if game == "brisque" else []
    return (
        final_phase(game, 150)
        + talon_phase(game, talon_trick, 20, 100)
        + talon_phase(game, deep, 6, 200)
        + extra
    )


def answer(a: Analysis) -> tuple:
    return a.value, a.win, {str(m.move): m.value for m in a.moves}, sorted(str(m) for m in a.best)


def quartet_positions() -> list[Position]:
    """Positions whose value is a game win for the mover (+10000) or for his opponent."""
    wins = [p for p in final_phase("brisque", 300) if solve(p).value.won][:15]
    return wins + [Position(FOUR_KINGS), Position(QUARTET_AGAINST)]


# ----------------------------------------------------------------------------- Analysis
def test_to_dict_has_the_notation_keys():
    a = solve(NOTATION_JSON)
    d = a.to_dict()
    assert set(d) == NOTATION_KEYS
    assert d["bpn"] == NOTATION_JSON and d["turn"] == "a" and d["method"] == "exact"
    assert d["value"] == -4 and d["win"] is None
    assert isinstance(d["nodes"], int) and d["nodes"] > 0
    assert isinstance(d["seconds"], float) and d["seconds"] >= 0
    assert all(isinstance(m, str) for m in d["best"] + d["pv"])
    assert all(set(m) == {"move", "value"} for m in d["moves"])
    assert {m["move"]: m["value"] for m in d["moves"]}["AS"] == -18
    assert json.loads(a.to_json()) == d


def test_to_dict_of_a_win_names_the_winner():
    d = solve(FOUR_KINGS).to_dict()
    assert d["value"] == 10000 and d["win"] == "a" and d["best"] == ["+kK"]
    d = solve(QUARTET_AGAINST).to_dict()
    assert d["turn"] == "b" and d["value"] == -10000 and d["win"] == "a"


def test_move_value_and_best():
    a = solve(NOTATION_JSON)
    assert a.move_value("AS") == -18
    assert a.move_value(solver.parse_move("KS")) == -4
    with pytest.raises(IllegalMoveError):
        a.move_value("KD")
    assert a.value == max(mv.value for mv in a.moves)
    assert {str(m) for m in a.best} == {str(mv.move) for mv in a.moves if mv.value == a.value}


# ----------------------------------------------------------------------------- principal variation
def play_out(p: Position, line) -> Position:
    q = p.copy()
    for m in line:
        q.push(m)  # checked push: every move of the line is legal
    return q


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_principal_variation_reaches_the_end_with_the_value(game):
    for p in sample(game):
        a = solve(p)
        assert a.pv, p.bpn()
        assert a.pv[0] in a.best, p.bpn()
        end = play_out(p, a.pv)
        assert end.is_over(), (p.bpn(), [str(m) for m in a.pv])
        assert end.value(p.turn) == a.value, (p.bpn(), [str(m) for m in a.pv])
        if a.win is not None:
            assert end.outcome().win == "ab".index(a.win)


@pytest.mark.parametrize(
    "rules",
    [
        "brisque(quartet_win=deal)",
        "brisque(one_declaration_per_turn=yes)",
        "petite(objective=margin)",
        "brisque(exchange_points=10)",
    ],
)
def test_principal_variation_with_options(rules):
    for p in final_phase(rules, 40, 900):
        a = solve(p)
        end = play_out(p, a.pv)
        assert end.is_over() and end.value(p.turn) == a.value, p.bpn()


def test_principal_variation_of_a_win():
    for p in quartet_positions():
        a = solve(p)
        end = play_out(p, a.pv)
        assert end.is_over() and end.value(p.turn) == a.value, p.bpn()
        assert abs(a.value) == 10000 and end.outcome().win is not None


@pytest.mark.slow
@pytest.mark.parametrize(
    "game,tricks", [("brisque", (6, 7, 8, 9)), ("briscan", (7, 8, 9, 10)), ("petite(draw=yes)", (8, 10))]
)
def test_move_values_are_the_values_of_the_positions_they_lead_to(game, tricks):
    """Deep in the talon phase, out of the reference's reach: each move's value equals the
    value of the position after it (negated when the turn passes), and the position's
    value is the best of them."""
    for trick in tricks:
        for p in talon_phase(game, trick, 6, 10 * trick):
            a = solve(p)
            for mv in a.moves:
                q = p.apply(mv.move)
                if q.is_over():
                    after = q.value(p.turn)
                else:
                    v = solve(q).value
                    after = v if q.turn == p.turn else -v
                assert after == mv.value, (p.bpn(), str(mv.move))
            assert a.value == max(mv.value for mv in a.moves)


# ----------------------------------------------------------------------------- batch and reach
@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_solve_batch_equals_solve(game):
    ps = sample(game)
    singles = [solve(p).value for p in ps]
    assert solve_batch(ps) == singles
    assert solve_batch([p.bpn() for p in ps[:20]]) == singles[:20]  # BPN strings too
    assert solve_batch([]) == []


def test_solve_batch_of_wins():
    ps = quartet_positions()
    assert solve_batch(ps) == [solve(p).value for p in ps]
    assert 10000 in solve_batch(ps) and -10000 in solve_batch(ps)


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_can_reach_the_value_and_not_more(game):
    for p in sample(game):
        v = solve(p).value
        assert can_reach(p, v), (p.bpn(), v)
        assert can_reach(p, v - 1), (p.bpn(), v)
        assert not can_reach(p, v + 1), (p.bpn(), v)


def test_can_reach_wins_and_losses():
    positions = quartet_positions()
    values = [solve(p).value for p in positions]
    assert 10000 in values and -10000 in values
    for p, v in zip(positions, values):
        assert can_reach(p, v) and not can_reach(p, v + 1), (p.bpn(), v)
    # a won game: every target up to 10000 is reachable
    assert can_reach(FOUR_KINGS, 10000) and can_reach(FOUR_KINGS, 500) and not can_reach(FOUR_KINGS, 10001)
    # a lost game: nothing above -10000 is
    assert can_reach(QUARTET_AGAINST, -10000)
    assert not can_reach(QUARTET_AGAINST, -9999) and not can_reach(QUARTET_AGAINST, -500)


def test_solver_value_and_every_move_false_agree():
    s = Solver(Rules.parse("briscan"))
    for p in final_phase("briscan", 40, 500):
        a = s.solve(p)
        assert s.value(p) == a.value
        assert s.solve(p, every_move=False, pv=False).value == a.value
        assert s.can_reach(p, a.value) and not s.can_reach(p, a.value + 1)


# ----------------------------------------------------------------------------- the table
@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_answers_do_not_depend_on_the_table_size(game):
    for p in sample(game):
        big = solve(p, table_bits=20)
        small = solve(p, table_bits=8)
        assert answer(small) == answer(big), p.bpn()
        end = play_out(p, small.pv)  # the PV of a small, crowded table still holds
        assert end.is_over() and end.value(p.turn) == small.value, p.bpn()


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_answers_do_not_depend_on_what_the_table_held(game):
    ps = sample(game)
    rules = ps[0].rules
    for bits in (10, 20):
        s = Solver(rules, table_bits=bits)
        first = [answer(s.solve(p)) for p in ps[:10]]
        for p in reversed(ps):  # fill the table with other positions
            s.solve(p)
        again = [answer(s.solve(p)) for p in ps[:10]]
        assert again == first
        fresh = [answer(Solver(rules, table_bits=bits).solve(p)) for p in ps[:10]]
        assert fresh == first
    # batches share one table: the same values whatever the order
    values = solve_batch(ps)
    assert solve_batch(list(reversed(ps))) == list(reversed(values))


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_bounded_searches_leave_the_exact_answer_unchanged(game):
    """Budgeted and depth-limited solves share the table; an exact solve afterwards gives
    the fresh answer, and the bounds they reported hold the exact values."""
    ps = sample(game)[::4]
    rules = ps[0].rules
    s = Solver(rules, table_bits=14)
    for p in ps:
        exact = answer(Solver(rules, table_bits=14).solve(p))
        for limit in (Limit(depth=1), Limit(nodes=400), Limit(depth=2), Limit(nodes=5000)):
            b = s.solve(p, limit=limit)
            moves = exact[2]
            for mv in b.moves:
                if mv.lower is not None and mv.upper is not None:
                    assert mv.lower <= moves[str(mv.move)] <= mv.upper, (p.bpn(), limit, str(mv.move))
            if b.lower is not None and b.upper is not None:
                assert b.lower <= exact[0] <= b.upper, (p.bpn(), limit)
        assert answer(s.solve(p)) == exact, p.bpn()


def test_a_solver_refuses_other_rules():
    s = Solver(Rules.parse("brisque"))
    with pytest.raises(PositionError):
        s.solve(Position("petite .7..7/.A..8 AC 21 AKQ..AKQ. - a 20:16 tricks=2:1"))


def test_solve_batch_refuses_mixed_rules():
    with pytest.raises(PositionError):
        solve_batch([NOTATION_JSON, "petite .7..7/.A..8 AC 21 AKQ..AKQ. - a 20:16 tricks=2:1"])


# ----------------------------------------------------------------------------- reference engine
@pytest.mark.slow
@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_reference_engine_gives_the_same_analysis(game):
    for p in final_phase(game, 12, 3000) + [Position(NOTATION_JSON)] * (game == "brisque"):
        native, ref = solve(p), solve(p, engine="reference")
        assert answer(ref) == answer(native), p.bpn()
        assert ref.method == "exact" and ref.turn == native.turn and ref.bpn == native.bpn
        end = play_out(p, ref.pv)
        assert end.is_over() and end.value(p.turn) == ref.value, p.bpn()


@pytest.mark.slow
def test_reference_engine_on_wins_and_one_talon_trick():
    ps = [Position(FOUR_KINGS), Position(QUARTET_AGAINST), windows(1)[0]]
    ps += talon_phase("briscan", 11, 2, 100)
    for p in ps:
        assert answer(solve(p, engine="reference")) == answer(solve(p)), p.bpn()


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="engine"):
        solve(NOTATION_JSON, engine="fast")


# ----------------------------------------------------------------------------- errors
def hidden_positions() -> list[Position]:
    views = [
        random_position(seed, game, trick).view(who)
        for seed, game, trick, who in [(1, "brisque", 4, "a"), (2, "brisque", 9, "b"), (3, "briscan", 6, "a")]
    ]
    for v in views:
        assert v.has_hidden and v.turnup >= 0 and v.talon_count > 0
    return [Position(HIDDEN)] + views


@pytest.mark.parametrize("engine", ["native", "reference"])
def test_hidden_cards_need_the_sampling_analysis(engine):
    for p in hidden_positions():
        with pytest.raises(solver.HiddenInformationError) as err:
            solve(p, engine=engine)
        assert "sampling" in str(err.value), str(err.value)
        assert p.bpn() in str(err.value)
    with pytest.raises(HiddenInformationError, match="sampling"):
        solve(HIDDEN)  # a BPN string as well


def test_hidden_cards_in_batch_and_reach():
    with pytest.raises(HiddenInformationError, match="sampling"):
        can_reach(HIDDEN, 0)
    with pytest.raises(HiddenInformationError, match="sampling"):
        solve_batch([HIDDEN])


IMPOSSIBLE = [
    # AS in both hands
    "brisque AK9.97..9/A..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
    # a has one card too many (7C taken from out)
    "brisque AK9.97..97/7..KQ9.A D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
    # the scores do not add up to the card points out
    "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:36",
]


@pytest.mark.parametrize("bpn", IMPOSSIBLE)
def test_impossible_position_raises_position_error(bpn):
    p = Position(bpn)
    assert p.problems()
    with pytest.raises(solver.PositionError) as err:
        solve(p)
    assert not isinstance(err.value, HiddenInformationError)
    assert "impossible" in str(err.value)
    with pytest.raises(PositionError):
        solve(p, engine="reference")
    with pytest.raises(PositionError):
        can_reach(p, 0)


def test_a_finished_deal_is_answered_with_its_result():
    p = Position("brisque .A../.K.. S 0 ATKQJ987.TQJ987.ATKQJ987.ATKQJ987 - a 60:45")
    p.push("AH")
    p.push("KH")
    assert p.is_over()
    for a in (solve(p), solve(p, engine="reference"), solve(p, nodes=10)):
        assert a.value == p.value() and a.exact and a.moves == a.best == a.pv == []
    with pytest.raises(PositionError, match="over"):
        can_reach(p, 0)  # (a question about the future of a deal that has none)


def test_an_exact_solve_reports_its_progress_a_root_move_at_a_time():
    bpn = "brisque 7.A.Q8.AQ/J9.8.AJ.K TC 7C8CJC9D7H ATKQ8.TKQJ9.TK7.9 - a 22:39 tricks=4:3"
    calls: list[tuple[int, int, int]] = []
    a = Solver("brisque", table_bits=16).solve(bpn, progress=lambda *args: calls.append(args))
    n = len(a.moves)
    assert [c[:2] for c in calls] == [(i, n) for i in range(n + 1)]
    nodes = [c[2] for c in calls]  # (a fresh table: every move searches)
    assert nodes[0] == 0 and nodes == sorted(nodes) and 0 < nodes[-1] <= a.nodes
    again: list[tuple[int, int, int]] = []  # (the function passes it on)
    solve(bpn, progress=lambda *args: again.append(args))
    assert [c[:2] for c in again] == [c[:2] for c in calls]
    budgeted: list[object] = []
    assert not solve(bpn, nodes=500, progress=budgeted.append).exact and budgeted == []


def test_progress_keeps_coming_while_a_long_root_move_is_searched(monkeypatch):
    # (a whole deal's first move alone can take minutes: the progress line froze at
    # "0 of 7 moves, 0.0 M nodes, 0 s" until it was solved)
    import solver.engine.solving as api

    monkeypatch.setattr(api, "PROGRESS_SECONDS", 0.002, raising=False)  # (a tick well within one move here)
    bpn = "brisque 7.KJ.Q8.Q/.Q8.KJ7.K TC ADTHAHJSAC9S7C8CJC9D7H ATKQ8.9.T.9 - b 7:31 tricks=2:2"
    calls: list[tuple[int, int, int]] = []
    a = Solver("brisque", table_bits=16).solve(bpn, progress=lambda *args: calls.append(args))
    n = len(a.moves)
    assert any(done == 0 and nodes > 0 for done, _, nodes in calls)  # (during the first move)
    assert [k for k, _ in itertools.groupby(c[:2] for c in calls)] == [(i, n) for i in range(n + 1)]
    nodes = [c[2] for c in calls]
    assert nodes == sorted(nodes) and calls[-1] == (n, n, nodes[-1])


P = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to move, worth 44


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


KD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"  # the JSON example of the docs


VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


ENTRY_POINTS = {
    "solve": lambda x: solver.solve(x),
    "Solver.solve": lambda x: solver.Solver().solve(x),
    "Solver.value": lambda x: solver.Solver().value(x),
    "Solver.can_reach": lambda x: solver.Solver().can_reach(x, 0),
    "analyse": lambda x: solver.analyse(x),
    "can_reach": lambda x: solver.can_reach(x, 0),
    "solve_batch": lambda x: solver.solve_batch([x]),
    "analyse_line": lambda x: solver.analyse_line(x, []),
    "solution_tree": lambda x: solver.solution_tree(x),
}


BAD_BUDGETS = [
    {"nodes": 0},
    {"nodes": -1},
    {"nodes": 1.5},
    {"nodes": "5"},
    {"nodes": True},
    {"seconds": 0},
    {"seconds": -1.0},
    {"seconds": math.nan},
    {"seconds": math.inf},
    {"seconds": 1e300},
    {"seconds": MAX_SECONDS + 1},
    {"seconds": "5"},
    {"depth": 0},
    {"depth": True},
    {"depth": 2.0},
]


@pytest.mark.parametrize("margin", [True, 10000, 20000, -10000, 10**30])
def test_a_margin_is_no_bool_and_no_game_won(margin):
    with pytest.raises(ArgumentError, match=rf"^margin={margin}: expected a whole number from -9999 to 9999"):
        solver.Value.margin(margin, "a")


def test_margins_inside_the_game_win_marker_are_taken():
    assert [int(solver.Value.margin(m, "b")) for m in (-9999, 0, 9999)] == [-9999, 0, 9999]
    assert solver.Value.from_number(10000, "a").won and solver.Value.from_number(-9999, "a") == -9999


@pytest.mark.parametrize("limit", [5, "nodes=5", 2.5])
def test_solver_solve_checks_limit_as_solve_does(limit):
    # Solver().solve(P, limit=5) was "AttributeError: 'int' object has no attribute 'bounded'"
    import solver
    from solver.errors import ArgumentTypeError

    for call in (solver.solve, solver.Solver().solve):
        with pytest.raises(ArgumentTypeError, match=r"limit=.*expected a solver\.Limit"):
            call(P, limit=limit)


def test_solver_solve_still_takes_a_limit():
    import solver

    assert solver.Solver().solve(P, limit=solver.Limit(nodes=10**6)).value == solver.solve(P).value


@pytest.mark.parametrize(
    "deals,quoted", [(2.5, "deals=2.5"), ("3", "deals='3'"), (0, "deals=0"), (True, "deals=True")]
)
def test_run_match_checks_deals_naming_only_deals(deals, quoted):
    # 2.5 and "3" were TypeErrors; 0 was "deals=0, workers=1: both must be at least 1"

    with pytest.raises(ArgumentError) as info:
        run_match("greedy", "random", deals, seed=1)
    assert str(info.value).startswith(quoted + ":") and "whole number" in str(info.value)
    assert "workers" not in str(info.value)


def test_run_match_checks_workers_naming_only_workers():

    with pytest.raises(ArgumentError) as info:
        run_match("greedy", "random", 2, seed=1, workers=0)
    assert str(info.value).startswith("workers=0:") and "deals" not in str(info.value)
    assert run_match("greedy", "random", 1, seed=1).summary["pairs"] == 1


@pytest.mark.parametrize("rules", ["petite", "briscan(target=300)", solver.Rules.parse("petite"), None])
def test_solver_takes_a_rules_string_as_positions_do(rules):
    # Solver("brisque") was "AttributeError: 'str' object has no attribute 'game'"
    s = solver.Solver(rules)
    expected = rules if isinstance(rules, solver.Rules) else solver.Rules.parse(rules or "brisque")
    assert s.rules == expected


def test_solver_with_a_rules_string_solves():
    assert solver.Solver("brisque").solve(FP).value == 44


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"rules": 3}, ArgumentTypeError, "rules=3: expected a Rules or a rules string"),
        ({"rules": "chess"}, solver.RulesError, "unknown game 'chess'"),
        (
            {"table_bits": "x"},
            ArgumentError,
            f"table_bits='x': expected a whole number of bits from {MIN_TABLE_BITS} to {MAX_TABLE_BITS}",
        ),
        ({"table_bits": 40}, ArgumentError, "table_bits=40"),
        ({"table_bits": 1.5}, ArgumentError, "table_bits=1.5"),
    ],
)
def test_solver_arguments_are_checked_and_quoted(kwargs, error, words):
    # Solver(table_bits="x") was a bare "TypeError: an integer is required"
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        solver.Solver(**kwargs)


@pytest.mark.parametrize("target", ["44", None, 1.5, True, [44]])
def test_can_reach_checks_its_target(target):
    # can_reach(p, 1.5) answered (the engine cut the number), "x" or None were bare TypeErrors
    for call in (solver.can_reach, solver.Solver().can_reach):
        with pytest.raises(ArgumentError, match=r"target=.*: expected a whole number"):
            call(FP, target)


def test_can_reach_still_takes_any_whole_number():
    np = pytest.importorskip("numpy")  # (a numpy integer is a whole number too)

    assert solver.can_reach(FP, 44) and not solver.can_reach(FP, 45)
    assert solver.can_reach(FP, np.int64(44)) and not solver.can_reach(FP, 10**30)
    assert solver.can_reach(FP, -(10**30))


def test_move_value_of_an_illegal_move_lists_the_legal_ones():
    a = solver.solve(FP)
    with pytest.raises(IllegalMoveError, match="legal: 7S 9D QD KD 7C AC \\+mD"):
        a.move_value("AS")


@pytest.mark.parametrize("seat", [1.0, True, 2, None, "c"])
def test_a_seat_is_a_or_b_or_0_or_1_and_nothing_that_equals_them(seat):
    # Position.view(1.0) and view(True) answered b's view: they compare equal to 1
    from solver.errors import NotationError

    p = solver.Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
    with pytest.raises(NotationError, match=r"bad player .*expected a or b \(or 0 or 1\)"):
        p.view(seat)
    assert p.view(1).bpn() == p.view("b").bpn() == p.view("B").bpn()


@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("solver").solve(GOOD, depth=0),
        lambda: __import__("solver").solve(GOOD, seconds=float("nan")),
        lambda: __import__("solver").solve(GOOD, nodes=-5),
        lambda: __import__("solver").analyse(
            "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", depth=-1
        ),
        lambda: __import__("solver").analyse(
            "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", workers=0
        ),
        lambda: __import__("solver").run_match("greedy", "random", 2, workers=-1),
    ],
    ids=[
        "solve depth 0",
        "solve seconds nan",
        "solve nodes -5",
        "analyse depth -1",
        "analyse workers 0",
        "match workers -1",
    ],
)
def test_api_limits_of_nothing_are_errors(call):
    from solver.errors import ArgumentError

    with pytest.raises(ArgumentError, match="expected|at least"):
        call()


def test_rules_that_differ_only_off_the_board_share_one_solver():
    from solver.engine import shared_solver

    first = shared_solver(Rules.parse("brisque"))
    assert shared_solver(Rules.parse("brisque(target=1000,next_dealer=winner)")) is first
    assert shared_solver(Rules.parse("brisque(exchange_points=10)")) is not first


def test_a_value_takes_the_seat_letters_its_repr_shows():
    v = Value.margin(5, "a")
    assert v == 5 and v.pov == 0 and repr(v) == "Value.margin(5, pov='a')"
    assert repr(v.for_seat("b")) == "Value.margin(-5, pov='b')"
    assert v.for_seat("a") is v and v.for_seat(0) is v and v.for_seat("B") == -5
    w = Value.game_won("b", pov="a")
    assert int(w) == -10000 and w.win == "b" and w.lost
    assert w.for_seat("b").won and eval(repr(w), {"Value": Value}) == w  # (the repr builds it again)


@pytest.mark.parametrize("seat", ["c", "", "ab", 2, -1, True, None, 1.0, "0"])
def test_a_value_refuses_anything_but_a_seat(seat):
    with pytest.raises(ArgumentError, match=r"expected a seat, 'a' or 'b' \(or 0 or 1\)") as e:
        Value.margin(5, 0).for_seat(seat)
    assert f"seat={seat!r}" in str(e.value)
    with pytest.raises(ArgumentError, match=re.escape(f"pov={seat!r}")):
        Value.margin(5, seat)


def test_every_solver_entry_point_takes_a_bpn_string():
    s = solver.Solver()
    assert s.solve(FP).value == solver.solve(solver.Position(FP)).value == 44
    assert s.value(FP) == 44 and s.can_reach(FP, 44) and not s.can_reach(FP, 45)
    value, played, best = s.judge(FP, "QD")
    assert (value, played) == (44, 4) and "+mD" in [str(m) for m in best]
    assert s.batch_values([FP, KD])[0] == [44, -4]
    assert solver.analyse(VIEW, worlds=4, seed=1).worlds == 4


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("bad", [42, None, b"brisque", ["brisque"]])
def test_a_position_of_the_wrong_type_is_a_clear_type_error(name, bad):
    with pytest.raises(ArgumentTypeError, match="expected a Position or a BPN string") as e:
        ENTRY_POINTS[name](bad)
    assert repr(bad) in str(e.value) and type(bad).__name__ in str(e.value)
    assert isinstance(e.value, TypeError) and isinstance(e.value, solver.BrisqueError)


@pytest.mark.parametrize("bad", [42, 4.5, b"brisque", ("brisque",)])
def test_a_position_of_a_non_string_says_what_is_expected(bad):
    with pytest.raises(ArgumentTypeError, match="expected a BPN string, such as 'brisque ") as e:
        solver.Position(bad)
    assert str(e.value).startswith(f"Position({bad!r}): ") and str(e.value).endswith(type(bad).__name__)


def test_a_huge_argument_is_quoted_cut_short():
    with pytest.raises(ArgumentTypeError) as e:
        solver.Position(list(range(10_000)))
    assert str(e.value).startswith("Position([0, 1, 2") and len(str(e.value)) < 300


@pytest.mark.parametrize("budget", BAD_BUDGETS, ids=lambda b: repr(b))
def test_a_budget_of_nothing_or_of_the_wrong_kind_is_refused(budget):
    ((name, value),) = budget.items()
    with pytest.raises(ArgumentError, match=re.escape(f"{name}={value!r}: expected")):
        solver.solve(FP, **budget)
    with pytest.raises(ArgumentError, match=re.escape(f"{name}={value!r}: expected")):
        Limit(**budget)


def test_the_smallest_and_largest_budgets_are_accepted():
    a = solver.solve(FP, nodes=1)
    assert a.value.pov == 1 and a.lower <= 44 <= a.upper  # (proven bounds of the value 44)
    assert solver.solve(FP, seconds=MAX_SECONDS).value == 44  # (the final phase: solved)


def test_a_limit_and_a_budget_together_are_refused():
    with pytest.raises(ArgumentError, match="give the budget one way, not both"):
        solver.solve(FP, limit=Limit(nodes=100), nodes=5)
    with pytest.raises(ArgumentTypeError, match="limit=100: expected a solver.Limit"):
        solver.solve(FP, limit=100)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kw",
    [
        {"time_limit": 0},
        {"time_limit": math.nan},
        {"worlds": 0},
        {"worlds": 2.5},
        {"workers": 0},
        {"seed": "x"},  # (was taken, and the answer's seed became "x")
        {"seed": 1.5},
        {"separation": -1},  # (was taken: every check "separated")
        {"separation": math.nan},
    ],
)
def test_the_sampling_budgets_are_checked_too(kw):
    ((name, value),) = kw.items()
    with pytest.raises(ArgumentError, match=re.escape(f"{name}={value!r}: expected")):
        solver.analyse(VIEW, **kw)


@pytest.mark.parametrize("name", errors.__all__)
def test_every_error_class_is_exported_from_the_package(name):
    assert name in solver.__all__
    assert getattr(solver, name) is getattr(errors, name)


def test_argument_error_is_catchable_from_the_package():
    with pytest.raises(solver.ArgumentError):
        solver.solve(FP, nodes=0)
