# The expectimax over the draws: both hands known, the talon's order unknown to both
# players.  Decisions are searched by fail-soft alpha-beta; a move that ends a trick with
# two face-down cards or more left is a chance node over every ordered pair of them (the
# winner's card first), pruned by Ballard's Star1 with bounds on the deal's result; once
# one face-down card at most is left no chance remains and the double-dummy search
# (search.pxd) solves the rest.  Before that, Star2 probes each draw with one move of its
# mover (11% fewer nodes at three talon tricks left; docs/experiments/expectimax-speed.md).
#
# Values are exact integers.  A node with n face-down cards holds its value times n! (its
# *scale*): the value there is a mean over n(n-1) ordered draws of values with n-2 cards
# left, whose scale is (n-2)!, so the scaled value is their plain sum, with no division and
# no rounding.  The value is the deal's final result for the player to move (the final
# margin, or +-WIN_RAW for a game won outright), not the future gain the double-dummy search
# keeps: under chance the points scored before weigh against a chance of a game won, so
# the chance search carries the current margin (``past``) and its table keys hold it.
# int64 holds n! * WIN_RAW up to n = MAX_CHANCE_CARDS.
from libc.stdint cimport int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t

from bounds cimport decl_bound, sure_points
from cards cimport __builtin_popcount, points_of
from constants cimport G_BRISCAN, WIN_RAW
from context cimport INF, MAXMOVES, MAX_TALON, Ctx, State
from moves cimport apply_move, gen_moves, move_to_front
from search cimport guessed_mtdf, out_of_budget, same_mover
from tables cimport make_key, mix64


cdef enum:
    MAX_CHANCE_CARDS = 15     # 15! * WIN_RAW < 2**63; deeper roots are refused
    CHANCE_TABLE_BITS = 18    # entries of the chance search's own table (40 bytes each)
    MAX_OUTCOMES = MAX_CHANCE_CARDS * (MAX_CHANCE_CARDS - 1)   # ordered draws of a chance node

cdef extern from *:
    """
    #define BRISQUE_CHANCE_INF (((int64_t)1) << 62)
    """
    const int64_t CHANCE_INF "BRISQUE_CHANCE_INF"   # beyond every scaled value


ctypedef struct ChanceEntry:
    uint64_t k1
    uint64_t k2
    int64_t lo
    int64_t hi
    int16_t move
    uint16_t gen


ctypedef struct LeafEntry:
    # a position with no chance left and its exact double-dummy future (raw) value
    uint64_t k1
    uint64_t k2
    int32_t value
    uint32_t gen


ctypedef struct ChanceSearch:
    # the chance search's state beside the engine's context
    ChanceEntry* table        # 2**CHANCE_TABLE_BITS entries, one a slot (always replaced)
    LeafEntry* leaves_table   # the same number: leaves' exact values (leaf_value)
    uint64_t mask
    uint16_t gen              # entries of another generation are empty
    int64_t fact[MAX_CHANCE_CARDS + 1]
    int shifts                # 0: every ordered draw; else at most this many draws per card
                              # (sampled chance nodes: sample_outcomes)
    uint64_t seed             # of the sampled draws
    uint64_t chance_nodes     # chance nodes searched (the engine counts every node)
    uint64_t leaves           # double-dummy searches of positions with no chance left


cdef inline int face_down(Ctx* c, State* s) noexcept nogil:
    """The face-down cards still to draw at s (the turnup is not one)."""
    return c.root.talon_len - s.talon_idx


cdef inline void relay_talon(Ctx* c, int idx) noexcept nogil:
    """Recompute the talon's suffix data from index idx on after its cards were reordered
    (the hashes of the suffixes and the cards still in the talon: tables.pxd, moves.pxd)."""
    cdef int i
    cdef uint64_t h = c.root.talon_hash[c.root.talon_len]
    for i in range(c.root.talon_len - 1, idx - 1, -1):
        h = mix64(h * 33 + <uint64_t>(c.root.talon[i] + 1) + 0x51ED)
        c.root.talon_hash[i] = h
        c.root.talon_rest[i] = c.root.talon_rest[i + 1] | ((<uint32_t>1) << c.root.talon[i])


