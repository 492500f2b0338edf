# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled alpha-beta solver for perfect-information positions.

The search runs on a C struct of card masks with copy-make moves: no Python
object is touched between the root call and its return.  Values are *raw
future* values: the gain (score, or tricks, margin) of the player to move from
here to the end of the deal; a game-winning event is worth +-WIN_RAW.  The
transposition table stores lower and upper bounds of that future value at the
start of turns (no trick in progress), so that positions reached with other
scores share entries.  ``solver.search`` is the public face of this module.
"""
from libc.stdint cimport uint32_t, uint64_t, int32_t, int16_t, int8_t, uint16_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libc.time cimport clock, clock_t, CLOCKS_PER_SEC

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #ifdef __linux__
    #include <sys/mman.h>
    #endif
    /* Tables of 2 MB or more ask for huge pages: fewer TLB misses on random probes. */
    static void* brisque_table_alloc(size_t bytes) {
        void* p = NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= ((size_t)2 << 20)) {
            if (posix_memalign(&p, (size_t)2 << 20, bytes) != 0) return NULL;
            madvise(p, bytes, MADV_HUGEPAGE);
            memset(p, 0, bytes);
            return p;
        }
    #endif
        if (posix_memalign(&p, 64, bytes) != 0) return NULL;   /* buckets on cache lines */
        memset(p, 0, bytes);
        return p;
    }
    """
    void* brisque_table_alloc(size_t bytes) nogil
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil


cdef enum:
    MOVE_X = 32
    MOVE_PASS = 33
    DECL_BASE = 40
    N_MELDS = 72
    WIN_RAW = 30000
    WIN_THRESHOLD = 15000   # raw values beyond are game-winning events
    INF = 1000000
    MAXMOVES = 96
    EXACT_DEPTH = 1000
    SMALL_ENDGAME = 6       # plain card play of at most this many cards each: plain_play
    FINAL_TABLE_BITS = 16   # the final phase's own table: 2 MB, stays in the cache
    PLAIN_TABLE_BITS = 17   # 2 MB
    PLAIN_TABLE_MIN = 3     # plain_play keeps a table from this many cards each
    ETC_MIN_TALON = 4       # enhanced transposition cutoffs only this far from the talon's end
    # meld kinds, as in solver/melds.py
    K_MARRIAGE = 0
    K_QUARTET = 1
    K_SEQUENCE = 2
    K_ACE_TRUMPS = 3
    K_BLANK_COURTS = 4
    K_BLANK_PLAIN = 5
    G_BRISQUE = 0
    G_BRISCAN = 1
    G_PETITE = 2

cdef int[8] RANK_POINTS = [0, 0, 0, 2, 3, 4, 10, 11]
cdef uint32_t COURT_MASK = 0x38383838u   # J Q K of every suit (ranks 3, 4, 5)
cdef int[256] BYTE_POINTS     # card points of the cards of one suit, by the suit's byte


cdef void _fill_byte_points():
    cdef int b, r
    for b in range(256):
        BYTE_POINTS[b] = 0
        for r in range(8):
            if (b >> r) & 1:
                BYTE_POINTS[b] += RANK_POINTS[r]


_fill_byte_points()


ctypedef struct State:
    uint32_t hand[2]
    uint32_t out
    int turnup            # card on the table, -1 once taken
    int talon_idx         # next card to draw from ctx.talon
    int trick             # card led, -1 when no trick is in progress
    int turn
    int tricks[2]
    int fin[2]            # final-phase tricks (Briscan bonus)
    uint64_t decl_lo[2]   # melds 0..63 declared, per player
    uint32_t decl_hi[2]   # melds 64..71
    uint32_t used_sm[2]   # cards of each player's declared sequences and marriages
    uint32_t used_seq[2]  # cards of each player's declared sequences
    int exchanged
    int taken
    int declared_turn     # declarations made at this turn
    int min_decl          # declarations within a turn go in ascending meld order
    int ended
    int win


ctypedef struct Entry:
    uint64_t k1
    uint64_t k2
    int32_t lo
    int32_t hi
    int16_t move
    uint16_t gen      # the table's generation when stored: older entries count as empty
    int16_t used      # the entry's weight (see weight)
    int16_t depth     # EXACT_DEPTH, or the tricks to the horizon of a depth-limited search


ctypedef struct PlainEntry:
    uint64_t key      # the leader's hand, and the follower's in the high half
    int16_t lo
    int16_t hi
    int8_t tag        # trump suit + 1, and the marriages still open << 3
    int8_t card       # the best card to lead
    uint16_t gen      # as in Entry


ctypedef struct Ctx:
    # rules
    int game
    int draws
    int exchange
    int exchange_points
    int quartet_game
    int final_decl
    int one_decl
    int tricks_obj
    int must_beat
    int forced_start
    int window
    int exch_lead_only
    int last_bonus
    int talon_len
    # the root's fixed data
    int trump
    int talon[32]
    uint64_t talon_hash[33]
    uint32_t talon_rest[33]     # cards still in the talon from each index on
    uint32_t meld_cards[N_MELDS]
    int meld_kind[N_MELDS]
    int meld_pts[N_MELDS]
    int meld_rank_ok[N_MELDS]   # the meld exists in this game
    int meld_free[N_MELDS]      # declaring it now can never hurt (forced inside the search)
    int allowed[N_MELDS]
    int n_allowed
    int merge_equal             # equivalent cards may be merged
    int force_free              # dominant declarations are forced inside the search
    int use_mtdf                # exact roots of the talon phase by MTD(f) from a guess
    int etc                     # enhanced transposition cutoffs at followers' nodes
    int killers[34][2]          # per number of cards played: two recent cutoff moves
    int talon_ordering          # talon phase: cheap leads first and killer moves
    int use_bounds              # cheap value bounds at the start of each turn
    int small_endgame           # the last tricks of plain card play by plain_play
    # tables: the final phase (after the last draw) has its own small one, since its
    # many cheap nodes would evict the talon phase's valuable entries and a small table
    # stays in the processor's cache (measured 1.6x faster than one shared table)
    Entry* table
    uint64_t table_mask
    Entry* ftable
    uint64_t ftable_mask
    PlainEntry* ptable          # plain card play (plain_play) of PLAIN_TABLE_MIN cards or more
    uint64_t ptable_mask
    uint16_t gen                # entries of other generations are empty: clearing is O(1)
    uint64_t nodes
    # limits
    uint64_t node_limit     # 0: none
    clock_t deadline        # 0: none
    int aborted
    int depth_limit         # tricks from the root to the horizon, -1: exact search
    int root_tricks
    uint64_t taint          # counts horizon evaluations (a value that used one is not exact)


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    # splitmix64 finaliser
    x ^= x >> 30
    x *= 0xbf58476d1ce4e5b9ULL
    x ^= x >> 27
    x *= 0x94d049bb133111ebULL
    x ^= x >> 31
    return x


cdef inline uint32_t suit_bits(int suit) noexcept nogil:
    return (<uint32_t>0xFF) << (suit * 8)


cdef inline int meld_declared(State* s, int p, int i) noexcept nogil:
    if i < 64:
        return <int>((s.decl_lo[p] >> i) & 1)
    return <int>((s.decl_hi[p] >> (i - 64)) & 1)


cdef inline void mark_declared(State* s, int p, int i) noexcept nogil:
    if i < 64:
        s.decl_lo[p] |= (<uint64_t>1) << i
    else:
        s.decl_hi[p] |= (<uint32_t>1) << (i - 64)


cdef inline int in_window(Ctx* c, State* s) noexcept nogil:
    return c.draws and s.talon_idx >= c.talon_len and s.turnup >= 0


