# Plain card play of the final phase: the last tricks searched on two card masks, with a
# table of their own, where the general search would spend most of its nodes.
from libc.stdint cimport int32_t, uint32_t, uint64_t

from cards cimport __builtin_clz, __builtin_ctz, __builtin_popcount, follow_cards, leader_wins
from constants cimport G_BRISCAN, G_BRISQUE
from context cimport INF, PLAIN_TABLE_MIN, SMALL_ENDGAME, Ctx, PlainEntry, State
from moves cimport card_gain, meld_declared
from tables cimport merge_result, mix64


cdef inline int plain_marriages(Ctx* c, State* s) noexcept nogil:
    """Whether plain_play can finish the deal from s: -1 if not, else the suits of the
    marriages that may still be declared.  Plain play: no talon, at most SMALL_ENDGAME
    cards each, no Briscan bonuses, no four kings or queens in one hand; marriages only
    where declaring is forced (it never hurts, and several may be made at one turn)."""
    cdef uint32_t pairs = 0, h
    cdef int p, suit
    if s.trick >= 0 or c.rules.game == G_BRISCAN or c.root.talon_len > s.talon_idx or s.turnup >= 0:
        return -1
    if s.fresh:
        return -1   # (before_draw: the leader may not declare with the card just drawn)
    if __builtin_popcount(s.hand[s.turn]) > SMALL_ENDGAME:
        return -1
    if c.rules.game != G_BRISQUE:
        return 0
    for p in range(2):
        h = s.hand[p]
        if ((h >> 5) & 0x01010101u) == 0x01010101u or ((h >> 4) & 0x01010101u) == 0x01010101u:
            return -1
        pairs |= (h >> 5) & (h >> 4) & 0x01010101u     # king and queen of a suit
    if pairs == 0 or not c.rules.final_decl or c.rules.tricks_obj:
        return 0     # (under the tricks objective a marriage scores nothing)
    if c.rules.one_decl or not c.features.force_free:
        return -1
    for suit in range(4):
        if meld_declared(s, 0, suit) or meld_declared(s, 1, suit):
            pairs &= ~((<uint32_t>1) << (suit * 8))     # declared already
    # one bit per suit
    return <int>((pairs & 1) | ((pairs >> 7) & 2) | ((pairs >> 14) & 4) | ((pairs >> 21) & 8))


cdef inline uint32_t merge_zero_cards(uint32_t cand, uint32_t live) noexcept nogil:
    """cand without the cards equivalent to a lower one of cand: a 7, 8 or 9 (no points)
    whose nearest lower live card of its suit is also in cand (moves.pxd merge_equivalent,
    for two masks)."""
    cdef uint32_t c7 = cand & 0x01010101u, c8 = cand & 0x02020202u, c9 = cand & 0x04040404u
    return cand & ~((c8 & (c7 << 1)) | (c9 & ((c8 << 1) | ((c7 << 2) & ~(live << 1)))))


cdef inline int plain_play(Ctx* c, uint32_t lead, uint32_t follow, int marr, int alpha,
                    int beta) noexcept nogil:
    """Fail-soft alpha-beta value, for the player on lead holding ``lead``, of plain card
    play to the end of the deal (see plain_marriages): a small search on two masks, where
    the general search would spend most of its nodes.  ``marr``: suits (bits 0-3) whose
    marriage may still be declared; the leader declares his at once."""
    cdef uint32_t legal, la, zero
    cdef int a, b, g, v, best = -INF, worst, total, alpha0, best_card = -1, first = -1
    cdef int forced = c.rules.draws or c.rules.forced_start    # following is obligatory (final phase)
    cdef int decl = 0, suit, tag, merge
    cdef int32_t lo, hi
    cdef uint64_t key = 0
    cdef PlainEntry* e = NULL
    c.nodes += 1
    if marr:
        for suit in range(4):
            if (marr >> suit) & 1 and ((lead >> (suit * 8 + 4)) & 3) == 3:
                decl += c.root.meld_pts[suit]
                marr &= ~(1 << suit)
        if decl:
            return decl + plain_play(c, lead, follow, marr, alpha - decl, beta - decl)
    if (lead & (lead - 1)) == 0:
        return last_two_cards(c, __builtin_ctz(lead), __builtin_ctz(follow))
    if __builtin_popcount(lead) == 2:
        return last_two_tricks(c, lead, follow, forced)
    if __builtin_popcount(lead) >= PLAIN_TABLE_MIN:
        key = (<uint64_t>lead) | ((<uint64_t>follow) << 32)
        tag = (c.root.trump + 1) | (marr << 3)
        e = &c.tables.ptable[mix64(key ^ (<uint64_t>tag << 57)) & c.tables.ptable_mask]
        if e.key == key and e.tag == tag and e.gen == c.tables.gen:
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
    merge = c.features.merge_equal     # (7s, 8s and 9s are alike under either objective)
    la = merge_zero_cards(lead, lead | follow) if merge else lead
    if first >= 0:
        la &= ~((<uint32_t>1) << first)
    while la or first >= 0:
        if first >= 0:
            a = first          # the table's best card first
            first = -1
        else:
            a = __builtin_ctz(la)
            la &= la - 1
        legal = follow_cards(follow, a, c.root.trump, c.rules.must_beat) if forced else follow
        if merge:
            legal = merge_zero_cards(legal, lead | follow)
        worst = INF
        # replies without points first (only a discard mixes suits: else the mask order
        # is already the cheapest first)
        zero = legal & 0x07070707u
        legal &= ~0x07070707u
        while zero or legal:
            if zero:
                b = __builtin_ctz(zero)
                zero &= zero - 1
            else:
                b = __builtin_ctz(legal)
                legal &= legal - 1
            g = card_gain(c, a, b)
            if leader_wins(a, b, c.root.trump):
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
        if not (e.key == key and e.tag == tag and e.gen == c.tables.gen):
            e.key = key
            e.tag = tag
            e.gen = c.tables.gen
            e.lo = -32000
            e.hi = 32000
        lo = e.lo
        hi = e.hi
        merge_result(best, alpha0, beta, &lo, &hi)
        e.lo = lo
        e.hi = hi
        e.card = best_card
    return best


cdef inline int last_two_cards(Ctx* c, int a, int b) noexcept nogil:
    """The last trick's value for the player leading a against b."""
    cdef int g = card_gain(c, a, b)
    if not c.rules.tricks_obj:
        g += c.rules.last_bonus
    return g if leader_wins(a, b, c.root.trump) else -g


cdef inline int last_two_tricks(Ctx* c, uint32_t lead, uint32_t follow, int forced) noexcept nogil:
    """Exact value of the last two tricks of plain play for the player on lead (at most
    two leads times two replies, so no window is needed)."""
    cdef int a, b, a2, b2, g, v, worst, best = -INF, i, j
    cdef uint32_t legal
    for i in range(2):
        a = __builtin_ctz(lead) if i == 0 else 31 - __builtin_clz(lead)
        a2 = 31 - __builtin_clz(lead) if i == 0 else __builtin_ctz(lead)
        legal = follow_cards(follow, a, c.root.trump, c.rules.must_beat) if forced else follow
        worst = INF
        while legal:
            b = __builtin_ctz(legal)
            legal &= legal - 1
            b2 = __builtin_ctz(follow & ~((<uint32_t>1) << b))
            g = card_gain(c, a, b)
            if leader_wins(a, b, c.root.trump):
                v = g + last_two_cards(c, a2, b2)
            else:
                v = -g - last_two_cards(c, b2, a2)
            if v < worst:
                worst = v
        if worst > best:
            best = worst
    return best
