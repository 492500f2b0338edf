"""Trial 17: a view's line with the hidden hand's exchange (``x``).

b's view of deal 4 at trick 10 with the last talon card known: one world is consistent, so
``analyse`` answers with its exact solve, whose principal variation has a's exchange and then
a's declaration, moves of the hidden hand.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from solver import Position
from solver.errors import HiddenInformationError

VIEW = "brisque ?6/TJ97.Q.8. QC AH A8.TKJ97.TKQJ97.AKJ98 - b 29:34 tricks=4:5"
# the same, but b holds the 7 of trumps (clubs): a cannot exchange
SEVEN_SEEN = "brisque ?6/TJ9.Q.8.7 QC AH A8.TKJ97.TKQJ97.AKJ98 - b 29:34 tricks=4:5"


def brisque(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "solver.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_a_hidden_hand_may_exchange_when_it_may_hold_the_seven():
    p = Position(VIEW)
    p.push("7S")
    p.push("x")  # a may hold the 7 of clubs: it is unseen
    assert p.exchanged == 0 and p.taken == Position(VIEW).turnup
    assert p.unknown[0] == 5 and p.hands[0] == 1 << p.taken  # the queen taken is known now
    assert p.problems() == []
    q = Position(SEVEN_SEEN)
    assert q.problems() == []
    q.push("8D")
    with pytest.raises(HiddenInformationError, match="cannot play x for a"):
        q.push("x")


def test_analyse_reports_a_line_that_leaves_the_view(tmp_path: Path):
    r = brisque("analyse", VIEW, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "Value for b: -56 (exact)" in r.stdout
    assert "10: b 7S, a x, a QC -> a" in r.stdout
    assert "then +mS " in r.stdout and "the view does not show a's cards" in r.stdout


def test_a_puzzle_takes_the_engines_line_with_the_exchange(tmp_path: Path):
    (tmp_path / "x.bpd").write_text(f'{VIEW} ; id "pv-x" ; pv 7S x\n')
    r = brisque("puzzles", "x.bpd", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok") and "1 of 1 solved" in r.stdout
