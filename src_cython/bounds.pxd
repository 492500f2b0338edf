# Cheap value bounds at the start of a turn (points left, sure top trumps, declarations),
# and the value at the horizon of a depth-limited search (fitted or hand-made).
from libc.math cimport exp
from libc.stdint cimport int32_t, uint32_t, uint64_t

from cards cimport __builtin_clz, __builtin_popcount, points_of, suit_bits
from constants cimport K_QUARTET, NET_OUTPUTS, WIN_RAW
from context cimport HORIZON_LEVELS, INF, MAX_TALON, N_HFEATURES, Ctx, EvalEntry, State
from moves cimport meld_declared
from network cimport network_outputs, talon_tricks_left
from tables cimport make_key, mix64


cdef inline int bit_of(uint32_t cards, int card) noexcept nogil:
    return <int>((cards >> card) & 1)


cdef inline int meld_points_in_hand(Ctx* c, State* s, int p, int* quartet) noexcept nogil:
    """Points of the melds complete in player p's hand that he has not declared (a
    game-winning quartet counted apart, in quartet)."""
    cdef int k, i, t = 0
    cdef uint32_t cards
    for k in range(c.melds.n_allowed):
        i = c.melds.allowed[k]
        cards = c.rules.meld_cards[i]
        if (s.hand[p] & cards) != cards or meld_declared(s, p, i):
            continue
        if c.rules.meld_kind[i] == K_QUARTET and c.rules.quartet_game:
            quartet[0] += 1
        else:
            t += c.root.meld_pts[i]
    return t


cdef inline int horizon_level(Ctx* c, State* s) noexcept nogil:
    """Talon tricks left at the start of a turn (the index of the fitted weights)."""
    cdef int left = talon_tricks_left(c, s)
    return left if left < HORIZON_LEVELS else HORIZON_LEVELS - 1


cdef inline void horizon_features(Ctx* c, State* s, double* f) noexcept nogil:
    """The features of the fitted horizon evaluation, for the player to move at the start
    of a turn (me) against his opponent: each a difference me minus opponent unless said.
    Documented in docs/solver.md; benchmarks/training/fit_horizon.py fits their weights."""
    cdef int me = s.turn, other = 1 - me, i, n = 0, qm = 0, qo = 0, pm, po
    cdef int seq[MAX_TALON + 1]
    cdef uint32_t trumps = suit_bits(c.root.trump)
    cdef uint32_t rest = c.root.talon_rest[s.talon_idx]
    cdef uint32_t hm = s.hand[me], ho = s.hand[other], even = 0, odd = 0
    cdef int t_ace = c.root.trump * 8 + 7, t_ten = c.root.trump * 8 + 6, t_seven = c.root.trump * 8
    for i in range(s.talon_idx, c.root.talon_len):
        seq[n] = c.root.talon[i]
        n += 1
    if s.turnup >= 0:
        rest |= (<uint32_t>1) << s.turnup
        seq[n] = s.turnup
        n += 1
    for i in range(n):
        # the cards the player on lead draws if he keeps winning, and his opponent's
        if i % 2 == 0:
            even |= (<uint32_t>1) << seq[i]
        else:
            odd |= (<uint32_t>1) << seq[i]
    f[0] = 1.0
    f[1] = points_of(hm) - points_of(ho)
    f[2] = __builtin_popcount(hm & trumps) - __builtin_popcount(ho & trumps)
    f[3] = sure_points(c, hm, ho | rest) - sure_points(c, ho, hm | rest)
    f[4] = points_of(rest)
    f[5] = (points_of((<uint32_t>1) << seq[0]) if n > 0 else 0) - (points_of((<uint32_t>1) << seq[1]) if n > 1 else 0)
    f[6] = __builtin_popcount(even & trumps) - __builtin_popcount(odd & trumps)
    f[7] = points_of(even) - points_of(odd)
    pm = meld_points_in_hand(c, s, me, &qm)
    po = meld_points_in_hand(c, s, other, &qo)
    f[8] = pm - po
    f[9] = __builtin_popcount((hm >> 7) & 0x01010101) - __builtin_popcount((ho >> 7) & 0x01010101)   # aces
    f[10] = __builtin_popcount((hm >> 6) & 0x01010101) - __builtin_popcount((ho >> 6) & 0x01010101)   # tens
    f[11] = bit_of(hm, t_ace) - bit_of(ho, t_ace)
    f[12] = bit_of(hm, t_ten) - bit_of(ho, t_ten)
    # the 7 of trumps may take the turnup: worth the turnup's points to its holder
    f[13] = 0.0
    if c.rules.exchange and s.turnup >= 0 and s.turnup != t_seven and s.exchanged < 0:
        f[13] = (bit_of(hm, t_seven) - bit_of(ho, t_seven)) * points_of((<uint32_t>1) << s.turnup)


cdef inline double sigmoid(double x) noexcept nogil:
    return 1.0 / (1.0 + exp(-x)) if x >= 0 else exp(x) / (1.0 + exp(x))