cdef inline int final_phase(Ctx* c, State* s) noexcept nogil:
    return c.draws and s.turnup < 0


cdef int can_exchange(Ctx* c, State* s) noexcept nogil:
    cdef int seven = c.trump * 8
    if not c.exchange or s.turnup < 0 or in_window(c, s):
        return 0
    if s.turnup == seven or not ((s.hand[s.turn] >> seven) & 1):
        return 0
    if c.exch_lead_only and s.trick >= 0:
        return 0
    return 1


cdef int may_declare(Ctx* c, State* s) noexcept nogil:
    if c.game == G_PETITE or s.trick >= 0:
        return 0
    if __builtin_popcount(s.out) < 2:
        return 0
    if final_phase(c, s) and not c.final_decl:
        return 0
    if c.one_decl and s.declared_turn:
        return 0
    return 1


cdef inline int meld_possible(Ctx* c, uint32_t hand) noexcept nogil:
    """Cheap filter: in Brisque only a marriage or four kings/queens can be declared."""
    cdef uint32_t kings, queens
    if c.game != G_BRISQUE:
        return 1
    kings = (hand >> 5) & 0x01010101u
    queens = (hand >> 4) & 0x01010101u
    return (kings & queens) != 0 or kings == 0x01010101u or queens == 0x01010101u


cdef int meld_ok(Ctx* c, State* s, int i) noexcept nogil:
    """Whether the player to move may declare meld i now (rules of solver/position.py)."""
    cdef int me = s.turn
    cdef uint32_t hand = s.hand[me]
    cdef uint32_t cards = c.meld_cards[i]
    cdef int kind = c.meld_kind[i]
    cdef uint32_t courts
    if not c.meld_rank_ok[i]:
        return 0
    if kind == K_BLANK_COURTS or kind == K_BLANK_PLAIN:
        if meld_declared(s, me, i):
            return 0
        if __builtin_popcount(hand) != 5 or (hand & s.used_seq[me]):
            return 0
        courts = hand & COURT_MASK
        if kind == K_BLANK_COURTS:
            return courts == hand
        return courts == 0
    if meld_declared(s, 0, i) or meld_declared(s, 1, i):
        return 0
    if kind == K_ACE_TRUMPS:
        if not ((hand >> (c.trump * 8 + 7)) & 1) or ((s.used_seq[me] >> (c.trump * 8 + 7)) & 1):
            return 0
        return not (s.exchanged == me and s.taken == c.trump * 8 + 7)
    if (hand & cards) != cards:
        return 0
    if kind == K_QUARTET:
        return 1
    # marriages and sequences: no card already in a declared sequence or marriage
    return (cards & s.used_sm[me]) == 0


cdef int gen_moves(Ctx* c, State* s, int* moves, int prune) noexcept nogil:
    """Legal moves in search order: declarations, exchange/pass, then cards.

    With prune (inside the search, never at the root), a declaration that can never
    hurt is forced before anything else, and equivalent cards are merged.
    """
    cdef int n = 0, i, k, me = s.turn
    cdef uint32_t hand = s.hand[me], playable, m, winners, led_suit
    cdef int seven = c.trump * 8
    if in_window(c, s):
        if (hand >> seven) & 1:
            moves[n] = MOVE_X
            n += 1
        moves[n] = MOVE_PASS
        return n + 1
    if may_declare(c, s) and meld_possible(c, hand):
        if prune and not c.one_decl and c.force_free:
            for k in range(c.n_allowed):
                i = c.allowed[k]
                if c.meld_free[i] and meld_ok(c, s, i):
                    moves[0] = DECL_BASE + i
                    return 1
        for k in range(c.n_allowed):
            i = c.allowed[k]
            if (i >= s.min_decl or c.meld_free[i]) and meld_ok(c, s, i):
                moves[n] = DECL_BASE + i
                n += 1
    if can_exchange(c, s):
        moves[n] = MOVE_X
        n += 1
    if s.trick >= 0:
        if final_phase(c, s) or c.forced_start:
            playable = follow_cards(hand, s.trick, c.trump, c.must_beat)
        else:
            playable = hand
        if prune and c.merge_equal:
            playable = merge_equivalent(c, s, playable)
        # winners first, cheapest first; then the cheapest losers
        led_suit = suit_bits(s.trick >> 3)
        winners = (playable & led_suit & ~((<uint32_t>2 << s.trick) - 1))
        if (playable & led_suit) == 0 and (s.trick >> 3) != c.trump:
            winners |= playable & suit_bits(c.trump)
        m = winners
        while m:
            moves[n] = __builtin_ctz(m)
            n += 1
            m &= m - 1
        m = playable & ~winners
        n = add_cheapest_first(moves, n, m, c.trump)
    else:
        playable = hand
        if prune and c.merge_equal:
            playable = merge_equivalent(c, s, playable)
        if final_phase(c, s) or not c.draws or not c.talon_ordering:
            # leads: high cards of plain suits first, then the rest from the top
            n = add_highest_first(moves, n, playable & ~suit_bits(c.trump))
            n = add_highest_first(moves, n, playable & suit_bits(c.trump))
        else:
            # talon phase: cheap leads first (plain low cards, trumps last)
            n = add_cheapest_first(moves, n, playable, c.trump)
    return n


cdef inline uint32_t merge_equivalent(Ctx* c, State* s, uint32_t mine) noexcept nogil:
    """Keep one card of each run of equivalent cards: same suit, no card still in play
    between them, same points (any points under the tricks objective).

    Bit-parallel over the four suits: a card is dropped when the nearest lower card
    still in play in its suit is also a candidate (and, for points, worth the same)."""
    cdef uint32_t live = s.hand[0] | s.hand[1] | c.talon_rest[s.talon_idx]
    cdef uint32_t cand = mine, c7, c8, c9, drop, last, row_live, row_cand
    cdef int r
    if s.turnup >= 0:
        live |= (<uint32_t>1) << s.turnup
    if s.trick >= 0:
        live |= (<uint32_t>1) << s.trick
    if s.turnup >= 0 and s.turnup != c.trump * 8 and c.exchange:
        # the 7 of trumps can still be exchanged for the turnup, which would come into play
        cand &= ~((<uint32_t>1) << (c.trump * 8))
        live |= (<uint32_t>1) << s.turnup
    if not c.tricks_obj:
        # only the 7, 8 and 9 share a point value (zero)
        c7 = cand & 0x01010101u
        c8 = cand & 0x02020202u
        c9 = cand & 0x04040404u
        drop = (c8 & (c7 << 1)) | (c9 & ((c8 << 1) | ((c7 << 2) & ~(live << 1))))
        return mine & ~drop
    # tricks objective: any run of candidates adjacent among the live cards, but kings and
    # queens keep their meld roles (marriages, four kings/queens) where there are melds
    if c.game != G_PETITE:
        cand &= ~0x30303030u
    drop = 0
    last = cand & 0x01010101u     # per suit: was the nearest live card below a candidate?
    for r in range(1, 8):
        row_live = live & (<uint32_t>0x01010101u << r)
        row_cand = cand & (<uint32_t>0x01010101u << r)
        drop |= row_cand & (last << 1)
        last = row_cand | ((last << 1) & ~row_live)
    return mine & ~drop


cdef inline int add_cheapest_first(int* moves, int n, uint32_t m, int trump) noexcept nogil:
    # by rank across the plain suits, trumps last
    cdef int r
    cdef uint32_t plain = m & ~suit_bits(trump), row
    for r in range(8):
        row = plain & (<uint32_t>0x01010101 << r)
        while row:
            moves[n] = __builtin_ctz(row)
            n += 1
            row &= row - 1
    plain = m & suit_bits(trump)
    while plain:
        moves[n] = __builtin_ctz(plain)
        n += 1
        plain &= plain - 1
    return n


