# The transposition tables: keys, two-entry buckets on cache lines, replacement, and the
# merge of a fail-soft result into an entry's bounds.  Entries are read and written whole,
# as decoded copies (probe, store), so that the threads of a parallel solve can share them.
from libc.stdint cimport int32_t, uint32_t, uint64_t

from cards cimport __builtin_popcount
from constants cimport G_BRISQUE
from context cimport Ctx, Entry, State, brisque_entry_get, brisque_entry_move, brisque_entry_put


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    # splitmix64 finaliser
    x ^= x >> 30
    x *= 0xbf58476d1ce4e5b9ULL
    x ^= x >> 27
    x *= 0x94d049bb133111ebULL
    x ^= x >> 31
    return x


cdef inline void make_key(Ctx* c, State* s, uint64_t* k1, uint64_t* k2) noexcept nogil:
    # At the start of a turn the cards out follow from the hands, the talon suffix and
    # the turnup, so they are left out of the key.
    cdef uint64_t h
    k1[0] = (<uint64_t>s.hand[0]) | ((<uint64_t>s.hand[1]) << 32)
    h = (<uint64_t>c.root.trump) | ((<uint64_t>s.turn) << 2) | ((<uint64_t>(s.turnup + 1)) << 3) \
        | ((<uint64_t>s.declared_turn) << 9) | ((<uint64_t>s.min_decl) << 13) \
        | ((<uint64_t>(s.exchanged + 1)) << 21) | ((<uint64_t>(s.taken + 1)) << 23)
    if c.rules.game != G_BRISQUE:
        h |= ((<uint64_t>s.tricks[0]) << 29) | ((<uint64_t>s.fin[0]) << 35) | ((<uint64_t>s.fin[1]) << 39)
    if s.decl_lo[0] | s.decl_lo[1] | s.decl_hi[0] | s.decl_hi[1]:
        h ^= mix64(s.decl_lo[0] ^ mix64(s.decl_lo[1] ^ mix64(
            (<uint64_t>s.decl_hi[0]) | ((<uint64_t>s.decl_hi[1]) << 8) | (<uint64_t>1 << 63))))
    if s.fresh:     # (only under declare=before_draw)
        h ^= mix64((<uint64_t>s.fresh) | (<uint64_t>1 << 40))
    k2[0] = h ^ c.root.talon_hash[s.talon_idx]


cdef inline uint64_t node_key(State* s) noexcept nogil:
    """A hash of any search node (mid-trick too), for a parallel solve's busy moves: it
    only orders moves, so it need not tell every pair of nodes apart."""
    return mix64((<uint64_t>s.hand[0]) | ((<uint64_t>s.hand[1]) << 32)) ^ mix64(
        (<uint64_t>s.talon_idx) | ((<uint64_t>(s.trick + 1)) << 8) | ((<uint64_t>s.turn) << 16)
        | ((<uint64_t>s.declared_turn) << 20) | ((<uint64_t>(s.exchanged + 1)) << 28)
        | ((<uint64_t>(s.turnup + 1)) << 32) | ((<uint64_t>s.min_decl) << 40)) ^ (s.decl_lo[0] * 3 + s.decl_lo[1])


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


cdef inline Entry* bucket_of(Ctx* c, State* s, uint64_t k1, uint64_t k2) noexcept nogil:
    """The two-entry bucket (one 64-byte cache line) for the key (k1, k2) of position s."""
    cdef uint64_t h = mix64(k1 ^ (k2 * 0x9E3779B97F4A7C15ULL))
    if c.rules.draws and s.turnup < 0:
        return &c.tables.ftable[(h & c.tables.ftable_mask) * 2]
    return &c.tables.table[(h & c.tables.table_mask) * 2]


cdef inline Entry* probe(Ctx* c, Entry* b, uint64_t k1, uint64_t k2, Entry* out) noexcept nogil:
    """The slot of bucket b that holds the entry of key (k1, k2), its copy in out; NULL if
    none (an entry another thread was writing at that moment reads as none)."""
    brisque_entry_get(b, out)
    if out.gen == c.tables.gen and out.k1 == k1 and out.k2 == k2:
        return b
    brisque_entry_get(b + 1, out)
    if out.gen == c.tables.gen and out.k1 == k1 and out.k2 == k2:
        return b + 1
    return NULL


cdef inline void store(Entry* slot, Entry* e) noexcept nogil:
    brisque_entry_put(slot, e)


cdef inline int weight(Ctx* c, State* s) noexcept nogil:
    """How much search an entry of s saves, roughly: the cards still to be played."""
    return __builtin_popcount(s.hand[0] | s.hand[1]) + c.root.talon_len - s.talon_idx + 1


cdef inline Entry* victim(Ctx* c, Entry* b, int w) noexcept nogil:
    """The slot a new entry of weight w goes to: the first slot keeps the heavier entry,
    the second the most recent one (the first's old entry moves there when displaced)."""
    cdef Entry first
    brisque_entry_get(b, &first)
    if first.gen != c.tables.gen:
        return b
    if w >= first.used:
        brisque_entry_move(b + 1, b)
        return b
    return b + 1
