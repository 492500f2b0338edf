# One exact solve on several threads that share the talon phase's table: every thread runs
# the same MTD(f) search of the root, and Simplified ABDADA (search.pxd) shares out the
# moves of the nodes they reach together; the first thread to finish has the answer and
# stops the others.  The shared table's entries are lockless (context.pxd), so no thread
# ever waits; the final phase's tables are each thread's own.
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from constants cimport WIN_RAW
from context cimport MAX_THREADS, Ctx, State, brisque_set_flag
from moves cimport apply_move
from search cimport guessed_mtdf, other_mover, same_mover


cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, void* attr, void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join(pthread_t thread, void** result)


cdef enum:
    PARALLEL_MIN_TALON = 4    # fewer talon cards left: a solve takes milliseconds, one thread


ctypedef struct Helper:
    Ctx c                     # a copy of the solve's context: the same tables, its own counters
    State s
    int value
    int finished              # it ended with the answer, not stopped by another thread


cdef inline void* helper_main(void* arg) noexcept nogil:
    cdef Helper* h = <Helper*>arg
    h.value = guessed_mtdf(&h.c, &h.s)
    h.finished = 0 if h.c.budget.aborted else 1
    if h.finished:
        brisque_set_flag(h.c.budget.stop)
    return NULL


cdef inline int worth_threads(Ctx* c, State* s) noexcept nogil:
    """Whether an exact solve of s goes on c.features.threads threads: an unbudgeted exact
    search of the talon phase with enough of the talon left to take a while (and the
    helpers' tables allocated, by Engine.set_threads)."""
    return (c.features.threads > 1 and c.tables.helper_ptable[c.features.threads - 2] != NULL and c.budget.node_limit == 0 and c.budget.deadline == 0
            and c.budget.wall_deadline == 0            and c.budget.depth_limit < 0 and c.budget.stop == NULL and c.rules.draws
            and s.turnup >= 0 and c.root.talon_len - s.talon_idx >= PARALLEL_MIN_TALON)


cdef inline int exact_value(Ctx* c, State* s) noexcept nogil:
    """The exact raw value of s (guessed_mtdf), on c.features.threads threads when worth it.
    The node count of c includes its helpers'.  If the main thread is interrupted (Ctrl-C),
    the helpers stop too and c.budget.aborted is set, as in a solo search."""
    cdef int n, i, v, created = 0, stop = 0
    cdef Helper* hs
    cdef pthread_t tids[MAX_THREADS]
    if not worth_threads(c, s):
        return guessed_mtdf(c, s)
    n = c.features.threads if c.features.threads <= MAX_THREADS else MAX_THREADS
    hs = <Helper*>malloc(sizeof(Helper) * (n - 1))
    if hs == NULL:
        return guessed_mtdf(c, s)
    for i in range(n - 1):
        memcpy(&hs[i].c, c, sizeof(Ctx))
        hs[i].c.nodes = 0
        hs[i].c.budget.watch_signals = 0    # (Python runs signal handlers in the main thread)
        hs[i].c.budget.aborted = 0
        hs[i].c.budget.interrupted = 0
        hs[i].c.budget.stop = &stop
        hs[i].c.budget.next_signal_check = 0
        hs[i].c.tables.ftable = c.tables.helper_ftable[i]
        hs[i].c.tables.ptable = c.tables.helper_ptable[i]
        hs[i].s = s[0]
        hs[i].finished = 0
    c.budget.stop = &stop
    c.budget.next_signal_check = c.nodes     # (from now on every STOP_INTERVAL nodes)
    for i in range(n - 1):
        if pthread_create(&tids[i], NULL, helper_main, &hs[i]) != 0:
            break
        created += 1
    v = guessed_mtdf(c, s)
    brisque_set_flag(&stop)     # done (or interrupted): the helpers stop
    for i in range(created):
        pthread_join(tids[i], NULL)
    c.budget.stop = NULL
    for i in range(created):
        c.nodes += hs[i].c.nodes
    if c.budget.aborted and not c.budget.interrupted:
        # stopped because a helper finished first: its answer is the exact value
        for i in range(created):
            if hs[i].finished:
                v = hs[i].value
                c.budget.aborted = 0
                break
        else:
            # (cannot happen: only a finished thread raises the flag; but never answer 0)
            c.budget.aborted = 0
            v = guessed_mtdf(c, s)
    free(hs)
    return v


cdef inline int exact_child(Ctx* c, State* s, int mv, State* child) noexcept nogil:
    """Raw value for the player to move of playing mv, searched exactly (MTD(f) from a
    heuristic guess in the talon phase, a full window in the final phase).  If interrupted,
    c.budget.proven_lo/hi hold the bounds proven on the move's value."""
    cdef int d, v, lo, me = s.turn
    child[0] = s[0]
    d = apply_move(c, child, mv)
    child.min_decl = 0   # a move's own value: any declaration may follow it
    if child.win >= 0 or child.ended:
        # no search, so the bounds are this move's exact value, not the last search's
        # (Ctrl-C landing just after it would give them to this move)
        v = d if child.win < 0 else (WIN_RAW if child.win == me else -WIN_RAW)
        c.budget.proven_lo = v
        c.budget.proven_hi = v
        return v
    if child.turn == me:
        v = same_mover(d, exact_value(c, child))
        if c.budget.aborted:    # (the bounds proven so far, for the mover: monotone maps)
            c.budget.proven_lo = same_mover(d, c.budget.proven_lo)
            c.budget.proven_hi = same_mover(d, c.budget.proven_hi)
        return v
    v = other_mover(d, exact_value(c, child))
    if c.budget.aborted:
        lo = c.budget.proven_lo
        c.budget.proven_lo = other_mover(d, c.budget.proven_hi)
        c.budget.proven_hi = other_mover(d, lo)
    return v
