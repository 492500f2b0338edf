# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The batch path's native lane (solver.native.bpnline): one BPN line in, its JSON answer out,
without a Python object per field or per move.

``brisque solve -`` spends most of its time outside the search on positions the engine
solves in microseconds (the final phase): parsing, the validity check, the answer's objects
and JSON.  :class:`LineLane` does all of that in C for the lines it is sure of, and declines
(returns ``None``) every other line, which then takes the Python path (solver.model and
solver.engine.solving), the one source of every error message.  A line is taken here only when:

* it is canonical BPN: printed back from what was parsed, it is the same text (so the
  Python parser would read the same position; odd spellings, cases and orders decline);
* its rules field is this lane's rules text, and it states every card (no hidden hand, no
  face-down talon: the talon field is a number, 0 in a game with drawing);
* its optional keys are among tricks, final, melds, exchanged, void, taken and declared;
* the validity check below finds nothing wrong (solver/model/validity.py's checks for these
  positions; a position it doubts goes to Python, which names the problem);
* the deal is not over.

The answer is then the engine's, by the same calls as :meth:`solver.engine.solving.Solver.solve`
(every move's value, then a principal variation), written as its ``to_json`` writes it:
tests/engine/test_bpnline.py checks the two byte for byte (but ``seconds``) on thousands of lines.
"""
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset, strlen
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from cards cimport __builtin_ctz, __builtin_popcount, points_of
from constants cimport (DECLARE_BASE, G_BRISCAN, G_BRISQUE, K_BLANK_COURTS, K_BLANK_PLAIN,
                        K_MARRIAGE, MOVE_EXCHANGE, MOVE_PASS, N_MELDS, WIN_THRESHOLD,
                        WIN_VALUE)
from context cimport MAX_PV, MAXMOVES, Root

from solver.native.engine cimport Engine

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object s, Py_ssize_t* size) except NULL
    object PyUnicode_DecodeASCII(const char* s, Py_ssize_t size, const char* errors)

cdef enum:
    MAX_LINE = 400         # longer lines take the Python path (a canonical BPN is far shorter)
    OUT_SIZE = 16384       # the answer: the line, MAXMOVES moves and MAX_PV moves fit
    MAX_CODE = 8           # a meld code's letters ("5AH")

cdef const char* RANK_CHARS = b"789JQKTA"
cdef const char* SUIT_CHARS = b"SHDC"
# a suit group's ranks high to low, as canonical BPN writes them
cdef int RANKS_HIGH_FIRST[8]
RANKS_HIGH_FIRST[:] = [7, 6, 5, 4, 3, 2, 1, 0]


ctypedef struct Spec:
    # What the lane needs of the rules (solver.engine.batchline.lane_spec builds it)
    int game, draws, hand_size, talon_size, talon_tricks, tricks_per_deal
    int has_declarations, exchange, exchange_points, tricks_obj
    int last_pickup_window
    int max_score, max_tricks, max_cards, max_declared
    int meld_kind[N_MELDS]
    uint32_t meld_cards[4][N_MELDS]      # by trump suit (the ace of trumps depends on it)
    int meld_points[4][N_MELDS]
    char meld_code[N_MELDS][MAX_CODE]
    int meld_code_len[N_MELDS]
    char rules_text[64]
    int rules_len


ctypedef struct Line:
    # a parsed BPN, as solver.model.bpn.BPNParts has it
    uint32_t hand[2]
    int trump, turnup, talon_count, trick, turn
    uint32_t out
    int score[2]
    int tricks[2]
    int fin[2]
    int melds[2][N_MELDS]
    int n_melds[2]
    int exchanged, taken, declared
    int voids[2]          # suits each seat has shown out of, a bit a suit


ctypedef struct Buf:
    char* p
    int n
    int cap
    int full


cdef inline void put(Buf* b, const char* s, int n) noexcept nogil:
    if b.n + n > b.cap:
        b.full = 1
        return
    memcpy(b.p + b.n, s, n)
    b.n += n


cdef inline void puts(Buf* b, const char* s) noexcept nogil:
    put(b, s, <int>strlen(s))


cdef inline void putc(Buf* b, char ch) noexcept nogil:
    if b.n >= b.cap:
        b.full = 1
        return
    b.p[b.n] = ch
    b.n += 1


cdef inline void put_int(Buf* b, long long v) noexcept nogil:
    cdef char tmp[24]
    cdef int i = 0, j
    cdef unsigned long long u
    if v < 0:
        putc(b, c'-')
        u = <unsigned long long>(-v)
    else:
        u = <unsigned long long>v
    while True:
        tmp[i] = <char>(48 + u % 10)
        i += 1
        u //= 10
        if u == 0:
            break
    for j in range(i - 1, -1, -1):
        putc(b, tmp[j])


cdef inline void put_card(Buf* b, int c) noexcept nogil:
    putc(b, RANK_CHARS[c & 7])
    putc(b, SUIT_CHARS[c >> 3])


cdef inline void put_hand(Buf* b, uint32_t m) noexcept nogil:
    """Canonical hand form: S.H.D.C groups, ranks high to low."""
    cdef int s, r
    for s in range(4):
        if s:
            putc(b, c'.')
        for r in range(8):
            if (m >> (s * 8 + RANKS_HIGH_FIRST[r])) & 1:
                putc(b, RANK_CHARS[RANKS_HIGH_FIRST[r]])


cdef inline void put_pair(Buf* b, int* v) noexcept nogil:
    put_int(b, v[0])
    putc(b, c':')
    put_int(b, v[1])


cdef inline int index_in(const char* letters, int n, char ch) noexcept nogil:
    """The index of ``ch`` among the first ``n`` ``letters``, else -1."""
    cdef int i
    for i in range(n):
        if letters[i] == ch:
            return i
    return -1


cdef inline int rank_of(char ch) noexcept nogil:
    return index_in(RANK_CHARS, 8, ch)


cdef inline int suit_of(char ch) noexcept nogil:
    return index_in(SUIT_CHARS, 4, ch)


cdef inline int card_at(const char* t, int n) noexcept nogil:
    """A card written as two canonical letters (``AS``), else -1."""
    cdef int r, s
    if n != 2:
        return -1
    r = rank_of(t[0])
    s = suit_of(t[1])
    if r < 0 or s < 0:
        return -1
    return s * 8 + r


cdef inline int hand_at(const char* t, int n, uint32_t* out) noexcept nogil:
    """A hand in S.H.D.C form (canonical letters; the order is checked by printing back): 0,
    else -1."""
    cdef int i, s = 0, r
    cdef uint32_t m = 0
    for i in range(n):
        if t[i] == c'.':
            s += 1
            if s > 3:
                return -1
            continue
        r = rank_of(t[i])
        if r < 0:
            return -1
        m |= (<uint32_t>1) << (s * 8 + r)
    if s != 3:
        return -1
    out[0] = m
    return 0


cdef inline int number_at(const char* t, int n, int high) noexcept nogil:
    """ASCII digits (at most 6) for a number from 0 to ``high``, else -1."""
    cdef int i, v = 0
    if n < 1 or n > 6:
        return -1
    for i in range(n):
        if t[i] < c'0' or t[i] > c'9':
            return -1
        v = v * 10 + (t[i] - 48)
    return v if v <= high else -1


cdef inline int pair_at(const char* t, int n, int high, int* out) noexcept nogil:
    """``A:B``, two numbers from 0 to ``high``: 0, else -1."""
    cdef int i
    for i in range(n):
        if t[i] == c':':
            out[0] = number_at(t, i, high)
            out[1] = number_at(t + i + 1, n - i - 1, high)
            return 0 if out[0] >= 0 and out[1] >= 0 else -1
    return -1


cdef inline int meld_at(Spec* sp, const char* t, int n) noexcept nogil:
    """The index of the meld with code ``t`` (canonical spelling), else -1."""
    cdef int m
    for m in range(N_MELDS):
        if sp.meld_code_len[m] == n and n > 0 and memcmp(sp.meld_code[m], t, n) == 0:
            return m
    return -1


cdef inline int melds_at(Spec* sp, const char* t, int n, Line* ln) noexcept nogil:
    """``CODES/CODES``: each side '+'-joined codes or '-': 0, else -1."""
    cdef int i, side = 0, start = 0, m
    ln.n_melds[0] = 0
    ln.n_melds[1] = 0
    for i in range(n + 1):
        if i == n or t[i] == c'/' or t[i] == c'+':
            if i - start == 1 and t[start] == c'-' and (i == n or t[i] == c'/'):
                pass    # an empty side
            else:
                m = meld_at(sp, t + start, i - start)
                if m < 0 or ln.n_melds[side] >= N_MELDS:
                    return -1
                ln.melds[side][ln.n_melds[side]] = m
                ln.n_melds[side] += 1
            if i < n and t[i] == c'/':
                side += 1
                if side > 1:
                    return -1
            start = i + 1
    return 0 if side == 1 else -1


cdef inline int voids_at(const char* t, int n, int* voids) noexcept nogil:
    """``SEAT:SUITS[,SEAT:SUITS]``: 0, else -1."""
    cdef int i = 0, seat, s
    while i < n:
        if i + 2 >= n or (t[i] != c'a' and t[i] != c'b') or t[i + 1] != c':':
            return -1
        seat = t[i] - c'a'
        i += 2
        if i >= n or t[i] == c',':
            return -1
        while i < n and t[i] != c',':
            s = suit_of(t[i])
            if s < 0:
                return -1
            voids[seat] |= 1 << s
            i += 1
        if i < n:
            i += 1
            if i >= n:
                return -1
    return 0


cdef int parse_line(Spec* sp, const char* t, int n, Line* ln) noexcept nogil:
    """The fields of a BPN line, or -1 for any line the lane does not take."""
    cdef int starts[24]
    cdef int lens[24]
    cdef int nf = 0, i, start = 0, k, key_len
    cdef const char* f
    cdef int fl
    for i in range(n + 1):
        if i == n or t[i] == c' ':
            if nf >= 24 or i == start:
                return -1
            starts[nf] = start
            lens[nf] = i - start
            nf += 1
            start = i + 1
    if nf < 8:
        return -1
    memset(ln, 0, sizeof(Line))
    ln.turnup = -1
    ln.trick = -1
    ln.exchanged = -1
    ln.taken = -1
    # 1 rules
    if lens[0] != sp.rules_len or memcmp(t, sp.rules_text, sp.rules_len) != 0:
        return -1
    # 2 hands
    f = t + starts[1]
    fl = lens[1]
    for i in range(fl):
        if f[i] == c'/':
            break
    else:
        return -1
    if hand_at(f, i, &ln.hand[0]) < 0 or hand_at(f + i + 1, fl - i - 1, &ln.hand[1]) < 0:
        return -1
    # 3 trump: the turnup card, or the suit once it is taken
    f = t + starts[2]
    if lens[2] == 1:
        ln.trump = suit_of(f[0])
        if ln.trump < 0:
            return -1
    else:
        ln.turnup = card_at(f, lens[2])
        if ln.turnup < 0:
            return -1
        ln.trump = ln.turnup >> 3
    # 4 talon: a number (a known talon order takes the Python path)
    ln.talon_count = number_at(t + starts[3], lens[3], sp.max_cards)
    if ln.talon_count < 0 or (sp.draws and ln.talon_count != 0):
        return -1     # (with drawing, face-down cards are hidden cards)
    # 5 out
    f = t + starts[4]
    if not (lens[4] == 1 and f[0] == c'-'):
        if hand_at(f, lens[4], &ln.out) < 0:
            return -1
    # 6 trick
    f = t + starts[5]
    if not (lens[5] == 1 and f[0] == c'-'):
        ln.trick = card_at(f, lens[5])
        if ln.trick < 0:
            return -1
    # 7 turn
    f = t + starts[6]
    if lens[6] != 1 or (f[0] != c'a' and f[0] != c'b'):
        return -1
    ln.turn = f[0] - c'a'
    # 8 score
    if pair_at(t + starts[7], lens[7], sp.max_score, ln.score) < 0:
        return -1
    # optional keys (their order is checked by printing back)
    for k in range(8, nf):
        f = t + starts[k]
        fl = lens[k]
        for key_len in range(fl):
            if f[key_len] == c'=':
                break
        else:
            return -1
        if key_len == 6 and memcmp(f, b"tricks", 6) == 0:
            if pair_at(f + 7, fl - 7, sp.max_tricks, ln.tricks) < 0:
                return -1
        elif key_len == 5 and memcmp(f, b"final", 5) == 0:
            if pair_at(f + 6, fl - 6, sp.max_tricks, ln.fin) < 0:
                return -1
        elif key_len == 5 and memcmp(f, b"melds", 5) == 0:
            if melds_at(sp, f + 6, fl - 6, ln) < 0:
                return -1
        elif key_len == 9 and memcmp(f, b"exchanged", 9) == 0:
            if fl != 11 or (f[10] != c'a' and f[10] != c'b'):
                return -1
            ln.exchanged = f[10] - c'a'
        elif key_len == 4 and memcmp(f, b"void", 4) == 0:
            if voids_at(f + 5, fl - 5, ln.voids) < 0:
                return -1
        elif key_len == 5 and memcmp(f, b"taken", 5) == 0:
            ln.taken = card_at(f + 6, fl - 6)
            if ln.taken < 0:
                return -1
        elif key_len == 8 and memcmp(f, b"declared", 8) == 0:
            ln.declared = number_at(f + 9, fl - 9, sp.max_declared)
            if ln.declared < 0:
                return -1
        else:
            return -1     # game=, shown=, drawn= and anything else: the Python path
    return 0


cdef void format_line(Spec* sp, Line* ln, Buf* b) noexcept nogil:
    """The canonical BPN of ``ln`` (solver.model.bpn.format_bpn for these positions)."""
    cdef int i, side, j, k, m, t
    cdef int order[N_MELDS]
    put(b, sp.rules_text, sp.rules_len)
    putc(b, c' ')
    put_hand(b, ln.hand[0])
    putc(b, c'/')
    put_hand(b, ln.hand[1])
    putc(b, c' ')
    if ln.turnup >= 0:
        put_card(b, ln.turnup)
    else:
        putc(b, SUIT_CHARS[ln.trump])
    putc(b, c' ')
    put_int(b, ln.talon_count)
    putc(b, c' ')
    if ln.out:
        put_hand(b, ln.out)
    else:
        putc(b, c'-')
    putc(b, c' ')
    if ln.trick >= 0:
        put_card(b, ln.trick)
    else:
        putc(b, c'-')
    putc(b, c' ')
    putc(b, c'a' + ln.turn)
    putc(b, c' ')
    put_pair(b, ln.score)
    if ln.tricks[0] or ln.tricks[1]:
        puts(b, b" tricks=")
        put_pair(b, ln.tricks)
    if (ln.fin[0] or ln.fin[1]) and sp.game == G_BRISCAN:     # (as format_bpn: Briscan's alone)
        puts(b, b" final=")
        put_pair(b, ln.fin)
    if ln.n_melds[0] or ln.n_melds[1]:
        puts(b, b" melds=")
        for side in range(2):
            if side:
                putc(b, c'/')
            if ln.n_melds[side] == 0:
                putc(b, c'-')
                continue
            for j in range(ln.n_melds[side]):     # in meld-table order
                order[j] = ln.melds[side][j]
            for j in range(1, ln.n_melds[side]):
                k = j
                while k > 0 and order[k - 1] > order[k]:
                    t = order[k]
                    order[k] = order[k - 1]
                    order[k - 1] = t
                    k -= 1
            for j in range(ln.n_melds[side]):
                if j:
                    putc(b, c'+')
                m = order[j]
                put(b, sp.meld_code[m], sp.meld_code_len[m])
    if ln.exchanged >= 0:
        puts(b, b" exchanged=")
        putc(b, c'a' + ln.exchanged)
    if ln.voids[0] or ln.voids[1]:
        puts(b, b" void=")
        k = 0
        for side in range(2):
            if ln.voids[side]:
                if k:
                    putc(b, c',')
                putc(b, c'a' + side)
                putc(b, c':')
                for j in range(4):
                    if ln.voids[side] >> j & 1:
                        putc(b, SUIT_CHARS[j])
                k = 1
    if ln.exchanged >= 0 and ln.taken >= 0:
        puts(b, b" taken=")
        put_card(b, ln.taken)
    if ln.declared:
        puts(b, b" declared=")
        put_int(b, ln.declared)


cdef inline int has_meld(Line* ln, int side, int m) noexcept nogil:
    cdef int j
    for j in range(ln.n_melds[side]):
        if ln.melds[side][j] == m:
            return 1
    return 0


cdef int valid(Spec* sp, Line* ln) noexcept nogil:
    """1 when solver.model.validity.position_problems finds nothing wrong with the line and
    the deal is not over, else 0 (the Python path then says why).  The checks of the
    positions the lane takes: no hidden card, no shown or drawn key."""
    cdef uint32_t seen = 0, m, elsewhere
    cdef uint32_t places[4]
    cdef int n_places = 0, i, j, p, done, d, want_talon, window, seven, total, expect, got, want
    cdef int size[2]
    # cards: each once, 32 in all (the dead talon of a game without drawing counts)
    places[0] = ln.hand[0]
    places[1] = ln.hand[1]
    places[2] = ln.out
    n_places = 3
    if ln.turnup >= 0:
        places[n_places] = (<uint32_t>1) << ln.turnup
        n_places += 1
    for i in range(n_places):
        if places[i] & seen:
            return 0
        seen |= places[i]
    if ln.trick >= 0:
        if seen >> ln.trick & 1:
            return 0
        seen |= (<uint32_t>1) << ln.trick
    total = __builtin_popcount(seen) + (0 if sp.draws else ln.talon_count)
    if total != 32:
        return 0
    # shape: hand sizes, talon and turnup for the trick number and the phase
    i = __builtin_popcount(ln.out)
    if i % 2:
        return 0
    done = i // 2
    if done > sp.tricks_per_deal:
        return 0
    seven = ln.trump * 8
    size[0] = sp.hand_size
    size[1] = sp.hand_size
    if sp.draws:
        d = sp.talon_tricks
        want_talon = sp.talon_size - 2 * done if done < d else 0
        window = done == d and ln.turnup >= 0
        if done >= d:
            size[0] = sp.hand_size - (done - d)
            size[1] = size[0]
        if window:
            if not sp.last_pickup_window or ln.trick >= 0:
                return 0
            size[1 - ln.turn] -= 1
            if not (ln.hand[ln.turn] >> seven & 1):
                return 0
        elif done < d and ln.turnup < 0:
            return 0
        elif done > d and ln.turnup >= 0:
            return 0
    else:
        want_talon = sp.talon_size
        size[0] = sp.hand_size - done
        size[1] = size[0]
        if ln.turnup < 0:
            return 0
    if ln.talon_count != want_talon:
        return 0
    if ln.trick >= 0:
        size[1 - ln.turn] -= 1
    # (a deal that is over takes the Python path: no hand-size exception to mirror here)
    for p in range(2):      # a seat shown out of a suit holds none of it
        for j in range(4):
            if ln.voids[p] >> j & 1 and ln.hand[p] >> (j * 8) & 0xFF:
                return 0
    if __builtin_popcount(ln.hand[0]) != size[0] or __builtin_popcount(ln.hand[1]) != size[1]:
        return 0
    # counts
    if sp.game != G_BRISQUE:
        if ln.tricks[0] + ln.tricks[1] != done:
            return 0
    elif ln.tricks[0] + ln.tricks[1] > done:
        return 0
    if ln.fin[0] or ln.fin[1] or (sp.game == G_BRISCAN and done > sp.talon_tricks):
        want = (done - sp.talon_tricks if done > sp.talon_tricks else 0) if sp.draws else 0
        if sp.game == G_BRISCAN and ln.fin[0] + ln.fin[1] != want:
            return 0
    # declarations
    if (ln.n_melds[0] or ln.n_melds[1]) and (not sp.has_declarations or done < 1):
        return 0
    for p in range(2):
        for i in range(ln.n_melds[p]):
            m = ln.melds[p][i]
            for j in range(i):
                if ln.melds[p][j] == <int>m:
                    return 0      # declared twice
            if sp.meld_kind[m] != K_BLANK_COURTS and sp.meld_kind[m] != K_BLANK_PLAIN \
                    and has_meld(ln, 1 - p, m):
                return 0          # by both players
    for p in range(2):
        elsewhere = ln.hand[1 - p] | (((<uint32_t>1) << ln.turnup) if ln.turnup >= 0 else 0)
        if ln.exchanged == p:
            elsewhere &= ~((<uint32_t>1) << seven)
        for i in range(ln.n_melds[p]):
            m = ln.melds[p][i]
            if sp.game == G_BRISQUE and sp.meld_kind[m] != K_MARRIAGE:
                return 0          # (a four of a kind ends a Brisque deal: over, or not Brisque's)
            if sp.meld_kind[m] == K_BLANK_COURTS or sp.meld_kind[m] == K_BLANK_PLAIN:
                continue
            if sp.meld_cards[ln.trump][m] & elsewhere:
                return 0
    # the exchange
    if ln.taken >= 0 and ln.exchanged < 0:
        return 0
    if ln.exchanged >= 0:
        if not sp.exchange:
            return 0
        if ln.turnup >= 0 and ln.turnup != seven:
            return 0
        if ln.taken >= 0 and ((ln.taken >> 3) != ln.trump or ln.taken == seven):
            return 0
        if ln.taken >= 0 and (ln.turnup == ln.taken or (ln.hand[1 - ln.exchanged] >> ln.taken & 1)):
            return 0
    # over: Briscan's vole, or every trick played
    if sp.game == G_BRISCAN and (ln.tricks[0] == sp.tricks_per_deal or ln.tricks[1] == sp.tricks_per_deal):
        return 0
    if done >= sp.tricks_per_deal and ln.trick < 0 and ln.hand[0] == 0 and ln.hand[1] == 0:
        return 0
    # scores: the card points out, the declarations and the exchange
    if not sp.tricks_obj:
        expect = points_of(ln.out)
        for p in range(2):
            for i in range(ln.n_melds[p]):
                expect += sp.meld_points[ln.trump][ln.melds[p][i]]
        if ln.exchanged >= 0:
            expect += sp.exchange_points
        got = ln.score[0] + ln.score[1]
        if sp.game == G_BRISCAN:
            if got < expect:
                return 0
        elif got != expect:
            return 0
    return 1


cdef void fill_root(Line* ln, Root* r) noexcept nogil:
    """The engine's root struct of the line (solver.engine.seam.engine_root)."""
    cdef int p, i, m
    memset(r, 0, sizeof(Root))
    for p in range(2):
        r.hand[p] = ln.hand[p]
        r.tricks[p] = ln.tricks[p]
        r.final[p] = ln.fin[p]
        for i in range(ln.n_melds[p]):
            m = ln.melds[p][i]
            if m < 64:
                r.melds_lo[p] |= (<uint64_t>1) << m
            else:
                r.melds_hi[p] |= (<uint32_t>1) << (m - 64)
    r.out = ln.out
    r.turnup = ln.turnup
    r.trump = ln.trump
    r.talon_len = 0
    r.trick = ln.trick
    r.turn = ln.turn
    r.exchanged = ln.exchanged
    r.taken = ln.taken
    r.declared = ln.declared
    r.fresh = 0


cdef inline void put_move(Spec* sp, Buf* b, int mv) noexcept nogil:
    putc(b, c'"')
    if mv < 32:
        put_card(b, mv)
    elif mv == MOVE_EXCHANGE:
        putc(b, c'x')
    elif mv == MOVE_PASS:
        puts(b, b"pass")
    else:
        putc(b, c'+')
        put(b, sp.meld_code[mv - DECLARE_BASE], sp.meld_code_len[mv - DECLARE_BASE])
    putc(b, c'"')


cdef inline long long final_number(int raw, int current) noexcept nogil:
    """An answer's number for a raw future value (solver.model.value.Value.from_raw)."""
    if raw >= WIN_THRESHOLD:
        return WIN_VALUE
    if raw <= -WIN_THRESHOLD:
        return -WIN_VALUE
    return <long long>current + raw


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)     # (time.perf_counter's clock on Linux)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef class LineLane:
    """The native lane of the batch path for one rules text (see the module's docstring).

    Built by :func:`solver.engine.batchline.lane_for` from the rules; ``answer(engine,
    line)`` gives the JSON answer of ``line`` solved by ``engine`` (an Engine built for
    these rules), or ``None`` when the line must take the Python path.
    """
    cdef Spec sp
    cdef char out[OUT_SIZE]

    def __init__(self, dict spec):
        cdef int m, t, n
        memset(&self.sp, 0, sizeof(Spec))
        text = spec["rules_text"].encode("ascii")
        if len(text) >= 64:
            raise ValueError(f"rules text {spec['rules_text']!r}: too long for the lane")
        self.sp.rules_len = len(text)
        memcpy(self.sp.rules_text, <const char*>text, len(text))
        for name in ("game", "draws", "hand_size", "talon_size", "talon_tricks", "tricks_per_deal",
                     "has_declarations", "exchange", "exchange_points", "tricks_obj",
                     "last_pickup_window", "max_score", "max_tricks", "max_cards", "max_declared"):
            if name not in spec:
                raise ValueError(f"lane spec: {name} missing")
        self.sp.game = spec["game"]
        self.sp.draws = spec["draws"]
        self.sp.hand_size = spec["hand_size"]
        self.sp.talon_size = spec["talon_size"]
        self.sp.talon_tricks = spec["talon_tricks"]
        self.sp.tricks_per_deal = spec["tricks_per_deal"]
        self.sp.has_declarations = spec["has_declarations"]
        self.sp.exchange = spec["exchange"]
        self.sp.exchange_points = spec["exchange_points"]
        self.sp.tricks_obj = spec["tricks_obj"]
        self.sp.last_pickup_window = spec["last_pickup_window"]
        self.sp.max_score = spec["max_score"]
        self.sp.max_tricks = spec["max_tricks"]
        self.sp.max_cards = spec["max_cards"]
        self.sp.max_declared = spec["max_declared"]
        codes = spec["meld_code"]
        if len(codes) != N_MELDS:
            raise ValueError(f"lane spec: {len(codes)} meld codes, expected {N_MELDS}")
        for m in range(N_MELDS):
            code = codes[m].encode("ascii")
            n = len(code)
            if n >= MAX_CODE:
                raise ValueError(f"meld code {codes[m]!r}: too long")
            memcpy(self.sp.meld_code[m], <const char*>code, n)
            self.sp.meld_code_len[m] = n
            self.sp.meld_kind[m] = spec["meld_kind"][m]
            for t in range(4):
                self.sp.meld_cards[t][m] = spec["meld_cards"][t][m]
                self.sp.meld_points[t][m] = spec["meld_points"][t][m]

    def answer(self, Engine engine not None, str line not None):
        """The JSON answer of ``line`` (a str), or None: the line takes the Python path."""
        cdef Py_ssize_t size
        cdef const char* t
        cdef Line ln
        cdef Buf b
        cdef Root root
        cdef int moves[MAXMOVES]
        cdef int values[MAXMOVES]
        cdef int pv[MAX_PV]
        cdef int n, i, j, k, n_pv, best_raw, current, tmp
        cdef long long value
        cdef unsigned long long n0
        cdef double t0 = now()
        # (a character beyond ASCII, a lone surrogate above all, which would not even
        # encode: Python's; checked before encoding, as is the length)
        if len(line) > MAX_LINE or not line.isascii():
            return None
        t = PyUnicode_AsUTF8AndSize(line, &size)
        if parse_line(&self.sp, t, <int>size, &ln) < 0:
            return None
        b.p = self.out
        b.n = 0
        b.cap = OUT_SIZE
        b.full = 0
        format_line(&self.sp, &ln, &b)
        if b.full or b.n != size or memcmp(self.out, t, size) != 0:
            return None      # not canonical: the Python parser decides what it means
        if not valid(&self.sp, &ln):
            return None
        # the solve, as Solver.solve does it: load, every move's value, a principal variation
        fill_root(&ln, &root)
        engine.c_load(&root)
        n0 = engine.c_nodes()
        n = engine.c_move_values(moves, values)
        if n == 0:
            return None
        for i in range(1, n):     # the model's order: cards, then x and pass, then declarations
            j = i
            while j > 0 and moves[j - 1] > moves[j]:
                tmp = moves[j]
                moves[j] = moves[j - 1]
                moves[j - 1] = tmp
                tmp = values[j]
                values[j] = values[j - 1]
                values[j - 1] = tmp
                j -= 1
        best_raw = values[0]
        for i in range(1, n):
            if values[i] > best_raw:
                best_raw = values[i]
        n_pv = engine.c_pv(best_raw, pv, MAX_PV)
        if self.sp.tricks_obj:
            current = ln.tricks[ln.turn] - ln.tricks[1 - ln.turn]
        else:
            current = ln.score[ln.turn] - ln.score[1 - ln.turn]
        value = final_number(best_raw, current)
        # the answer (Analysis.to_json)
        b.n = 0
        puts(&b, b'{"bpn": "')
        put(&b, t, <int>size)
        puts(&b, b'", "turn": "')
        putc(&b, c'a' + ln.turn)
        puts(&b, b'", "method": "exact", "value": ')
        put_int(&b, value)
        puts(&b, b', "best": [')
        k = 0
        for i in range(n):
            if final_number(values[i], current) == value:
                if k:
                    puts(&b, b", ")
                put_move(&self.sp, &b, moves[i])
                k += 1
        puts(&b, b'], "moves": [')
        for i in range(n):
            if i:
                puts(&b, b", ")
            puts(&b, b'{"move": ')
            put_move(&self.sp, &b, moves[i])
            puts(&b, b', "value": ')
            put_int(&b, final_number(values[i], current))
            putc(&b, c'}')
        puts(&b, b'], "pv": [')
        for i in range(n_pv):
            if i:
                puts(&b, b", ")
            put_move(&self.sp, &b, pv[i])
        puts(&b, b'], "win": ')
        if best_raw >= WIN_THRESHOLD:
            putc(&b, c'"')
            putc(&b, c'a' + ln.turn)
            putc(&b, c'"')
        elif best_raw <= -WIN_THRESHOLD:
            putc(&b, c'"')
            putc(&b, c'b' - ln.turn)
            putc(&b, c'"')
        else:
            puts(&b, b"null")
        puts(&b, b', "nodes": ')
        put_int(&b, <long long>(engine.c_nodes() - n0))
        puts(&b, b', "seconds": ')
        if b.full:
            return None
        return PyUnicode_DecodeASCII(self.out, b.n, NULL) + repr(round(now() - t0, 6)) + "}"

