# The rules of play on the engine's State: legal moves in search order, and the effect of a
# move (cards, draws, exchange, declarations, the end of the deal and its bonuses).
from libc.stdint cimport int32_t, uint32_t, uint64_t

from cards cimport (__builtin_clz, __builtin_ctz, __builtin_popcount, follow_cards, leader_wins,
                   points_of, suit_bits, winning_replies)
from constants cimport (DECLARE_BASE, G_BRISCAN, G_BRISQUE, G_PETITE, K_ACE_TRUMPS, K_BLANK_COURTS,
                        K_BLANK_PLAIN, K_MARRIAGE, K_QUARTET, K_SEQUENCE, MOVE_EXCHANGE, MOVE_PASS,
                        PACK_POINTS, WIN_RAW, brisque_rank_points)
from context cimport COURT_MASK, Ctx, State


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
    return c.rules.draws and s.talon_idx >= c.root.talon_len and s.turnup >= 0


cdef inline int final_phase(Ctx* c, State* s) noexcept nogil:
    return c.rules.draws and s.turnup < 0


cdef inline int can_exchange(Ctx* c, State* s) noexcept nogil:
    cdef int seven = c.root.trump * 8
    if not c.rules.exchange or s.turnup < 0 or in_window(c, s):
        return 0
    if s.turnup == seven or not ((s.hand[s.turn] >> seven) & 1):
        return 0
    if c.rules.exch_lead_only and s.trick >= 0:
        return 0
    return 1


cdef inline int may_declare(Ctx* c, State* s) noexcept nogil:
    if c.rules.game == G_PETITE or s.trick >= 0:
        return 0
    if __builtin_popcount(s.out) < 2:
        return 0
    if final_phase(c, s) and not c.rules.final_decl:
        return 0
    if c.rules.one_decl and s.declared_turn:
        return 0
    return 1


cdef inline int meld_possible(Ctx* c, uint32_t hand) noexcept nogil:
    """Cheap filter: in Brisque only a marriage or four kings/queens can be declared."""
    cdef uint32_t kings, queens
    if c.rules.game != G_BRISQUE:
        return 1
    kings = (hand >> 5) & 0x01010101u
    queens = (hand >> 4) & 0x01010101u
    return (kings & queens) != 0 or kings == 0x01010101u or queens == 0x01010101u


cdef inline int meld_ok(Ctx* c, State* s, int i) noexcept nogil:
    """Whether the player to move may declare meld i now (rules of solver/position.py)."""
    cdef int me = s.turn
    cdef uint32_t hand = s.hand[me] & ~s.fresh   # (before_draw: not the cards drawn since)
    cdef uint32_t cards = c.rules.meld_cards[i]
    cdef int kind = c.rules.meld_kind[i]
    cdef uint32_t courts
    if not c.rules.meld_allowed[i]:
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
        if not ((hand >> (c.root.trump * 8 + 7)) & 1) or ((s.used_seq[me] >> (c.root.trump * 8 + 7)) & 1):
            return 0
        return not (s.exchanged == me and s.taken == c.root.trump * 8 + 7)
    if (hand & cards) != cards:
        return 0
    if kind == K_QUARTET:
        return 1
    # marriages and sequences: no card already in a declared sequence or marriage
    return (cards & s.used_sm[me]) == 0


cdef inline void move_to_front(int* moves, int n, int m) noexcept nogil:
    """Put move m (a table's best move) first, the others in their order; nothing if absent."""
    cdef int i, j
    for i in range(1, n):
        if moves[i] == m:
            j = i
            while j > 0:
                moves[j] = moves[j - 1]
                j -= 1
            moves[0] = m
            return


