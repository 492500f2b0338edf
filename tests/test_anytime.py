"""Anytime sampled answers: worlds drawn lazily, a time limit that holds whatever the worlds
asked for, Ctrl-C giving the answer so far, progress with the best move, and the same answer
with any number of workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

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
    timed = analyse(LATE, worlds=40, seed=2, time_limit=1e-9)
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


def test_ctrl_c_prints_the_answer_so_far_and_exits_130(tmp_path: Path):
    cmd = [sys.executable, "-m", "solver.cli", "analyse", EARLY.bpn(), "--worlds", "100000", "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        time.sleep(2.0)  # (long enough to start and solve some worlds)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    answer = json.loads(out)
    assert answer["stopped"] == "interrupted" and 0 < answer["worlds"] < 100000
