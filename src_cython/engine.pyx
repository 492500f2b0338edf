# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled alpha-beta solver for perfect-information positions (solver.native.engine).

The search runs on a C struct of card masks with copy-make moves: no Python object is
touched between the root call and its return.  Values are *raw future* values: the gain
(score, or tricks, margin) of the player to move from here to the end of the deal; a
game-winning event is worth +-WIN_RAW.  The transposition tables store lower and upper
bounds of that future value at the start of turns (no trick in progress), so that
positions reached with other scores share entries.

The code is split along the seams of the bridge solver DDS, each a .pxd of inline
functions compiled into this one module (so the split costs no speed):

* constants.pxd: the numbers shared with the Python model;
* cards.pxd: card masks, the follow rule and the trick winner;
* context.pxd: the rules and root structs that cross from Python, the state, the tables'
  entries and the search context;
* moves.pxd: legal moves and their effects;
* tables.pxd: the transposition tables;
* bounds.pxd: cheap value bounds and the horizon evaluation (learned, fitted or hand-made);
* network.pxd: the learned horizon network (its plain Python twin: solver/engine/evaluation/network.py);
* plain.pxd: plain card play of the final phase;
* search.pxd: the search driver;
* parallel.pxd: one exact solve on several threads that share the tables;
* chance.pxd: the expectimax over the draws, the talon's order unknown to both players.

