"""The quick search, which each sampled world gets: exact in the last four talon tricks, a
four-trick estimate (fitted horizon, game-win guard) before; solve(p, quick=True) and brisque solve --quick run exactly it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from solver import analyse, solve
from solver.engine.quick import DEFAULT_DEPTH, EXACT_TALON_TRICKS, quick_limit, talon_tricks_left
from solver.errors import ArgumentError
from solver.play import random_position


def positions_with_talon_tricks(k: int, count: int) -> list:
    out, seed = [], 0
    while len(out) < count:
        p = random_position(seed, "brisque", 11 - k)
        seed += 1
        if not p.is_over() and p.trick < 0 and not p.in_window and talon_tricks_left(p) == k:
            out.append(p)
    return out


@pytest.mark.parametrize("k", [1, EXACT_TALON_TRICKS])
def test_late_positions_are_solved_exactly(k):
    for p in positions_with_talon_tricks(k, 3):
        assert quick_limit(p) is None
        q = solve(p, quick=True, pv=False)
        assert q.exact and q.value == solve(p, pv=False).value
        # and sampled views of such positions solve every world exactly
        assert analyse(p.view(p.turn), worlds=3, seed=1).world_method == "exact"


def test_earlier_positions_get_the_four_trick_estimate():
    for p in positions_with_talon_tricks(EXACT_TALON_TRICKS + 2, 3):
        q = solve(p, quick=True, pv=False)
        d = solve(p, depth=DEFAULT_DEPTH, pv=False)
        assert q.depth == DEFAULT_DEPTH == 4 and [m.value for m in q.moves] == [m.value for m in d.moves]
        assert analyse(p.view(p.turn), worlds=3, seed=1).world_method == "depth 4"


def test_quick_takes_no_other_limit(tmp_path):
    p = positions_with_talon_tricks(2, 1)[0]
    with pytest.raises(ArgumentError, match="quick"):
        solve(p, quick=True, depth=2)
    res = subprocess.run(
        [sys.executable, "-m", "solver.cli", "solve", p.bpn(), "--quick", "--nodes", "5"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # (not the checkout, whose unbuilt sources would shadow the package)
    )
    assert res.returncode == 2 and "Traceback" not in res.stderr