cdef inline int add_highest_first(int* moves, int n, uint32_t m) noexcept nogil:
    cdef int r
    cdef uint32_t row
    for r in range(7, -1, -1):
        row = m & (<uint32_t>0x01010101 << r)
        while row:
            moves[n] = __builtin_ctz(row)
            n += 1
            row &= row - 1
    return n


cdef inline uint32_t follow_cards(uint32_t hand, int led, int trump, int must_beat) noexcept nogil:
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


cdef inline int card_gain(Ctx* c, int a, int b) noexcept nogil:
    if c.tricks_obj:
        return 1
    return RANK_POINTS[a & 7] + RANK_POINTS[b & 7]


cdef void take_turnup(Ctx* c, State* s, int p, int* gain) noexcept nogil:
    cdef int q
    s.hand[p] |= (<uint32_t>1) << s.turnup
    s.turnup = -1
    start_final(c, s, gain)


cdef void start_final(Ctx* c, State* s, int* gain) noexcept nogil:
    cdef int q
    cdef uint32_t trumps
    if c.game == G_BRISCAN and not c.tricks_obj:
        trumps = suit_bits(c.trump)
        for q in range(2):
            if __builtin_popcount(s.hand[q]) == 5 and (s.hand[q] & trumps) == s.hand[q]:
                gain[q] += 30


cdef inline int trick_to_leader(Ctx* c, int led, int mv) noexcept nogil:
    """Whether the card led wins the trick against the reply mv."""
    if (mv >> 3) == (led >> 3):
        return mv < led
    return (mv >> 3) != c.trump


cdef int apply_move(Ctx* c, State* s, int mv) noexcept nogil:
    """Play mv; return the mover's gain minus the opponent's.  Sets s.ended / s.win."""
    cdef int me = s.turn, other = 1 - me, w, led, seven, old, i, pts
    cdef int gain[2]
    cdef uint32_t b
    gain[0] = 0
    gain[1] = 0
    if mv < 32:
        b = (<uint32_t>1) << mv
        s.hand[me] &= ~b
        s.declared_turn = 0
        s.min_decl = 0
        if s.trick < 0:
            s.trick = mv
            s.turn = other
            return 0
        led = s.trick
        w = other if trick_to_leader(c, led, mv) else me
        gain[w] += card_gain(c, led, mv)
        s.tricks[w] += 1
        if final_phase(c, s):
            s.fin[w] += 1
        s.out |= b | ((<uint32_t>1) << led)
        s.trick = -1
        s.turn = w
        if s.hand[0] == 0 and s.hand[1] == 0:
            end_of_play(c, s, w, gain)
        elif c.draws and s.turnup >= 0:
            # the winner draws, then the loser
            s.hand[w] |= (<uint32_t>1) << c.talon[s.talon_idx]
            s.talon_idx += 1
            if s.talon_idx < c.talon_len:
                s.hand[1 - w] |= (<uint32_t>1) << c.talon[s.talon_idx]
                s.talon_idx += 1
            else:
                seven = c.trump * 8
                if not (c.window and s.turnup != seven and ((s.hand[w] >> seven) & 1)):
                    take_turnup(c, s, 1 - w, gain)
    elif mv == MOVE_X:
        seven = c.trump * 8
        old = s.turnup
        s.hand[me] = (s.hand[me] & ~((<uint32_t>1) << seven)) | ((<uint32_t>1) << old)
        s.exchanged = me
        s.taken = old
        s.min_decl = 0
        if not c.tricks_obj:
            gain[me] += c.exchange_points
        if in_window(c, s):
            s.hand[other] |= (<uint32_t>1) << seven
            s.turnup = -1
            start_final(c, s, gain)
        else:
            s.turnup = seven
    elif mv == MOVE_PASS:
        take_turnup(c, s, other, gain)
    else:
        i = mv - DECL_BASE
        mark_declared(s, me, i)
        s.declared_turn += 1
        if not c.meld_free[i]:
            s.min_decl = i + 1
        if c.meld_kind[i] == K_MARRIAGE or c.meld_kind[i] == K_SEQUENCE:
            s.used_sm[me] |= c.meld_cards[i]
        if c.meld_kind[i] == K_SEQUENCE:
            s.used_seq[me] |= c.meld_cards[i]
        if not c.tricks_obj:
            gain[me] += c.meld_pts[i]
        if c.meld_kind[i] == K_QUARTET and c.game == G_BRISQUE:
            s.ended = 1
            if c.quartet_game:
                s.win = me
            elif not c.tricks_obj:
                gain[me] += 120 - points_of(s.out) + c.last_bonus
    return gain[me] - gain[other]


cdef inline int points_of(uint32_t m) noexcept nogil:
    return (BYTE_POINTS[m & 0xFF] + BYTE_POINTS[(m >> 8) & 0xFF] + BYTE_POINTS[(m >> 16) & 0xFF]
            + BYTE_POINTS[m >> 24])


cdef void end_of_play(Ctx* c, State* s, int w, int* gain) noexcept nogil:
    cdef int q
    s.ended = 1
    if c.tricks_obj:
        if c.game == G_BRISCAN and s.tricks[w] == 16:
            s.win = w
        return
    gain[w] += c.last_bonus
    if c.game == G_BRISCAN:
        for q in range(2):
            if s.fin[q] == 5:
                gain[q] += 20
            if s.tricks[q] >= 9:
                gain[q] += 10
            if s.tricks[q] == 16:
                s.win = q


cdef inline void make_key(Ctx* c, State* s, uint64_t* k1, uint64_t* k2) noexcept nogil:
    # At the start of a turn the cards out follow from the hands, the talon suffix and
    # the turnup, so they are left out of the key.
    cdef uint64_t h
    k1[0] = (<uint64_t>s.hand[0]) | ((<uint64_t>s.hand[1]) << 32)
    h = (<uint64_t>c.trump) | ((<uint64_t>s.turn) << 2) | ((<uint64_t>(s.turnup + 1)) << 3) \
        | ((<uint64_t>s.declared_turn) << 9) | ((<uint64_t>s.min_decl) << 13) \
        | ((<uint64_t>(s.exchanged + 1)) << 21) | ((<uint64_t>(s.taken + 1)) << 23)
    if c.game != G_BRISQUE:
        h |= ((<uint64_t>s.tricks[0]) << 29) | ((<uint64_t>s.fin[0]) << 35) | ((<uint64_t>s.fin[1]) << 39)
    if s.decl_lo[0] | s.decl_lo[1] | s.decl_hi[0] | s.decl_hi[1]:
        h ^= mix64(s.decl_lo[0] ^ mix64(s.decl_lo[1] ^ mix64(
            (<uint64_t>s.decl_hi[0]) | ((<uint64_t>s.decl_hi[1]) << 8) | (<uint64_t>1 << 63))))
    k2[0] = h ^ c.talon_hash[s.talon_idx]


cdef inline int is_last_trick_plain(Ctx* c, State* s) noexcept nogil:
    """One card each and nothing to declare or exchange: the last trick plays itself."""
    cdef uint32_t h0 = s.hand[0], h1 = s.hand[1]
    if h0 == 0 or h1 == 0 or (h0 & (h0 - 1)) or (h1 & (h1 - 1)):
        return 0
    if s.turnup >= 0 and c.exchange and s.turnup != c.trump * 8 \
            and ((h0 | h1) >> (c.trump * 8)) & 1:
        return 0
    if c.game == G_BRISCAN and may_declare(c, s) and (s.hand[s.turn] >> (c.trump * 8 + 7)) & 1:
        return 0   # the ace of trumps may still be declared
    return 1


