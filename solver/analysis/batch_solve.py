"""The batch solver: BPN lines in, one JSON answer a line out (``brisque solve -``), in
chunks that can go to worker processes or a cluster with the answers kept in order.

A line that fails gives ``{"bpn": ..., "error": ...}`` and the others still run.

>>> out = solve_chunk(["brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", "brisque x"])
>>> [ok for _, ok in out], json.loads(out[0][0])["value"], "error" in json.loads(out[1][0])
([True, False], 44, True)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from itertools import islice
from typing import Any, TypedDict

from solver.analysis.executors import as_executor, executor_width
from solver.engine.batchline import fast_answer
from solver.engine.chance_solving import solve_chance, talon_face_down
from solver.engine.seam import DEFAULT_TABLE_BITS
from solver.engine.solving import solve
from solver.errors import (
    ArgumentError,
    BrisqueError,
    HiddenInformationError,
    ImpossiblePositionError,
    NotationError,
)
from solver.model.position import Position
from solver.model.ranges import short

CHUNK_LINES = 200  # lines a task: enough that a task's overhead (a cluster's ms) is small
PART_SECONDS = 0.05  # the longest answers wait in a worker for a slow solve after them


class Budget(TypedDict, total=False):
    """A budget of each solve (:func:`solver.engine.solve`'s keywords)."""

    nodes: int | None
    seconds: float | None
    depth: int | None
    quick: bool


def solve_line(
    line: str,
    table_bits: int = DEFAULT_TABLE_BITS,
    budget: Budget | None = None,
    before_slow: Callable[[], object] | None = None,
) -> tuple[str, bool]:
    """One BPN's answer as a JSON line, and whether it was solved.

    An exact solve of a line the native lane is sure of is answered there, in C
    (:func:`solver.engine.batchline.fast_answer`: the same answer); every other line, and
    every error, takes the Python path below."""
    try:
        if _exact(budget):  # (an exact solve: no budget given)
            fast = fast_answer(line, table_bits)
            if fast is not None:
                return fast, True
        if before_slow is not None:  # (a solve that may take long: what is kept goes out first)
            before_slow()
        try:
            p = Position(line)
        except NotationError as exc:
            return json.dumps({"bpn": line, "error": str(exc)}), False
        if p.is_over():  # (the solver answers a finished deal without checking it)
            probs = p.problems()
            if probs:
                return _impossible(line, probs), False
        try:  # (the solver checks the position once: an impossible one is refused first)
            if talon_face_down(p):  # (the expectimax: every draw a chance event)
                return solve_chance(p, table_bits=table_bits, **chance_budget(budget)).to_json(), True
            return solve(p, table_bits=table_bits, **(budget or {})).to_json(), True
        except ImpossiblePositionError as exc:
            return _impossible(line, exc.problems), False
        except HiddenInformationError:
            probs = p.problems()
            if probs:
                return _impossible(line, probs), False
            raise
    except BrisqueError as exc:
        return json.dumps({"bpn": line, "error": str(exc)}), False
    except Exception as exc:  # a bad line never stops the others: say what failed
        return json.dumps(
            {"bpn": line, "error": f"internal error on {short(line)}: {type(exc).__name__}: {exc}"}
        ), False


class ChanceBudget(TypedDict):
    """A budget of the expectimax of a face-down talon (:func:`solver.engine.solve_chance`'s keywords)."""

    nodes: int | None
    seconds: float | None


def chance_budget(budget: Budget | None) -> ChanceBudget:
    """The part of ``budget`` the expectimax of a face-down talon takes: nodes and seconds
    (a depth and the quick search need the talon's order: refused).

    >>> chance_budget({"nodes": 1000, "seconds": None, "depth": None, "quick": False})
    {'nodes': 1000, 'seconds': None}
    """
    b = budget or {}
    if b.get("depth") is not None or b.get("quick"):
        raise ArgumentError(
            "a talon given by its count is solved as chance, every draw a chance event, to the "
            "end of the deal: a depth or the quick search needs the talon's order; give a budget "
            "of nodes or seconds, or the talon's order"
        )
    return {"nodes": b.get("nodes"), "seconds": b.get("seconds")}


def _exact(budget: Budget | None) -> bool:
    """Whether :func:`solver.engine.solve` given ``budget`` runs an exact, unbounded solve
    (its own test: ``depth=0`` is a budget, and an error, not an exact solve)."""
    b = budget or {}
    return not b.get("quick") and not b.get("nodes") and not b.get("seconds") and b.get("depth") is None


def _impossible(line: str, problems: list[str]) -> str:
    return json.dumps(
        {"bpn": line, "error": f"impossible position {short(line, 200)}: " + "; ".join(problems)}
    )


def solve_chunk(
    lines: list[str], table_bits: int = DEFAULT_TABLE_BITS, budget: Budget | None = None
) -> list[tuple[str, bool]]:
    """:func:`solve_line` of each line (a task of the batch solver)."""
    return [solve_line(line, table_bits, budget) for line in lines]


class _Slow(BaseException):
    """A slow solve is next and answers are kept: they go back first (:func:`solve_part`).
    (Not an Exception: :func:`solve_line` answers those as the line's error.)"""


def solve_part(
    lines: list[str], table_bits: int = DEFAULT_TABLE_BITS, budget: Budget | None = None
) -> list[tuple[str, bool]]:
    """:func:`solve_line` of the first lines: all of them, or those before a slow solve
    (one that is not of the native lane, :func:`solver.engine.batchline.fast_answer`, or
    that comes after ``PART_SECONDS`` of work), which the caller sends again.  A task of
    our own worker processes: answers a worker has are never held back by a long solve,
    so that Ctrl-C keeps them.

    >>> len(solve_part(["brisque x", "brisque y"]))  # (an error takes the slow path too)
    1
    """
    out: list[tuple[str, bool]] = []
    t0 = time.monotonic()

    def before_slow() -> None:
        if out and (_exact(budget) or time.monotonic() - t0 > PART_SECONDS):
            raise _Slow

    for line in lines:
        try:
            out.append(solve_line(line, table_bits, budget, before_slow))
        except _Slow:
            break
    return out


def solve_lines(
    lines: Iterable[str],
    table_bits: int = DEFAULT_TABLE_BITS,
    budget: Budget | None = None,
    executor: Executor | Any = None,
    chunk: int = CHUNK_LINES,
    workers: int = 1,
    before_slow: Callable[[], object] | None = None,
) -> Iterator[tuple[str, bool]]:
    """The answers of ``lines`` in their order, solved here (each as soon as its line is
    read), by ``workers`` processes, or by ``executor`` (any ``concurrent.futures``
    executor, or a ``dask.distributed`` client), these two in chunks of ``chunk`` lines,
    read as the work goes (a few chunks ahead a worker)."""
    ex = as_executor(executor)
    it = iter(lines)
    if ex is None and workers <= 1:  # (each answer as soon as its line is read: a coprocess gets it)
        for line in it:
            yield solve_line(line, table_bits, budget, before_slow)
        return
    from solver.processes import stop_pool, worker_pool  # (its import costs 20 ms: only here)

    own = None
    if ex is None:
        own = ex = worker_pool(workers)
    if own is None:  # (a cluster: whole chunks, in order)
        chunks = iter(lambda: list(islice(it, chunk)), [])
        ahead: list[Any] = []
        depth = 4 * (executor_width(ex) or 2)
        for part in chunks:
            ahead.append(ex.submit(solve_chunk, part, table_bits, budget))
            if len(ahead) >= depth:
                yield from ahead.pop(0).result()
        for f in ahead:
            yield from f.result()
        return
    # our own processes: each chunk answers up to its first slow line, the rest is sent
    # again at once (in its place); on Ctrl-C the answers finished in order are kept
    queue: list[tuple[list[str], Any]] = []  # (lines, future of their answers), in order
    try:
        chunks = iter(lambda: list(islice(it, chunk)), [])
        depth = 4 * workers
        for part in chunks:
            queue.append((part, ex.submit(solve_part, part, table_bits, budget)))
            while len(queue) >= depth:
                yield from _next_answers(queue, ex, table_bits, budget, before_slow)
        while queue:
            yield from _next_answers(queue, ex, table_bits, budget, before_slow)
    except KeyboardInterrupt:
        stop_pool(own, wait=False)  # (the workers ignore Ctrl-C: they end here, at once)
        own = None
        try:
            while queue and queue[0][1].done() and not queue[0][1].cancelled():
                if queue[0][1].exception() is not None:
                    break
                lines_, fut = queue.pop(0)
                answers = fut.result()
                yield from answers
                if len(answers) < len(lines_):
                    break
        except KeyboardInterrupt:  # (a second Ctrl-C: what is out stands)
            pass
        raise
    finally:
        if own is not None:
            stop_pool(own, wait=False)  # (every answer is out, or the run was stopped)


def _next_answers(
    queue: list[tuple[list[str], Any]],
    ex: Executor,
    table_bits: int,
    budget: Budget | None,
    before_slow: Callable[[], object] | None,
) -> list[tuple[str, bool]]:
    """The answers of the first chunk in ``queue`` (waited for, the answers given before
    it written out first: ``before_slow``): those it gave, its other lines sent again in
    its place."""
    lines, fut = queue[0]
    if before_slow is not None and not fut.done():
        before_slow()
    answers: list[tuple[str, bool]] = fut.result()
    rest = lines[len(answers) :]
    if rest:
        queue[0] = (rest, ex.submit(solve_part, rest, table_bits, budget))
    else:
        queue.pop(0)
    return answers


__all__ = [
    "CHUNK_LINES",
    "Budget",
    "ChanceBudget",
    "chance_budget",
    "solve_chunk",
    "solve_line",
    "solve_lines",
    "solve_part",
]
