# The learned horizon evaluation: a small network over where each card lies, evaluated at
# the horizon of a depth-limited search.  solver/engine/evaluation/network.py is its plain
# Python twin (the input layout, its sizes constants.pxd's, is documented and fingerprinted
# in solver/engine/evaluation/features.py, and every network file carries that fingerprint);
# tests hold the two to the same numbers, so the additions below run in the twin's order
# (inputs in increasing order, then each layer's units in order) and the build contracts no
# multiply-add (setup.py: -ffp-contract=off).
from libc.stdint cimport uint32_t

from cards cimport __builtin_ctz
from constants cimport (G_BRISCAN, N_MELDS, NET_EXCHANGE, NET_H1, NET_H2, NET_LEVEL, NET_LEVELS,
    NET_MELDS_ME, NET_MELDS_OPP, NET_OUTPUTS, NET_TRICKS_ME, NET_TRICKS_OPP)
from context cimport Ctx, State
from moves cimport meld_declared

cdef extern from *:
    """
    /* The two hidden layers, in C with the compiler's vectors of eight floats (GCC and
       Clang; two SSE registers each without AVX), since the compiler would not vectorize
       the plain loops: each lane adds exactly what the Python twin adds, in its order
       (input rows in the order given; then for each unit of the first layer above 0, its
       row of the second).  The weights are 64-byte aligned (Engine.set_network), their
       rows multiples of 8 floats. */
    typedef float brisque_v8 __attribute__((vector_size(32), may_alias));
    _Static_assert(NET_H1 % 8 == 0 && NET_H2 % 8 == 0, "hidden widths: multiples of 8");
    /* a processor with AVX2 runs a copy compiled for it (GCC picks it at load time): the
       same operations in the same order, eight lanes at once (and no multiply-add:
       setup.py's -ffp-contract=off) */
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
    __attribute__((target_clones("avx2", "default")))
    #endif
    static void brisque_net_hidden(const float* w1, const float* b1, const float* w2,
                                          const float* b2, const int* on, int n, float* out) {
        brisque_v8 h[NET_H1 / 8], g[NET_H2 / 8];
        const brisque_v8* row;
        const float* hf = (const float*) h;
        int i, j, k;
        for (j = 0; j < NET_H1 / 8; j++) h[j] = ((const brisque_v8*) b1)[j];
        for (i = 0; i < n; i++) {
            row = (const brisque_v8*) (w1 + (long) on[i] * NET_H1);
            for (j = 0; j < NET_H1 / 8; j++) h[j] += row[j];
        }
        for (k = 0; k < NET_H2 / 8; k++) g[k] = ((const brisque_v8*) b2)[k];
        for (j = 0; j < NET_H1; j++) {
            float v = hf[j];
            if (v > 0.0f) {   /* a rectified unit at 0 adds nothing */
                brisque_v8 vv = {v, v, v, v, v, v, v, v};
                row = (const brisque_v8*) (w2 + (long) j * NET_H2);
                for (k = 0; k < NET_H2 / 8; k++) g[k] += vv * row[k];
            }
        }
        for (k = 0; k < NET_H2 / 8; k++) ((brisque_v8*) out)[k] = g[k];
    }
    """
    void brisque_net_hidden(const float* w1, const float* b1, const float* w2, const float* b2,
                            const int* on, int n, float* out) noexcept nogil


cdef enum:
    NET_MAX_ON = 64     # inputs on at once: 32 cards, the melds (a few), exchange, level, tricks


cdef inline int talon_tricks_left(Ctx* c, State* s) noexcept nogil:
    """Tricks still to be played before the talon (and turnup) runs out."""
    return (c.root.talon_len - s.talon_idx + (1 if s.turnup >= 0 else 0) + 1) // 2


cdef inline int canonical_card(int card, int trump) noexcept nogil:
    """The card with its suit renumbered from the trump (trump 0, then the suits after it)."""
    return (((card >> 3) - trump) & 3) * 8 + (card & 7)


cdef inline int network_inputs(Ctx* c, State* s, int* on) noexcept nogil:
    """The inputs that are on at the start of a turn, in increasing order; returns how many."""
    cdef int me = s.turn, n = 0, p, place, i, k, card, trump = c.root.trump, x, j
    cdef uint32_t h
    for p in range(2):
        h = s.hand[me if p == 0 else 1 - me]
        place = p          # 0 his hand, 1 his opponent's
        while h:
            card = __builtin_ctz(h)
            h &= h - 1
            on[n] = place * 32 + canonical_card(card, trump)
            n += 1
    for i in range(s.talon_idx, c.root.talon_len):
        k = i - s.talon_idx
        place = 2 if k == 0 else (3 if k == 1 else (4 if k % 2 == 0 else 5))
        on[n] = place * 32 + canonical_card(c.root.talon[i], trump)
        n += 1
    if s.turnup >= 0:
        on[n] = 6 * 32 + canonical_card(s.turnup, trump)
        n += 1
    for k in range(c.melds.n_allowed):
        i = c.melds.allowed[k]
        if meld_declared(s, me, i):
            on[n] = NET_MELDS_ME + c.horizon.net.meld_canon[trump][i]
            n += 1
        if meld_declared(s, 1 - me, i):
            on[n] = NET_MELDS_OPP + c.horizon.net.meld_canon[trump][i]
            n += 1
    if c.rules.exchange and s.turnup >= 0 and s.turnup != trump * 8 and s.exchanged < 0:
        on[n] = NET_EXCHANGE
        n += 1
    k = talon_tricks_left(c, s)
    on[n] = NET_LEVEL + (k if k < NET_LEVELS else NET_LEVELS - 1)
    n += 1
    if c.rules.game == G_BRISCAN:
        on[n] = NET_TRICKS_ME + s.tricks[me]
        on[n + 1] = NET_TRICKS_OPP + s.tricks[1 - me]
        n += 2
    # insertion sort: a few dozen numbers, nearly in order already
    for i in range(1, n):
        x = on[i]
        j = i - 1
        while j >= 0 and on[j] > x:
            on[j + 1] = on[j]
            j -= 1
        on[j + 1] = x
    return n


cdef inline void network_outputs(Ctx* c, State* s, float* out) noexcept nogil:
    """The network's three outputs (margin, win logit, loss logit) for the player to move."""
    cdef int on[NET_MAX_ON]
    cdef float g[NET_H2]
    cdef int n = network_inputs(c, s, on), i, j, k, o
    cdef float* row
    cdef float v
    brisque_net_hidden(c.horizon.net.w1, c.horizon.net.b1, c.horizon.net.w2, c.horizon.net.b2, on, n, g)
    for o in range(NET_OUTPUTS):
        out[o] = c.horizon.net.b3[o]
    for k in range(NET_H2):
        v = g[k]
        if v > 0.0:
            row = c.horizon.net.w3 + k * NET_OUTPUTS
            for o in range(NET_OUTPUTS):
                out[o] += v * row[o]