cdef inline int last_trick(Ctx* c, State* s) noexcept nogil:
    cdef State child = s[0]
    cdef int me = s.turn, d
    apply_move(c, &child, __builtin_ctz(child.hand[me]))
    d = apply_move(c, &child, __builtin_ctz(child.hand[1 - me]))
    if child.win >= 0:
        return WIN_RAW if child.win == me else -WIN_RAW
    return -d


cdef inline int plain_marriages(Ctx* c, State* s) noexcept nogil:
    """Whether plain_play can finish the deal from s: -1 if not, else the suits of the
    marriages that may still be declared.  Plain play: no talon, at most SMALL_ENDGAME
    cards each, no Briscan bonuses, no four kings or queens in one hand; marriages only
    where declaring is forced (it never hurts, and several may be made at one turn)."""
    cdef uint32_t pairs = 0, h
    cdef int p, suit
    if s.trick >= 0 or c.game == G_BRISCAN or c.talon_len > s.talon_idx or s.turnup >= 0:
        return -1
    if __builtin_popcount(s.hand[s.turn]) > SMALL_ENDGAME:
        return -1
    if c.game != G_BRISQUE:
        return 0
    for p in range(2):
        h = s.hand[p]
        if ((h >> 5) & 0x01010101u) == 0x01010101u or ((h >> 4) & 0x01010101u) == 0x01010101u:
            return -1
        pairs |= (h >> 5) & (h >> 4) & 0x01010101u     # king and queen of a suit
    if pairs == 0 or not c.final_decl or c.tricks_obj:
        return 0     # (under the tricks objective a marriage scores nothing)
    if c.one_decl or not c.force_free:
        return -1
    for suit in range(4):
        if meld_declared(s, 0, suit) or meld_declared(s, 1, suit):
            pairs &= ~((<uint32_t>1) << (suit * 8))     # declared already
    # one bit per suit
    return <int>((pairs & 1) | ((pairs >> 7) & 2) | ((pairs >> 14) & 4) | ((pairs >> 21) & 8))


cdef int plain_play(Ctx* c, uint32_t lead, uint32_t follow, int marr, int alpha,
                    int beta) noexcept nogil:
    """Fail-soft alpha-beta value, for the player on lead holding ``lead``, of plain card
    play to the end of the deal (see plain_marriages): a small search on two masks, where
    the general search would spend most of its nodes.  ``marr``: suits (bits 0-3) whose
    marriage may still be declared; the leader declares his at once."""
    cdef uint32_t legal, la
    cdef int a, b, g, v, best = -INF, worst, total, alpha0, best_card = -1, first = -1
    cdef int forced = c.draws or c.forced_start    # following is obligatory (final phase)
    cdef int decl = 0, suit, tag
    cdef int32_t lo, hi
    cdef uint64_t key = 0
    cdef PlainEntry* e = NULL
    c.nodes += 1
    if marr:
        for suit in range(4):
            if (marr >> suit) & 1 and ((lead >> (suit * 8 + 4)) & 3) == 3:
                decl += c.meld_pts[suit]
                marr &= ~(1 << suit)
        if decl:
            return decl + plain_play(c, lead, follow, marr, alpha - decl, beta - decl)
    if (lead & (lead - 1)) == 0:
        return last_two_cards(c, __builtin_ctz(lead), __builtin_ctz(follow))
    if __builtin_popcount(lead) == 2:
        return last_two_tricks(c, lead, follow, forced)
    if __builtin_popcount(lead) >= PLAIN_TABLE_MIN:
        key = (<uint64_t>lead) | ((<uint64_t>follow) << 32)
        tag = (c.trump + 1) | (marr << 3)
        e = &c.ptable[mix64(key ^ (<uint64_t>tag << 57)) & c.ptable_mask]
        if e.key == key and e.tag == tag and e.gen == c.gen:
            if e.lo >= beta:
                return e.lo
            if e.hi <= alpha:
                return e.hi
            if e.lo == e.hi:
                return e.lo     # (else narrowing would leave an empty window)
            if e.lo > alpha:
                alpha = e.lo
            if e.hi < beta:
                beta = e.hi
            first = e.card
    alpha0 = alpha
    la = lead
    if first >= 0:
        la &= ~((<uint32_t>1) << first)
    while la or first >= 0:
        if first >= 0:
            a = first          # the table's best card first
            first = -1
        else:
            a = __builtin_ctz(la)
            la &= la - 1
        legal = follow_cards(follow, a, c.trump, c.must_beat) if forced else follow
        worst = INF
        while legal:
            b = __builtin_ctz(legal)
            legal &= legal - 1
            g = card_gain(c, a, b)
            if trick_to_leader(c, a, b):
                v = g + plain_play(c, lead & ~((<uint32_t>1) << a), follow & ~((<uint32_t>1) << b),
                                   marr, alpha - g, beta - g)
            else:
                v = -g - plain_play(c, follow & ~((<uint32_t>1) << b), lead & ~((<uint32_t>1) << a),
                                    marr, -beta - g, -alpha - g)
            if v < worst:
                worst = v
                if worst <= alpha:
                    break
        if worst > best:
            best = worst
            best_card = a
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    if e != NULL:
        if not (e.key == key and e.tag == tag and e.gen == c.gen):
            e.key = key
            e.tag = tag
            e.gen = c.gen
            e.lo = -32000
            e.hi = 32000
        lo = e.lo
        hi = e.hi
        merge_result(best, alpha0, beta, &lo, &hi)
        e.lo = lo
        e.hi = hi
        e.card = best_card
    return best


cdef inline void merge_result(int best, int alpha0, int beta, int32_t* lo, int32_t* hi) noexcept nogil:
    """Tighten a table entry's bounds [lo, hi] with a fail-soft result best of a search
    whose window was (alpha0, beta): a lower bound, an upper bound, or the exact value."""
    if best >= beta:
        if best > lo[0]:
            lo[0] = best
    elif best <= alpha0:
        if best < hi[0]:
            hi[0] = best
    else:
        lo[0] = best
        hi[0] = best


cdef inline int last_two_cards(Ctx* c, int a, int b) noexcept nogil:
    """The last trick's value for the player leading a against b."""
    cdef int g = card_gain(c, a, b)
    if not c.tricks_obj:
        g += c.last_bonus
    return g if trick_to_leader(c, a, b) else -g


cdef int last_two_tricks(Ctx* c, uint32_t lead, uint32_t follow, int forced) noexcept nogil:
    """Exact value of the last two tricks of plain play for the player on lead (at most
    two leads times two replies, so no window is needed)."""
    cdef int a, b, a2, b2, g, v, worst, best = -INF, i, j
    cdef uint32_t legal
    for i in range(2):
        a = __builtin_ctz(lead) if i == 0 else 31 - __builtin_clz(lead)
        a2 = 31 - __builtin_clz(lead) if i == 0 else __builtin_ctz(lead)
        legal = follow_cards(follow, a, c.trump, c.must_beat) if forced else follow
        worst = INF
        while legal:
            b = __builtin_ctz(legal)
            legal &= legal - 1
            b2 = __builtin_ctz(follow & ~((<uint32_t>1) << b))
            g = card_gain(c, a, b)
            if trick_to_leader(c, a, b):
                v = g + last_two_cards(c, a2, b2)
            else:
                v = -g - last_two_cards(c, b2, a2)
            if v < worst:
                worst = v
        if worst > best:
            best = worst
    return best


cdef inline int clamp_int(int x, int lo, int hi) noexcept nogil:
    return lo if x < lo else (hi if x > hi else x)


