# The C interface of the compiled engine (engine.pyx, the module solver.native.engine), for
# the other Cython modules of the package (solver.native.bpnline, the batch path's native
# lane), which cimport it as solver.native.engine (src_cython is the include path).
#
# What another module may use (its contract; it holds with the GIL held, on one thread):
#
#   Engine.c_load(root)       set the root position and an exact, unbounded search: no node
#                             or time limit, every depth; Ctrl-C is watched if this is the
#                             main thread.  Raises ArgumentError (returns -1) for a root
#                             outside the engine's ranges.  The tables are kept.
#   Engine.c_move_values(moves, values)
#                             after c_load: every legal root move, in search order, with its
#                             exact raw value (the mover's future gain; +-WIN_RAW for a game
#                             won); both arrays MAXMOVES long; returns their number (0: the
#                             deal is over); -1 with KeyboardInterrupt raised on Ctrl-C.
#   Engine.c_pv(v, line, max_len)
#                             after c_move_values: a principal variation of root value ``v``
#                             (one of the values it gave) into ``line``; returns its length.
#   Engine.c_nodes()          the nodes searched since the engine was made (differences
#                             count a search's nodes).
#   RootPosition.r            the Root struct that Engine.load() takes from Python.
#
# Everything else below (the search context ``c``, the root state, the methods that start
# with an underscore) is the engine's own: Cython needs the whole layout here, but another
# module that reads or writes it bypasses the checks and the budget the methods keep.
from libc.stdint cimport uint64_t

from chance cimport ChanceSearch
from context cimport Ctx, Root, State


cdef class RootPosition:
    cdef Root r


cdef class Engine:
    # ---- the public C API (above)
    cdef int c_load(self, Root* r) except -1
    cdef int c_move_values(self, int* moves, int* values) except -1
    cdef int c_pv(self, int v, int* line, int max_len) except -1
    cdef uint64_t c_nodes(self) noexcept

    # ---- the engine's own
    cdef Ctx c
    cdef State root
    cdef int loaded
    cdef ChanceSearch x       # the expectimax over the draws (chance.pxd), its table made on first use

    cdef void _wipe(self)
    cdef void _mark_used(self, int p, int m) noexcept
    cdef int _load(self, Root* r) except -1
    cdef void _size_tables(self, int small) noexcept
    cdef void _watch(self) noexcept
    cdef int _raise_interrupt(self) except -1
    cdef int _chance_ready(self) except -1
