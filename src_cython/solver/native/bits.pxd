# The bit operations of bits.pyx, for Python (solver.native.bits) and for Cython modules
# that cimport them; the follow rule and the trick winner come from cards.pxd.
cpdef int popcount(unsigned int mask)
cpdef list cards_of(unsigned int mask)
cpdef int points_of(unsigned int mask)
cpdef int trick_winner(int led, int follow, int trump)
cpdef unsigned int follow_mask(unsigned int hand, int led, int trump, bint must_beat)
cpdef unsigned int winning_replies(unsigned int replies, int led, int trump)
