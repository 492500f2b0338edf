"""Ctrl-C in an exact or budgeted solve keeps what was proven: the values of the moves
already solved and the bounds MTD(f) had proven on the one being searched
(:class:`solver.SolveInterrupted`, ``stopped="interrupted"``), checked against the exact
solve of the same position.

When the solve ends before the interrupt lands (a fast machine), there is nothing to check
and the test is skipped; when the interrupt lands before anything was proven, the solve
raises a plain KeyboardInterrupt and the test tries again later in the search.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable

import pytest
from helpers import BRISQUE, OUTSIDE, communicate_or_kill, interrupt_after

import solver
from solver.engine import Analysis, SolveInterrupted, Solver, solve
from solver.model.position import Position

DELAYS = (0.6, 1.2, 2.4)  # seconds before the interrupt, tried in turn


@pytest.fixture(scope="module")
def position() -> Position:
    """A Brisque deal at trick 4 (brisque deal --seed 1 --at 4), eight talon tricks left:
    an exact solve of every move takes about three seconds here."""
    return Position("brisque T7.KJ.8.Q/.8.TKJ7.K TC QHQDADTHAHJSAC9S7C8CJC9D7H AKQ8.9..9 - b 7:11 tricks=2:1")


@pytest.fixture(scope="module")
def truth(position: Position) -> Analysis:
    return solve(position)


@pytest.fixture(scope="module")
def earlier() -> Position:
    """The same deal at trick 3 (brisque deal --seed 1 --at 3): its value alone takes about
    1.5 seconds, three times the value at trick 4."""
    return Position(
        "brisque 87.KJ.8.Q/A.8.TKJ7. TC KCTSQHQDADTHAHJSAC9S7C8CJC9D7H KQ.9..9 - a 7:0 tricks=2:0"
    )


def interrupted(run: Callable[[], Analysis], delays: tuple[float, ...] = DELAYS) -> Analysis:
    """The answer so far of ``run`` when SIGINT arrives during it."""
    for delay in delays:
        timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        try:
            run()
        except SolveInterrupted as stop:
            return stop.analysis
        except KeyboardInterrupt:
            continue  # nothing proven yet: later in the search
        finally:
            timer.cancel()
        pytest.skip("the solve ended before the interrupt")
    raise AssertionError(f"nothing proven after {DELAYS[-1]} s")


def assert_sound(a: Analysis, p: Position, truth: Analysis) -> None:
    assert a.stopped == "interrupted" and a.to_dict()["stopped"] == "interrupted"
    assert a.lower is not None and a.upper is not None
    assert a.lower <= truth.value <= a.upper
    legal = {str(m) for m in p.legal_moves()}
    for mv in a.moves:
        assert str(mv.move) in legal
        assert mv.lower is not None and mv.upper is not None
        assert mv.lower <= truth.move_value(mv.move) <= mv.upper
        if mv.exact:
            assert mv.value == truth.move_value(mv.move)


@pytest.mark.slow
def test_an_interrupted_solve_of_every_move_keeps_the_moves_solved(position, truth):
    a = interrupted(lambda: Solver(position.rules).solve(position))
    assert_sound(a, position, truth)
    assert a.moves and not a.exact
    assert len(a.moves) < len(position.legal_moves()) or any(not mv.exact for mv in a.moves)


@pytest.mark.slow
def test_an_interrupted_solve_of_the_value_keeps_its_bounds(earlier):
    truth = solve(earlier, every_move=False)
    a = interrupted(lambda: Solver(earlier.rules).solve(earlier, every_move=False), (0.3, 0.6, 0.9))
    assert_sound(a, earlier, truth)
    assert a.moves == [] and (a.lower != a.upper or a.lower == truth.value)


def test_an_interrupted_solve_on_two_threads_keeps_its_bounds(position, truth):
    a = interrupted(lambda: Solver(position.rules).solve(position, threads=2))
    assert_sound(a, position, truth)


def test_an_interrupted_budgeted_solve_keeps_its_bounds(position, truth):
    a = interrupted(lambda: solve(position, seconds=120))
    assert_sound(a, position, truth)
    assert len(a.moves) == len(position.legal_moves())  # (every move has its estimate)


@pytest.mark.slow
def test_the_solver_gives_exact_answers_after_an_interrupt(position, truth):
    s = Solver(position.rules)
    interrupted(lambda: s.solve(position))
    assert s.solve(position).moves == truth.moves


def test_ctrl_c_on_brisque_solve_prints_what_was_proven(position, truth):
    for delay in DELAYS:
        proc = subprocess.Popen(
            [*BRISQUE, "solve", position.bpn(), "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=OUTSIDE,
        )
        time.sleep(delay + 0.3)  # (the start of the process)
        proc.send_signal(signal.SIGINT)
        out, err = communicate_or_kill(proc, 60)
        if proc.returncode == 0:
            pytest.skip("the solve ended before the interrupt")
        assert proc.returncode == 130 and "Traceback" not in err and "interrupted" in err
        answer = json.loads(out)
        if "error" in answer:  # nothing proven yet
            assert answer == {"bpn": position.bpn(), "error": "interrupted"}
            continue
        assert answer["stopped"] == "interrupted" and answer["exact"] is False
        assert answer["lower"] <= int(truth.value) <= answer["upper"]
        for mv in answer["moves"]:
            assert (
                mv.get("lower", mv["value"])
                <= int(truth.move_value(mv["move"]))
                <= mv.get("upper", mv["value"])
            )
        return
    raise AssertionError(f"nothing proven after {DELAYS[-1]} s")


def test_the_proven_bounds_are_never_another_searchs():
    """Engine.proven_bounds speak of the position loaded and the move last searched: a new
    root starts with nothing proven, and a move that ends the deal (no search) is proven
    exact.  They kept the last MTD(f)'s bounds, so that Ctrl-C landing between two searches
    gave a move, or a new position, the value of another."""
    from solver.engine.seam import engine_root
    from solver.play.dealing import positions_with_talon_left, random_position

    rules = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35").rules
    talon = positions_with_talon_left(3, 1, rules)[0]
    last = random_position(1, rules, rules.tricks_per_deal)
    last.push(last.legal_moves()[0])  # (the follower's one card ends the deal)
    eng = Solver(rules).engine
    eng.load(engine_root(talon))
    value = eng.value()
    assert eng.proven_bounds == (value, value)  # (MTD(f) ran: its bounds met)
    eng.load(engine_root(last))
    assert eng.proven_bounds == (None, None)
    eng.load(engine_root(talon))
    eng.value()
    eng.load(engine_root(last))
    [(only, v)] = eng.move_values()
    assert eng.proven_bounds == (v, v)


def test_ctrl_c_before_the_search_proves_nothing(monkeypatch):
    """Ctrl-C that lands before the engine searches (here as the threads are set) raises a
    plain KeyboardInterrupt: the bounds of the solve before, of another position, are no
    answer for this one."""
    import contextlib

    from solver.engine import solving
    from solver.play.dealing import positions_with_talon_left

    rules = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35").rules
    first, second = positions_with_talon_left(3, 2, rules)
    s = Solver(rules)
    s.solve(first, every_move=False)

    @contextlib.contextmanager
    def interrupting(engine, threads):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(solving, "solver_threads", interrupting)
    with pytest.raises(KeyboardInterrupt) as stop:
        s.solve(second, every_move=False)
    assert not isinstance(stop.value, SolveInterrupted)  # (a KeyboardInterrupt too)


@pytest.mark.slow
def test_a_budget_spent_in_the_second_game_win_test_keeps_the_first_tests_bound():
    """Whole deal 6: both players might still hold four kings or queens, so the exact solve
    first tests whether the player to move can force a game win (no: an upper bound), then
    whether his opponent can (no: a lower bound).  A budget spent inside the second test
    keeps the first test's bound (it was dropped)."""
    from solver.engine.seam import engine_root
    from solver.play.dealing import deal

    eng = Solver(table_bits=20).engine
    root = engine_root(deal(6, "brisque"))

    def bounds_after(nodes: int) -> tuple[int | None, int | None]:
        eng.clear()
        eng.load(root)
        eng.set_limits(nodes=nodes)
        eng.value()
        assert eng.aborted
        bounds: tuple[int | None, int | None] = eng.proven_bounds
        eng.clear_limits()
        return bounds

    # the fewest nodes with which both tests end: then both bounds are proven
    lo, hi = 1, 2_000_000
    assert bounds_after(hi)[0] is not None
    while lo < hi:
        mid = (lo + hi) // 2
        if bounds_after(mid)[0] is not None:
            hi = mid
        else:
            lo = mid + 1
    both = bounds_after(lo)
    assert both[0] is not None and both[1] is not None and both[0] < both[1]
    assert bounds_after(lo - 1) == (None, both[1])


