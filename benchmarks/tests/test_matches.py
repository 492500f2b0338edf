"""Paired duplicate matches (benchmarks/harness/matches.py) and the equal-time script's
``--paired`` (benchmarks/bench_equal_time.py)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.harness import matches
from benchmarks.tests.conftest import ROOT, deal_record, write_records
from solver.play.match import t95

rec = deal_record
A = [rec(0, "a", 10), rec(0, "b", 6), rec(1, "a", 0), rec(1, "b", 4), rec(2, "a", 0, win="a"), rec(2, "b", 0)]
A += [rec(3, "a", 30), rec(3, "b", 20), rec(4, "a", 8)]  # (pair 4 unfinished)
B = [rec(0, "a", 4), rec(0, "b", 4), rec(1, "a", 2), rec(1, "b", -2), rec(2, "a", 50), rec(2, "b", 50)]
B += [rec(3, "a", 0), rec(3, "b", 10), rec(4, "a", 0), rec(4, "b", 0)]


def test_two_matches_on_the_same_deals_compare_pair_by_pair() -> None:
    """The first players' pair means, A less B, over the pairs neither match ended with a
    game-winning event (its 95% interval by Student's t)."""
    r = matches.paired(A, B)
    diffs = [4.0, 2.0, 20.0]  # pairs 0, 1, 3: pair 2 had a game won, pair 4 is not complete in A
    mean = sum(diffs) / 3
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 2)
    assert r["pairs"] == 3 and r["mean"] == pytest.approx(mean)
    assert r["ci95"] == pytest.approx([mean - t95(2) * sd / math.sqrt(3), mean + t95(2) * sd / math.sqrt(3)])
    with pytest.raises(ValueError, match="seed 7 in one match and 0 in the other"):
        matches.paired([rec(0, "a", 1, seed=7), rec(0, "b", 1, seed=7)], B)
    with pytest.raises(ValueError, match="expected 2 or more"):
        matches.paired(A[:2], B[:2])


def test_the_equal_time_script_pairs_two_record_files_and_says_why_it_cannot(tmp_path: Path) -> None:
    def paired(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
        files = [str(write_records(tmp_path / f"{n}.jsonl", r)) for n, r in (("a", a), ("b", b))]
        return subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_equal_time", "--paired", *files],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )

    done = paired(A, B)
    assert done.returncode == 0, done.stderr
    assert '"pairs": 3' in done.stdout
    refused = paired(A[:2], B[:2])
    assert refused.returncode == 1 and "--paired: 1 pairs without events" in refused.stderr
