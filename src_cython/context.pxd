# The engine's data: the rules and root as they cross from Python, the search state, the
# table entries, and the search context ``Ctx`` made of a few sub-structs.
from libc.stdint cimport int8_t, int16_t, int32_t, uint16_t, uint32_t, uint64_t
from libc.time cimport clock_t
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from constants cimport N_MELDS


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

    /* Lockless table entries (Hyatt and Mann's xor trick), so that the threads of one
       parallel solve can share the tables without locks: an entry is stored as words
       whose key words are xored with its data words, each word written and read whole.
       An entry torn by two threads writing it at once decodes to a key that matches
       neither, and so reads as absent.  Entry: 4 words (k1, k2, data, data).  (The final
       phase's and plain card play's tables are each thread's own.) */
    static inline void brisque_entry_get(const void* slot, void* out) {
        const uint64_t* s = (const uint64_t*)slot;
        uint64_t* d = (uint64_t*)out;
        uint64_t w0 = __atomic_load_n(&s[0], __ATOMIC_RELAXED), w1 = __atomic_load_n(&s[1], __ATOMIC_RELAXED);
        uint64_t w2 = __atomic_load_n(&s[2], __ATOMIC_RELAXED), w3 = __atomic_load_n(&s[3], __ATOMIC_RELAXED);
        d[0] = w0 ^ w2 ^ w3; d[1] = w1 ^ w2; d[2] = w2; d[3] = w3;
    }
    /* Move a stored entry to another slot word by word, as stored: an entry torn by a
       writer stays torn (decoding and encoding it again would make it look whole). */
    static inline void brisque_entry_move(void* to, const void* from) {
        const uint64_t* s = (const uint64_t*)from;
        uint64_t* d = (uint64_t*)to;
        for (int i = 0; i < 4; i++) __atomic_store_n(&d[i], __atomic_load_n(&s[i], __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    }
    static inline void brisque_entry_put(void* slot, const void* entry) {
        uint64_t* d = (uint64_t*)slot;
        const uint64_t* s = (const uint64_t*)entry;
        __atomic_store_n(&d[2], s[2], __ATOMIC_RELAXED); __atomic_store_n(&d[3], s[3], __ATOMIC_RELAXED);
        __atomic_store_n(&d[0], s[0] ^ s[2] ^ s[3], __ATOMIC_RELAXED);
        __atomic_store_n(&d[1], s[1] ^ s[2], __ATOMIC_RELAXED);
    }
    /* The stop flag of a parallel solve: set by the first thread to finish. */
    static inline int brisque_flag(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void brisque_set_flag(int* p) { __atomic_store_n(p, 1, __ATOMIC_RELAXED); }

    /* Simplified ABDADA (Kerrigan): the moves that some thread of a parallel solve is
       searching now, by a hash of node and move.  It only orders moves, so one table for
       the process serves every solve, and a collision costs nothing but order. */
    #define BRISQUE_BUSY_BITS 16
    static uint64_t brisque_busy[1 << BRISQUE_BUSY_BITS];
    static inline int brisque_is_busy(uint64_t h) {
        return __atomic_load_n(&brisque_busy[h & ((1 << BRISQUE_BUSY_BITS) - 1)], __ATOMIC_RELAXED) == h;
    }
    static inline void brisque_set_busy(uint64_t h) {
        __atomic_store_n(&brisque_busy[h & ((1 << BRISQUE_BUSY_BITS) - 1)], h, __ATOMIC_RELAXED);
    }
    static inline void brisque_clear_busy(uint64_t h) {
        uint64_t* slot = &brisque_busy[h & ((1 << BRISQUE_BUSY_BITS) - 1)];
        if (__atomic_load_n(slot, __ATOMIC_RELAXED) == h) __atomic_store_n(slot, 0, __ATOMIC_RELAXED);
    }
    """
    void* brisque_table_alloc(size_t bytes) nogil
    void brisque_entry_get(const void* slot, void* out) nogil
    void brisque_entry_put(void* slot, const void* entry) nogil
    void brisque_entry_move(void* to, const void* from_) nogil
    int brisque_flag(int* p) nogil
    void brisque_set_flag(int* p) nogil
    int brisque_is_busy(uint64_t h) nogil
    void brisque_set_busy(uint64_t h) nogil
    void brisque_clear_busy(uint64_t h) nogil


cdef enum:
    INF = 1000000
    MAXMOVES = 96
    EXACT_DEPTH = 1000
    SMALL_ENDGAME = 6       # plain card play of at most this many cards each: plain_play
    FINAL_TABLE_BITS = 14   # the final phase's own table: 512 KB, stays in the cache
    PLAIN_TABLE_BITS = 15   # 512 KB (with the final phase's, one processor's L2 cache)
    PLAIN_TABLE_MIN = 3     # plain_play keeps a table from this many cards each
    SHORT_TABLE_BITS = 14   # a root with nothing left to draw uses this much of each table
    ETC_MIN_TALON = 4       # enhanced transposition cutoffs only this far from the talon's end
    KILLER_PLIES = 34       # killer moves are kept per number of cards played (0 to 33)
    SCRATCH_GEN = 0x8000    # the table generation's bit for a search kept apart (game_win_tests)
    ABDADA_MIN_TALON = 6    # a parallel solve's threads share out the moves this far from it
                            # (talon cards; nearer the end the busy marks cost more than
                            # they save: BENCHMARKS.md, Simplified ABDADA's reach)
    MAX_THREADS = 64
    MAX_TALON = 32
    MAX_PV = 200            # the longest principal variation (Engine.pv; a deal has 16 tricks)
    SIGNAL_INTERVAL = 32768 # nodes between looks for Ctrl-C (a few ms: search.pxd signal_raised)
    STOP_INTERVAL = 1024    # the same in a parallel solve, which also looks at its stop flag

cdef enum:
    # the fitted horizon evaluation (bounds.pxd horizon_features): features of a position
    # at the start of a turn, weighted by the number of talon tricks left there
    N_HFEATURES = 14
    HORIZON_LEVELS = 12
    NET_CACHE_ENTRIES = 1 << 16   # the learned evaluation's values kept (24 bytes each)

cdef enum:
    COURT_MASK = 0x38383838   # J Q K of every suit (ranks 3, 4, 5)


ctypedef struct EngineRules:
    # The rules as the engine sees them; built from solver.model.rules.Rules by
    # solver.engine.seam.engine_rules and passed to Engine() as one typed struct.
    int game                  # G_BRISQUE, G_BRISCAN or G_PETITE
    int draws                 # the hands are refilled from a talon
    int exchange              # the 7 of trumps may be exchanged for the turnup
    int exchange_points
    int quartet_game          # four kings or queens win the game (Brisque)
    int final_decl            # declarations in the final phase
    int one_decl              # one declaration per turn
    int tricks_obj            # the objective is the trick margin
    int must_beat             # a follower must head the trick when he can
    int forced_start          # following is obligatory from the first trick
    int window                # Brisque's last-pickup window
    int exch_lead_only        # the exchange only on lead
    int last_bonus            # points of the last trick
    int before_draw           # declarations before the draw: not with the cards drawn since
    uint32_t meld_cards[N_MELDS]
    int meld_kind[N_MELDS]
    int meld_points[4][N_MELDS]   # by trump suit
    int meld_allowed[N_MELDS]     # the meld exists in this game


ctypedef struct Root:
    # A root position, as solver.engine.seam.engine_root builds it.
    uint32_t hand[2]
    uint32_t out
    int turnup                # -1 once taken
    int trump
    int talon[MAX_TALON]      # draw order, top first; talon_len of them are used
    int talon_len
    int trick                 # the card led, -1 when no trick is in progress
    int turn
    int tricks[2]
    int final[2]              # final-phase tricks (Briscan bonus)
    uint64_t melds_lo[2]      # melds 0..63 declared, per player
    uint32_t melds_hi[2]      # melds 64..71
    int exchanged             # who took the turnup with the 7 of trumps, -1: nobody
    int taken                 # the card so taken, -1: none
    int declared              # declarations at the current turn
    uint32_t fresh            # (before_draw) cards the player to act received since his trick


ctypedef struct State:
    uint32_t hand[2]
    uint32_t out
    int turnup            # card on the table, -1 once taken
    int talon_idx         # next card to draw from c.root.talon
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
    uint32_t fresh        # (before_draw) cards received since the last trick: not declarable
    int min_decl          # declarations within a turn go in ascending meld order
    int ended
    int win


ctypedef struct Entry:
    # four 64-bit words, stored xored (tables.pxd probe and store): keep the layout
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


ctypedef struct MeldTable:
    # derived from the rules when the engine is made
    int free[N_MELDS]         # declaring it now can never hurt (forced inside the search)
    int allowed[N_MELDS]      # the melds of this game, in table order
    int n_allowed


ctypedef struct RootData:
    # the loaded root's fixed data
    int trump
    int talon[MAX_TALON]
    int talon_len
    uint64_t talon_hash[MAX_TALON + 1]
    uint32_t talon_rest[MAX_TALON + 1]   # cards still in the talon from each index on
    int meld_pts[N_MELDS]                # the melds' points with this trump suit


ctypedef struct Features:
    # search enhancements, each switchable for the side-by-side benchmark
    int merge_equal           # equivalent cards may be merged
    int force_free            # dominant declarations are forced inside the search
    int use_mtdf              # exact roots of the talon phase by MTD(f) from a guess
    int etc                   # enhanced transposition cutoffs at followers' nodes
    int talon_ordering        # talon phase: cheap leads first and killer moves
    int use_bounds            # cheap value bounds at the start of each turn
    int small_endgame         # the last tricks of plain card play by plain_play
    int win_tests             # early in a Brisque deal, test for forced game wins first
    int threads               # threads of an exact solve (parallel.pxd), 1: solo


ctypedef struct Tables:
    # The final phase (after the last draw) has its own small table, since its many cheap
    # nodes would evict the talon phase's valuable entries and a small table stays in the
    # processor's cache (measured 1.6x faster than one shared table).
    Entry* table
    uint64_t table_mask
    Entry* ftable
    uint64_t ftable_mask
    PlainEntry* ptable        # plain card play (plain_play) of PLAIN_TABLE_MIN cards or more
    uint64_t ptable_mask
    # the masks of the whole tables; a root with nothing left to draw searches only the first
    # 2**SHORT_TABLE_BITS entries of each (Engine._load), since its few hundred nodes need
    # no more, and so few stay in the processor's cache (an entry found under the other mask
    # is still the right one: entries hold their whole key)
    uint64_t table_mask_full
    uint64_t ftable_mask_full
    uint64_t ptable_mask_full
    # a parallel solve's helper threads share the talon phase's table but have final-phase
    # and plain-play tables of their own (measured faster: the many writes to those small
    # tables would bounce cache lines between the cores); kept from one solve to the next
    Entry* helper_ftable[MAX_THREADS - 1]
    PlainEntry* helper_ptable[MAX_THREADS - 1]
    uint16_t gen              # entries of other generations are empty: clearing is O(1);
                              # below SCRATCH_GEN, whose bit marks a search kept apart


ctypedef struct Network:
    # the learned horizon evaluation (network.pxd; trained by benchmarks/training/train.py, shipped in
    # solver/engine/evaluation/networks/): rows of weights, input by input and unit by unit
    # single precision: four units an SSE instruction (the twin rounds as the engine does)
    float* w1                 # NET_INPUTS rows of NET_H1
    float* b1
    float* w2                 # NET_H1 rows of NET_H2
    float* b2
    float* w3                 # NET_H2 rows of NET_OUTPUTS
    float* b3
    int meld_canon[4][N_MELDS]  # by trump: meld index -> the same meld, suits renumbered
    double win_points         # what the chance of a game won (less that of one lost) adds


ctypedef struct EvalEntry:
    # a learned evaluation kept: the table key of the position (tables.pxd make_key)
    uint64_t k1
    uint64_t k2
    int32_t value
    uint32_t gen              # Horizon.cache_gen when kept: older entries count as empty


ctypedef struct Horizon:
    # weights fitted by benchmarks/training/fit_horizon.py (solver.engine.evaluation.linear_weights);
    # without them the hand-made heuristic of docs/solver.md; a learned network, when set,
    # comes before both
    int fitted
    double w[HORIZON_LEVELS][N_HFEATURES]
    int learned
    Network net
    # the network's values kept by position: MTD(f)'s passes and the deepening iterations
    # reach the same horizon positions again and again (one root's: the key holds the
    # talon by a hash of the cards still to draw, so a new root starts a new generation)
    EvalEntry* cache
    uint64_t cache_mask
    uint32_t cache_gen
    uint64_t evaluations      # the network's evaluations so far (values not found kept)


ctypedef struct Budget:
    uint64_t node_limit       # 0: none
    clock_t deadline          # 0: none (CPU time, clock())
    double wall_deadline      # 0: none (real time, monotonic_seconds())
    int aborted
    int depth_limit           # tricks from the root to the horizon, -1: exact search
    int root_tricks
    uint64_t taint            # counts horizon evaluations (a value that used one is not exact)
    uint64_t next_signal_check  # node count of the next look for a pending signal (Ctrl-C)
    int watch_signals         # 1 in the main thread, where Python runs signal handlers
    int interrupted           # a signal handler raised: its exception is pending
    int* stop                 # a parallel solve's stop flag, shared by its threads; NULL: solo
    uint64_t stop_checks      # looks at it so far (Ctrl-C is looked for at every 32nd)
    int proven_lo             # bounds MTD(f) had proven on the value it was searching (the
    int proven_hi             # answer so far when interrupted; -INF/INF: nothing proven)


ctypedef struct Ctx:
    EngineRules rules
    MeldTable melds
    RootData root
    Features features
    Tables tables
    Budget budget
    Horizon horizon
    int killers[KILLER_PLIES][2]   # per number of cards played: two recent cutoff moves
    uint64_t nodes


cdef inline double monotonic_seconds() noexcept nogil:
    """Real time in seconds on the monotonic clock (a budget's wall-clock deadline)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9