LONG_SOLVE = "briscan .T98..Q7/KJ8..TK. KH QHAD7DJCTSASKC7H8C7S9C9STCQDACJDJHQS8D9DAH - - a 0:10"


@pytest.mark.slow
def test_an_interrupted_solve_with_json_answers_a_json_object(brisque):
    # Ctrl-C on an exact solve printed "interrupted" and nothing on standard output
    deal = brisque("deal", "--seed", "1").stdout.strip()
    proc = subprocess.Popen(
        [*BRISQUE, "solve", deal, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
    )
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    out, err = communicate_or_kill(proc, 60)
    if proc.returncode == 0:
        pytest.skip("the solve ended before the interrupt")
    assert proc.returncode == 130 and "Traceback" not in err, err
    answer = json.loads(out)  # the bounds proven so far, or an error where there are none
    assert answer == {"bpn": deal, "error": "interrupted"} or answer["stopped"] == "interrupted"


@pytest.mark.slow
def test_an_interrupted_match_or_line_says_so_in_its_json():
    # the JSON of a match or a line cut short by Ctrl-C looked like a whole answer (only the
    # exit status and standard error said otherwise); a sampled analysis says "stopped"
    # (fast players, so that pairs are done when the signal lands even on a loaded machine:
    # with none done the answer is {"error": "interrupted"}, as for any command)
    status, out, err, _ = interrupt_after(
        ["match", "greedy", "random", "--deals", "100000", "--json"], after=5.0
    )
    assert status == 130 and "Traceback" not in err, err
    summary = json.loads(out)
    assert summary["interrupted"] is True and 0 < summary["pairs"] < 100000
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        rec = solver.run_match("greedy", "random", 1, seed=2).records[0]
        f.write(json.dumps(rec) + "\n")
    try:
        status, out, err, _ = interrupt_after(
            ["line", "--record", f.name, "--view", "own", "--worlds", "400", "--json"], after=3.0
        )
    finally:
        os.unlink(f.name)
    assert status == 130 and "Traceback" not in err, err
    answer = json.loads(out)
    assert answer["interrupted"] is True and len(answer["steps"]) < len(rec["moves"])


def test_a_whole_match_has_no_interrupted_key(brisque):
    r = brisque("match", "greedy", "random", "--deals", "1", "--json")
    assert r.returncode == 0 and "interrupted" not in json.loads(r.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_ends_a_long_exact_solve_at_once(tmp_path, workers):
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "solve", LONG_SOLVE, "--workers", workers],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(1.5)  # deep in the search by now
    sent = time.time()
    proc.send_signal(signal.SIGINT)
    out, err = communicate_or_kill(proc, 60)
    # the search used to run on to its end, a minute later; now it stops within milliseconds
    # (benchmarks/bench_interrupt.py), and 10 s leaves room for a loaded machine
    assert time.time() - sent < 10
    assert proc.returncode == 130 and b"Traceback" not in err and b"interrupted" in err


def test_a_signal_handler_interrupts_a_search_in_the_api():
    from solver.engine import Solver, solve

    def later() -> None:
        time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGINT)

    position = Position(LONG_SOLVE)
    solver = Solver(position.rules)
    import threading

    threading.Thread(target=later, daemon=True).start()
    started = time.time()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(position)
    assert time.time() - started < 10
    threading.Thread(target=later, daemon=True).start()  # and on two threads
    started = time.time()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(position, threads=2)
    assert time.time() - started < 10 and solver.engine.threads == 1
    # the same solver goes on giving exact answers
    small = position.copy()
    while small.trick_number < 12 and not small.is_over():
        small.push(small.legal_moves()[0])
    assert solver.solve(small).value == solve(small).value
