"""Defects found by trying the package as a new user would (seventeenth round), each with
the input that showed it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from solver.errors import ArgumentError

BRISQUE = [sys.executable, "-m", "solver.cli"]
VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def brisque(tmp_path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    # (from outside the checkout: there python -m would find the unbuilt source first)
    return subprocess.run(
        [*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=tmp_path, input=stdin
    )


# ---- A. a scheduler address without a port


@pytest.mark.parametrize("bad", ["bogus", "tcp://bogus", "tls://node7", "[::1]"])
def test_a_scheduler_without_a_port_is_refused_up_front(bad):
    from solver.cluster.executors import parse_scheduler

    with pytest.raises(ArgumentError) as info:
        parse_scheduler(bad)
    assert repr(bad) in str(info.value) and "no port" in str(info.value)
    assert "HOST:PORT" in str(info.value) and "node7:8786" in str(info.value)


def test_the_cli_says_the_port_is_missing_not_that_something_answered(tmp_path):
    # was "cannot reach the Dask scheduler at 'bogus' within 10 s (what answered there is not a
    # Dask scheduler (ValueError in the handshake))"
    pytest.importorskip("distributed")
    r = brisque(tmp_path, "analyse", VIEW, "--worlds", "5", "--scheduler", "bogus")
    assert r.returncode == 2, r.stderr
    assert "'bogus'" in r.stderr and "no port" in r.stderr and "HOST:PORT" in r.stderr
    assert "answered" not in r.stderr and "Traceback" not in r.stderr