cdef inline int64_t result_bound(Ctx* c, State* s) noexcept nogil:
    """A bound on how far the deal's result for either player can move from his current
    margin at s: every point still in
    play, the last trick, the exchange and every declaration still possible; WIN_RAW when a
    game may still be won outright.  Briscan's bonuses (five trumps, the last five tricks,
    nine tricks: 60 in all) are added whole."""
    cdef uint32_t live = s.hand[0] | s.hand[1] | c.root.talon_rest[s.talon_idx]
    cdef int total, dm, do, quartet = 0
    if s.turnup >= 0:
        live |= (<uint32_t>1) << s.turnup
    if s.trick >= 0:
        live |= (<uint32_t>1) << s.trick
    if c.rules.game == G_BRISCAN and (s.tricks[0] == 0 or s.tricks[1] == 0):
        return WIN_RAW      # every trick to one player wins the game
    dm = decl_bound(c, s, 0, live, &quartet)
    do = decl_bound(c, s, 1, live, &quartet)
    if dm >= WIN_RAW or do >= WIN_RAW:
        return WIN_RAW
    if c.rules.tricks_obj:
        total = __builtin_popcount(live) // 2 + 1
    else:
        total = points_of(live) + c.rules.last_bonus + c.rules.exchange_points
    if c.rules.game == G_BRISCAN:
        total += 60
    return total + dm + do


cdef inline int64_t leaf_value(Ctx* c, ChanceSearch* x, State* s, int me, int past) noexcept nogil:
    """The value for ``me`` (margin ``past``) of a position with no chance left: its final
    result, or +-WIN_RAW for a game won.  The double-dummy future of such a position does
    not depend on the margin, so it is searched once, exactly (MTD(f) from the engine's
    guess), and kept: the windows of the chance nodes above would search it again and
    again, and the reference's memo showed how often the same leaf comes back."""
    cdef int t = s.turn, p = past if t == me else -past, f, v
    cdef uint64_t k1, k2
    cdef LeafEntry* e
    make_key(c, s, &k1, &k2)
    k2 ^= (<uint64_t>(s.trick + 1)) << 56
    e = &x.leaves_table[mix64(k1 ^ (k2 * 0x9E3779B97F4A7C15ULL)) & x.mask]
    if e.gen == x.gen and e.k1 == k1 and e.k2 == k2:
        f = e.value
    else:
        f = guessed_mtdf(c, s)
        if c.budget.aborted:
            return 0
        e.k1 = k1
        e.k2 = k2
        e.value = f
        e.gen = x.gen
    v = same_mover(p, f)
    return v if t == me else -v


cdef inline int64_t child_result(Ctx* c, ChanceSearch* x, State* child, int me, int past,
                                 int64_t alpha, int64_t beta) noexcept nogil:
    """Fail-soft value for ``me`` of a child reached with margin ``past`` for ``me``, on the
    child's scale: a game won, the deal's end, a chance search, or a leaf."""
    cdef int n = face_down(c, child)
    if child.win >= 0:
        return (WIN_RAW if child.win == me else -WIN_RAW) * x.fact[n]
    if child.ended:
        return past * x.fact[n]
    if n < 2:
        x.leaves += 1
        return leaf_value(c, x, child, me, past)
    if child.turn == me:
        return chance_search(c, x, child, past, alpha, beta)
    return -chance_search(c, x, child, -past, -beta, -alpha)


cdef inline int deal_outcome(Ctx* c, State* s, int mv, int* cards, int n, int i, int j,
                             int root, State* child) noexcept nogil:
    """Lay the talon for the draw of cards[i] by the trick's winner and cards[j] by the
    loser (the rest after them), play mv from s into child; return mv's gain."""
    cdef int idx = s.talon_idx, k, m = s.talon_idx + 2, d
    c.root.talon[idx] = cards[i]
    c.root.talon[idx + 1] = cards[j]
    for k in range(n):
        if k != i and k != j:
            c.root.talon[m] = cards[k]
            m += 1
    relay_talon(c, idx)
    child[0] = s[0]
    d = apply_move(c, child, mv)
    if root:
        child.min_decl = 0
    return d


