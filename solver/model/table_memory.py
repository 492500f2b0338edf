"""The memory of the engine's transposition tables, and the check that a size fits the machine.

An engine with ``table_bits=N`` holds its main table of ``2**N`` entries, the final phase's
of ``2**min(N, FINAL_TABLE_BITS)`` entries and a plain table of ``2**min(N, PLAIN_TABLE_BITS)``
smaller entries (src_cython/engine.pyx, ``Engine.__init__``), all allocated and cleared at
once.  The sizes are the engine's own (context.pxd and its entry structs, through
solver.native.constants): tests/engine/test_table_memory.py checks them against those sources
and against the memory an engine really takes.

>>> memory_words(table_bytes(20)), memory_words(table_bytes(28))
('35 MB', '8.6 GB')
"""

from __future__ import annotations

import os
import resource

from solver.errors import ArgumentError
from solver.model.ranges import MAX_TABLE_BITS, MIN_TABLE_BITS, whole_argument

# the engine's: sizeof(Entry) and sizeof(PlainEntry) (engine.pyx asserts them: the
# lockless entries are whole words), and the bits where the final phase's table and the
# plain one stop growing
from solver.native.constants import (
    FINAL_TABLE_BITS,
    PLAIN_ENTRY_BYTES,
    PLAIN_TABLE_BITS,
    TABLE_ENTRY_BYTES,
)

DEFAULT_TABLE_BITS = 20  # (here, not in the engine's seam: the command line's help reads it)


def table_bytes(bits: int) -> int:
    """The bytes the tables of an engine with ``table_bits=bits`` take."""
    bits = max(bits, 1)  # (the engine makes a table of 0 bits one of 1)
    return (
        (1 << bits) * TABLE_ENTRY_BYTES
        + (1 << min(bits, FINAL_TABLE_BITS)) * TABLE_ENTRY_BYTES
        + (1 << min(bits, PLAIN_TABLE_BITS)) * PLAIN_ENTRY_BYTES
    )


def memory_words(n: int) -> str:
    """A number of bytes in decimal units, two or three figures: ``'35 MB'``, ``'8.6 GB'``.

    >>> memory_words(8_600_000_000), memory_words(540_000), memory_words(512)
    ('8.6 GB', '540 kB', '512 bytes')
    """
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= size:
            x = n / size
            return f"{x:.1f} {unit}" if x < 10 else f"{x:.0f} {unit}"
    return f"{n} bytes"


def table_sizes(bits: range) -> str:
    """The memory of each table size of ``bits``, for a help text: ``'20: 35 MB, 22: 135 MB'``."""
    return ", ".join(f"{b}: {memory_words(table_bytes(b))}" for b in bits)


def memory_available() -> int | None:
    """The bytes this process may still take: the memory available to new work
    (``MemAvailable`` of /proc/meminfo, else the machine's physical memory), and no more
    than what its address-space limit (``ulimit -v``) leaves; None when nothing says."""
    found: list[int] = []
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    if not found:
        try:
            found.append(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (OSError, ValueError, AttributeError):
            pass
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        try:
            with open("/proc/self/statm") as f:
                mapped = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            mapped = 0
        found.append(max(soft - mapped, 0))
    return min(found) if found else None


def table_bits_in_range(value: object, name: str = "table_bits") -> int:
    """``table_bits`` as an int from ``MIN_TABLE_BITS`` to ``MAX_TABLE_BITS``; an
    :class:`ArgumentError` quoting anything else.

    >>> table_bits_in_range(40)
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentError: table_bits=40: expected a whole number of bits from 8 to 28
    """
    return whole_argument(value, name, MIN_TABLE_BITS, MAX_TABLE_BITS, "bits")


def table_bits_argument(value: object, name: str = "table_bits", tables: int = 1) -> int:
    """``table_bits`` checked (:func:`table_bits_in_range`), and its ``tables`` tables (one
    a worker process) fitting in the memory this process may still take
    (:func:`memory_available`); an :class:`ArgumentError` that says the size and the memory
    otherwise, rather than a machine that swaps for a minute or a MemoryError."""
    bits = table_bits_in_range(value, name)
    need = table_bytes(bits) * tables
    free = memory_available()
    if free is not None and need > free:
        if tables > 1:
            each = f"{tables} tables of 2**{bits} entries (one a worker process) take"
        else:
            each = f"a table of 2**{bits} entries takes"
        raise ArgumentError(
            f"{name}={bits}: {each} {memory_words(need)}, more than the "
            f"{memory_words(free)} of memory available: give fewer bits"
        )
    return bits


__all__ = [
    "DEFAULT_TABLE_BITS",
    "FINAL_TABLE_BITS",
    "PLAIN_ENTRY_BYTES",
    "PLAIN_TABLE_BITS",
    "TABLE_ENTRY_BYTES",
    "memory_available",
    "memory_words",
    "table_bits_argument",
    "table_bits_in_range",
    "table_bytes",
    "table_sizes",
]
