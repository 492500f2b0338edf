# The compiled engine's classes (engine.pyx), declared so that later Cython modules (an
# equilibrium solver, a batch path) can cimport them and reach their C data directly.
from context cimport Ctx, Root, State


cdef class RootPosition:
    cdef Root r


cdef class Engine:
    cdef Ctx c
    cdef State root
    cdef int loaded

    cdef void _wipe(self)
    cdef void _mark_used(self, int p, int m) noexcept
    cdef int _load(self, Root* r) except -1
    cdef void _size_tables(self, int small) noexcept
    cdef void _watch(self) noexcept
    cdef int _raise_interrupt(self) except -1
    cdef int c_move_values(self, int* moves, int* values) except -1
    cdef int c_pv(self, int v, int* line, int max_len) except -1