cdef inline int gen_moves(Ctx* c, State* s, int* moves, int prune) noexcept nogil:
    """Legal moves in search order: declarations, exchange/pass, then cards.

    With prune (inside the search, never at the root), a declaration that can never
    hurt is forced before anything else, and equivalent cards are merged.
    """
    cdef int n = 0, i, k, me = s.turn
    cdef uint32_t hand = s.hand[me], playable, m, winners, led_suit
    cdef int seven = c.root.trump * 8
    if in_window(c, s):
        if (hand >> seven) & 1:
            moves[n] = MOVE_EXCHANGE
            n += 1
        moves[n] = MOVE_PASS
        return n + 1
    if may_declare(c, s) and meld_possible(c, hand):
        if prune and not c.rules.one_decl and c.features.force_free:
            for k in range(c.melds.n_allowed):
                i = c.melds.allowed[k]
                if c.melds.free[i] and meld_ok(c, s, i):
                    moves[0] = DECLARE_BASE + i
                    return 1
        for k in range(c.melds.n_allowed):
            i = c.melds.allowed[k]
            if (i >= s.min_decl or c.melds.free[i]) and meld_ok(c, s, i):
                moves[n] = DECLARE_BASE + i
                n += 1
    if can_exchange(c, s):
        moves[n] = MOVE_EXCHANGE
        n += 1
    if s.trick >= 0:
        if final_phase(c, s) or c.rules.forced_start:
            playable = follow_cards(hand, s.trick, c.root.trump, c.rules.must_beat)
        else:
            playable = hand
        if prune and c.features.merge_equal:
            playable = merge_equivalent(c, s, playable)
        # winners first, cheapest first; then the cheapest losers.  A follower who holds
        # the suit led tries its winners first, even where a trump would also win (the talon
        # phase): that orders better (measured: 5% fewer nodes at six talon tricks left)
        led_suit = playable & suit_bits(s.trick >> 3)
        winners = winning_replies(led_suit if led_suit else playable, s.trick, c.root.trump)
        m = winners
        while m:
            moves[n] = __builtin_ctz(m)
            n += 1
            m &= m - 1
        m = playable & ~winners
        n = add_cheapest_first(moves, n, m, c.root.trump)
    else:
        playable = hand
        if prune and c.features.merge_equal:
            playable = merge_equivalent(c, s, playable)
        if final_phase(c, s) or not c.rules.draws or not c.features.talon_ordering:
            # leads: high cards of plain suits first, then the rest from the top
            n = add_highest_first(moves, n, playable & ~suit_bits(c.root.trump))
            n = add_highest_first(moves, n, playable & suit_bits(c.root.trump))
        else:
            # talon phase: cheap leads first (plain low cards, trumps last)
            n = add_cheapest_first(moves, n, playable, c.root.trump)
    return n


cdef inline uint32_t merge_equivalent(Ctx* c, State* s, uint32_t mine) noexcept nogil:
    """Keep one card of each run of equivalent cards: same suit, no card still in play
    between them, same points (any points under the tricks objective).

    Bit-parallel over the four suits: a card is dropped when the nearest lower card
    still in play in its suit is also a candidate (and, for points, worth the same)."""
    cdef uint32_t live = s.hand[0] | s.hand[1] | c.root.talon_rest[s.talon_idx]
    cdef uint32_t cand = mine, c7, c8, c9, drop, last, row_live, row_cand
    cdef int r
    if s.turnup >= 0:
        live |= (<uint32_t>1) << s.turnup
    if s.trick >= 0:
        live |= (<uint32_t>1) << s.trick
    if s.turnup >= 0 and s.turnup != c.root.trump * 8 and c.rules.exchange:
        # the 7 of trumps can still be exchanged for the turnup, which would come into play
        cand &= ~((<uint32_t>1) << (c.root.trump * 8))
        live |= (<uint32_t>1) << s.turnup
    if not c.rules.tricks_obj:
        # only the 7, 8 and 9 share a point value (zero)
        c7 = cand & 0x01010101u
        c8 = cand & 0x02020202u
        c9 = cand & 0x04040404u
        drop = (c8 & (c7 << 1)) | (c9 & ((c8 << 1) | ((c7 << 2) & ~(live << 1))))
        return mine & ~drop
    # tricks objective: any run of candidates adjacent among the live cards, but kings and
    # queens keep their meld roles (marriages, four kings/queens) where there are melds
    if c.rules.game != G_PETITE:
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


cdef inline int card_gain(Ctx* c, int a, int b) noexcept nogil:
    if c.rules.tricks_obj:
        return 1
    return brisque_rank_points[a & 7] + brisque_rank_points[b & 7]


cdef inline void take_turnup(Ctx* c, State* s, int p, int* gain) noexcept nogil:
    cdef int q
    s.hand[p] |= (<uint32_t>1) << s.turnup
    s.turnup = -1
    start_final(c, s, gain)


cdef inline void start_final(Ctx* c, State* s, int* gain) noexcept nogil:
    cdef int q
    cdef uint32_t trumps
    if c.rules.game == G_BRISCAN and not c.rules.tricks_obj:
        trumps = suit_bits(c.root.trump)
        for q in range(2):
            if __builtin_popcount(s.hand[q]) == 5 and (s.hand[q] & trumps) == s.hand[q]:
                gain[q] += 30


