"""The reference expectimax (solver.engine.reference_chance): both hands known, every draw
a chance event.  Held to the double-dummy reference when the talon's order is fixed, to
itself whatever order the talon is given in, and shown to differ from the clairvoyant
choice where the draws matter."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from solver.engine.reference import reference_values
from solver.engine.reference_chance import Chance, expectimax_chances, expectimax_values
from solver.engine.results import current_margin, final_value
from solver.engine.solving import solve
from solver.errors import ArgumentError, HiddenInformationError
from solver.model.position import Position
from solver.model.value import Value
from solver.native.constants import WIN_RAW, WIN_THRESHOLD
from solver.play.dealing import positions_with_talon_left

GAMES = ("brisque", "briscan")


def _hidden_talon(p: Position) -> Position:
    """``p`` with its talon face down (a count in BPN), both hands still open."""
    q = p.copy()
    q.talon = None
    return Position(q.bpn())


def _as_value(p: Position, total: int) -> Value:
    """The answer's Value of a final result (a margin, or +-WIN_RAW for a game win)."""
    return final_value(p, total if abs(total) >= WIN_THRESHOLD else total - current_margin(p))


@pytest.mark.parametrize("game", GAMES)
def test_a_fixed_talon_order_gives_the_double_dummy_values_back(game):
    # the expectimax's arithmetic (chances, margins, game wins) with one outcome at every
    # draw is the double-dummy search: every move's value the engine's, on 40 positions
    for p in positions_with_talon_left(2, 40, game):
        fixed = expectimax_values(p, fixed_order=True)
        assert all(v.denominator == 1 for v in fixed.values())
        engine = {str(mv.move): mv.value for mv in solve(p).moves}
        assert {m: _as_value(p, int(v)) for m, v in fixed.items()} == engine, p.bpn()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_whole_search_in_plain_python_agrees_with_the_reference_solver(game):
    # no compiled engine anywhere: the leaves by the reference solver too
    (p,) = positions_with_talon_left(2, 1, game, first_seed=7)
    fixed = expectimax_values(p, fixed_order=True, leaves="reference")
    assert {m: _as_value(p, int(v)) for m, v in fixed.items()} == {
        m: final_value(p, v) for m, v in reference_values(p).items()
    }
    assert expectimax_values(p, leaves="reference") == expectimax_values(p)


@pytest.mark.parametrize("game", GAMES)
def test_the_value_does_not_depend_on_the_order_the_talon_is_given_in(game):
    for i, p in enumerate(positions_with_talon_left(2, 15, game)):
        values = expectimax_values(p)
        shuffled = p.copy()
        assert shuffled.talon is not None
        random.Random(i).shuffle(shuffled.talon)
        assert expectimax_values(shuffled) == values
        assert expectimax_values(_hidden_talon(p)) == values  # (a talon given as a count)


def test_values_are_exact_fractions_of_the_draws():
    # two talon tricks left: three cards face down, 3 * 2 ordered draws, so every value is
    # a whole number of sixths
    for p in positions_with_talon_left(2, 10, "brisque"):
        assert p.talon_count == 3
        for value in expectimax_values(p).values():
            assert (value * 6).denominator == 1


def test_the_double_dummy_best_move_loses_to_the_expectimax_best():
    # a Brisque position with two talon tricks left where every move that is best knowing
    # the talon's order is worse than the best move with the draws unknown
    p = positions_with_talon_left(2, 1, "brisque")[0]
    dd = {str(mv.move): int(mv.value) for mv in solve(p).moves}  # (final margins, the talon's order known)
    ev = expectimax_values(p)
    clairvoyant = {m for m, v in dd.items() if v == max(dd.values())}
    best = {m for m, v in ev.items() if v == max(ev.values())}
    assert not clairvoyant & best
    assert max(ev.values()) - max(ev[m] for m in clairvoyant) > 10  # (12 2/3 points here)


def test_a_chance_result_flips_to_the_other_player():
    c = Chance(win=Fraction(1, 3), loss=Fraction(1, 6), margin=Fraction(5))
    assert c.other() == Chance(win=Fraction(1, 6), loss=Fraction(1, 3), margin=Fraction(-5))
    assert c.raw == Fraction(1, 6) * WIN_RAW + 5


def test_hidden_hands_and_unknown_leaves_are_refused():
    p = positions_with_talon_left(2, 1, "brisque")[0]
    with pytest.raises(HiddenInformationError, match="both hands known"):
        expectimax_values(p.view(p.turn))
    with pytest.raises(ArgumentError, match="leaves='nope': expected one of engine, reference"):
        expectimax_chances(p, leaves="nope")
