"""Type stub of the compiled module solver.native.constants (src_cython/py_constants.pyx)."""

MOVE_EXCHANGE: int
MOVE_PASS: int
DECLARE_BASE: int
N_MELDS: int
K_MARRIAGE: int
K_QUARTET: int
K_SEQUENCE: int
K_ACE_TRUMPS: int
K_BLANK_COURTS: int
K_BLANK_PLAIN: int
G_BRISQUE: int
G_BRISCAN: int
G_PETITE: int
WIN_RAW: int
WIN_THRESHOLD: int
WIN_VALUE: int
RANK_POINTS: tuple[int, int, int, int, int, int, int, int]
BYTE_POINTS: tuple[int, ...]
PACK_POINTS: int
MAX_TABLE_BITS: int
FINAL_TABLE_BITS: int
PLAIN_TABLE_BITS: int
TABLE_ENTRY_BYTES: int
PLAIN_ENTRY_BYTES: int
NET_PLACES: int
NET_TRICKS: int
NET_MELDS_ME: int
NET_MELDS_OPP: int
NET_EXCHANGE: int
NET_LEVEL: int
NET_LEVELS: int
NET_TRICKS_ME: int
NET_TRICKS_OPP: int
NET_INPUTS: int
NET_OUTPUTS: int
NET_H1: int
NET_H2: int
