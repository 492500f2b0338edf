# The numbers the compiled engine and the Python model share, defined here once (in the C
# block below, so that C initialisers such as the card-points table can use them too).
#
# The engine cimports them; the extension module ``solver.native.constants`` (py_constants.pyx)
# exposes them to Python, and the model (solver/model/) takes them from there.
# tests/engine/test_constants.py checks that the model's tables agree with them.

cdef extern from *:
    """
    enum {
        /* move codes: 0..31 play that card */
        MOVE_EXCHANGE = 32,   /* exchange the 7 of trumps for the turnup ("x") */
        MOVE_PASS = 33,       /* decline the last-pickup exchange ("pass") */
        DECLARE_BASE = 40,    /* DECLARE_BASE + i declares meld i of the meld table ("+mH") */
        N_MELDS = 72,         /* the size of the meld table (solver/model/melds.py) */

        /* meld kinds */
        K_MARRIAGE = 0, K_QUARTET = 1, K_SEQUENCE = 2, K_ACE_TRUMPS = 3,
        K_BLANK_COURTS = 4, K_BLANK_PLAIN = 5,

        /* games, in the order of solver.model.rules.GAMES */
        G_BRISQUE = 0, G_BRISCAN = 1, G_PETITE = 2,

        /* A game-winning event is worth exactly +-WIN_RAW inside the search; raw values
           beyond +-WIN_THRESHOLD are game wins; answers report a win as +-WIN_VALUE. */
        WIN_RAW = 30000, WIN_THRESHOLD = 15000, WIN_VALUE = 10000,

        /* card points by rank 0..7 (7 8 9 J Q K T A), as in RULES.md */
        POINTS_7 = 0, POINTS_8 = 0, POINTS_9 = 0, POINTS_J = 2, POINTS_Q = 3, POINTS_K = 4,
        POINTS_T = 10, POINTS_A = 11,
        PACK_POINTS = 120,    /* the card points of the whole pack */

        /* the largest transposition table: 2**MAX_TABLE_BITS entries (8.6 GB with the
           other tables: solver/model/table_memory.py) */
        MAX_TABLE_BITS = 28,

        /* The learned horizon evaluation's inputs, in this order (their meaning:
           solver/engine/evaluation/features.py, which takes these numbers and fingerprints
           the layout into every network file): where each card lies (7 places x 32
           cards), the melds declared by the player to move and by his opponent, the
           exchange still open, the talon tricks left (12 levels), and in Briscan the
           tricks each has taken (0..16). */
        NET_PLACES = 7,
        NET_TRICKS = 17,
        NET_MELDS_ME = NET_PLACES * 32,
        NET_MELDS_OPP = NET_MELDS_ME + N_MELDS,
        NET_EXCHANGE = NET_MELDS_OPP + N_MELDS,
        NET_LEVEL = NET_EXCHANGE + 1,
        NET_LEVELS = 12,
        NET_TRICKS_ME = NET_LEVEL + NET_LEVELS,
        NET_TRICKS_OPP = NET_TRICKS_ME + NET_TRICKS,
        NET_INPUTS = NET_TRICKS_OPP + NET_TRICKS,
        NET_OUTPUTS = 3,      /* the margin, the logits of a game won and of a game lost */
        /* the hidden layers' widths: fixed, so that the compiler unrolls and vectorizes
           the layers' loops (benchmarks/training/train.py trains networks of this shape) */
        NET_H1 = 128,
        NET_H2 = 32
    };

    /* card points by rank */
    static const int brisque_rank_points[8] = {
        POINTS_7, POINTS_8, POINTS_9, POINTS_J, POINTS_Q, POINTS_K, POINTS_T, POINTS_A };

    /* The card points of the cards of one suit, indexed by that suit's byte of a card mask,
       computed by the C compiler from the rank points: the table needs no setup. */
    #define BRISQUE_BYTE_POINTS(b) ( \\
        (((b) >> 0) & 1) * POINTS_7 + (((b) >> 1) & 1) * POINTS_8 + (((b) >> 2) & 1) * POINTS_9 \\
        + (((b) >> 3) & 1) * POINTS_J + (((b) >> 4) & 1) * POINTS_Q + (((b) >> 5) & 1) * POINTS_K \\
        + (((b) >> 6) & 1) * POINTS_T + (((b) >> 7) & 1) * POINTS_A)
    #define BRISQUE_BP4(b) BRISQUE_BYTE_POINTS(b), BRISQUE_BYTE_POINTS((b) + 1), \\
        BRISQUE_BYTE_POINTS((b) + 2), BRISQUE_BYTE_POINTS((b) + 3)
    #define BRISQUE_BP16(b) BRISQUE_BP4(b), BRISQUE_BP4((b) + 4), BRISQUE_BP4((b) + 8), \\
        BRISQUE_BP4((b) + 12)
    #define BRISQUE_BP64(b) BRISQUE_BP16(b), BRISQUE_BP16((b) + 16), BRISQUE_BP16((b) + 32), \\
        BRISQUE_BP16((b) + 48)
    static const int brisque_byte_points[256] = {
        BRISQUE_BP64(0), BRISQUE_BP64(64), BRISQUE_BP64(128), BRISQUE_BP64(192) };
    """
    enum:
        MOVE_EXCHANGE
        MOVE_PASS
        DECLARE_BASE
        N_MELDS
        K_MARRIAGE
        K_QUARTET
        K_SEQUENCE
        K_ACE_TRUMPS
        K_BLANK_COURTS
        K_BLANK_PLAIN
        G_BRISQUE
        G_BRISCAN
        G_PETITE
        WIN_RAW
        WIN_THRESHOLD
        WIN_VALUE
        POINTS_7
        POINTS_8
        POINTS_9
        POINTS_J
        POINTS_Q
        POINTS_K
        POINTS_T
        POINTS_A
        PACK_POINTS
        MAX_TABLE_BITS
        NET_PLACES
        NET_TRICKS
        NET_MELDS_ME
        NET_MELDS_OPP
        NET_EXCHANGE
        NET_LEVEL
        NET_LEVELS
        NET_TRICKS_ME
        NET_TRICKS_OPP
        NET_INPUTS
        NET_OUTPUTS
        NET_H1
        NET_H2
    const int brisque_rank_points[8]
    const int brisque_byte_points[256]