cdef inline int horizon_value(Ctx* c, State* s) noexcept nogil:
    """Heuristic future value at the horizon of a depth-limited search (player to move):
    with a learned network its margin, plus ``win_points`` times the chance of a game won
    less that of a game lost; with fitted weights their sum over the horizon features; else (hand-made) under the
    tricks objective half the difference in trumps held, and otherwise half the card points in
    hand minus the opponent's, 6 per trump more than the opponent, and an eighth of the
    points still in the talon and turnup (he draws first).
    Documented in docs/solver.md."""
    cdef int me = s.turn, other = 1 - me, h, i, level
    cdef double f[N_HFEATURES]
    cdef float out[NET_OUTPUTS]
    cdef uint64_t k1, k2
    cdef EvalEntry* e
    cdef double v = 0.0
    cdef uint32_t trumps = suit_bits(c.root.trump)
    cdef uint32_t rest = c.root.talon_rest[s.talon_idx]
    if s.turnup >= 0:
        rest |= (<uint32_t>1) << s.turnup
    if c.horizon.learned:
        make_key(c, s, &k1, &k2)
        e = c.horizon.cache + (mix64(k1 ^ k2) & c.horizon.cache_mask)
        if e.gen == c.horizon.cache_gen and e.k1 == k1 and e.k2 == k2:
            return e.value
        network_outputs(c, s, out)
        c.horizon.evaluations += 1
        v = out[0] + c.horizon.net.win_points * (sigmoid(out[1]) - sigmoid(out[2]))
        e.k1 = k1
        e.k2 = k2
        e.gen = c.horizon.cache_gen
        e.value = <int>(v + 0.5) if v >= 0 else -<int>(0.5 - v)
        return e.value
    if c.horizon.fitted:
        horizon_features(c, s, f)
        level = horizon_level(c, s)
        for i in range(N_HFEATURES):
            v += c.horizon.w[level][i] * f[i]
        return <int>(v + 0.5) if v >= 0 else -<int>(0.5 - v)
    if c.rules.tricks_obj:
        return (__builtin_popcount(s.hand[me] & trumps) - __builtin_popcount(s.hand[other] & trumps)) // 2
    h = (points_of(s.hand[me]) - points_of(s.hand[other])) // 2
    h += 6 * (__builtin_popcount(s.hand[me] & trumps) - __builtin_popcount(s.hand[other] & trumps))
    h += points_of(rest) // 8
    return h


cdef inline int decl_bound(Ctx* c, State* s, int p, uint32_t live, int* quartet) noexcept nogil:
    """Most that player p can still gain from declarations (Brisque); WIN_RAW when he
    might still make a game-winning declaration.  Sets quartet when he might still end
    the deal with four kings or queens."""
    cdef int k, i, t = 0
    cdef uint32_t cards, where = live
    if c.rules.draws and s.turnup < 0:
        if not c.rules.final_decl:
            return 0
        where = s.hand[p]      # the talon is gone: only his own cards can make a meld
    for k in range(c.melds.n_allowed):
        i = c.melds.allowed[k]
        cards = c.rules.meld_cards[i]
        if (where & cards) != cards or meld_declared(s, 0, i) or meld_declared(s, 1, i):
            continue
        if c.rules.meld_kind[i] == K_QUARTET:
            if c.rules.quartet_game:
                return WIN_RAW
            quartet[0] = 1
        if not c.rules.tricks_obj:
            t += c.root.meld_pts[i]
    return t


cdef inline int sure_points(Ctx* c, uint32_t mine, uint32_t others) noexcept nogil:
    """Points (or tricks) that the cards ``mine`` take for certain: every trump above all
    the other live trumps wins the trick it is played to, whatever the rules of play."""
    cdef uint32_t trumps = suit_bits(c.root.trump), top = mine & trumps, theirs = others & trumps
    if theirs:
        top &= ~((<uint32_t>2 << (31 - __builtin_clz(theirs))) - 1)
    if c.rules.tricks_obj:
        return __builtin_popcount(top)
    return points_of(top)


cdef inline int bound_cutoff(Ctx* c, State* s, int alpha, int beta) noexcept nogil:
    """A fail-soft cutoff from cheap bounds on the future value of the player to move at
    the start of a turn (Brisque and Petite Brisque), or -INF.  Every card point still in
    play and the last-trick bonus go to one player or the other, the top trumps are sure
    winners, and declarations can add at most their points."""
    cdef int me = s.turn, other = 1 - me, total, extra = 0, b, d, quartet
    cdef uint32_t live = s.hand[0] | s.hand[1] | c.root.talon_rest[s.talon_idx]
    if s.turnup >= 0:
        live |= (<uint32_t>1) << s.turnup
        if c.rules.exchange and not c.rules.tricks_obj and s.turnup != c.root.trump * 8:
            extra = c.rules.exchange_points
    if c.rules.tricks_obj:
        total = __builtin_popcount(live) // 2
    else:
        total = points_of(live) + c.rules.last_bonus
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
