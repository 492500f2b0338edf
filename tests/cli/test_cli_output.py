"""Writing the answers: a full disk or a reader that went away is an error in words, not a traceback."""

from __future__ import annotations

import os
import subprocess

import pytest
from helpers import BRISQUE, OUTSIDE, POSITIONS

FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to move, worth 44


FULL_DISK = "/dev/full"  # (Linux: every write fails with ENOSPC)


needs_full_disk = pytest.mark.skipif(not os.path.exists(FULL_DISK), reason="no /dev/full here")


@pytest.mark.slow
@needs_full_disk
@pytest.mark.parametrize(
    "args, words",
    [
        (["tree", FP, "-o", FULL_DISK], "cannot write the tree to '/dev/full': No space left on device"),
        (["show", FP, "--svg", "-o", FULL_DISK], "cannot write the diagram to '/dev/full': No space left"),
    ],
)
def test_an_output_file_on_a_full_disk_is_an_error_naming_it(brisque, args, words):
    # tree -o /dev/full and show --svg -o /dev/full died with "OSError: [Errno 28]" and a traceback
    res = brisque(*args)
    assert res.returncode == 1, res.stderr
    assert "Traceback" not in res.stderr and words in res.stderr


@needs_full_disk
@pytest.mark.parametrize(
    "args",
    [
        ["solve", FP],
        ["tree", FP, "--format", "dot"],
        ["puzzles", str(POSITIONS / "petite-deals.bpd")],
        ["deal", "--seed", "1"],
    ],
)
def test_standard_output_on_a_full_disk_is_an_error_not_a_traceback(args):
    # brisque solve BPN > /dev/full (a full disk) was a traceback ending in OSError
    with open(FULL_DISK, "w") as full:
        res = subprocess.run(
            [*BRISQUE, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120, cwd=OUTSIDE
        )
    assert res.returncode == 1
    assert "Traceback" not in res.stderr
    assert "Error: cannot write the output: No space left on device" in res.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["puzzles", str(POSITIONS / "petite-deals.bpd")],
        ["solve", FP],
        ["tree", FP, "--format", "dot"],
        ["solve", "-"],
    ],
)
def test_a_reader_that_went_away_ends_the_command_as_sigpipe_does(args):
    # brisque puzzles FILE | head -1 exited 1 (click's status for a closed pipe), which this
    # command uses for a failed puzzle: a script with pipefail took the puzzles for failed.
    # A pipe whose reading end is closed before the command starts makes it deterministic.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        res = subprocess.run(
            [*BRISQUE, *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            input=FP + "\n" if args[-1] == "-" else None,
            text=True,
            timeout=120,
            cwd=OUTSIDE,
        )
    finally:
        os.close(write_end)
    assert res.returncode == 128 + 13, res.stderr  # (128 + SIGPIPE, as `yes | head` ends)
    assert res.stderr == ""  # (quiet: no traceback, no "Exception ignored" at exit)