cdef inline int64_t probe_outcome(Ctx* c, ChanceSearch* x, State* child, int me, int past,
                                  int64_t alpha, int64_t beta) noexcept nogil:
    """Star2's probe: the fail-soft value for the child's mover of one move only, the
    table's best or the first (a lower bound of the child for him, when it is not below
    the window), the window (alpha, beta) in his terms."""
    cdef int moves[MAXMOVES]
    cdef int n, i, w = child.turn, pw = past if child.turn == me else -past
    cdef int mv
    cdef uint64_t k1, k2
    cdef ChanceEntry* e
    n = gen_moves(c, child, moves, 1)
    mv = moves[0]
    chance_key(c, child, pw, &k1, &k2)
    e = &x.table[mix64(k1 ^ (k2 * 0x9E3779B97F4A7C15ULL)) & x.mask]
    if e.gen == x.gen and e.k1 == k1 and e.k2 == k2 and e.move >= 0:
        for i in range(n):
            if moves[i] == e.move:
                mv = e.move
    return move_result(c, x, child, pw, mv, alpha, beta, 0)


cdef inline int64_t floor_div(int64_t a, int64_t f) noexcept nogil:
    return a // f if a >= 0 or a % f == 0 else a // f - 1


cdef inline int64_t ceil_div(int64_t a, int64_t f) noexcept nogil:
    return -floor_div(-a, f)


cdef inline int draw_outcomes(ChanceSearch* x, int* cards, int n, int* pi, int* pj,
                              int64_t* weight) noexcept nogil:
    """The ordered draws a chance node searches, as pairs of indices into cards, and the
    weight of each (its share of the n(n-1) draws, times the chance of one): every draw,
    weight 1; or, sampled, k of the n - 1 rotations of a permutation of the cards (each
    card drawn k times by the winner and k times by the loser: a balanced sample), k the
    largest divisor of n - 1 not above ``x.shifts``, weight (n - 1) / k.  The sample
    depends on the cards only, not on the moves that led there: every move meets the
    same draws."""
    cdef int i, j, k, t, count = 0
    cdef int perm[MAX_TALON]
    cdef int shift[MAX_TALON]
    cdef uint64_t h = x.seed, bits = 0
    if x.shifts <= 0 or x.shifts >= n - 1:
        for i in range(n):
            for j in range(n):
                if i != j:
                    pi[count] = i
                    pj[count] = j
                    count += 1
        weight[0] = 1
        return count
    k = x.shifts
    while (n - 1) % k:
        k -= 1
    for i in range(n):
        bits |= (<uint64_t>1) << cards[i]
    # the cards in the order of their values, then shuffled by a hash of the set (Fisher-Yates)
    for i in range(n):
        perm[i] = i
    for i in range(1, n):
        j = i
        while j > 0 and cards[perm[j - 1]] > cards[perm[j]]:
            t = perm[j]
            perm[j] = perm[j - 1]
            perm[j - 1] = t
            j -= 1
    h = mix64(bits ^ h)
    for i in range(n - 1, 0, -1):
        h = mix64(h + <uint64_t>i)
        j = <int>(h % <uint64_t>(i + 1))
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    for i in range(n - 1):
        shift[i] = i + 1
    for i in range(k):          # k distinct rotations of 1..n-1
        h = mix64(h + 0x5A17 + <uint64_t>i)
        j = i + <int>(h % <uint64_t>(n - 1 - i))
        t = shift[i]
        shift[i] = shift[j]
        shift[j] = t
    for t in range(k):
        for i in range(n):
            pi[count] = perm[i]
            pj[count] = perm[(i + shift[t]) % n]
            count += 1
    weight[0] = (n - 1) // k
    return count