cdef inline int apply_move(Ctx* c, State* s, int mv) noexcept nogil:
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
        s.fresh = 0
        if s.trick < 0:
            s.trick = mv
            s.turn = other
            return 0
        led = s.trick
        w = other if leader_wins(led, mv, c.root.trump) else me
        gain[w] += card_gain(c, led, mv)
        s.tricks[w] += 1
        if final_phase(c, s):
            s.fin[w] += 1
        s.out |= b | ((<uint32_t>1) << led)
        s.trick = -1
        s.turn = w
        if s.hand[0] == 0 and s.hand[1] == 0:
            end_of_play(c, s, w, gain)
        elif c.rules.draws and s.turnup >= 0:
            # the winner draws, then the loser
            s.hand[w] |= (<uint32_t>1) << c.root.talon[s.talon_idx]
            if c.rules.before_draw:
                s.fresh = (<uint32_t>1) << c.root.talon[s.talon_idx]
            s.talon_idx += 1
            if s.talon_idx < c.root.talon_len:
                s.hand[1 - w] |= (<uint32_t>1) << c.root.talon[s.talon_idx]
                s.talon_idx += 1
            else:
                seven = c.root.trump * 8
                if not (c.rules.window and s.turnup != seven and ((s.hand[w] >> seven) & 1)):
                    take_turnup(c, s, 1 - w, gain)
    elif mv == MOVE_EXCHANGE:
        seven = c.root.trump * 8
        old = s.turnup
        s.hand[me] = (s.hand[me] & ~((<uint32_t>1) << seven)) | ((<uint32_t>1) << old)
        s.exchanged = me
        s.taken = old
        s.min_decl = 0
        if c.rules.before_draw and s.trick < 0:
            s.fresh = (s.fresh & ~((<uint32_t>1) << seven)) | ((<uint32_t>1) << old)
        if not c.rules.tricks_obj:
            gain[me] += c.rules.exchange_points
        if in_window(c, s):
            s.hand[other] |= (<uint32_t>1) << seven
            s.turnup = -1
            start_final(c, s, gain)
        else:
            s.turnup = seven
    elif mv == MOVE_PASS:
        take_turnup(c, s, other, gain)
    else:
        i = mv - DECLARE_BASE
        mark_declared(s, me, i)
        s.declared_turn += 1
        if not c.melds.free[i]:
            s.min_decl = i + 1
        if c.rules.meld_kind[i] == K_MARRIAGE or c.rules.meld_kind[i] == K_SEQUENCE:
            s.used_sm[me] |= c.rules.meld_cards[i]
        if c.rules.meld_kind[i] == K_SEQUENCE:
            s.used_seq[me] |= c.rules.meld_cards[i]
        if not c.rules.tricks_obj:
            gain[me] += c.root.meld_pts[i]
        if c.rules.meld_kind[i] == K_QUARTET and c.rules.game == G_BRISQUE:
            s.ended = 1
            if c.rules.quartet_game:
                s.win = me
            elif not c.rules.tricks_obj:
                gain[me] += PACK_POINTS - points_of(s.out) + c.rules.last_bonus
    return gain[me] - gain[other]


cdef inline void end_of_play(Ctx* c, State* s, int w, int* gain) noexcept nogil:
    cdef int q
    s.ended = 1
    if c.rules.tricks_obj:
        if c.rules.game == G_BRISCAN and s.tricks[w] == 16:
            s.win = w
        return
    gain[w] += c.rules.last_bonus
    if c.rules.game == G_BRISCAN:
        for q in range(2):
            if s.fin[q] == 5:
                gain[q] += 20
            if s.tricks[q] >= 9:
                gain[q] += 10
            if s.tricks[q] == 16:
                s.win = q


cdef inline int is_last_trick_plain(Ctx* c, State* s) noexcept nogil:
    """One card each and nothing to declare or exchange: the last trick plays itself."""
    cdef uint32_t h0 = s.hand[0], h1 = s.hand[1]
    if h0 == 0 or h1 == 0 or (h0 & (h0 - 1)) or (h1 & (h1 - 1)):
        return 0
    if s.turnup >= 0 and c.rules.exchange and s.turnup != c.root.trump * 8 \
            and ((h0 | h1) >> (c.root.trump * 8)) & 1:
        return 0
    if c.rules.game == G_BRISCAN and may_declare(c, s) and (s.hand[s.turn] >> (c.root.trump * 8 + 7)) & 1:
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
