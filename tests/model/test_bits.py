"""The card-set bit operations: the pure Python twin (solver.model.pure_bits) and the compiled
module (solver.native.bits) pass the same tests, and agree with each other everywhere."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.model import pure_bits

try:
    from solver.native import bits as native_bits
except ImportError as exc:  # pragma: no cover - depends on the build (EngineMissingError)
    native_bits = None
    REASON = f"solver.native.bits is not importable (extension not built?): {exc}"
else:
    REASON = ""

needs_compiled = pytest.mark.skipif(native_bits is None, reason=REASON or "compiled module present")

IMPLEMENTATIONS = [
    pytest.param(pure_bits, id="pure"),
    pytest.param(native_bits, id="compiled", marks=needs_compiled),
]


@pytest.fixture(scope="module", params=IMPLEMENTATIONS)
def bits(request):
    """Each implementation of the bit operations in turn (module scope: hypothesis-safe)."""
    return request.param


masks = st.integers(0, 0xFFFFFFFF)
cards = st.integers(0, 31)


def _random_masks(n=5000):
    rng = random.Random(20240601)
    out = [0, 0xFFFFFFFF, 1, 1 << 31, 0x80000001, 0xFF, 0xFF000000]
    for _ in range(n):
        k = rng.randint(0, 32)
        out.append(sum(1 << c for c in rng.sample(range(32), k)))
    return out


# ---------------------------------------------------------------- each implementation
def test_basics(bits):
    assert bits.popcount(0) == 0 and bits.popcount(0xFFFFFFFF) == 32
    assert bits.cards_of(0b1010_0001) == [0, 5, 7]
    assert bits.cards_of(0) == [] and bits.cards_of(0xFFFFFFFF) == list(range(32))
    assert bits.points_of(0xFFFFFFFF) == 120
    assert bits.points_of(0xFF) == 30  # one suit: 11+10+4+3+2
    # trick order 7 8 9 J Q K T A, spades (0) trumps
    AH, TH, KH, QH, SEVEN_S = 15, 14, 13, 12, 0
    assert bits.trick_winner(QH, KH, 0) == 1 and bits.trick_winner(KH, QH, 0) == 0
    assert bits.trick_winner(KH, TH, 0) == 1 and bits.trick_winner(TH, AH, 0) == 1
    assert bits.trick_winner(AH, SEVEN_S, 0) == 1  # any trump beats a plain suit
    assert bits.trick_winner(AH, 16 + 7, 0) == 0  # another plain suit never wins
    assert bits.trick_winner(SEVEN_S, AH, 0) == 0


def test_follow_mask(bits):
    # RULES.md: spades trumps, QH led
    QH = 12
    h = lambda *cs: sum(1 << c for c in cs)  # noqa: E731
    SEVEN_H, KING_H, ACE_S, NINE_C, EIGHT_D = 8, 13, 7, 26, 17
    assert bits.follow_mask(h(SEVEN_H, KING_H, ACE_S), QH, 0, True) == h(KING_H)
    assert bits.follow_mask(h(SEVEN_H, KING_H, ACE_S), QH, 0, False) == h(SEVEN_H, KING_H)
    assert bits.follow_mask(h(SEVEN_H, ACE_S), QH, 0, True) == h(SEVEN_H)
    assert bits.follow_mask(h(NINE_C, ACE_S), QH, 0, True) == h(ACE_S)
    assert bits.follow_mask(h(NINE_C, EIGHT_D), QH, 0, True) == h(NINE_C, EIGHT_D)


def test_follow_mask_is_a_nonempty_subset_of_the_hand(bits):
    for m in _random_masks(2000):
        if not m:
            continue
        for led in (0, 12, 31):
            hand = m & ~(1 << led)
            if not hand:
                continue
            for must_beat in (True, False):
                f = bits.follow_mask(hand, led, 1, must_beat)
                assert f and f & ~hand == 0


def test_trick_winner_ranks_cards_of_one_suit_and_trumps(bits):
    # of two cards of one suit, or of a trump and a plain card, the same one wins whichever
    # is led; of two plain cards of different suits, the card led wins
    for a in range(32):
        for b in range(32):
            if a == b:
                continue
            for trump in range(4):
                if a >> 3 == b >> 3 or (a >> 3 == trump) != (b >> 3 == trump):
                    assert bits.trick_winner(a, b, trump) != bits.trick_winner(b, a, trump)
                else:
                    assert bits.trick_winner(a, b, trump) == 0


@given(masks, masks)
def test_popcount_and_points_are_additive(bits, m1, m2):
    disjoint = m2 & ~m1
    assert bits.popcount(m1 | disjoint) == bits.popcount(m1) + bits.popcount(disjoint)
    assert bits.points_of(m1 | disjoint) == bits.points_of(m1) + bits.points_of(disjoint)
    assert len(bits.cards_of(m1)) == bits.popcount(m1)
    assert sum(1 << c for c in bits.cards_of(m1)) == m1


def test_bits_facade_uses_the_compiled_module_when_built():
    import os

    import solver.model.bits as facade

    if facade.wants_pure(os.environ.get("BRISQUE_PURE")):
        assert facade.COMPILED is False and facade.popcount is pure_bits.popcount
    else:
        assert facade.COMPILED is (native_bits is not None)
        assert facade.follow_mask is (
            native_bits.follow_mask if native_bits is not None else pure_bits.follow_mask
        )


# ---------------------------------------------------------------- compiled vs Python
@needs_compiled
def test_popcount_cards_points_agree():
    for m in _random_masks():
        assert native_bits.popcount(m) == pure_bits.popcount(m)
        assert native_bits.cards_of(m) == pure_bits.cards_of(m)
        assert native_bits.points_of(m) == pure_bits.points_of(m)


@needs_compiled
def test_trick_winner_agrees_on_every_pair():
    for led in range(32):
        for follow in range(32):
            if follow == led:
                continue
            for trump in range(4):
                assert native_bits.trick_winner(led, follow, trump) == pure_bits.trick_winner(
                    led, follow, trump
                )


@needs_compiled
def test_follow_mask_agrees():
    rng = random.Random(7)
    for m in _random_masks(3000):
        for _ in range(3):
            led = rng.randrange(32)
            hand = m & ~(1 << led)
            trump = rng.randrange(4)
            for must_beat in (True, False):
                assert native_bits.follow_mask(hand, led, trump, must_beat) == pure_bits.follow_mask(
                    hand, led, trump, must_beat
                ), (hex(hand), led, trump, must_beat)


@needs_compiled
@given(masks, cards, st.integers(0, 3), st.booleans())
def test_bits_agree_hypothesis(mask, led, trump, must_beat):
    assert native_bits.popcount(mask) == pure_bits.popcount(mask)
    assert native_bits.cards_of(mask) == pure_bits.cards_of(mask)
    assert native_bits.points_of(mask) == pure_bits.points_of(mask)
    assert native_bits.follow_mask(mask, led, trump, must_beat) == pure_bits.follow_mask(
        mask, led, trump, must_beat
    )
    follow = (led + 1 + mask % 31) % 32
    assert native_bits.trick_winner(led, follow, trump) == pure_bits.trick_winner(led, follow, trump)


def test_the_engines_mask_of_winning_replies_is_the_trick_winner_rule():
    # every led card, every other card as a reply, every trump suit: the mask the engine
    # orders its moves by says exactly what trick_winner says, in both implementations
    from solver.model import pure_bits
    from solver.native import bits as native

    for trump in range(4):
        for led in range(32):
            mask = native.winning_replies(0xFFFFFFFF & ~(1 << led), led, trump)
            for reply in range(32):
                if reply == led:
                    continue
                wins = bool(mask >> reply & 1)
                assert (
                    wins
                    == (native.trick_winner(led, reply, trump) == 1)
                    == (pure_bits.trick_winner(led, reply, trump) == 1)
                ), (led, reply, trump)
