# The search driver: fail-soft alpha-beta on the raw future value, the maps of values and
# windows between parent and child, MTD(f), and the root helpers the Engine class calls.
from libc.stdint cimport int32_t, uint16_t, uint32_t, uint64_t

from libc.string cimport memcpy
from libc.time cimport clock

from bounds cimport bound_cutoff, horizon_value
from network cimport talon_tricks_left
from cards cimport __builtin_popcount
from constants cimport WIN_RAW, WIN_THRESHOLD
from context cimport (ABDADA_MIN_TALON, ETC_MIN_TALON, EXACT_DEPTH, INF, KILLER_PLIES, MAXMOVES, SCRATCH_GEN, SIGNAL_INTERVAL, STOP_INTERVAL, Ctx, Entry,
                     State, brisque_clear_busy, brisque_flag, brisque_is_busy, brisque_set_busy,
                     monotonic_seconds)
from moves cimport apply_move, gen_moves, is_last_trick_plain, last_trick, move_to_front
from plain cimport plain_marriages, plain_play
from tables cimport bucket_of, make_key, merge_result, mix64, node_key, probe, store, victim, weight


cdef inline int clamp_int(int x, int lo, int hi) noexcept nogil:
    return lo if x < lo else (hi if x > hi else x)


# exact preimage of the parent's window under the map (child_alpha, child_beta).

# Values and bounds between parent and child.  A game win is worth exactly +-WIN_RAW
# whatever was scored before it, so the parent's value of a child value x is d + x for an
# ordinary x and x itself for a win.  Fail-soft bounds pass through this map only if it
# is monotone: an upper bound of WIN_RAW (which says nothing) must not become a win.  So an
# ordinary value is kept inside the ordinary range (-WIN_THRESHOLD, WIN_THRESHOLD), which
# changes no real value (they are a few hundred at most), and a child's window is the

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


cdef extern from "Python.h":
    # declared without an exception clause on purpose: the handler's exception (Ctrl-C's
    # KeyboardInterrupt) stays pending until the Engine method that started the search
    # raises it, once the search has unwound
    int PyErr_CheckSignals()


cdef inline int signal_raised() noexcept nogil:
    """Run Python's signal handlers now; 1 if one raised (its exception is pending).

    Python runs handlers only between bytecodes, so a long search in C would not see
    Ctrl-C until it ended; taking the GIL for a moment every SIGNAL_INTERVAL nodes costs
    well under 1% (benchmarks/bench_interrupt.py)."""
    with gil:
        return 1 if PyErr_CheckSignals() != 0 else 0


