"""The compiled bit module agrees with its plain Python twin."""
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver import _bits_py as py

try:
    from solver import _bits as cy
except ImportError as exc:  # pragma: no cover - depends on the build
    cy = None
    REASON = f"solver._bits is not importable (extension not built?): {exc}"
else:
    REASON = ""

needs_compiled = pytest.mark.skipif(cy is None, reason=REASON or "compiled module present")

masks = st.integers(0, 0xFFFFFFFF)
cards = st.integers(0, 31)


def _random_masks(n=5000):
    rng = random.Random(20240601)
    out = [0, 0xFFFFFFFF, 1, 1 << 31, 0x80000001, 0xFF, 0xFF000000]
    for _ in range(n):
        k = rng.randint(0, 32)
        out.append(sum(1 << c for c in rng.sample(range(32), k)))
    return out


# ---------------------------------------------------------------- the Python twin itself
def test_python_twin_basics():
    assert py.popcount(0) == 0 and py.popcount(0xFFFFFFFF) == 32
    assert py.cards_of(0b1010_0001) == [0, 5, 7]
    assert py.points_of(0xFFFFFFFF) == 120
    assert py.points_of(0xFF) == 30                 # one suit: 11+10+4+3+2
    # trick order 7 8 9 J Q K T A, spades (0) trumps
    AH, TH, KH, QH, SEVEN_S = 15, 14, 13, 12, 0
    assert py.trick_winner(QH, KH, 0) == 1 and py.trick_winner(KH, QH, 0) == 0
    assert py.trick_winner(KH, TH, 0) == 1 and py.trick_winner(TH, AH, 0) == 1
    assert py.trick_winner(AH, SEVEN_S, 0) == 1     # any trump beats a plain suit
    assert py.trick_winner(AH, 16 + 7, 0) == 0      # another plain suit never wins
    assert py.trick_winner(SEVEN_S, AH, 0) == 0


def test_python_twin_follow_mask():
    # RULES.md: spades trumps, QH led
    QH = 12
    h = lambda *cs: sum(1 << c for c in cs)  # noqa: E731
    SEVEN_H, KING_H, ACE_S, NINE_C, EIGHT_D = 8, 13, 7, 26, 17
    assert py.follow_mask(h(SEVEN_H, KING_H, ACE_S), QH, 0, True) == h(KING_H)
    assert py.follow_mask(h(SEVEN_H, KING_H, ACE_S), QH, 0, False) == h(SEVEN_H, KING_H)
    assert py.follow_mask(h(SEVEN_H, ACE_S), QH, 0, True) == h(SEVEN_H)
    assert py.follow_mask(h(NINE_C, ACE_S), QH, 0, True) == h(ACE_S)
    assert py.follow_mask(h(NINE_C, EIGHT_D), QH, 0, True) == h(NINE_C, EIGHT_D)


def test_bits_facade_uses_the_compiled_module_when_built():
    import os

    import solver.bits as bits
    if os.environ.get("BRISQUE_PURE"):
        assert bits.COMPILED is False and bits.popcount is py.popcount
    else:
        assert bits.COMPILED is (cy is not None)
        assert bits.follow_mask is (cy.follow_mask if cy is not None else py.follow_mask)


# ---------------------------------------------------------------- compiled vs Python
@needs_compiled
def test_popcount_cards_points_agree():
    for m in _random_masks():
        assert cy.popcount(m) == py.popcount(m)
        assert cy.cards_of(m) == py.cards_of(m)
        assert cy.points_of(m) == py.points_of(m)


@needs_compiled
def test_trick_winner_agrees_on_every_pair():
    for led in range(32):
        for follow in range(32):
            if follow == led:
                continue
            for trump in range(4):
                assert cy.trick_winner(led, follow, trump) == py.trick_winner(led, follow, trump)


@needs_compiled
def test_follow_mask_agrees():
    rng = random.Random(7)
    for m in _random_masks(3000):
        for _ in range(3):
            led = rng.randrange(32)
            hand = m & ~(1 << led)
            trump = rng.randrange(4)
            for must_beat in (True, False):
                assert cy.follow_mask(hand, led, trump, must_beat) == \
                    py.follow_mask(hand, led, trump, must_beat), (hex(hand), led, trump, must_beat)


@needs_compiled
@given(masks, cards, st.integers(0, 3), st.booleans())
def test_bits_agree_hypothesis(mask, led, trump, must_beat):
    assert cy.popcount(mask) == py.popcount(mask)
    assert cy.cards_of(mask) == py.cards_of(mask)
    assert cy.points_of(mask) == py.points_of(mask)
    assert cy.follow_mask(mask, led, trump, must_beat) == py.follow_mask(mask, led, trump, must_beat)
    follow = (led + 1 + mask % 31) % 32
    assert cy.trick_winner(led, follow, trump) == py.trick_winner(led, follow, trump)


@needs_compiled
def test_follow_mask_is_a_nonempty_subset_of_the_hand():
    for m in _random_masks(2000):
        if not m:
            continue
        for led in (0, 12, 31):
            hand = m & ~(1 << led)
            if not hand:
                continue
            for must_beat in (True, False):
                f = cy.follow_mask(hand, led, 1, must_beat)
                assert f and f & ~hand == 0