cdef inline int64_t weighed_result(Ctx* c, ChanceSearch* x, State* child, int me, int past,
                                   int64_t alpha, int64_t beta, int64_t w) noexcept nogil:
    """child_result times the draw's weight w, fail-soft in the window (alpha, beta) of the
    weighed value."""
    if w == 1:
        return child_result(c, x, child, me, past, alpha, beta)
    return w * child_result(c, x, child, me, past, floor_div(alpha, w), ceil_div(beta, w))


cdef inline int64_t draw_value(Ctx* c, ChanceSearch* x, State* s, int past, int mv,
                               int64_t alpha, int64_t beta, int root) noexcept nogil:
    """Fail-soft value for the player to move at s of mv, a move that ends a trick and
    draws with n >= 2 face-down cards: the sum over the n(n-1) ordered draws (the value
    times n!), or over a sample of them weighed to the same scale (draw_outcomes), with
    the cutoffs of Ballard's Star2: a probe of one move in each draw bounds
    it on one side, then Star1 searches the draws with the windows those bounds allow."""
    cdef int idx = s.talon_idx, n = face_down(c, s), i, j, k, d, me = s.turn
    cdef int cards[MAX_TALON]
    cdef int pi[MAX_OUTCOMES]
    cdef int pj[MAX_OUTCOMES]
    cdef int64_t olo[MAX_OUTCOMES]
    cdef int64_t ohi[MAX_OUTCOMES]
    cdef int64_t sum_lo = 0, sum_hi = 0, done = 0, v, a, b, lo, hi, bound, result, w
    cdef int outcomes
    cdef State child
    for i in range(n):
        cards[i] = c.root.talon[idx + i]
    outcomes = draw_outcomes(x, cards, n, pi, pj, &w)
    # every outcome's weighed result for me lies within [lo, hi] (on the children's scale)
    bound = result_bound(c, s)
    lo = (past - bound if bound < WIN_RAW else -WIN_RAW) * x.fact[n - 2] * w
    hi = (past + bound if bound < WIN_RAW else WIN_RAW) * x.fact[n - 2] * w
    for k in range(outcomes):
        olo[k] = lo
        ohi[k] = hi
    sum_lo = lo * outcomes
    sum_hi = hi * outcomes
    x.chance_nodes += 1
    result = CHANCE_INF
    if n >= 4:      # probes where the draws lead to more chance (leaves are cheap)
        for k in range(outcomes):
            d = deal_outcome(c, s, mv, cards, n, pi[k], pj[k], root, &child)
            if child.win >= 0 or child.ended:
                v = weighed_result(c, x, &child, me, past + d, lo - 1, hi + 1, w)
                sum_lo += v - olo[k]
                sum_hi += v - ohi[k]
                olo[k] = v
                ohi[k] = v
                continue
            if child.turn == me:
                b = beta - (sum_lo - olo[k])
                v = w * probe_outcome(c, x, &child, me, past + d, floor_div(olo[k] - 1, w),
                                      ceil_div(b if b < hi + 1 else hi + 1, w))
                if c.budget.aborted:
                    result = 0
                    break
                if v >= b:
                    result = v + sum_lo - olo[k]
                    break
                if v > olo[k]:
                    sum_lo += v - olo[k]
                    olo[k] = v
            else:
                a = alpha - (sum_hi - ohi[k])
                v = -w * probe_outcome(c, x, &child, me, past + d, floor_div(-(ohi[k] + 1), w),
                                       ceil_div(-(a if a > lo - 1 else lo - 1), w))
                if c.budget.aborted:
                    result = 0
                    break
                if v <= a:
                    result = v + sum_hi - ohi[k]
                    break
                if v < ohi[k]:
                    sum_hi += v - ohi[k]
                    ohi[k] = v
        if result == CHANCE_INF and sum_lo >= beta:
            result = sum_lo
        elif result == CHANCE_INF and sum_hi <= alpha:
            result = sum_hi
    if result == CHANCE_INF:
        for k in range(outcomes):
            # Star1 with each draw's own bounds: sum_lo and sum_hi hold the draws from k on
            sum_lo -= olo[k]
            sum_hi -= ohi[k]
            if olo[k] == ohi[k]:
                done += olo[k]
                continue
            d = deal_outcome(c, s, mv, cards, n, pi[k], pj[k], root, &child)
            a = alpha - done - sum_hi
            b = beta - done - sum_lo
            v = weighed_result(c, x, &child, me, past + d, a if a > olo[k] - 1 else olo[k] - 1,
                               b if b < ohi[k] + 1 else ohi[k] + 1, w)
            if c.budget.aborted:
                result = 0
                break
            if v >= b:
                result = done + v + sum_lo
                break
            if v <= a:
                result = done + v + sum_hi
                break
            done += v
        if result == CHANCE_INF:
            result = done
    for i in range(n):
        c.root.talon[idx + i] = cards[i]
    relay_talon(c, idx)
    return result


