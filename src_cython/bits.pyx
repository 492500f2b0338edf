# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Card-set bit operations for the Python model (solver.native.bits).

The follow rule and the trick winner are the engine's own (cards.pxd), so the model and
the search cannot disagree on them.  The pure Python twin of this module is
:mod:`solver.model.pure_bits`; both must agree (tests/model/test_bits.py).

>>> popcount(0b1011)
3
"""
from libc.stdint cimport uint32_t

from cards cimport __builtin_ctz, __builtin_popcount, follow_cards, leader_wins
from cards cimport winning_replies as c_winning_replies
from cards cimport points_of as c_points_of


cpdef int popcount(unsigned int mask):
    """Number of cards in ``mask``."""
    return __builtin_popcount(mask)


cpdef list cards_of(unsigned int mask):
    """The cards of ``mask`` in ascending order."""
    cdef list out = []
    cdef uint32_t m = mask
    while m:
        out.append(__builtin_ctz(m))
        m &= m - 1
    return out


cpdef int points_of(unsigned int mask):
    """Sum of the card points (A 11, T 10, K 4, Q 3, J 2) of ``mask``."""
    return c_points_of(mask)


cpdef int trick_winner(int led, int follow, int trump):
    """0 when the led card wins the trick, 1 when the follower's card wins."""
    return 0 if leader_wins(led, follow, trump) else 1


cpdef unsigned int follow_mask(unsigned int hand, int led, int trump, bint must_beat):
    """Cards of ``hand`` the follower may play under the forced-follow rule.

    With ``must_beat`` (Brisque/Briscan final phase): a higher card of the suit led, else
    any of the suit led, else any trump, else anything.  Without it (Petite Brisque): the
    suit led, else a trump, else anything.
    """
    return follow_cards(hand, led, trump, must_beat)


cpdef unsigned int winning_replies(unsigned int replies, int led, int trump):
    """The cards of ``replies`` that win the trick against ``led`` (the engine's mask form
    of :func:`trick_winner`, used to order its moves)."""
    return c_winning_replies(replies, led, trump)
