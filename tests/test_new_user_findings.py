"""Defects found by trying the command line as a new user would (session 11), each with
the input that showed it."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
import tempfile
import time

import pytest
from helpers import NOTATION_EXAMPLES

from solver.errors import ArgumentError
from solver.model.limits import MAX_DEPTH, MAX_WORLDS
from solver.play.players import make_player

BRISQUE = [sys.executable, "-m", "solver.cli"]
OUTSIDE = tempfile.gettempdir()  # (run from the checkout, python -m would find its unbuilt source first)


def brisque(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=OUTSIDE, **kw)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", NOTATION_EXAMPLES[0], "--depth", str(MAX_DEPTH + 1)],
        ["solve", NOTATION_EXAMPLES[0], "--depth", "41", "--json"],
        ["line", NOTATION_EXAMPLES[0], "QD", "--depth", "41"],
        ["analyse", NOTATION_EXAMPLES[2], "--depth", str(MAX_DEPTH + 1)],
    ],
)
def test_a_depth_out_of_range_is_a_usage_error_not_a_traceback(args):
    r = brisque(*args)
    assert r.returncode == 2, r.stderr
    assert f"from 1 to {MAX_DEPTH}" in r.stderr and "Traceback" not in r.stderr


def test_the_deepest_depth_allowed_is_searched():
    r = brisque("solve", NOTATION_EXAMPLES[0], "--depth", str(MAX_DEPTH))
    assert r.returncode == 0 and "+44" in r.stdout  # (the final phase: exact under any depth)


def test_out_of_memory_is_an_error_not_a_traceback():
    def cap_memory() -> None:  # (3 GB of address space: a table of 2**28 entries needs 8)
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))

    for extra in ([], ["--json"]):
        r = brisque("solve", NOTATION_EXAMPLES[0], "--table-bits", "28", *extra, preexec_fn=cap_memory)
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        assert "out of memory: cannot allocate a table of 2**28 entries" in r.stderr
        if extra:
            assert '"error": "out of memory' in r.stdout  # (the JSON form of the error too)


@pytest.mark.parametrize("spec", ["pimc:0", f"pimc:{MAX_WORLDS + 1}", "pimc:99999999999999999999", "pimc:-3"])
def test_a_pimc_player_asks_for_a_sane_number_of_worlds(spec):
    with pytest.raises(ArgumentError, match=f"from 1 to {MAX_WORLDS}"):
        make_player(spec)
    assert make_player(f"pimc:{MAX_WORLDS}").name == f"pimc:{MAX_WORLDS}"


def test_ctrl_c_ends_a_match_of_pimc_in_one_process():
    # each decision of pimc:5000 takes seconds: Ctrl-C used to end that decision only
    # (the answer so far), and the match went on
    proc = subprocess.Popen(
        [*BRISQUE, "match", "pimc:5000", "greedy", "--deals", "3", "--json", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
    )
    time.sleep(4)
    assert proc.poll() is None  # (still playing its first deal)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the match went on after Ctrl-C")
    assert proc.returncode == 130 and "interrupted" in err


def test_the_enhancements_summary_marks_the_cap_only_when_hit():
    from solver.bench.research import summary

    row = {"k": 3, "median_ms": 1.0, "unfinished": 0}
    free = {"name": "enhancements", "configs": {"plain alpha-beta": [row]}}
    assert not any("CPU cap" in line for line in summary(free))
    capped = {"name": "enhancements", "configs": {"plain alpha-beta": [dict(row, unfinished=1)]}}
    assert summary(capped)[-1] == "(* some solves hit the CPU cap)" and "k=3 1.00*" in summary(capped)[0]