cdef inline int64_t move_result(Ctx* c, ChanceSearch* x, State* s, int past, int mv,
                                int64_t alpha, int64_t beta, int root) noexcept nogil:
    """Fail-soft value of mv for the player to move at s (margin ``past``), on s's scale.
    ``root``: a root move's own value, any declaration may follow it."""
    cdef State child = s[0]
    cdef int d = apply_move(c, &child, mv)
    if child.talon_idx != s.talon_idx and face_down(c, s) >= 2:
        return draw_value(c, x, s, past, mv, alpha, beta, root)
    if root:
        child.min_decl = 0
    return child_result(c, x, &child, s.turn, past + d, alpha, beta)


cdef inline void chance_key(Ctx* c, State* s, int past, uint64_t* k1, uint64_t* k2) noexcept nogil:
    """The table key of a node of the chance search: the engine's key with the talon as the
    set of its cards (its order is not decided), and the current margin."""
    make_key(c, s, k1, k2)
    k2[0] ^= c.root.talon_hash[s.talon_idx] ^ mix64(
        (<uint64_t>c.root.talon_rest[s.talon_idx]) | ((<uint64_t>(past + 0x8000) & 0xFFFF) << 32)
        | ((<uint64_t>(s.trick + 1)) << 48) | (<uint64_t>1 << 62))


cdef inline int64_t chance_search(Ctx* c, ChanceSearch* x, State* s, int past,
                                  int64_t alpha, int64_t beta) noexcept nogil:
    """Fail-soft alpha-beta value for the player to move at s, two face-down cards or more
    left, of the deal's result on s's scale (its value times n!).

    Returns 0 at once when the budget is spent (c.budget.aborted): callers must then
    discard the result."""
    cdef int moves[MAXMOVES]
    cdef int n, i, best_move = -1
    cdef int64_t best = -CHANCE_INF, v, a
    cdef uint64_t k1, k2
    cdef ChanceEntry* e
    c.nodes += 1
    if out_of_budget(c):
        return 0
    chance_key(c, s, past, &k1, &k2)
    e = &x.table[mix64(k1 ^ (k2 * 0x9E3779B97F4A7C15ULL)) & x.mask]
    n = gen_moves(c, s, moves, 1)
    if e.gen == x.gen and e.k1 == k1 and e.k2 == k2:
        if e.lo >= beta:
            return e.lo
        if e.hi <= alpha:
            return e.hi
        if e.lo == e.hi:
            return e.lo
        move_to_front(moves, n, e.move)      # the stored best move first
    for i in range(n):
        a = alpha if alpha > best else best
        v = move_result(c, x, s, past, moves[i], a, beta, 0)
        if c.budget.aborted:
            return 0
        if v > best:
            best = v
            best_move = moves[i]
            if best >= beta:
                break
    if not (e.gen == x.gen and e.k1 == k1 and e.k2 == k2):
        e.k1 = k1
        e.k2 = k2
        e.gen = x.gen
        e.lo = -CHANCE_INF
        e.hi = CHANCE_INF
    e.move = <int16_t>best_move
    if best >= beta:
        if best > e.lo:
            e.lo = best
    elif best <= alpha:
        if best < e.hi:
            e.hi = best
    else:
        e.lo = best
        e.hi = best
    return best
