# Card-mask primitives shared by the bit-operations module (bits.pyx) and the engine.
#
# A card is suit * 8 + rank, rank 0..7 = 7 8 9 J Q K T A (trick order), suits 0..3 = S H D C;
# a card set is a 32-bit mask.  The follow rule and the trick winner are written here once.
from libc.stdint cimport uint32_t

from constants cimport brisque_byte_points


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil


cdef inline uint32_t suit_bits(int suit) noexcept nogil:
    """The mask of every card of ``suit``."""
    return (<uint32_t>0xFF) << (suit * 8)


cdef inline int points_of(uint32_t m) noexcept nogil:
    """The card points of the cards of ``m``."""
    return (brisque_byte_points[m & 0xFF] + brisque_byte_points[(m >> 8) & 0xFF]
            + brisque_byte_points[(m >> 16) & 0xFF] + brisque_byte_points[m >> 24])


cdef inline uint32_t follow_cards(uint32_t hand, int led, int trump, int must_beat) noexcept nogil:
    """The cards of ``hand`` the follower may play to ``led`` when following is obligatory:
    with ``must_beat`` a higher card of the suit led if he has one, else the suit led, else
    a trump, else anything (RULES.md)."""
    cdef uint32_t suit_cards = hand & suit_bits(led >> 3)
    cdef uint32_t higher, trumps
    if suit_cards:
        if must_beat:
            higher = suit_cards & ~((<uint32_t>2 << led) - 1)
            if higher:
                return higher
        return suit_cards
    trumps = hand & suit_bits(trump)
    if trumps:
        return trumps
    return hand


cdef inline int leader_wins(int led, int reply, int trump) noexcept nogil:
    """Whether the card led wins the trick against ``reply``: a higher card of the suit led
    or a trump beats it, nothing else does."""
    if (reply >> 3) == (led >> 3):
        return reply < led
    return (reply >> 3) != trump


cdef inline uint32_t winning_replies(uint32_t replies, int led, int trump) noexcept nogil:
    """The cards of ``replies`` that win the trick against ``led``: the mask form of
    :func:`leader_wins` (tests/model/test_bits.py checks that they agree on every card)."""
    cdef uint32_t wins = replies & suit_bits(led >> 3) & ~((<uint32_t>2 << led) - 1)
    if (led >> 3) != trump:
        wins |= replies & suit_bits(trump)
    return wins
