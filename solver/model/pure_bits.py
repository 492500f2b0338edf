"""Plain Python twin of the compiled ``solver.native.bits`` module.

The model uses it instead of the compiled module when ``BRISQUE_PURE=1`` is set, and
the tests use it as the oracle the compiled version is checked against.  (The package
still needs its compiled modules: the shared numbers come from ``solver.native.constants``.)

>>> popcount(0b1011)
3
"""

from __future__ import annotations

from solver.native.constants import RANK_POINTS


def popcount(mask: int) -> int:
    """Number of cards in ``mask``."""
    return bin(mask).count("1")


def cards_of(mask: int) -> list[int]:
    """The cards of ``mask`` in ascending order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def points_of(mask: int) -> int:
    """Sum of the card points of ``mask``."""
    return sum(RANK_POINTS[c & 7] for c in cards_of(mask))


def trick_winner(led: int, follow: int, trump: int) -> int:
    """0 when the led card wins the trick, 1 when the follower's card wins."""
    if follow >> 3 == led >> 3:
        return 1 if follow > led else 0
    return 1 if follow >> 3 == trump else 0


def follow_mask(hand: int, led: int, trump: int, must_beat: bool) -> int:
    """Cards of ``hand`` the follower may play under the forced-follow rule."""
    suit_cards = hand & (0xFF << ((led >> 3) * 8))
    if suit_cards:
        if must_beat:
            higher = suit_cards & ~((2 << led) - 1)
            if higher:
                return higher
        return suit_cards
    trumps = hand & (0xFF << (trump * 8))
    return trumps or hand
