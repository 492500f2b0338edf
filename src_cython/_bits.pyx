# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Card-set bit operations shared by the Python model and the search engine.

A card is ``suit * 8 + rank`` with rank 0..7 = 7 8 9 J Q K T A (trick order),
suits 0..3 = S H D C.  A card set is a 32-bit mask.  The pure Python twin of
this module is :mod:`solver._bits_py`; both must agree (see tests/test_bits.py).

>>> popcount(0b1011)
3
"""
from libc.stdint cimport uint32_t

cdef int[8] RANK_POINTS = [0, 0, 0, 2, 3, 4, 10, 11]


cdef inline int c_popcount(uint32_t m) noexcept nogil:
    return __builtin_popcount(m)


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil


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
    cdef int total = 0
    cdef uint32_t m = mask
    cdef int c
    while m:
        c = __builtin_ctz(m)
        total += RANK_POINTS[c & 7]
        m &= m - 1
    return total


cpdef int trick_winner(int led, int follow, int trump):
    """0 when the led card wins the trick, 1 when the follower's card wins."""
    if (follow >> 3) == (led >> 3):
        return 1 if follow > led else 0
    return 1 if (follow >> 3) == trump else 0


cpdef unsigned int follow_mask(unsigned int hand, int led, int trump, bint must_beat):
    """Cards of ``hand`` the follower may play under the forced-follow rule.

    With ``must_beat`` (Brisque/Briscan final phase): a higher card of the suit
    led, else any of the suit led, else any trump, else anything.  Without it
    (Petite Brisque): the suit led, else a trump, else anything.
    """
    cdef uint32_t suit_cards = hand & (<uint32_t>0xFF << ((led >> 3) * 8))
    cdef uint32_t higher
    if suit_cards:
        if must_beat:
            # cards of the led suit strictly above the led card
            higher = suit_cards & ~((<uint32_t>2 << led) - 1)
            if higher:
                return higher
        return suit_cards
    cdef uint32_t trumps = hand & (<uint32_t>0xFF << (trump * 8))
    if trumps:
        return trumps
    return hand