# Values and bounds between parent and child.  A game win is worth exactly +-WIN_RAW
# whatever was scored before it, so the parent's value of a child value x is d + x for an
# ordinary x and x itself for a win.  Fail-soft bounds pass through this map only if it
# is monotone: an upper bound of WIN_RAW (which says nothing) must not become a win.  So an
# ordinary value is kept inside the ordinary range (-WIN_THRESHOLD, WIN_THRESHOLD), which
# changes no real value (they are a few hundred at most), and a child's window is the
# exact preimage of the parent's window under the map (child_alpha, child_beta).

cdef inline int same_mover(int d, int x) noexcept nogil:
    """The mover's value of a child where he moves again: the gain d plus the child's value,
    except that a game-winning event is worth exactly +-WIN_RAW whatever came before.
    Monotone in x, so it maps bounds to bounds."""
    if x >= WIN_THRESHOLD or x <= -WIN_THRESHOLD:
        return x
    return clamp_int(d + x, 1 - WIN_THRESHOLD, WIN_THRESHOLD - 1)


cdef inline int other_mover(int d, int x) noexcept nogil:
    """The mover's value of a child where his opponent moves (see same_mover)."""
    return -same_mover(-d, x)


cdef inline int child_alpha(int alpha, int d) noexcept nogil:
    """The largest a with: x <= a exactly when same_mover(d, x) <= alpha."""
    if alpha >= WIN_THRESHOLD - 1 or alpha <= -WIN_THRESHOLD:
        return alpha
    return clamp_int(alpha - d, -WIN_THRESHOLD, WIN_THRESHOLD - 1)


cdef inline int child_beta(int beta, int d) noexcept nogil:
    """The smallest b with: x >= b exactly when same_mover(d, x) >= beta."""
    if beta >= WIN_THRESHOLD or beta <= 1 - WIN_THRESHOLD:
        return beta
    return clamp_int(beta - d, 1 - WIN_THRESHOLD, WIN_THRESHOLD)


cdef inline int child_value(Ctx* c, State* child, int me, int d, int alpha,
                            int beta) noexcept nogil:
    """Fail-soft value for ``me`` (the parent's mover) of a child reached with gain d:
    a win, the end of the deal, or a search with the preimage of the window (alpha, beta)."""
    if child.win >= 0:
        return WIN_RAW if child.win == me else -WIN_RAW
    if child.ended:
        return d
    if child.turn == me:
        return same_mover(d, search(c, child, child_alpha(alpha, d), child_beta(beta, d)))
    return other_mover(d, search(c, child, child_alpha(-beta, -d), child_beta(-alpha, -d)))


cdef inline int horizon_value(Ctx* c, State* s) noexcept nogil:
    """Heuristic future value at the horizon of a depth-limited search (player to move):
    half the card points in hand minus the opponent's, 6 per trump more than the
    opponent, and half the points still to come from the talon and turnup to the
    player on lead (he draws first).  Documented in docs/solver.md."""
    cdef int me = s.turn, other = 1 - me, h
    cdef uint32_t trumps = suit_bits(c.trump)
    cdef uint32_t rest = c.talon_rest[s.talon_idx]
    if s.turnup >= 0:
        rest |= (<uint32_t>1) << s.turnup
    if c.tricks_obj:
        return (__builtin_popcount(s.hand[me] & trumps) - __builtin_popcount(s.hand[other] & trumps)) // 2
    h = (points_of(s.hand[me]) - points_of(s.hand[other])) // 2
    h += 6 * (__builtin_popcount(s.hand[me] & trumps) - __builtin_popcount(s.hand[other] & trumps))
    h += points_of(rest) // 8
    return h


cdef int decl_bound(Ctx* c, State* s, int p, uint32_t live, int* quartet) noexcept nogil:
    """Most that player p can still gain from declarations (Brisque); WIN_RAW when he
    might still make a game-winning declaration.  Sets quartet when he might still end
    the deal with four kings or queens."""
    cdef int k, i, t = 0
    cdef uint32_t cards, where = live
    if c.draws and s.turnup < 0:
        if not c.final_decl:
            return 0
        where = s.hand[p]      # the talon is gone: only his own cards can make a meld
    for k in range(c.n_allowed):
        i = c.allowed[k]
        cards = c.meld_cards[i]
        if (where & cards) != cards or meld_declared(s, 0, i) or meld_declared(s, 1, i):
            continue
        if c.meld_kind[i] == K_QUARTET:
            if c.quartet_game:
                return WIN_RAW
            quartet[0] = 1
        if not c.tricks_obj:
            t += c.meld_pts[i]
    return t


cdef inline int sure_points(Ctx* c, uint32_t mine, uint32_t others) noexcept nogil:
    """Points (or tricks) that the cards ``mine`` take for certain: every trump above all
    the other live trumps wins the trick it is played to, whatever the rules of play."""
    cdef uint32_t trumps = suit_bits(c.trump), top = mine & trumps, theirs = others & trumps
    if theirs:
        top &= ~((<uint32_t>2 << (31 - __builtin_clz(theirs))) - 1)
    if c.tricks_obj:
        return __builtin_popcount(top)
    return points_of(top)


cdef int bound_cutoff(Ctx* c, State* s, int alpha, int beta) noexcept nogil:
    """A fail-soft cutoff from cheap bounds on the future value of the player to move at
    the start of a turn (Brisque and Petite Brisque), or -INF.  Every card point still in
    play and the last-trick bonus go to one player or the other, the top trumps are sure
    winners, and declarations can add at most their points."""
    cdef int me = s.turn, other = 1 - me, total, extra = 0, b, d, quartet
    cdef uint32_t live = s.hand[0] | s.hand[1] | c.talon_rest[s.talon_idx]
    if s.turnup >= 0:
        live |= (<uint32_t>1) << s.turnup
        if c.exchange and not c.tricks_obj and s.turnup != c.trump * 8:
            extra = c.exchange_points
    if c.tricks_obj:
        total = __builtin_popcount(live) // 2
    else:
        total = points_of(live) + c.last_bonus
    total += extra
    # declarations are looked at only when the card bound alone would cut
    # (a player who may end the deal with four of a kind takes every point left: then
    # his opponent's top trumps are not sure to be played)
    # No bound while a game-winning declaration is possible: a win is worth exactly
    # +-WIN_RAW whatever was scored on the way (same_mover), so a bound of +-WIN_RAW would
    # not translate between the windows of parent and child.
    b = total - 2 * sure_points(c, s.hand[other], live & ~s.hand[other])
    if b <= alpha:
        quartet = 0
        d = decl_bound(c, s, me, live, &quartet)
        if d < WIN_RAW:
            b = (total if quartet else b) + d
            if b <= alpha:
                return b
    b = -(total - 2 * sure_points(c, s.hand[me], live & ~s.hand[me]))
    if b >= beta:
        quartet = 0
        d = decl_bound(c, s, other, live, &quartet)
        if d < WIN_RAW:
            b = (-total if quartet else b) - d
            if b >= beta:
                return b
    return -INF


cdef inline int out_of_budget(Ctx* c) noexcept nogil:
    if c.aborted:
        return 1
    if c.node_limit and c.nodes > c.node_limit:
        c.aborted = 1
    elif c.deadline and (c.nodes & 4095) == 0 and clock() > c.deadline:
        c.aborted = 1
    return c.aborted