cdef inline int out_of_budget(Ctx* c) noexcept nogil:
    if c.budget.aborted:
        return 1
    if c.nodes >= c.budget.next_signal_check:
        if c.budget.stop != NULL:
            # a parallel solve's thread looks more often: another may have the answer
            # (but for Ctrl-C, which takes the GIL, as seldom as a solo search)
            c.budget.next_signal_check = c.nodes + STOP_INTERVAL
            if brisque_flag(c.budget.stop):
                c.budget.aborted = 1
                return 1
            c.budget.stop_checks += 1
            if c.budget.stop_checks % (SIGNAL_INTERVAL // STOP_INTERVAL) != 0:
                return 0
        else:
            c.budget.next_signal_check = c.nodes + SIGNAL_INTERVAL
        if c.budget.watch_signals and signal_raised():
            c.budget.interrupted = 1
            c.budget.aborted = 1
            return 1
    if c.budget.node_limit and c.nodes > c.budget.node_limit:
        c.budget.aborted = 1
    elif (c.nodes & 4095) == 0 and (c.budget.deadline or c.budget.wall_deadline != 0):
        if (c.budget.deadline and clock() > c.budget.deadline) or (
                c.budget.wall_deadline != 0 and monotonic_seconds() > c.budget.wall_deadline):
            c.budget.aborted = 1
    return c.budget.aborted


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


cdef inline int etc_cutoff(Ctx* c, State* s, int* moves, int n, int beta) noexcept nogil:
    """Enhanced transposition cutoff at a follower's node: if the table already proves that
    one of the replies (each ends the trick) reaches beta, return that bound, else -INF."""
    cdef int i, d, lower, me = s.turn
    cdef State child
    cdef uint64_t k1, k2
    cdef Entry ent
    for i in range(n):
        child = s[0]
        d = apply_move(c, &child, moves[i])
        if child.win >= 0 or child.ended or child.trick >= 0:
            continue
        if __builtin_popcount(child.hand[0] | child.hand[1]) <= 2:
            continue
        make_key(c, &child, &k1, &k2)
        if probe(c, bucket_of(c, &child, k1, k2), k1, k2, &ent) == NULL or ent.depth != EXACT_DEPTH:
            continue
        lower = same_mover(d, ent.lo) if child.turn == me else other_mover(d, ent.hi)
        if lower >= beta:
            return lower
    return -INF


cdef inline int search(Ctx* c, State* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the raw future value of the player to move.

    Returns 0 at once when the budget is spent (c.budget.aborted): callers must then
    discard the result."""
    cdef int moves[MAXMOVES]
    cdef int n, i, v, d, best = -INF, best_move = -1, me = s.turn, alpha0
    cdef int rem = EXACT_DEPTH, usable = 0, ply
    cdef uint64_t k1 = 0, k2 = 0, taint0
    cdef Entry* e = NULL
    cdef Entry* b = NULL
    cdef Entry ent
    cdef int hit = 0, total, abdada = 0
    cdef uint64_t node_hash = 0, move_hash = 0
    cdef State child
    c.nodes += 1
    if out_of_budget(c):
        return 0
    if s.trick < 0 and is_last_trick_plain(c, s):
        return last_trick(c, s)
    # no horizon once the talon is gone (Brisque's last-pickup window included): the final
    # phase is solved exactly in microseconds
    if c.budget.depth_limit >= 0 and s.trick < 0 and not (c.rules.draws and s.talon_idx >= c.root.talon_len):
        rem = c.budget.depth_limit - (__builtin_popcount(s.out) // 2 - c.budget.root_tricks)
        if rem <= 0:
            c.budget.taint += 1
            return horizon_value(c, s)
    if s.trick < 0 and c.features.use_bounds:
        v = bound_cutoff(c, s, alpha, beta)
        if v > -INF:
            return v
    if s.trick < 0 and c.features.small_endgame:
        i = plain_marriages(c, s)
        if i >= 0:
            return plain_play(c, s.hand[me], s.hand[1 - me], i, alpha, beta)
    if s.trick < 0 and c.tables.table != NULL and __builtin_popcount(s.hand[0] | s.hand[1]) > 2:
        make_key(c, s, &k1, &k2)
        b = bucket_of(c, s, k1, k2)
        if probe(c, b, k1, k2, &ent) != NULL:
            hit = 1
            # exact entries serve every search; horizon entries only a search as shallow
            usable = ent.depth == EXACT_DEPTH or (rem != EXACT_DEPTH and ent.depth >= rem)
            if usable:
                if ent.depth != EXACT_DEPTH:
                    c.budget.taint += 1
                if ent.lo >= beta:
                    return ent.lo
                if ent.hi <= alpha:
                    return ent.hi
                if ent.lo == ent.hi:
                    return ent.lo
                if ent.lo > alpha:
                    alpha = ent.lo
                if ent.hi < beta:
                    beta = ent.hi
    alpha0 = alpha
    taint0 = c.budget.taint
    n = gen_moves(c, s, moves, 1)
    if s.trick >= 0 and n > 1 and c.features.etc and c.budget.depth_limit < 0 and c.tables.table != NULL and s.turnup >= 0 \
            and c.root.talon_len - s.talon_idx >= ETC_MIN_TALON:
        v = etc_cutoff(c, s, moves, n, beta)
        if v > -INF:
            return v
    if c.features.talon_ordering and c.rules.draws and s.turnup >= 0 and n > 2:
        promote_killers(c, s, moves, n)
    if hit and ent.move >= 0:
        move_to_front(moves, n, ent.move)
    # A parallel solve's threads share out the moves by Simplified ABDADA: a move (other
    # than the first) that another thread is searching now waits to the end of the list,
    # by when the shared table may hold its result.
    if c.budget.stop != NULL and s.turnup >= 0 and c.root.talon_len - s.talon_idx >= ABDADA_MIN_TALON:
        abdada = 1
        node_hash = node_key(s)
    total = n
    i = -1
    while i + 1 < total:
        i += 1
        if abdada:
            move_hash = mix64(node_hash ^ ((<uint64_t>(moves[i] + 1)) * 0x9E3779B97F4A7C15ULL))
            if 0 < i < n and total < MAXMOVES and brisque_is_busy(move_hash):
                moves[total] = moves[i]
                total += 1
                continue
            brisque_set_busy(move_hash)
        child = s[0]
        d = apply_move(c, &child, moves[i])
        v = child_value(c, &child, me, d, alpha, beta)
        if abdada:
            brisque_clear_busy(move_hash)
        if c.budget.aborted:
            return 0
        if v > best:
            best = v
            best_move = moves[i]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    if moves[i] < 32 and c.rules.draws and s.turnup >= 0:
                        ply = __builtin_popcount(s.out) + (1 if s.trick >= 0 else 0)
                        if c.killers[ply][0] != moves[i]:
                            c.killers[ply][1] = c.killers[ply][0]
                            c.killers[ply][0] = moves[i]
                    break
    if b != NULL:
        d = EXACT_DEPTH if c.budget.taint == taint0 else rem
        e = probe(c, b, k1, k2, &ent)     # the searches below may have moved or evicted it
        if e != NULL and ent.depth == EXACT_DEPTH and d != EXACT_DEPTH:
            return best     # never spoil an exact entry with a horizon value
        if e == NULL or ent.depth != d:
            if e == NULL:
                e = victim(c, b, weight(c, s))
            ent.k1 = k1
            ent.k2 = k2
            ent.lo = -INF
            ent.hi = INF
            ent.used = weight(c, s)
            ent.gen = c.tables.gen
            ent.depth = d
        merge_result(best, alpha0, beta, &ent.lo, &ent.hi)
        ent.move = best_move
        store(e, &ent)
    return best


cdef enum:
    WIN_TEST_TALON = 6     # from this many talon tricks left, MTD(f) first tests for game wins


cdef inline int quartet_reachable(Ctx* c, State* s, int p) noexcept nogil:
    """Whether player p might still hold four kings or four queens: his hand and the cards
    still to be drawn hold all four (solver/model/outright.py, game_win_possible)."""
    cdef uint32_t reach = s.hand[p]
    cdef int i
    for i in range(s.talon_idx, c.root.talon_len):
        reach |= (<uint32_t>1) << c.root.talon[i]
    if s.turnup >= 0:
        reach |= (<uint32_t>1) << s.turnup
    return (reach & 0x20202020u) == 0x20202020u or (reach & 0x10101010u) == 0x10101010u


cdef inline int mtdf(Ctx* c, State* s, int guess) noexcept nogil:
    """MTD(f): the exact value by a series of zero-window searches converging from a guess."""
    return mtdf_within(c, s, guess, -INF, INF)


cdef inline int mtdf_within(Ctx* c, State* s, int guess, int lo, int hi) noexcept nogil:
    """MTD(f) from ``guess`` for a value already proven to lie in [lo, hi]."""
    cdef int g = clamp_int(guess, lo, hi), beta
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = search(c, s, beta - 1, beta)
        if c.budget.aborted:
            return 0
        if g < beta:
            hi = g
        else:
            lo = g
        # what an interrupt leaves proven (Engine.proven_bounds)
        c.budget.proven_lo = lo
        c.budget.proven_hi = hi
    return g


cdef enum:
    GUESS_DEPTH = 2        # tricks of the depth-limited search that gives MTD(f) its guess,
    GUESS_FAR_TALON = 9    # but from this many talon tricks left (a whole deal)
    GUESS_HORIZON = 4      # it looks ahead to this many talon tricks before the talon's end


cdef inline int guess_depth(Ctx* c, State* s) noexcept nogil:
    """Tricks of look-ahead of MTD(f)'s first guess at s.  Early in a deal a two-trick guess
    is often tens of points off (seed 1: -8 against +114) and MTD(f) then creeps 2 points a
    test; six tricks cost under a million nodes and took 0.76 of the whole deals' nodes
    (BENCHMARKS.md).  Later the deeper guess did not pay (k = 7 and 8: no fewer nodes)."""
    cdef int left = talon_tricks_left(c, s)
    return left - GUESS_HORIZON if left >= GUESS_FAR_TALON else GUESS_DEPTH


cdef inline int game_win_tests(Ctx* c, State* s, int* lo, int* hi) noexcept nogil:
    """With WIN_TEST_TALON or more talon tricks left in Brisque, zero-window tests of
    whether either player can force four kings or queens, before MTD(f) looks for the margin.  A forced game win is proven in
    well under a million nodes, where MTD(f) from a margin's guess creeps towards it 2
    points a test (seed 29: 289 M nodes, 0.4 M with the tests).  The tests search in a
    scratch generation of the tables and leave the killer moves as they were: their
    entries, bounds at the game-win windows with the moves that refute a game win, made
    the margin's search that followed take up to 1.5 times the nodes; kept apart, the
    other deals cost what they did (BENCHMARKS.md).  Returns 1 when a test proved a game
    won or lost (its value in lo), else 0 with the bounds the tests proved in lo and hi."""
    cdef int killers[KILLER_PLIES][2]
    cdef uint16_t gen = c.tables.gen
    cdef int r
    if not c.features.win_tests or not c.rules.quartet_game or talon_tricks_left(c, s) < WIN_TEST_TALON:
        return 0
    memcpy(killers, c.killers, sizeof(killers))
    c.tables.gen = gen | SCRATCH_GEN
    r = quartet_tests(c, s, lo, hi)
    c.tables.gen = gen
    memcpy(c.killers, killers, sizeof(killers))
    if not r and not c.budget.aborted:
        c.budget.proven_lo = lo[0]
        c.budget.proven_hi = hi[0]
    return r


cdef inline int quartet_tests(Ctx* c, State* s, int* lo, int* hi) noexcept nogil:
    """The tests of game_win_tests, for each player who might still hold four of a kind."""
    cdef int g
    if quartet_reachable(c, s, s.turn):
        g = search(c, s, WIN_THRESHOLD - 1, WIN_THRESHOLD)
        if c.budget.aborted:
            return 0
        if g >= WIN_THRESHOLD:
            lo[0] = WIN_RAW     # (the only value from WIN_THRESHOLD up)
            return 1
        hi[0] = g
        c.budget.proven_hi = g      # (kept if the second test is interrupted)
    if quartet_reachable(c, s, 1 - s.turn):
        g = search(c, s, -WIN_THRESHOLD, 1 - WIN_THRESHOLD)
        if c.budget.aborted:
            return 0
        if g <= -WIN_THRESHOLD:
            lo[0] = -WIN_RAW
            return 1
        lo[0] = g
    return 0


cdef inline int guessed_mtdf(Ctx* c, State* s) noexcept nogil:
    """Exact search of the root: in the talon phase MTD(f) from the value of a depth-limited
    heuristic search (guess_depth), after the game-win tests early in a deal; in the final
    phase (solved faster directly) plain alpha-beta."""
    cdef int g, lo = -INF, hi = INF
    c.budget.proven_lo = -INF
    c.budget.proven_hi = INF
    if c.features.use_mtdf and c.budget.depth_limit < 0 and c.rules.draws and s.turnup >= 0:
        if game_win_tests(c, s, &lo, &hi):
            c.budget.proven_lo = lo
            c.budget.proven_hi = lo
            return lo
        if c.budget.aborted:
            return 0
        c.budget.depth_limit = guess_depth(c, s)
        g = search(c, s, -INF, INF)
        c.budget.depth_limit = -1
        if c.budget.aborted:
            return 0
        return mtdf_within(c, s, g, lo, hi)
    return search(c, s, -INF, INF)


cdef inline int reaches(Ctx* c, State* s, int mv, int v, State* child) noexcept nogil:
    """Whether playing mv gives the player to move a raw value of at least v."""
    cdef int d, me = s.turn
    child[0] = s[0]
    d = apply_move(c, child, mv)
    child.min_decl = 0   # a move's own value: any declaration may follow it
    return child_value(c, child, me, d, v - 1, v) >= v
