"""The lab's duplicate matches at equal time (benchmarks/bench_equal_time.py), run from the
repository's root (``.ci/run``): ``python -m pytest -n 0 benchmarks/test_bench_equal_time.py``.
"""

from __future__ import annotations

import math

import pytest

from benchmarks import bench_equal_time as bench
from solver.play.match import t95


def test_two_matches_on_the_same_deals_compare_pair_by_pair():
    """--paired: the first players' pair means, A less B, over
    the pairs neither match ended with a game-winning event (its 95% interval by Student's t)."""

    def rec(pair, at, margin, win=None, seed=None):
        return {"pair": pair, "first_at": at, "deal_seed": pair if seed is None else seed,
                "margin_first": margin, "win": win}  # fmt: skip

    a = [
        rec(0, "a", 10),
        rec(0, "b", 6),
        rec(1, "a", 0),
        rec(1, "b", 4),
        rec(2, "a", 0, win="a"),
        rec(2, "b", 0),
    ]
    a += [rec(3, "a", 30), rec(3, "b", 20), rec(4, "a", 8)]  # (pair 4 unfinished)
    b = [rec(0, "a", 4), rec(0, "b", 4), rec(1, "a", 2), rec(1, "b", -2), rec(2, "a", 50), rec(2, "b", 50)]
    b += [rec(3, "a", 0), rec(3, "b", 10), rec(4, "a", 0), rec(4, "b", 0)]
    r = bench.paired(a, b)
    diffs = [4.0, 2.0, 20.0]  # pairs 0, 1, 3: pair 2 had a game won, pair 4 is not complete in a
    mean = sum(diffs) / 3
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 2)
    assert r["pairs"] == 3 and r["mean"] == pytest.approx(mean)
    assert r["ci95"] == pytest.approx([mean - t95(2) * sd / math.sqrt(3), mean + t95(2) * sd / math.sqrt(3)])
    with pytest.raises(SystemExit, match="seed 7 in one match and 0 in the other"):
        bench.paired([rec(0, "a", 1, seed=7), rec(0, "b", 1, seed=7)], b)
    with pytest.raises(SystemExit, match="expected 2 or more"):
        bench.paired(a[:2], b[:2])