cdef inline void promote_killers(Ctx* c, State* s, int* moves, int n) noexcept nogil:
    """Move this ply's killer moves (recent cutoffs) to the front, keeping the rest in order."""
    cdef int ply = __builtin_popcount(s.out) + (1 if s.trick >= 0 else 0)
    cdef int k, i, j, m, front = 0
    while front < n and moves[front] >= 32:
        front += 1          # declarations and the exchange stay first
    for k in range(1, -1, -1):
        m = c.killers[ply][k]
        for i in range(front, n):
            if moves[i] == m:
                j = i
                while j > front:
                    moves[j] = moves[j - 1]
                    j -= 1
                moves[front] = m
                break


cdef inline Entry* bucket_of(Ctx* c, State* s, uint64_t k1, uint64_t k2) noexcept nogil:
    """The two-entry bucket (one 64-byte cache line) for the key (k1, k2) of position s."""
    cdef uint64_t h = mix64(k1 ^ (k2 * 0x9E3779B97F4A7C15ULL))
    if c.draws and s.turnup < 0:
        return &c.ftable[(h & c.ftable_mask) * 2]
    return &c.table[(h & c.table_mask) * 2]


cdef inline Entry* find(Ctx* c, Entry* b, uint64_t k1, uint64_t k2) noexcept nogil:
    if b[0].gen == c.gen and b[0].k1 == k1 and b[0].k2 == k2:
        return b
    if b[1].gen == c.gen and b[1].k1 == k1 and b[1].k2 == k2:
        return b + 1
    return NULL


cdef inline int weight(Ctx* c, State* s) noexcept nogil:
    """How much search an entry of s saves, roughly: the cards still to be played."""
    return __builtin_popcount(s.hand[0] | s.hand[1]) + c.talon_len - s.talon_idx + 1


cdef inline Entry* victim(Ctx* c, Entry* b, int w) noexcept nogil:
    """The slot a new entry of weight w goes to: the first slot keeps the heavier entry,
    the second the most recent one (the first's old entry moves there when displaced)."""
    if b[0].gen != c.gen:
        return b
    if w >= b[0].used:
        b[1] = b[0]
        return b
    return b + 1


cdef int etc_cutoff(Ctx* c, State* s, int* moves, int n, int beta) noexcept nogil:
    """Enhanced transposition cutoff at a follower's node: if the table already proves that
    one of the replies (each ends the trick) reaches beta, return that bound, else -INF."""
    cdef int i, d, lower, me = s.turn
    cdef State child
    cdef uint64_t k1, k2
    cdef Entry* e
    for i in range(n):
        child = s[0]
        d = apply_move(c, &child, moves[i])
        if child.win >= 0 or child.ended or child.trick >= 0:
            continue
        if __builtin_popcount(child.hand[0] | child.hand[1]) <= 2:
            continue
        make_key(c, &child, &k1, &k2)
        e = find(c, bucket_of(c, &child, k1, k2), k1, k2)
        if e == NULL or e.depth != EXACT_DEPTH:
            continue
        lower = same_mover(d, e.lo) if child.turn == me else other_mover(d, e.hi)
        if lower >= beta:
            return lower
    return -INF


