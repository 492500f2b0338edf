# cython: language_level=3
"""The numbers the compiled engine and the Python model share (defined in constants.pxd, the tables' sizes in context.pxd; compiled as solver.native.constants).

>>> WIN_RAW > WIN_THRESHOLD > WIN_VALUE, RANK_POINTS[7]
(True, 11)
"""
from constants cimport (
    DECLARE_BASE as _DECLARE_BASE, G_BRISCAN as _G_BRISCAN, G_BRISQUE as _G_BRISQUE,
    G_PETITE as _G_PETITE, K_ACE_TRUMPS as _K_ACE_TRUMPS, K_BLANK_COURTS as _K_BLANK_COURTS,
    K_BLANK_PLAIN as _K_BLANK_PLAIN, K_MARRIAGE as _K_MARRIAGE, K_QUARTET as _K_QUARTET,
    K_SEQUENCE as _K_SEQUENCE, MOVE_EXCHANGE as _MOVE_EXCHANGE, MOVE_PASS as _MOVE_PASS,
    N_MELDS as _N_MELDS, WIN_RAW as _WIN_RAW, WIN_THRESHOLD as _WIN_THRESHOLD, WIN_VALUE as _WIN_VALUE,
    PACK_POINTS as _PACK_POINTS, MAX_TABLE_BITS as _MAX_TABLE_BITS, brisque_byte_points,
    NET_PLACES as _NET_PLACES, NET_TRICKS as _NET_TRICKS, NET_MELDS_ME as _NET_MELDS_ME, NET_MELDS_OPP as _NET_MELDS_OPP,
    NET_EXCHANGE as _NET_EXCHANGE, NET_LEVEL as _NET_LEVEL, NET_LEVELS as _NET_LEVELS,
    NET_TRICKS_ME as _NET_TRICKS_ME, NET_TRICKS_OPP as _NET_TRICKS_OPP, NET_INPUTS as _NET_INPUTS,
    NET_OUTPUTS as _NET_OUTPUTS, NET_H1 as _NET_H1, NET_H2 as _NET_H2,
    brisque_rank_points)
from context cimport (FINAL_TABLE_BITS as _FINAL_TABLE_BITS, PLAIN_TABLE_BITS as _PLAIN_TABLE_BITS,
    Entry, PlainEntry)

MOVE_EXCHANGE: int = _MOVE_EXCHANGE
MOVE_PASS: int = _MOVE_PASS
DECLARE_BASE: int = _DECLARE_BASE
N_MELDS: int = _N_MELDS
K_MARRIAGE: int = _K_MARRIAGE
K_QUARTET: int = _K_QUARTET
K_SEQUENCE: int = _K_SEQUENCE
K_ACE_TRUMPS: int = _K_ACE_TRUMPS
K_BLANK_COURTS: int = _K_BLANK_COURTS
K_BLANK_PLAIN: int = _K_BLANK_PLAIN
G_BRISQUE: int = _G_BRISQUE
G_BRISCAN: int = _G_BRISCAN
G_PETITE: int = _G_PETITE
WIN_RAW: int = _WIN_RAW
WIN_THRESHOLD: int = _WIN_THRESHOLD
WIN_VALUE: int = _WIN_VALUE
RANK_POINTS: tuple = tuple(brisque_rank_points[r] for r in range(8))
PACK_POINTS: int = _PACK_POINTS
# the C table of card points by a suit's byte, as the engine sees it (for the agreement test)
BYTE_POINTS: tuple = tuple(brisque_byte_points[b] for b in range(256))
# the transposition tables (their memory: solver/model/table_memory.py)
MAX_TABLE_BITS: int = _MAX_TABLE_BITS
FINAL_TABLE_BITS: int = _FINAL_TABLE_BITS
PLAIN_TABLE_BITS: int = _PLAIN_TABLE_BITS
TABLE_ENTRY_BYTES: int = sizeof(Entry)
PLAIN_ENTRY_BYTES: int = sizeof(PlainEntry)
# the learned horizon evaluation's inputs (their layout: solver/engine/evaluation/features.py)
NET_PLACES: int = _NET_PLACES
NET_TRICKS: int = _NET_TRICKS
NET_MELDS_ME: int = _NET_MELDS_ME
NET_MELDS_OPP: int = _NET_MELDS_OPP
NET_EXCHANGE: int = _NET_EXCHANGE
NET_LEVEL: int = _NET_LEVEL
NET_LEVELS: int = _NET_LEVELS
NET_TRICKS_ME: int = _NET_TRICKS_ME
NET_TRICKS_OPP: int = _NET_TRICKS_OPP
NET_INPUTS: int = _NET_INPUTS
NET_OUTPUTS: int = _NET_OUTPUTS
NET_H1: int = _NET_H1
NET_H2: int = _NET_H2
