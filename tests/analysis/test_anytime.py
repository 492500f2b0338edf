"""Anytime sampled answers: worlds drawn lazily, a time limit that holds whatever the worlds
asked for, Ctrl-C giving the answer so far, progress with the best move, and the same answer
with any number of workers."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from helpers import interrupt_after

from solver import analyse, deal

EARLY = deal(4).view("a")  # the first lead of a Brisque deal: worlds by the 3-trick search
LATE = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def test_a_time_limit_holds_however_many_worlds_are_asked_for():
    tracemalloc.start()
    try:
        t0 = time.perf_counter()
        a = analyse(EARLY, worlds=300_000, time_limit=0.3, seed=1)
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert a.stopped == "time" and 0 < a.worlds < 300_000
    # bounded: the old code drew every world first (3 s and 400 MB here)
    assert elapsed < 2.0, elapsed
    assert peak < 50 * 2**20, peak


def test_the_worlds_are_the_seeded_stream_whatever_stops_it():
    full = analyse(LATE, worlds=40, seed=2)
    part = analyse(LATE, worlds=20, seed=2)
    # the first 20 worlds of the stream give the 20-world answer
    # (a deadline stops the world being solved too: a short one, not none, gets some worlds)
    timed = analyse(LATE, worlds=100_000, seed=2, time_limit=0.3)
    assert timed.stopped == "time" and timed.worlds >= 1
    assert full.worlds == 40 and part.worlds == 20
    again = analyse(LATE, worlds=timed.worlds, seed=2)
    assert [m.value for m in again.moves] == [m.value for m in timed.moves]


def _strip(a) -> dict:
    d = a.to_dict()
    d.pop("seconds")
    return d


@pytest.mark.parametrize("rule", [dict(), dict(separation=1.0), dict(separation=3.0, batch=5)])
def test_the_same_seed_gives_the_same_answer_with_any_number_of_workers(rule):
    one = analyse(LATE, worlds=60, seed=4, workers=1, **rule)
    two = analyse(LATE, worlds=60, seed=4, workers=2, **rule)
    assert _strip(one) == _strip(two)


def test_updates_give_the_answer_so_far():
    seen = []
    a = analyse(LATE, worlds=50, seed=3, on_update=seen.append, update_every=0.0)
    assert seen and all(s.worlds <= a.worlds for s in seen)
    assert seen[-1].worlds == a.worlds and seen[-1].best == a.best


@pytest.mark.slow
def test_ctrl_c_prints_the_answer_so_far_and_exits_130(tmp_path: Path):
    # (2 s: long enough to start and solve some worlds)
    status, out, err, _ = interrupt_after(["analyse", EARLY.bpn(), "--worlds", "100000", "--json"], after=2.0)
    assert status == 130, err
    assert "Traceback" not in err
    answer = json.loads(out)
    assert answer["stopped"] == "interrupted" and 0 < answer["worlds"] < 100000


# ------------------------------------------- a time limit with the exact world search
# trick 5 of deal 4 seen by a: each world's exact solve takes some 0.3 s (CPU) here
MIDDLE = "brisque K8.K7..T9/?6 QC 11 A.9.TKQJ7.8 - a 11:19 tricks=1:3"


def _bound(seconds: float) -> float:
    """``--seconds S`` ends within S plus 10%, plus start-up (2 s, generous)."""
    return seconds * 1.1 + 2.0


@pytest.mark.slow
def test_the_exact_world_search_holds_a_time_limit_and_drops_the_world_it_stops():
    t0 = time.perf_counter()
    a = analyse(MIDDLE, worlds=1000, seed=1, time_limit=1.5, world_search="exact")
    elapsed = time.perf_counter() - t0
    assert elapsed < _bound(1.5), elapsed
    assert a.stopped == "time" and 1 <= a.worlds < 1000 and a.world_method == "exact"
    # the worlds counted are the first ones of the seeded stream, each solved to the end: the
    # world the deadline stopped is not among them (its values would be a search's, unproven)
    again = analyse(MIDDLE, worlds=a.worlds, seed=1, world_search="exact")
    assert [(m.move, m.value) for m in again.moves] == [(m.move, m.value) for m in a.moves]


def test_a_whole_deal_exact_world_stops_at_the_deadline():
    """A whole deal's world takes a minute to solve exactly: the time limit stops it (the
    sampler used to finish it, 60 to 80 s past a limit of half a second), and with not one
    world solved the answer is an error that says so."""
    from solver import ArgumentError

    t0 = time.perf_counter()
    with pytest.raises(ArgumentError) as info:
        analyse(EARLY, worlds=10, seed=1, time_limit=0.5, world_search="exact")
    assert time.perf_counter() - t0 < _bound(0.5)
    message = str(info.value)
    assert message.startswith("time_limit=0.5: no world was solved in that time")
    assert "world_search='quick'" in message


def test_a_world_stopped_by_its_time_is_dropped():
    from solver.analysis.sampling import _solve_worlds
    from solver.engine.results import Limit

    world = deal(4).bpn()  # (every card known: the whole deal)
    assert _solve_worlds(("brisque", [world], Limit(seconds=0.05), "linear", None, None)) == []


def test_the_engine_stops_at_a_real_time_budget():
    """``wall_seconds``: real time, whatever CPU time the search got (a budget in seconds of
    a solve is both, so that a loaded machine does not stretch it)."""
    from solver.engine.solving import Solver

    s = Solver()
    s.load(deal(4))
    s.engine.set_limits(wall_seconds=0.2)
    t0 = time.perf_counter()
    s.engine.value()
    assert s.engine.aborted and time.perf_counter() - t0 < 2.0
    s.engine.clear_limits()
    assert not s.engine.aborted


@pytest.mark.slow
def test_brisque_analyse_exact_world_search_ends_within_its_seconds(tmp_path: Path):
    cmd = [sys.executable, "-m", "solver.cli", "analyse", EARLY.bpn(), "--world-search", "exact"]
    t0 = time.perf_counter()
    r = subprocess.run(
        [*cmd, "--seconds", "1", "--json"], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert time.perf_counter() - t0 < _bound(1.0)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    error = json.loads(r.stdout)["error"]
    assert error.startswith("--seconds 1: no world was solved in that time"), error
    assert "--world-search quick" in error and error in r.stderr


# ------------------------------------- a time limit with a depth-limited world search
@pytest.mark.slow
@pytest.mark.parametrize(
    "search", [["--depth", "10"], ["--world-search", "depth:12"], ["--world-search", "handmade:10"]]
)
def test_brisque_analyse_deep_world_search_ends_within_its_seconds(tmp_path: Path, search: list[str]):
    """A world searched 10 or 12 tricks deep takes a minute or more at the first lead: the
    deadline stops its search (the run went on past 60 s, and 240 s at 12 tricks)."""
    cmd = [sys.executable, "-m", "solver.cli", "analyse", EARLY.bpn(), "--worlds", "1000000", *search]
    t0 = time.perf_counter()
    r = subprocess.run(
        [*cmd, "--seconds", "2", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert time.perf_counter() - t0 < 20
    assert "Traceback" not in r.stderr
    if r.returncode == 0:  # (a machine fast enough to solve some world in the time)
        answer = json.loads(r.stdout)
        assert answer["stopped"] == "time" and answer["worlds"] >= 1
        return
    assert r.returncode == 2, r.stderr
    error = json.loads(r.stdout)["error"]
    given = " ".join(search)
    assert error.startswith(f"--seconds 2: no world was solved in that time ({given} searches"), error
    assert error in r.stderr


@pytest.mark.slow
def test_a_depth_world_search_holds_a_time_limit_and_drops_the_world_it_stops():
    """Each world's depth-limited search stops at the deadline; the worlds counted are the
    first ones of the seeded stream, each searched to its depth with its game-win guard (the
    same values as without a time limit).  (Five tricks: six would reach the final phase of
    these worlds, and the answer would say "exact".)"""
    t0 = time.perf_counter()
    # (4 s: a few worlds even on a loaded machine, where one takes a second or more)
    a = analyse(MIDDLE, worlds=1000, seed=1, time_limit=4.0, world_search="depth:5")
    elapsed = time.perf_counter() - t0
    assert elapsed < 4.0 + 6, elapsed  # (generous: a loaded machine)
    assert a.stopped == "time" and 1 <= a.worlds < 1000 and a.world_method == "depth 5"
    again = analyse(MIDDLE, worlds=a.worlds, seed=1, world_search="depth:5")
    assert [(m.move, m.value) for m in again.moves] == [(m.move, m.value) for m in a.moves]


@pytest.mark.slow
def test_ctrl_c_keeps_the_deep_worlds_solved_so_far(tmp_path: Path):
    """Worlds searched 8 tricks deep take a second or two each: Ctrl-C after some of them
    gives the answer over those (the whole batch of ten being solved was lost, and the run
    printed only {"error": "interrupted"})."""
    # (8 s: start-up, then a few worlds: fewer than a batch of ten)
    args = ["analyse", EARLY.bpn(), "--world-search", "depth:8", "--json"]
    status, out, err, _ = interrupt_after(args, after=8.0, within=60.0)
    assert status == 130, err
    assert "Traceback" not in err
    answer = json.loads(out)
    assert answer["stopped"] == "interrupted" and 1 <= answer["worlds"] < 100, answer
    assert answer["world_search"] == "depth 8"
