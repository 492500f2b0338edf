"""The quick search, which each sampled world gets: three tricks to the learned network in
Brisque and Briscan; without a network (Petite Brisque), exact in the last four talon tricks
and a four-trick estimate to the linear evaluation before; solve(p, quick=True) and
brisque solve --quick run exactly it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from solver import analyse, solve
from solver.engine import Solver
from solver.engine.quick import (
    DEFAULT_DEPTH,
    EXACT_TALON_TRICKS,
    LEARNED_DEPTH,
    WorldSearch,
    exact_late_limit,
    has_network,
    quick_limit,
    reaches_final_phase,
    talon_tricks_left,
)
from solver.engine.results import Limit
from solver.errors import ArgumentError
from solver.play import random_position


def positions_with_talon_tricks(k: int, count: int, game: str = "brisque") -> list:
    out, seed = [], 0
    first = talon_tricks_left(random_position(0, game, 1))  # (Petite's talon is longer)
    while len(out) < count:
        p = random_position(seed, game, first + 1 - k)
        seed += 1
        if not p.is_over() and p.trick < 0 and not p.in_window and talon_tricks_left(p) == k:
            out.append(p)
    return out


@pytest.mark.parametrize("k", [1, LEARNED_DEPTH])
def test_three_tricks_reach_the_final_phase_and_are_exact(k):
    # with at most three talon tricks left the learned search reaches the final phase, which
    # it solves exactly: the quick search of Brisque is exact there as the old one was
    for p in positions_with_talon_tricks(k, 3):
        d = Solver(p.rules, horizon="learned").solve(p, pv=False, limit=Limit(depth=LEARNED_DEPTH))
        e = solve(p, pv=False)
        assert d.exact and [m.value for m in d.moves] == [m.value for m in e.moves]
        # so the quick search's values there are exact
        q = solve(p, quick=True, pv=False)
        assert quick_limit(p) == Limit(depth=LEARNED_DEPTH) and q.exact and q.value == e.value
        # and the sampled answers say so (line analysis judges mistakes on them)
        assert reaches_final_phase(p, quick_limit(p))
        assert analyse(p.view(p.turn), worlds=3, seed=1).world_method == "exact"
    p = positions_with_talon_tricks(LEARNED_DEPTH + 1, 1)[0]
    assert not reaches_final_phase(p, quick_limit(p)) and reaches_final_phase(p, Limit(depth=4))
    assert analyse(p.view(p.turn), worlds=3, seed=1).world_method == "depth 3 learned"


@pytest.mark.parametrize("k", [1, EXACT_TALON_TRICKS])
def test_without_a_network_late_positions_are_solved_exactly(k):
    for p in positions_with_talon_tricks(k, 3):
        # the linear search (Brisque's quick search before the network) and Petite's quick one
        assert exact_late_limit(p) is None and WorldSearch.parse("linear").limit(p) is None
        assert analyse(p.view(p.turn), worlds=3, seed=1, world_search="linear").world_method == "exact"
    for p in positions_with_talon_tricks(k, 2, "petite(draw=yes)"):
        assert not has_network(p.rules) and quick_limit(p) is None
        assert WorldSearch().horizon(p.rules) == "linear"
        assert solve(p, quick=True, pv=False).exact


def test_earlier_positions_get_the_estimate_of_their_game():
    for p in positions_with_talon_tricks(EXACT_TALON_TRICKS + 2, 3):
        q = solve(p, quick=True, pv=False)
        d = Solver(p.rules, horizon="learned").solve(p, pv=False, limit=Limit(depth=LEARNED_DEPTH))
        assert q.depth == LEARNED_DEPTH == 3 and [m.value for m in q.moves] == [m.value for m in d.moves]
        assert analyse(p.view(p.turn), worlds=3, seed=1).world_method == "depth 3 learned"
        assert exact_late_limit(p) == Limit(depth=DEFAULT_DEPTH)
    for p in positions_with_talon_tricks(EXACT_TALON_TRICKS + 2, 2, "petite(draw=yes)"):
        assert quick_limit(p) == Limit(depth=DEFAULT_DEPTH) and DEFAULT_DEPTH == 4
        assert solve(p, quick=True, pv=False).depth == DEFAULT_DEPTH


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