``solver.engine`` is the public face of this module; solver/native/engine.pyi its types.
"""
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

cdef extern from "<stdlib.h>" nogil:
    void* aligned_alloc(size_t alignment, size_t size)
from libc.string cimport memset
from libc.time cimport CLOCKS_PER_SEC, clock, clock_t

from cards cimport __builtin_ctz, __builtin_popcount
from constants cimport (MAX_TABLE_BITS, G_BRISCAN, G_BRISQUE, G_PETITE, K_MARRIAGE, K_QUARTET, K_SEQUENCE, N_MELDS,
                        NET_H1, NET_H2, NET_INPUTS, NET_OUTPUTS, WIN_RAW, WIN_THRESHOLD)
cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
cdef extern from "pythread.h":
    unsigned long PyThread_get_thread_ident()

from bounds cimport horizon_features, horizon_level
from chance cimport (CHANCE_INF, CHANCE_TABLE_BITS, MAX_CHANCE_CARDS, ChanceEntry, LeafEntry, chance_search,
                    face_down, move_result, result_bound)
from network cimport NET_MAX_ON, network_inputs, network_outputs
from context cimport (NET_CACHE_ENTRIES, HORIZON_LEVELS, SCRATCH_GEN, N_HFEATURES, FINAL_TABLE_BITS, INF, MAX_PV, MAX_TALON, MAX_THREADS, MAXMOVES, PLAIN_TABLE_BITS, SHORT_TABLE_BITS, Ctx, EngineRules,
                      Entry, EvalEntry, Network, PlainEntry, Root, State, Tables, brisque_table_alloc, monotonic_seconds)
from moves cimport apply_move, gen_moves, mark_declared, meld_declared
from parallel cimport exact_child, exact_value
from search cimport child_value, guess_depth, mtdf, reaches, search
from tables cimport mix64

import threading

from solver.errors import ArgumentError, EngineError

# Python runs signal handlers in the main thread only: a search elsewhere need not look
cdef unsigned long MAIN_THREAD = threading.main_thread().ident

HORIZON_ROWS = HORIZON_LEVELS       # the shape of Engine.set_horizon's weights
HORIZON_FEATURES = N_HFEATURES
MAX_SOLVE_THREADS = MAX_THREADS     # the most threads of one exact solve (Engine.set_threads)


cdef class RootPosition:
    """A root position for :meth:`Engine.load`: the ``Root`` struct of context.pxd, filled
    from its named fields (built by solver.engine.seam.engine_root).

    ``hand``, ``tricks`` and ``final`` are pairs (seat a, seat b); ``talon`` the cards to
    draw, top first; ``melds`` two lists of the meld indices each seat declared.
    """

    def __init__(self, *, hand, uint32_t out, int turnup, int trump, talon, int trick, int turn,
                 tricks, final, melds, int exchanged, int taken, int declared, uint32_t fresh=0):
        cdef int i, p, m, n = len(talon)
        if n > MAX_TALON:
            raise ArgumentError(f"a talon of {n} cards: expected at most {MAX_TALON}")
        if not 0 <= trump < 4 or not 0 <= turn < 2:
            raise ArgumentError(f"trump={trump}, turn={turn}: expected 0..3 and 0..1")
        memset(&self.r, 0, sizeof(Root))
        for p in range(2):
            self.r.hand[p] = hand[p]
            self.r.tricks[p] = tricks[p]
            self.r.final[p] = final[p]
            for m in melds[p]:
                if not 0 <= m < N_MELDS:
                    raise ArgumentError(f"meld {m}: expected 0..{N_MELDS - 1}")
                if m < 64:
                    self.r.melds_lo[p] |= (<uint64_t>1) << m
                else:
                    self.r.melds_hi[p] |= (<uint32_t>1) << (m - 64)
        self.r.out = out
        self.r.turnup = turnup
        self.r.trump = trump
        for i in range(n):
            self.r.talon[i] = talon[i]
        self.r.talon_len = n
        self.r.trick = trick
        self.r.turn = turn
        self.r.exchanged = exchanged
        self.r.taken = taken
        self.r.declared = declared
        self.r.fresh = fresh

    def to_dict(self):
        """The fields, in the shape of :meth:`Engine.after` (melds as bit sets)."""
        cdef int i
        return dict(
            hand=[self.r.hand[0], self.r.hand[1]], out=self.r.out, turnup=self.r.turnup,
            trump=self.r.trump, talon=[self.r.talon[i] for i in range(self.r.talon_len)],
            talon_len=self.r.talon_len, trick=self.r.trick, turn=self.r.turn,
            tricks=[self.r.tricks[0], self.r.tricks[1]], final=[self.r.final[0], self.r.final[1]],
            melds_lo=[self.r.melds_lo[0], self.r.melds_lo[1]],
            melds_hi=[self.r.melds_hi[0], self.r.melds_hi[1]],
            exchanged=self.r.exchanged, taken=self.r.taken, declared=self.r.declared,
            fresh=self.r.fresh)

    def __reduce__(self):
        d = self.to_dict()
        melds = [[m for m in range(N_MELDS)
                  if (d["melds_lo"][p] >> m if m < 64 else d["melds_hi"][p] >> (m - 64)) & 1]
                 for p in range(2)]
        return (_root_position, (d["hand"], d["out"], d["turnup"], d["trump"], d["talon"],
                                 d["trick"], d["turn"], d["tricks"], d["final"], melds,
                                 d["exchanged"], d["taken"], d["declared"], d["fresh"]))


def _root_position(hand, out, turnup, trump, talon, trick, turn, tricks, final, melds, exchanged,
                   taken, declared, fresh):
    return RootPosition(hand=hand, out=out, turnup=turnup, trump=trump, talon=talon, trick=trick,
                        turn=turn, tricks=tricks, final=final, melds=melds, exchanged=exchanged,
                        taken=taken, declared=declared, fresh=fresh)


cdef inline void _switch(int* feature, object on, bint allowed=True):
    """Turn a search enhancement on (``on`` true and ``allowed``) or off; ``on`` None leaves
    it as it is (:meth:`Engine.set_features`)."""
    if on is not None:
        feature[0] = 1 if (on and allowed) else 0


cdef class Engine:
    """A solver bound to one set of rules, with a transposition table of 2**table_bits entries,
    and two of at most that size for the final phase: the general search's (at most 2**14
    entries) and plain card play's (at most 2**15).

    The table stays warm across :meth:`load` calls (keys hold everything the future
    depends on, trump and talon included); :meth:`clear` empties it.
    """

    def __cinit__(self):
        self.x.table = NULL
        self.x.leaves_table = NULL
        self.c.tables.table = NULL
        self.c.tables.ftable = NULL
        self.c.tables.ptable = NULL
        memset(self.c.tables.helper_ftable, 0, sizeof(self.c.tables.helper_ftable))
        memset(self.c.tables.helper_ptable, 0, sizeof(self.c.tables.helper_ptable))

    def __init__(self, EngineRules rules, int table_bits=20):
        cdef int i, kind
        if not 0 <= table_bits <= MAX_TABLE_BITS:
            raise ArgumentError(f"table_bits={table_bits}: expected 0..{MAX_TABLE_BITS}")
        if rules.game not in (G_BRISQUE, G_BRISCAN, G_PETITE):
            raise ArgumentError(f"rules.game={rules.game}: expected {G_BRISQUE}, {G_BRISCAN} or {G_PETITE}")
        self.c.rules = rules
        self.c.melds.n_allowed = 0
        for i in range(N_MELDS):
            if self.c.rules.meld_allowed[i]:
                self.c.melds.allowed[self.c.melds.n_allowed] = i
                self.c.melds.n_allowed += 1
            # in Briscan marriages and sequences compete for cards: a real choice; a
            # Brisque four of a kind that only ends the deal (quartet_win=deal) can cost
            # the marriages and tricks still to come: a real choice too
            kind = self.c.rules.meld_kind[i]
            self.c.melds.free[i] = not (
                (self.c.rules.game == G_BRISCAN and (kind == K_MARRIAGE or kind == K_SEQUENCE))
                or (self.c.rules.game == G_BRISQUE and kind == K_QUARTET
                    and not self.c.rules.quartet_game))
        self.c.features.merge_equal = 1 if self.c.rules.game != G_BRISCAN else 0
        self.c.features.force_free = 1
        self.c.features.use_mtdf = 1
        self.c.features.etc = 1
        self.c.features.talon_ordering = 1
        self.c.features.use_bounds = 1 if self.c.rules.game != G_BRISCAN else 0   # Briscan's bonuses: not bounded
        self.c.features.small_endgame = 1
        self.c.features.win_tests = 1
        self.c.features.threads = 1
        self.c.tables.table_mask = 0
        # buckets of two entries: a table of 2**bits entries has 2**(bits-1) buckets
        bits = max(table_bits, 1)
        fbits = min(bits, FINAL_TABLE_BITS)
        self.c.tables.table = <Entry*> brisque_table_alloc(((<uint64_t>1) << bits) * sizeof(Entry))
        self.c.tables.ftable = <Entry*> brisque_table_alloc(((<uint64_t>1) << fbits) * sizeof(Entry))
        pbits = min(bits, PLAIN_TABLE_BITS)
        self.c.tables.ptable = <PlainEntry*> brisque_table_alloc(((<uint64_t>1) << pbits)
                                                          * sizeof(PlainEntry))
        self.c.tables.ptable_mask = ((<uint64_t>1) << pbits) - 1
        # the lockless entries are read and written as whole words (context.pxd)
        assert sizeof(Entry) == 32 and sizeof(PlainEntry) == 16
        if self.c.tables.table == NULL or self.c.tables.ftable == NULL or self.c.tables.ptable == NULL:
            raise MemoryError(f"cannot allocate a table of 2**{table_bits} entries")
        self.c.tables.table_mask = ((<uint64_t>1) << (bits - 1)) - 1
        self.c.tables.ftable_mask = ((<uint64_t>1) << (fbits - 1)) - 1
        self.c.tables.table_mask_full = self.c.tables.table_mask
        self.c.tables.ftable_mask_full = self.c.tables.ftable_mask
        self.c.tables.ptable_mask_full = self.c.tables.ptable_mask
        self.c.nodes = 0
        self.c.tables.gen = 1      # the tables start zeroed: generation 0 is empty
        memset(self.c.killers, 0xFF, sizeof(self.c.killers))
        self.c.budget.node_limit = 0
        self.c.budget.deadline = 0
        self.c.budget.wall_deadline = 0
        self.c.budget.aborted = 0
        self.c.budget.depth_limit = -1
        self.c.budget.taint = 0
        self.c.budget.next_signal_check = 0
        self.c.budget.watch_signals = 0
        self.c.budget.interrupted = 0
        self.c.budget.stop = NULL
        self.c.budget.stop_checks = 0
        self.c.budget.proven_lo = -INF
        self.c.budget.proven_hi = INF
        self.c.horizon.fitted = 0
        self.c.horizon.learned = 0
        self.c.horizon.net.w1 = NULL
        self.c.horizon.cache = NULL
        self.c.horizon.cache_gen = 1
        self.c.horizon.evaluations = 0
        self.loaded = 0
        self.x.table = NULL
        self.x.gen = 1
        self.x.chance_nodes = 0
        self.x.leaves = 0
        self.x.shifts = 0
        self.x.seed = 0
        self.x.fact[0] = 1
        for i in range(1, MAX_CHANCE_CARDS + 1):
            self.x.fact[i] = self.x.fact[i - 1] * i

    def __dealloc__(self):
        cdef int i
        if self.c.tables.table != NULL:
            free(self.c.tables.table)
            self.c.tables.table = NULL
        if self.c.tables.ftable != NULL:
            free(self.c.tables.ftable)
            self.c.tables.ftable = NULL
        if self.c.tables.ptable != NULL:
            free(self.c.tables.ptable)
            self.c.tables.ptable = NULL
        free(self.c.horizon.net.w1)   # (one block holds every weight of the network)
        self.c.horizon.net.w1 = NULL
        free(self.c.horizon.cache)
        self.c.horizon.cache = NULL
        free(self.x.table)
        self.x.table = NULL
        free(self.x.leaves_table)
        self.x.leaves_table = NULL
        for i in range(MAX_THREADS - 1):
            free(self.c.tables.helper_ftable[i])
            free(self.c.tables.helper_ptable[i])
            self.c.tables.helper_ftable[i] = NULL
            self.c.tables.helper_ptable[i] = NULL

    def set_limits(self, nodes=0, double seconds=0.0, int depth=-1, double wall_seconds=0.0):
        """Budget for the next searches: at most ``nodes`` more nodes, ``seconds`` of CPU
        time and ``wall_seconds`` of real time from now (0: no limit; a loaded machine gives
        a search less CPU time than real time); ``depth`` tricks to the horizon evaluation
        (-1: exact search; there is no horizon once the talon is gone).
        A search that runs out of budget returns with :attr:`aborted` set."""
        self.c.budget.node_limit = self.c.nodes + <uint64_t>nodes if nodes else 0
        self.c.budget.deadline = clock() + <clock_t>(seconds * CLOCKS_PER_SEC) if seconds > 0 else 0
        self.c.budget.wall_deadline = monotonic_seconds() + wall_seconds if wall_seconds > 0 else 0
        self.c.budget.depth_limit = depth
        self.c.budget.aborted = 0

    def set_features(self, merge=None, forced=None, mtdf=None, etc=None, ordering=None,
                     bounds=None, small=None, win_tests=None):
        """Turn search enhancements on or off (for measuring each on its own); results
        stay exact either way.  Call :meth:`clear` after changing them."""
        cdef bint briscan = self.c.rules.game == G_BRISCAN
        # (merging equal cards and the value bounds stay off in Briscan, whatever is asked)
        _switch(&self.c.features.merge_equal, merge, not briscan)
        _switch(&self.c.features.force_free, forced)
        _switch(&self.c.features.use_mtdf, mtdf)
        _switch(&self.c.features.etc, etc)
        _switch(&self.c.features.talon_ordering, ordering)
        _switch(&self.c.features.use_bounds, bounds, not briscan)
        _switch(&self.c.features.small_endgame, small)
        _switch(&self.c.features.win_tests, win_tests)

    def set_threads(self, int threads):
        """Threads for each exact solve (:meth:`value` with the full window,
        :meth:`move_values`, :meth:`move_value`, :meth:`solve_batch`): they share the
        tables and the first to finish answers.  The values are the same on any number of
        threads; the node counts are not (they include every thread's).  Budgeted and
        depth-limited searches, and positions with little of the talon left, use one."""
        cdef int i
        if not 1 <= threads <= MAX_THREADS:
            raise ArgumentError(f"threads={threads}: expected 1..{MAX_THREADS}")
        for i in range(threads - 1):   # each helper's final-phase tables, as big as ours
            if self.c.tables.helper_ftable[i] == NULL:
                self.c.tables.helper_ftable[i] = <Entry*> brisque_table_alloc(
                    (self.c.tables.ftable_mask_full + 1) * 2 * sizeof(Entry))
            if self.c.tables.helper_ptable[i] == NULL:
                self.c.tables.helper_ptable[i] = <PlainEntry*> brisque_table_alloc(
                    (self.c.tables.ptable_mask_full + 1) * sizeof(PlainEntry))
            if self.c.tables.helper_ftable[i] == NULL or self.c.tables.helper_ptable[i] == NULL:
                raise MemoryError(f"cannot allocate the final-phase tables of {threads} threads")
        self.c.features.threads = threads

    @property
    def threads(self):
        return self.c.features.threads

    def clear_limits(self):
        self.c.budget.node_limit = 0
        self.c.budget.deadline = 0
        self.c.budget.wall_deadline = 0
        self.c.budget.depth_limit = -1
        self.c.budget.aborted = 0

    @property
    def proven_bounds(self):
        """(lo, hi): the raw bounds proven on the value the last exact search was after
        (the root's for :meth:`value`, the move's for :meth:`move_value`) when it stopped;
        after an interrupt, the answer so far.  ``None`` stands for nothing proven (so both
        after :meth:`load`, until a search proves something)."""
        lo = self.c.budget.proven_lo
        hi = self.c.budget.proven_hi
        return (None if lo <= -INF else lo, None if hi >= INF else hi)

    @property
    def aborted(self):
        """The last search ran out of budget; its result means nothing."""
        return bool(self.c.budget.aborted)

    @property
    def taint(self):
        """Horizon evaluations so far: unchanged across a search means its value is exact."""
        return self.c.budget.taint

    def guess_depth(self, int move):
        """Tricks of look-ahead, counted from the root, of the guess with which the exact
        solve of the root move ``move`` starts MTD(f) (search.pxd guess_depth).

        >>> Engine(rules).guess_depth(m)   # doctest: +SKIP
        6
        """
        cdef State child
        self._check()
        child = self.root
        apply_move(&self.c, &child, move)
        return guess_depth(&self.c, &child)

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
        if self.c.budget.interrupted:
            self._raise_interrupt()
        return v

    def clear(self):
        """Empty the tables: a new generation, so in constant time (the memory is wiped
        only once every 32767 clears, when the generation counter reaches SCRATCH_GEN)."""
        self.c.tables.gen += 1
        if self.c.tables.gen == SCRATCH_GEN:    # (generations stay below it)
            self._wipe()
        memset(self.c.killers, 0xFF, sizeof(self.c.killers))     # -1: no killer yet

    cdef void _wipe(self):
        memset(self.c.tables.table, 0, (self.c.tables.table_mask_full + 1) * 2 * sizeof(Entry))
        memset(self.c.tables.ftable, 0, (self.c.tables.ftable_mask_full + 1) * 2 * sizeof(Entry))
        memset(self.c.tables.ptable, 0, (self.c.tables.ptable_mask_full + 1) * sizeof(PlainEntry))
        cdef int i
        for i in range(MAX_THREADS - 1):
            if self.c.tables.helper_ftable[i] != NULL:
                memset(self.c.tables.helper_ftable[i], 0,
                       (self.c.tables.ftable_mask_full + 1) * 2 * sizeof(Entry))
            if self.c.tables.helper_ptable[i] != NULL:
                memset(self.c.tables.helper_ptable[i], 0,
                       (self.c.tables.ptable_mask_full + 1) * sizeof(PlainEntry))
        self.c.tables.gen = 1

    @property
    def nodes(self):
        return self.c.nodes

    @property
    def table_size(self):
        return (self.c.tables.table_mask_full + 1) * 2

    cdef int _load(self, Root* r) except -1:
        cdef int i, m, p
        cdef uint64_t h = 0, lo
        cdef uint32_t hi
        # the learned evaluation's kept values are this root's only (context.pxd Horizon)
        self.c.horizon.cache_gen = self.c.horizon.cache_gen + 1 if self.c.horizon.cache_gen < 0xFFFFFFFF else 1
        if not 0 <= r.talon_len <= MAX_TALON:
            raise ArgumentError(f"talon_len={r.talon_len}: expected 0..{MAX_TALON}")
        if not 0 <= r.trump < 4 or not 0 <= r.turn < 2:
            raise ArgumentError(f"trump={r.trump}, turn={r.turn}: expected 0..3 and 0..1")
        memset(&self.root, 0, sizeof(State))
        self.root.hand[0] = r.hand[0]
        self.root.hand[1] = r.hand[1]
        self.root.out = r.out
        self.root.turnup = r.turnup
        self.c.root.trump = r.trump
        self.c.root.talon_len = r.talon_len
        for i in range(r.talon_len):
            self.c.root.talon[i] = r.talon[i]
        self.c.root.talon_hash[r.talon_len] = 0
        self.c.root.talon_rest[r.talon_len] = 0
        for i in range(r.talon_len - 1, -1, -1):
            h = mix64(h * 33 + <uint64_t>(self.c.root.talon[i] + 1) + 0x51ED)
            self.c.root.talon_hash[i] = h
            self.c.root.talon_rest[i] = self.c.root.talon_rest[i + 1] | ((<uint32_t>1) << self.c.root.talon[i])
        for i in range(N_MELDS):
            self.c.root.meld_pts[i] = self.c.rules.meld_points[r.trump][i]
        self.root.talon_idx = 0
        self.root.trick = r.trick
        self.root.turn = r.turn
        for p in range(2):
            self.root.tricks[p] = r.tricks[p]
            self.root.fin[p] = r.final[p]
            self.root.decl_lo[p] = r.melds_lo[p]
            self.root.decl_hi[p] = r.melds_hi[p]
            lo = r.melds_lo[p]
            while lo:      # the declared melds' bits, lowest first
                m = __builtin_ctzll(lo)
                lo &= lo - 1
                self._mark_used(p, m)
            hi = r.melds_hi[p]
            while hi:
                m = 64 + __builtin_ctz(hi)
                hi &= hi - 1
                self._mark_used(p, m)
        self.root.exchanged = r.exchanged
        self.root.taken = r.taken
        self.root.declared_turn = r.declared
        self.root.fresh = r.fresh if self.c.rules.before_draw else 0
        self.root.min_decl = 0
        self.c.budget.root_tricks = __builtin_popcount(self.root.out) // 2
        self.root.ended = 0
        self.root.win = -1
        # nothing is proven yet about the new root: the bounds of the last search were
        # another position's, and Ctrl-C before the next search must not report them
        self.c.budget.proven_lo = -INF
        self.c.budget.proven_hi = INF
        self._size_tables(r.talon_len == 0)
        self.loaded = 1
        return 0

    cdef void _size_tables(self, int small) noexcept:
        """Search the whole tables, or (``small``: a root with nothing left to draw, a few
        hundred nodes) their first 2**SHORT_TABLE_BITS entries, which stay in the processor's
        cache: the batch path's final-phase positions ran 2.3x faster (BENCHMARKS.md)."""
        cdef Tables* t = &self.c.tables
        cdef uint64_t entries = (<uint64_t>1) << SHORT_TABLE_BITS
        if small:
            t.table_mask = min(t.table_mask_full, entries // 2 - 1)
            t.ftable_mask = min(t.ftable_mask_full, entries // 2 - 1)
            t.ptable_mask = min(t.ptable_mask_full, entries - 1)
        else:
            t.table_mask = t.table_mask_full
            t.ftable_mask = t.ftable_mask_full
            t.ptable_mask = t.ptable_mask_full

    cdef void _mark_used(self, int p, int m) noexcept:
        """The cards of meld m, declared by p, are used for later sequences and marriages."""
        if m >= N_MELDS:
            return
        if self.c.rules.meld_kind[m] == K_MARRIAGE or self.c.rules.meld_kind[m] == K_SEQUENCE:
            self.root.used_sm[p] |= self.c.rules.meld_cards[m]
        if self.c.rules.meld_kind[m] == K_SEQUENCE:
            self.root.used_seq[p] |= self.c.rules.meld_cards[m]

    def load(self, RootPosition root):
        """Set the root position."""
        self._load(&root.r)

    # ---- the public C API (its contract: src_cython/solver/native/engine.pxd)
    cdef int c_load(self, Root* r) except -1:
        """Set the root position and an exact search without limits, Ctrl-C watched."""
        self._load(r)
        self.c.budget.node_limit = 0
        self.c.budget.deadline = 0
        self.c.budget.wall_deadline = 0
        self.c.budget.depth_limit = -1
        self.c.budget.aborted = 0
        self._watch()
        return 0

    cdef uint64_t c_nodes(self) noexcept:
        """The nodes searched since the engine was made."""
        return self.c.nodes

    cdef void _watch(self) noexcept:
        """Before a search: look for Ctrl-C during it if this is the main thread."""
        self.c.budget.watch_signals = 1 if PyThread_get_thread_ident() == MAIN_THREAD else 0

    cdef int _raise_interrupt(self) except -1:
        """After a search that a signal handler interrupted: raise its pending exception
        (KeyboardInterrupt for Ctrl-C), leaving the engine ready for the next search."""
        self.c.budget.interrupted = 0
        self.c.budget.aborted = 0
        return -1

    def _check(self):
        if not self.loaded:
            raise EngineError("no position loaded: call load() first")
        self._watch()

    def root_moves(self):
        """The root's legal moves, in search order."""
        cdef int moves[MAXMOVES]
        cdef int n, i
        self._check()
        n = gen_moves(&self.c, &self.root, moves, 0)
        return [moves[i] for i in range(n)]

    def after(self, int move):
        """The state after playing ``move`` at the root, as the engine sees it (for the
        perft-style tests against the model): a dict with the Root fields (the talon as the
        cards still to draw), and ``gain`` (the mover's gain minus the opponent's),
        ``ended`` and ``win`` (the seat that won the game, -1: none)."""
        cdef State child
        cdef int d, i
        self._check()
        child = self.root
        d = apply_move(&self.c, &child, move)
        return dict(
            hand=[child.hand[0], child.hand[1]], out=child.out, turnup=child.turnup,
            trump=self.c.root.trump,
            talon=[self.c.root.talon[i] for i in range(child.talon_idx, self.c.root.talon_len)],
            talon_len=self.c.root.talon_len - child.talon_idx, trick=child.trick, turn=child.turn,
            tricks=[child.tricks[0], child.tricks[1]], final=[child.fin[0], child.fin[1]],
            melds_lo=[child.decl_lo[0], child.decl_lo[1]], melds_hi=[child.decl_hi[0], child.decl_hi[1]],
            exchanged=child.exchanged, taken=child.taken, declared=child.declared_turn,
            fresh=child.fresh, gain=d, ended=bool(child.ended), win=child.win)

    def mtdf(self, int guess=0):
        """The exact raw value by MTD(f) zero-window searches from ``guess``."""
        cdef int v
        self._check()
        with nogil:
            v = mtdf(&self.c, &self.root, guess)
        if self.c.budget.interrupted:
            self._raise_interrupt()
        return v

    def value(self, int alpha=-INF, int beta=INF):
        """Raw future value of the root (fail-soft when a window is given).

        With the full window: MTD(f) from the guess of a two-trick depth-limited search."""
        cdef int v
        self._check()
        with nogil:
            if alpha == -INF and beta == INF:
                v = exact_value(&self.c, &self.root)
            else:
                v = search(&self.c, &self.root, alpha, beta)
        if self.c.budget.interrupted:
            self._raise_interrupt()
        return v

    # ---- the expectimax over the draws (chance.pxd)
    cdef int _chance_ready(self) except -1:
        """Before a chance search: the root loaded, its face-down cards within int64's reach,
        the chance table made, Ctrl-C watched, and an exact search (no horizon)."""
        self._check()
        if face_down(&self.c, &self.root) > MAX_CHANCE_CARDS:
            raise ArgumentError(
                f"{face_down(&self.c, &self.root)} face-down cards: the exact expectimax takes "
                f"at most {MAX_CHANCE_CARDS}")
        if self.x.table == NULL:
            self.x.table = <ChanceEntry*> calloc((<size_t>1) << CHANCE_TABLE_BITS, sizeof(ChanceEntry))
            self.x.leaves_table = <LeafEntry*> calloc((<size_t>1) << CHANCE_TABLE_BITS, sizeof(LeafEntry))
            if self.x.table == NULL or self.x.leaves_table == NULL:
                raise MemoryError("cannot allocate the chance search's tables")
            self.x.mask = ((<uint64_t>1) << CHANCE_TABLE_BITS) - 1
        self.c.budget.depth_limit = -1
        return 0

    @property
    def chance_scale(self):
        """n! for the root's n face-down cards: the chance search's values are the deal's
        result times this (exact integers: chance.pxd)."""
        return self.x.fact[min(face_down(&self.c, &self.root), MAX_CHANCE_CARDS)]

    @property
    def chance_counts(self):
        """(chance nodes, double-dummy leaves) searched by the chance search so far."""
        return self.x.chance_nodes, self.x.leaves

    @property
    def chance_game_win_possible(self):
        """Whether a game may still be won outright from the root (a bound, not a proof: the
        chance search then weighs a game won at WIN_RAW points)."""
        self._check()
        return result_bound(&self.c, &self.root) >= WIN_RAW

    def set_chance_sampling(self, int shifts=0, uint64_t seed=0):
        """Sampled chance nodes for roots too deep to search every draw: at each draw, ``k``
        rotations of a permutation of the face-down cards (each card drawn k times by the
        trick's winner and k times by the loser), k the largest divisor of n - 1 not above
        ``shifts``, weighed to the whole; 0 (the default): every ordered draw, the exact
        value.  The sample depends on the cards and ``seed`` only, so every move meets the
        same draws.  Empties the chance table (its values were of the other kind)."""
        if shifts < 0:
            raise ArgumentError(f"shifts={shifts}: expected 0 (every draw) or more")
        self.x.shifts = shifts
        self.x.seed = seed
        self.chance_clear()

    def chance_clear(self):
        """Empty the chance search's table (a new generation)."""
        self.x.gen = self.x.gen + 1 if self.x.gen < 0xFFFF else 1
        if self.x.gen == 1 and self.x.table != NULL:
            memset(self.x.table, 0, ((<size_t>1) << CHANCE_TABLE_BITS) * sizeof(ChanceEntry))
            memset(self.x.leaves_table, 0, ((<size_t>1) << CHANCE_TABLE_BITS) * sizeof(LeafEntry))

    def chance_move(self, int move, int past, alpha=None, beta=None):
        """The value of the root move ``move`` with every draw a chance event, for the
        player to move whose current margin is ``past``: the deal's final result (a game
        won: WIN_RAW) times :attr:`chance_scale`, exact without a window (fail-soft with
        one).  Budgets as for :meth:`value`; check :attr:`aborted`."""
        cdef int64_t v, a = -CHANCE_INF if alpha is None else alpha, b = CHANCE_INF if beta is None else beta
        self._chance_ready()
        with nogil:
            v = move_result(&self.c, &self.x, &self.root, past, move, a, b, 1)
        if self.c.budget.interrupted:
            self._raise_interrupt()
        return v

    def chance_value(self, int past, alpha=None, beta=None):
        """The root's value with every draw a chance event (see :meth:`chance_move`)."""
        cdef int64_t v, a = -CHANCE_INF if alpha is None else alpha, b = CHANCE_INF if beta is None else beta
        self._chance_ready()
        with nogil:
            v = chance_search(&self.c, &self.x, &self.root, past, a, b)
        if self.c.budget.interrupted:
            self._raise_interrupt()
        return v

    def set_horizon(self, weights=None):
        """Weights of the fitted horizon evaluation: ``HORIZON_LEVELS`` rows (talon tricks
        left at the horizon) of ``N_HFEATURES`` numbers; ``None``: the hand-made heuristic.
        Call :meth:`clear` after changing them (the tables hold horizon values)."""
        cdef int i, j
        if weights is None:
            self.c.horizon.fitted = 0
            return
        rows = [list(r) for r in weights]
        if len(rows) != HORIZON_LEVELS or any(len(r) != N_HFEATURES for r in rows):
            raise ArgumentError(f"horizon weights: expected {HORIZON_LEVELS} rows of {N_HFEATURES} numbers")
        for i in range(HORIZON_LEVELS):
            for j in range(N_HFEATURES):
                self.c.horizon.w[i][j] = float(rows[i][j])
        self.c.horizon.fitted = 1

    def set_network(self, network=None, meld_canon=None, double win_points=0.0):
        """The learned horizon evaluation, which then comes before the fitted weights:
        ``network`` holds ``w1`` (``NET_INPUTS`` rows of ``NET_H1`` numbers), ``b1``, ``w2``
        (``NET_H1`` rows of ``NET_H2``), ``b2``, ``w3`` (``NET_H2`` rows of ``NET_OUTPUTS``) and ``b3`` (solver.engine.evaluation.
        Network, or a dict of the same); ``meld_canon``: 4 rows (by trump) of ``N_MELDS``
        meld indices with suits renumbered from the trump; ``win_points``: what the chance
        of a game won, less that of one lost, adds to the margin.  ``None``: no network.
        Call :meth:`clear` after changing it (the tables hold horizon values)."""
        cdef int h1 = NET_H1, h2 = NET_H2, i, j, size
        cdef float* block
        cdef Network* n = &self.c.horizon.net
        get = (lambda k: network[k]) if isinstance(network, dict) else (lambda k: getattr(network, k))
        if network is None:
            self.c.horizon.learned = 0
            return
        w1, b1, w2, b2, w3, b3 = (get(k) for k in ("w1", "b1", "w2", "b2", "w3", "b3"))
        if len(b1) != h1 or len(b2) != h2 or len(w1) != NET_INPUTS \
                or len(w2) != h1 or len(w3) != h2 or len(b3) != NET_OUTPUTS \
                or any(len(r) != h1 for r in w1) or any(len(r) != h2 for r in w2) \
                or any(len(r) != NET_OUTPUTS for r in w3):
            raise ArgumentError(f"horizon network: expected {NET_INPUTS} rows of {h1} weights, {h1} rows "
                                f"of {h2} and {h2} rows of {NET_OUTPUTS}")
        canon = [list(r) for r in meld_canon] if meld_canon is not None else []
        if len(canon) != 4 or any(len(r) != N_MELDS or any(not 0 <= m < N_MELDS for m in r) for r in canon):
            raise ArgumentError(f"horizon network: expected 4 rows of {N_MELDS} meld indices")
        size = NET_INPUTS * h1 + h1 + h1 * h2 + h2 + h2 * NET_OUTPUTS + NET_OUTPUTS
        block = <float*> aligned_alloc(64, ((size * sizeof(float) + 63) // 64) * 64)   # (network.pxd)
        if block == NULL:
            raise MemoryError("horizon network: out of memory")
        if self.c.horizon.cache == NULL:
            self.c.horizon.cache = <EvalEntry*> calloc(NET_CACHE_ENTRIES, sizeof(EvalEntry))
            if self.c.horizon.cache == NULL:
                free(block)
                raise MemoryError("horizon network: out of memory")
            self.c.horizon.cache_mask = NET_CACHE_ENTRIES - 1
        self.c.horizon.cache_gen += 1    # (values of the network before are not this one's)
        self.c.horizon.learned = 0
        free(n.w1)
        n.w1 = block
        n.b1 = n.w1 + NET_INPUTS * h1
        n.w2 = n.b1 + h1
        n.b2 = n.w2 + h1 * h2
        n.w3 = n.b2 + h2
        n.b3 = n.w3 + h2 * NET_OUTPUTS
        for i in range(NET_INPUTS):
            for j in range(h1):
                n.w1[i * h1 + j] = float(w1[i][j])
        for j in range(h1):
            n.b1[j] = float(b1[j])
            for i in range(h2):
                n.w2[j * h2 + i] = float(w2[j][i])
        for i in range(h2):
            n.b2[i] = float(b2[i])
            for j in range(NET_OUTPUTS):
                n.w3[i * NET_OUTPUTS + j] = float(w3[i][j])
        for j in range(NET_OUTPUTS):
            n.b3[j] = float(b3[j])
        for i in range(4):
            for j in range(N_MELDS):
                n.meld_canon[i][j] = canon[i][j]
        n.win_points = win_points
        self.c.horizon.learned = 1

    @property
    def network_evaluations(self):
        """The learned evaluation's evaluations since the engine was made (the values it
        found kept not counted): with :attr:`nodes`, what a search cost."""
        return self.c.horizon.evaluations

    def network_inputs(self):
        """The learned evaluation's inputs that are on at the root, which must be at the
        start of a turn, in increasing order (solver.engine.evaluation.network_inputs' twin)."""
        cdef int on[NET_MAX_ON]
        cdef int n, i
        self._check_network()
        n = network_inputs(&self.c, &self.root, on)
        return [on[i] for i in range(n)]

    def network_outputs(self):
        """(margin, win logit, loss logit) of the learned evaluation at the root, which must
        be at the start of a turn, for the player to move there."""
        cdef float out[NET_OUTPUTS]
        self._check_network()
        network_outputs(&self.c, &self.root, out)
        return out[0], out[1], out[2]

    def _check_network(self):
        self._check()
        if not self.c.horizon.learned:
            raise ArgumentError("horizon network: none is set (Engine.set_network)")
        if self.root.trick >= 0:
            raise ArgumentError("horizon network: the root is in the middle of a trick")

    def horizon_features(self):
        """(level, features) of the root, which must be at the start of a turn: the inputs
        of the fitted horizon evaluation (what benchmarks/training/fit_horizon.py fits)."""
        cdef double f[N_HFEATURES]
        self._check()
        if self.root.trick >= 0:
            raise ArgumentError("horizon features: the root is in the middle of a trick")
        horizon_features(&self.c, &self.root, f)
        return horizon_level(&self.c, &self.root), [f[i] for i in range(N_HFEATURES)]

    def move_values(self):
        """[(move, raw value)] for every legal move at the root, each searched exactly."""
        cdef int moves[MAXMOVES]
        cdef int values[MAXMOVES]
        cdef int n, i
        self._check()
        n = self.c_move_values(moves, values)
        return [(moves[i], values[i]) for i in range(n)]

    cdef int c_move_values(self, int* moves, int* values) except -1:
        """Every legal root move (in search order) and its exact raw value, into ``moves``
        and ``values`` (MAXMOVES long); returns their number.  The C form of
        :meth:`move_values`, for the batch path (solver.native.bpnline)."""
        cdef int n, i
        cdef State child
        n = gen_moves(&self.c, &self.root, moves, 0)
        for i in range(n):
            with nogil:
                values[i] = exact_child(&self.c, &self.root, moves[i], &child)
            if self.c.budget.interrupted:
                self._raise_interrupt()
        return n

    def move_value(self, int move):
        """The raw value of one legal root move, searched exactly (a move that is not legal
        at the root raises ValueError)."""
        cdef int moves[MAXMOVES]
        cdef int n, i, v
        cdef State child
        self._check()
        n = gen_moves(&self.c, &self.root, moves, 0)
        for i in range(n):
            if moves[i] == move:
                break
        else:
            raise ValueError(f"move {move} is not legal at the root")
        with nogil:
            v = exact_child(&self.c, &self.root, move, &child)
        if self.c.budget.interrupted:
            self._raise_interrupt()
        return v

    def reaches(self, int move, int v):
        """Whether the root move gives the player to move a raw value >= v."""
        cdef State child
        cdef int r
        self._check()
        r = reaches(&self.c, &self.root, move, v, &child)
        if self.c.budget.interrupted:
            self._raise_interrupt()
        return bool(r)

    def pv(self, int v, int max_len=200):
        """A principal variation from the root, whose raw value is v, to the end of the deal."""
        cdef int line[MAX_PV]
        cdef int n, i
        self._check()
        n = self.c_pv(v, line, min(max(max_len, 0), MAX_PV))
        return [line[i] for i in range(n)]

    cdef int c_pv(self, int v, int* line, int max_len) except -1:
        """The C form of :meth:`pv`: the moves into ``line`` (at most ``max_len``), their
        number returned."""
        cdef int moves[MAXMOVES]
        cdef int n, i, d, found, length = 0
        cdef State s, child
        s = self.root
        while not s.ended and length < max_len:
            n = gen_moves(&self.c, &s, moves, 0)
            found = 0
            for i in range(n):
                if reaches(&self.c, &s, moves[i], v, &child):
                    found = 1
                    break
            if self.c.budget.interrupted:
                self._raise_interrupt()
            if not found:
                raise EngineError("principal variation lost: the table gave an inconsistent bound")
            line[length] = moves[i]
            length += 1
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
        return length

    def solve_batch(self, list states, bint every_move=False):
        """Solve many roots in one call, the table shared; returns (values, nodes) lists.

        With every_move, values holds for each root a list of (move, raw value)."""
        cdef uint64_t start
        cdef int v
        values = []
        nodes = []
        cdef RootPosition r
        self._watch()
        for st in states:
            r = <RootPosition?>st
            self._load(&r.r)
            start = self.c.nodes
            if every_move:
                values.append(self.move_values())
            else:
                with nogil:
                    v = exact_value(&self.c, &self.root)
                if self.c.budget.interrupted:
                    self._raise_interrupt()
                values.append(v)
            nodes.append(self.c.nodes - start)
        return values, nodes
