"""The engine's strength levels and the human-like player of the lowest ones."""

from __future__ import annotations

import re

import pytest

from solver.analysis.sampling import analyse
from solver.errors import ArgumentError
from solver.play.dealing import random_position
from solver.play.levels import LEVELS, level
from solver.play.players import HumanlikePlayer, _decision_seed, make_player


def test_every_level_is_a_player_and_the_levels_rise() -> None:
    assert [lv.number for lv in LEVELS] == list(range(1, len(LEVELS) + 1))
    for lv in LEVELS:
        assert make_player(lv.spec).name == lv.spec
    assert level(1).spec.startswith("humanlike:") and level(len(LEVELS)).spec.startswith("pimc:")


@pytest.mark.parametrize("bad", [0, 6, "2", 1.5, None, True])
def test_a_bad_level_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ArgumentError, match=re.escape(f"level={bad!r}")):
        level(bad)


def positions() -> list:
    out = []
    for seed in range(40):
        p = random_position(seed, "brisque", 1 + seed % 9)
        if not p.is_over() and len(p.legal_moves()) > 2:
            out.append(p)
    return out


def test_the_humanlike_player_picks_only_near_best_moves_and_is_seeded() -> None:
    player = HumanlikePlayer(6, 0.1, seed=3)
    not_best = 0
    for p in positions():
        m = player.choose(p)
        assert m == player.choose(p.copy())  # the same position, the same choice
        view = p.view(p.turn)
        a = analyse(view, worlds=6, seed=_decision_seed(view, 3))
        values = {mv.move: mv.value for mv in a.moves}
        assert max(values.values()) - values[m] <= HumanlikePlayer.NEAR
        not_best += values[m] < max(values.values())
    assert not_best >= 3  # it makes mistakes, as a beginner does


def test_a_sharp_humanlike_player_nearly_always_plays_the_best() -> None:
    player = HumanlikePlayer(6, 10.0, seed=3)
    misses = 0
    for p in positions():
        view = p.view(p.turn)
        a = analyse(view, worlds=6, seed=_decision_seed(view, 3))
        best = max(mv.value for mv in a.moves)
        chosen = next(mv.value for mv in a.moves if mv.move == player.choose(p))
        misses += chosen < best - 0.5
    assert misses <= 1


@pytest.mark.parametrize(
    "spec", ["humanlike:x:1", "humanlike:8", "humanlike:8:-1", "humanlike:8:nan", "humanlike:0:1"]
)
def test_a_bad_humanlike_spec_is_a_clear_error(spec: str) -> None:
    with pytest.raises(ArgumentError, match=re.escape(f"player '{spec}': expected humanlike:N:BETA")):
        make_player(spec)