cdef int search(Ctx* c, State* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the raw future value of the player to move.

    Returns 0 at once when the budget is spent (c.aborted): callers must then
    discard the result."""
    cdef int moves[MAXMOVES]
    cdef int n, i, j, v, d, best = -INF, best_move = -1, tmp, me = s.turn, alpha0
    cdef int rem = EXACT_DEPTH, usable = 0, ply
    cdef uint64_t k1 = 0, k2 = 0, taint0
    cdef Entry* e = NULL
    cdef Entry* b = NULL
    cdef int hit = 0
    cdef State child
    c.nodes += 1
    if out_of_budget(c):
        return 0
    if s.trick < 0 and is_last_trick_plain(c, s):
        return last_trick(c, s)
    if c.depth_limit >= 0 and s.trick < 0:
        rem = c.depth_limit - (__builtin_popcount(s.out) // 2 - c.root_tricks)
        if rem <= 0:
            c.taint += 1
            return horizon_value(c, s)
    if s.trick < 0 and c.use_bounds:
        v = bound_cutoff(c, s, alpha, beta)
        if v > -INF:
            return v
    if s.trick < 0 and c.small_endgame:
        i = plain_marriages(c, s)
        if i >= 0:
            return plain_play(c, s.hand[me], s.hand[1 - me], i, alpha, beta)
    if s.trick < 0 and c.table != NULL and __builtin_popcount(s.hand[0] | s.hand[1]) > 2:
        make_key(c, s, &k1, &k2)
        b = bucket_of(c, s, k1, k2)
        e = find(c, b, k1, k2)
        if e != NULL:
            hit = 1
            # exact entries serve every search; horizon entries only a search as shallow
            usable = e.depth == EXACT_DEPTH or (rem != EXACT_DEPTH and e.depth >= rem)
            if usable:
                if e.depth != EXACT_DEPTH:
                    c.taint += 1
                if e.lo >= beta:
                    return e.lo
                if e.hi <= alpha:
                    return e.hi
                if e.lo == e.hi:
                    return e.lo
                if e.lo > alpha:
                    alpha = e.lo
                if e.hi < beta:
                    beta = e.hi
    alpha0 = alpha
    taint0 = c.taint
    n = gen_moves(c, s, moves, 1)
    if s.trick >= 0 and n > 1 and c.etc and c.depth_limit < 0 and c.table != NULL and s.turnup >= 0 \
            and c.talon_len - s.talon_idx >= ETC_MIN_TALON:
        v = etc_cutoff(c, s, moves, n, beta)
        if v > -INF:
            return v
    if c.talon_ordering and c.draws and s.turnup >= 0 and n > 2:
        promote_killers(c, s, moves, n)
    if hit and e.move >= 0:
        for i in range(1, n):
            if moves[i] == e.move:
                tmp = moves[i]
                j = i
                while j > 0:
                    moves[j] = moves[j - 1]
                    j -= 1
                moves[0] = tmp
                break
    for i in range(n):
        child = s[0]
        d = apply_move(c, &child, moves[i])
        v = child_value(c, &child, me, d, alpha, beta)
        if c.aborted:
            return 0
        if v > best:
            best = v
            best_move = moves[i]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    if moves[i] < 32 and c.draws and s.turnup >= 0:
                        ply = __builtin_popcount(s.out) + (1 if s.trick >= 0 else 0)
                        if c.killers[ply][0] != moves[i]:
                            c.killers[ply][1] = c.killers[ply][0]
                            c.killers[ply][0] = moves[i]
                    break
    if b != NULL:
        d = EXACT_DEPTH if c.taint == taint0 else rem
        e = find(c, b, k1, k2)     # the searches below may have moved or evicted it
        if e != NULL and e.depth == EXACT_DEPTH and d != EXACT_DEPTH:
            return best     # never spoil an exact entry with a horizon value
        if e == NULL or e.depth != d:
            if e == NULL:
                e = victim(c, b, weight(c, s))
            e.k1 = k1
            e.k2 = k2
            e.lo = -INF
            e.hi = INF
            e.used = weight(c, s)
            e.gen = c.gen
            e.depth = d
        merge_result(best, alpha0, beta, &e.lo, &e.hi)
        e.move = best_move
    return best


cdef int mtdf(Ctx* c, State* s, int guess) noexcept nogil:
    """MTD(f): the exact value by a series of zero-window searches converging from a guess."""
    cdef int lo = -INF, hi = INF, g = guess, beta
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = search(c, s, beta - 1, beta)
        if c.aborted:
            return 0
        if g < beta:
            hi = g
        else:
            lo = g
    return g


cdef int guessed_mtdf(Ctx* c, State* s) noexcept nogil:
    """Exact search of the root: in the talon phase MTD(f) from the value of a two-trick
    heuristic search; in the final phase (solved faster directly) plain alpha-beta."""
    cdef int g
    if c.use_mtdf and c.depth_limit < 0 and c.draws and s.turnup >= 0:
        c.depth_limit = 2
        g = search(c, s, -INF, INF)
        c.depth_limit = -1
        if c.aborted:
            return 0
        return mtdf(c, s, g)
    return search(c, s, -INF, INF)


cdef int exact_child(Ctx* c, State* s, int mv, State* child) noexcept nogil:
    """Raw value for the player to move of playing mv, searched exactly (MTD(f) from a
    heuristic guess in the talon phase, a full window in the final phase)."""
    cdef int d, me = s.turn
    child[0] = s[0]
    d = apply_move(c, child, mv)
    child.min_decl = 0   # a move's own value: any declaration may follow it
    if child.win >= 0:
        return WIN_RAW if child.win == me else -WIN_RAW
    if child.ended:
        return d
    if child.turn == me:
        return same_mover(d, guessed_mtdf(c, child))
    return other_mover(d, guessed_mtdf(c, child))


cdef int reaches(Ctx* c, State* s, int mv, int v, State* child) noexcept nogil:
    """Whether playing mv gives the player to move a raw value of at least v."""
    cdef int d, me = s.turn
    child[0] = s[0]
    d = apply_move(c, child, mv)
    child.min_decl = 0   # a move's own value: any declaration may follow it
    return child_value(c, child, me, d, v - 1, v) >= v


cdef class Engine:
    """A solver bound to one set of rules, with a transposition table of 2**table_bits entries,
    and two of at most that size for the final phase: the general search's (at most 2**16
    entries) and plain card play's (at most 2**17).

    The table stays warm across :meth:`load` calls (keys hold everything the future
    depends on, trump and talon included); :meth:`clear` empties it.
    """
    cdef Ctx c
    cdef State root
    cdef int loaded
    cdef list meld_points_by_trump

    def __cinit__(self):
        self.c.table = NULL
        self.c.ftable = NULL
        self.c.ptable = NULL

    def __init__(self, dict rules, list meld_cards, list meld_kinds, list meld_points_by_trump,
                 list meld_allowed, int table_bits=20):
        cdef int i
        if not 0 <= table_bits <= 28:
            raise ValueError(f"table_bits={table_bits}: expected 0..28")
        if len(meld_cards) != N_MELDS:
            raise ValueError("meld table of the wrong size")
        for key in ("game", "draws", "exchange", "exchange_points", "quartet_game", "final_decl",
                    "one_decl", "tricks_obj", "must_beat", "forced_start", "window",
                    "exch_lead_only", "last_bonus"):
            if key not in rules:
                raise ValueError(f"rules without {key!r}")
        self.c.game = rules["game"]
        self.c.draws = rules["draws"]
        self.c.exchange = rules["exchange"]
        self.c.exchange_points = rules["exchange_points"]
        self.c.quartet_game = rules["quartet_game"]
        self.c.final_decl = rules["final_decl"]
        self.c.one_decl = rules["one_decl"]
        self.c.tricks_obj = rules["tricks_obj"]
        self.c.must_beat = rules["must_beat"]
        self.c.forced_start = rules["forced_start"]
        self.c.window = rules["window"]
        self.c.exch_lead_only = rules["exch_lead_only"]
        self.c.last_bonus = rules["last_bonus"]
        for i in range(N_MELDS):
            self.c.meld_cards[i] = meld_cards[i]
            self.c.meld_kind[i] = meld_kinds[i]
            self.c.meld_rank_ok[i] = 1 if meld_allowed[i] else 0
        self.c.n_allowed = 0
        for i in range(N_MELDS):
            if self.c.meld_rank_ok[i]:
                self.c.allowed[self.c.n_allowed] = i
                self.c.n_allowed += 1
            # in Briscan marriages and sequences compete for cards: a real choice; a
            # Brisque four of a kind that only ends the deal (quartet_win=deal) can cost
            # the marriages and tricks still to come: a real choice too
            self.c.meld_free[i] = not (
                (self.c.game == G_BRISCAN and meld_kinds[i] in (K_MARRIAGE, K_SEQUENCE))
                or (self.c.game == G_BRISQUE and meld_kinds[i] == K_QUARTET
                    and not self.c.quartet_game))
        self.c.merge_equal = 1 if self.c.game != G_BRISCAN else 0
        self.c.force_free = 1
        self.c.use_mtdf = 1
        self.c.etc = 1
        self.c.talon_ordering = 1
        self.c.use_bounds = 1 if self.c.game != G_BRISCAN else 0   # Briscan's bonuses: not bounded
        self.c.small_endgame = 1
        self.meld_points_by_trump = meld_points_by_trump
        self.c.table_mask = 0
        # buckets of two entries: a table of 2**bits entries has 2**(bits-1) buckets
        bits = max(table_bits, 1)
        fbits = min(bits, FINAL_TABLE_BITS)
        self.c.table = <Entry*> brisque_table_alloc(((<uint64_t>1) << bits) * sizeof(Entry))
        self.c.ftable = <Entry*> brisque_table_alloc(((<uint64_t>1) << fbits) * sizeof(Entry))
        pbits = min(bits, PLAIN_TABLE_BITS)
        self.c.ptable = <PlainEntry*> brisque_table_alloc(((<uint64_t>1) << pbits)
                                                          * sizeof(PlainEntry))
        self.c.ptable_mask = ((<uint64_t>1) << pbits) - 1
        if self.c.table == NULL or self.c.ftable == NULL or self.c.ptable == NULL:
            raise MemoryError(f"cannot allocate a table of 2**{table_bits} entries")
        self.c.table_mask = ((<uint64_t>1) << (bits - 1)) - 1
        self.c.ftable_mask = ((<uint64_t>1) << (fbits - 1)) - 1
        self.c.nodes = 0
        self.c.gen = 1      # the tables start zeroed: generation 0 is empty
        memset(self.c.killers, 0xFF, sizeof(self.c.killers))
        self.c.node_limit = 0
        self.c.deadline = 0
        self.c.aborted = 0
        self.c.depth_limit = -1
        self.c.taint = 0
        self.loaded = 0

    def __dealloc__(self):
        if self.c.table != NULL:
            free(self.c.table)
            self.c.table = NULL
        if self.c.ftable != NULL:
            free(self.c.ftable)
            self.c.ftable = NULL
        if self.c.ptable != NULL:
            free(self.c.ptable)
            self.c.ptable = NULL

    def set_limits(self, nodes=0, double seconds=0.0, int depth=-1):
        """Budget for the next searches: at most ``nodes`` more nodes and ``seconds`` of CPU
        time (0: no limit); ``depth`` tricks to a heuristic horizon (-1: exact search).
        A search that runs out of budget returns with :attr:`aborted` set."""
        self.c.node_limit = self.c.nodes + <uint64_t>nodes if nodes else 0
        self.c.deadline = clock() + <clock_t>(seconds * CLOCKS_PER_SEC) if seconds > 0 else 0
        self.c.depth_limit = depth
        self.c.aborted = 0

    def set_features(self, merge=None, forced=None, mtdf=None, etc=None, ordering=None,
                     bounds=None, small=None):
        """Turn search enhancements on or off (for measuring each on its own); results
        stay exact either way.  Call :meth:`clear` after changing them."""
        if merge is not None:
            self.c.merge_equal = 1 if (merge and self.c.game != G_BRISCAN) else 0
        if forced is not None:
            self.c.force_free = 1 if forced else 0
        if mtdf is not None:
            self.c.use_mtdf = 1 if mtdf else 0
        if etc is not None:
            self.c.etc = 1 if etc else 0
        if ordering is not None:
            self.c.talon_ordering = 1 if ordering else 0
        if bounds is not None:
            self.c.use_bounds = 1 if (bounds and self.c.game != G_BRISCAN) else 0
        if small is not None:
            self.c.small_endgame = 1 if small else 0

    def clear_limits(self):
        self.c.node_limit = 0
        self.c.deadline = 0
        self.c.depth_limit = -1
        self.c.aborted = 0

    @property
    def aborted(self):
        """The last search ran out of budget; its result means nothing."""
        return bool(self.c.aborted)

    @property
    def taint(self):
        """Horizon evaluations so far: unchanged across a search means its value is exact."""
        return self.c.taint

    def child_search(self, int move, int alpha, int beta):
        """Search the root move with a window; returns its raw value for the player to move
        (fail-soft: below alpha an upper bound, above beta a lower bound)."""
        cdef State child
        cdef int d, v, me = self.root.turn
        self._check()
        child = self.root
        d = apply_move(&self.c, &child, move)
        child.min_decl = 0
        with nogil:
            v = child_value(&self.c, &child, me, d, alpha, beta)
        return v

    def clear(self):
        """Empty the tables: a new generation, so in constant time (the memory is wiped
        only once every 65535 clears, when the generation counter wraps)."""
        self.c.gen += 1
        if self.c.gen == 0:
            self._wipe()
        memset(self.c.killers, 0xFF, sizeof(self.c.killers))     # -1: no killer yet

    cdef void _wipe(self):
        memset(self.c.table, 0, (self.c.table_mask + 1) * 2 * sizeof(Entry))
        memset(self.c.ftable, 0, (self.c.ftable_mask + 1) * 2 * sizeof(Entry))
        memset(self.c.ptable, 0, (self.c.ptable_mask + 1) * sizeof(PlainEntry))
        self.c.gen = 1

    @property
    def nodes(self):
        return self.c.nodes

    @property
    def table_size(self):
        return (self.c.table_mask + 1) * 2

    cdef int _load(self, tuple st) except -1:
        cdef int i, m
        cdef uint64_t h = 0
        (hand_a, hand_b, out, turnup, trump, talon, trick, turn, tricks_a, tricks_b, fin_a, fin_b,
         melds_a, melds_b, exchanged, taken, declared) = st
        if len(talon) > 32:
            raise ValueError("talon longer than the pack")
        memset(&self.root, 0, sizeof(State))
        self.root.hand[0] = hand_a
        self.root.hand[1] = hand_b
        self.root.out = out
        self.root.turnup = turnup
        self.c.trump = trump
        self.c.talon_len = len(talon)
        for i in range(self.c.talon_len):
            self.c.talon[i] = talon[i]
        self.c.talon_hash[self.c.talon_len] = 0
        self.c.talon_rest[self.c.talon_len] = 0
        for i in range(self.c.talon_len - 1, -1, -1):
            h = mix64(h * 33 + <uint64_t>(self.c.talon[i] + 1) + 0x51ED)
            self.c.talon_hash[i] = h
            self.c.talon_rest[i] = self.c.talon_rest[i + 1] | ((<uint32_t>1) << self.c.talon[i])
        points = self.meld_points_by_trump[trump]
        for i in range(N_MELDS):
            self.c.meld_pts[i] = points[i]
        self.root.talon_idx = 0
        self.root.trick = trick
        self.root.turn = turn
        self.root.tricks[0] = tricks_a
        self.root.tricks[1] = tricks_b
        self.root.fin[0] = fin_a
        self.root.fin[1] = fin_b
        for p, melds in enumerate((melds_a, melds_b)):
            for m in melds:
                mark_declared(&self.root, p, m)
                if self.c.meld_kind[m] == K_MARRIAGE or self.c.meld_kind[m] == K_SEQUENCE:
                    self.root.used_sm[p] |= self.c.meld_cards[m]
                if self.c.meld_kind[m] == K_SEQUENCE:
                    self.root.used_seq[p] |= self.c.meld_cards[m]
        self.root.exchanged = exchanged
        self.root.taken = taken
        self.root.declared_turn = declared
        self.root.min_decl = 0
        self.c.root_tricks = __builtin_popcount(self.root.out) // 2
        self.root.ended = 0
        self.root.win = -1
        self.loaded = 1
        return 0

    def load(self, tuple state):
        """Set the root: (hand_a, hand_b, out, turnup, trump, talon, trick, turn, tricks_a,
        tricks_b, final_a, final_b, melds_a, melds_b, exchanged, taken, declared)."""
        self._load(state)

    def _check(self):
        if not self.loaded:
            raise RuntimeError("no position loaded")

    def root_moves(self):
        """The root's legal moves, in search order."""
        cdef int moves[MAXMOVES]
        cdef int n, i
        self._check()
        n = gen_moves(&self.c, &self.root, moves, 0)
        return [moves[i] for i in range(n)]

    def mtdf(self, int guess=0):
        """The exact raw value by MTD(f) zero-window searches from ``guess``."""
        cdef int v
        self._check()
        with nogil:
            v = mtdf(&self.c, &self.root, guess)
        return v

    def value(self, int alpha=-INF, int beta=INF):
        """Raw future value of the root (fail-soft when a window is given).

        With the full window: MTD(f) from the guess of a two-trick heuristic search."""
        cdef int v
        self._check()
        with nogil:
            if alpha == -INF and beta == INF:
                v = guessed_mtdf(&self.c, &self.root)
            else:
                v = search(&self.c, &self.root, alpha, beta)
        return v

    def move_values(self):
        """[(move, raw value)] for every legal move at the root, each searched exactly."""
        cdef int moves[MAXMOVES]
        cdef int n, i, v
        cdef State child
        self._check()
        n = gen_moves(&self.c, &self.root, moves, 0)
        out = []
        for i in range(n):
            with nogil:
                v = exact_child(&self.c, &self.root, moves[i], &child)
            out.append((moves[i], v))
        return out

    def reaches(self, int move, int v):
        """Whether the root move gives the player to move a raw value >= v."""
        cdef State child
        self._check()
        return bool(reaches(&self.c, &self.root, move, v, &child))

    def pv(self, int v, int max_len=200):
        """A principal variation from the root, whose raw value is v, to the end of the deal."""
        cdef int moves[MAXMOVES]
        cdef int n, i, d, found
        cdef State s, child
        self._check()
        s = self.root
        line = []
        while not s.ended and len(line) < max_len:
            n = gen_moves(&self.c, &s, moves, 0)
            found = 0
            for i in range(n):
                if reaches(&self.c, &s, moves[i], v, &child):
                    found = 1
                    break
            if not found:
                raise RuntimeError("principal variation lost: the table gave an inconsistent bound")
            line.append(moves[i])
            child = s
            d = apply_move(&self.c, &child, moves[i])
            child.min_decl = 0
            if child.win >= 0 or child.ended:
                break
            if v >= WIN_THRESHOLD or v <= -WIN_THRESHOLD:
                v = v if child.turn == s.turn else -v
            else:
                v = v - d if child.turn == s.turn else d - v
            s = child
        return line

    def solve_batch(self, list states, bint every_move=False):
        """Solve many roots in one call, the table shared; returns (values, nodes) lists.

        With every_move, values holds for each root a list of (move, raw value)."""
        cdef uint64_t start
        cdef int v
        values = []
        nodes = []
        for st in states:
            self._load(st)
            start = self.c.nodes
            if every_move:
                values.append(self.move_values())
            else:
                with nogil:
                    v = guessed_mtdf(&self.c, &self.root)
                values.append(v)
            nodes.append(self.c.nodes - start)
        return values, nodes
