"""The ``-`` batches: ``brisque solve -`` and ``brisque analyse -`` read one BPN a line from
standard input and write one JSON object a line; a bad line gets {"bpn": ..., "error": ...}
and the others still run (exit status 1 when any line failed)."""

from __future__ import annotations

import json
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import click

# (the module, not its function: a test swaps solve_lines for one that fails)
from solver.analysis import batch_solve as analysis_batch
from solver.analysis.batch_solve import Budget
from solver.cli.exits import FAILED, BrisqueCommandError, option_words
from solver.cli.inputs import stdin_lines
from solver.engine.chance_solving import ChanceInterrupted
from solver.engine.results import SolveInterrupted
from solver.errors import BrisqueError
from solver.model.ranges import short

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from solver.analysis.equilibrium import EquilibriumAnalysis
    from solver.analysis.sampling import SampledAnalysis
    from solver.engine.results import Analysis

FLUSH_SECONDS = 0.05  # the longest a batch keeps an answer it could write


def json_lines(answer: Callable[[str], Analysis | SampledAnalysis | EquilibriumAnalysis], verb: str) -> None:
    """Standard input, one BPN a line, to standard output, one JSON object a line, each
    line's ``answer`` (``brisque analyse -``).

    A line that fails gives {"bpn": ..., "error": ...} and the others still run; the exit
    status is 1 when any line failed."""
    failed = read = 0
    for line, error in stdin_lines():
        read += 1
        if line is None:
            failed += 1
            click.echo(error)
            continue
        try:
            a = answer(line)
            click.echo(a.to_json())
            if getattr(a, "stopped", None) == "interrupted":
                # Ctrl-C (or SIGTERM) during a sampled line: its answer so far is out, and the
                # batch stops there as every command does (exit 130), not with the next line
                raise KeyboardInterrupt
        except (BrisqueCommandError, BrisqueError) as exc:
            failed += 1
            msg = exc.message if isinstance(exc, click.ClickException) else option_words(str(exc))
            click.echo(json.dumps({"bpn": line, "error": msg}))
        except Exception as exc:  # a bad line never stops the others: say what failed
            failed += 1
            error = option_words(f"internal error on {short(line)}: {type(exc).__name__}: {exc}")
            click.echo(json.dumps({"bpn": line, "error": error}))
    batch_end(read, failed, verb)


def batch_end(read: int, failed: int, verb: str) -> None:
    """The end of a batch (``-``): a note on standard error when no position was read (exit
    status 0: nothing failed), or how many lines failed (exit status 1)."""
    if not read:
        click.echo("no positions read from standard input (one BPN a line expected)", err=True)
    if failed:
        # (imported here: the formats are no part of the start of brisque solve -,
        # tests/cli/test_startup.py)
        from solver.formats.words import plural

        click.echo(f"{plural(failed, 'line')} could not be {verb}", err=True)
        sys.exit(FAILED)


def broken_pool(exc: Exception) -> bool:
    """Whether ``exc`` is a process pool's ``BrokenProcessPool``.  Its module (with
    multiprocessing: some 20 ms to import) is looked up only if a pool imported it, so that
    ``brisque solve -`` without workers does not import it: without a pool, none broke."""
    pool = sys.modules.get("concurrent.futures.process")
    return pool is not None and isinstance(exc, pool.BrokenProcessPool)


def solve_batch(table_bits: int, limit: Budget, executor: Executor | None, workers: int = 1) -> None:
    """``brisque solve -``: standard input, one BPN a line, to standard output, one JSON
    object a line, in order, solved here, by ``workers`` processes or by ``executor``
    (:func:`solver.analysis.batch_solve.solve_lines`); a line that is not UTF-8 text gets its
    error in its place.  The exit status is 1 when any line failed."""
    pending: deque[str | None] = deque()  # by line read: its error, or None (being solved)
    # the answers, kept here and written out when input may wait (see stdin_lines) or when
    # many are kept: one write a block of input, even where standard output is unbuffered
    kept: list[str] = []

    last_flush = [time.monotonic()]

    def write(text: str) -> None:
        kept.append(text)
        # (a slow answer, or a long run of quick ones, goes out at once: kept answers are
        # never held back for more than a moment by the next solve)
        if len(kept) >= 1000 or time.monotonic() - last_flush[0] > FLUSH_SECONDS:
            flush()

    def flush() -> None:
        if kept:
            text = "\n".join(kept) + "\n"
            kept.clear()  # (before writing: a Ctrl-C inside the write cannot write it twice)
            sys.stdout.write(text)
        sys.stdout.flush()
        last_flush[0] = time.monotonic()

    def before_wait() -> None:
        flush_errors()  # (a line that is not UTF-8 is answered before input is awaited too)
        flush()

    read = 0

    def texts() -> Iterator[str]:
        nonlocal read
        for line, error in stdin_lines(before_wait):
            read += 1
            pending.append(error)
            if line is not None:
                yield line

    failed = 0

    def flush_errors() -> None:
        nonlocal failed
        while pending and pending[0] is not None:
            failed += 1
            write(pending.popleft())  # type: ignore[arg-type]

    try:
        for answer, ok in analysis_batch.solve_lines(
            texts(), table_bits, limit, executor, workers=workers, before_slow=flush
        ):
            flush_errors()
            pending.popleft()
            failed += not ok
            write(answer)
        flush_errors()
    except (SolveInterrupted, ChanceInterrupted) as stop:
        # Ctrl-C in a line solved here: what it proved goes out in its place, as `solve BPN`
        # prints it (the lines of worker processes are lost with their workers)
        flush_errors()
        if pending:
            pending.popleft()
        write(stop.analysis.to_json())
        raise
    except Exception as exc:
        if not broken_pool(exc):
            raise
        # (a worker killed from outside: the answers so far are out)
        raise BrisqueCommandError(
            "a worker process died (killed from outside?): the answers above are complete"
        ) from None
    finally:
        flush()  # (what was answered is written, on Ctrl-C too)
    batch_end(read, failed, "solved")
