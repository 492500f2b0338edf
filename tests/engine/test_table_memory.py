"""The transposition table's size: one range for the API and the command line, the memory of
each size in the help (from the engine's own entry sizes), and a size larger than the memory
available refused before anything is allocated."""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
import time

import pytest
from helpers import OUTSIDE, ROOT

import solver
from solver.errors import ArgumentError
from solver.model.ranges import MAX_TABLE_BITS, MIN_TABLE_BITS
from solver.model.table_memory import (
    FINAL_TABLE_BITS,
    PLAIN_ENTRY_BYTES,
    PLAIN_TABLE_BITS,
    TABLE_ENTRY_BYTES,
    memory_words,
    table_bytes,
)

SRC = ROOT / "src_cython"
GOOD = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
CAP = 3 * 2**30  # bytes of address space a capped run gets: a table of 2**28 entries needs 8.6 GB


def cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def test_the_sizes_are_those_of_the_engines_sources():
    context = (SRC / "context.pxd").read_text()
    engine = (SRC / "engine.pyx").read_text()
    assert re.search(rf"^\s*FINAL_TABLE_BITS = {FINAL_TABLE_BITS}\b", context, re.M)
    assert re.search(rf"^\s*PLAIN_TABLE_BITS = {PLAIN_TABLE_BITS}\b", context, re.M)
    assert (
        f"assert sizeof(Entry) == {TABLE_ENTRY_BYTES} and sizeof(PlainEntry) == {PLAIN_ENTRY_BYTES}" in engine
    )


def test_an_engine_takes_the_memory_its_size_says():
    """The resident memory an engine adds, measured in a fresh process: its tables are
    cleared when made, so every page of them is in memory at once."""
    bits = 22  # (135 MB: far above what the interpreter's own allocations move)
    script = (
        "import os\n"
        "def rss(): return int(open('/proc/self/statm').read().split()[1]) * os.sysconf('SC_PAGE_SIZE')\n"
        "from solver.engine.solving import Solver\n"
        "from solver.model.rules import Rules\n"
        "rules = Rules()\n"
        f"before = rss(); s = Solver(rules, {bits}); print(rss() - before)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=OUTSIDE
    )
    assert r.returncode == 0, r.stderr
    taken = int(r.stdout)
    assert abs(taken - table_bytes(bits)) < 0.05 * table_bytes(bits), (taken, table_bytes(bits))


@pytest.mark.parametrize("bits", [MIN_TABLE_BITS - 1, MAX_TABLE_BITS + 1, 0, 99])
def test_the_api_and_the_command_line_refuse_the_same_sizes(brisque, bits):
    words = f"from {MIN_TABLE_BITS} to {MAX_TABLE_BITS}"
    with pytest.raises(ArgumentError, match=f"table_bits={bits}: expected a whole number of bits {words}"):
        solver.Solver(table_bits=bits)
    with pytest.raises(ArgumentError, match=f"table_bits={bits}: expected a whole number of bits {words}"):
        solver.solve(GOOD, table_bits=bits, nodes=1000)  # (a bounded solve's table is smaller)
    with pytest.raises(ArgumentError, match=f"table_bits={bits}: expected"):
        solver.solve_batch([], table_bits=bits)
    r = brisque("solve", GOOD, "--table-bits", str(bits))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"'--table-bits': '{bits}' is not a whole number {words}" in r.stderr, r.stderr


def test_the_smallest_size_is_solved_by_both(brisque):
    assert int(solver.Solver(table_bits=MIN_TABLE_BITS).solve(GOOD).value) == 44
    r = brisque("solve", GOOD, "--table-bits", str(MIN_TABLE_BITS), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == 44


def test_the_help_gives_the_memory_of_the_sizes(brisque):
    r = brisque("solve", "--help")
    text = " ".join(r.stdout.split())  # (the help is wrapped to the terminal)
    assert f"2**N entries of {TABLE_ENTRY_BYTES} bytes" in text
    for bits in range(MIN_TABLE_BITS, MAX_TABLE_BITS + 1, 2):
        assert f"{bits}: {memory_words(table_bytes(bits))}" in text, bits
    assert "28: 8.6 GB" in text and "20: 35 MB" in text


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_a_table_larger_than_the_memory_is_refused_before_it_is_made(brisque, extra):
    """--table-bits 28 took 8.4 GB and 51 s for a position of a millisecond (or, with less
    memory, failed allocating): a size the memory cannot hold is refused at once."""
    t0 = time.perf_counter()
    r = brisque("solve", GOOD, "--table-bits", "28", *extra, preexec_fn=cap_memory)
    assert time.perf_counter() - t0 < 30
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    message = re.search(
        r"--table-bits 28: a table of 2\*\*28 entries takes 8.6 GB, more than the (.*) of memory available",
        r.stderr,
    )
    assert message, r.stderr
    assert message.group(1).endswith(" GB") and float(message.group(1)[:-3]) <= CAP / 1e9
    if extra:
        assert json.loads(r.stdout)["error"].startswith(
            "--table-bits 28: a table of 2**28 entries takes 8.6 GB"
        )


def test_every_worker_process_of_a_batch_counts(brisque):
    # two workers, each with a table of 2**26 entries (2.1 GB): 4.3 GB, more than the cap
    r = brisque(
        "solve", "-", "--table-bits", "26", "--workers", "2", input=GOOD + "\n", preexec_fn=cap_memory
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "--table-bits 26: 2 tables of 2**26 entries (one a worker process) take 4.3 GB" in r.stderr


def test_the_api_refuses_a_table_larger_than_the_memory():
    script = "import solver\ntry:\n    solver.Solver(table_bits=28)\nexcept solver.ArgumentError as e:\n    print(e)\n"
    r = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=cap_memory,
        cwd=OUTSIDE,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("table_bits=28: a table of 2**28 entries takes 8.6 GB, more than the ")
    assert "of memory available" in r.stdout
