"""The timing loop: calls timed one by one (wall and CPU seconds), after a warm-up, and the
figures a result file wants (median, p90, mean, slowest, total; quantiles by the nearest rank;
a run's spread).

Times are compared side by side in one run and reported as ratios; node counts, which are
deterministic, compare across machines.  A script states what it measures, the loop does the rest:

>>> run = each(lambda n: sum(range(n)), [10, 20, 30], warmup=1)
>>> run.values, len(run.seconds), len(run.cpu_seconds)
([45, 190, 435], 3, 3)
>>> figures([1.0, 2.0, 3.0])
{'median': 2.0, 'p90': 3.0, 'mean': 2.0, 'slowest': 3.0, 'total': 6.0}
>>> value, seconds = timed(sum, [1, 2, 3])
>>> value, seconds >= 0
(6, True)
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")
I = TypeVar("I")  # noqa: E741  (an item the loop hands to the call it times)

Progress = Callable[[str], object] | None
"""A function that hears a line of text at each step of a long run (None: silence)."""


def timed(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """``fn(*args, **kwargs)`` and the wall seconds it took (``time.perf_counter``)."""
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


@dataclass
class Run(Generic[T]):
    """The calls of one timing loop, in order: what each returned, its wall seconds
    (``time.perf_counter``) and its CPU seconds (``time.process_time``, this process's)."""

    values: list[T] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)

    def add(self, fn: Callable[[], T]) -> T:
        """Call ``fn`` and keep its value and its times."""
        c0, t0 = time.process_time(), time.perf_counter()
        value = fn()
        t1, c1 = time.perf_counter(), time.process_time()
        self.values.append(value)
        self.seconds.append(t1 - t0)
        self.cpu_seconds.append(c1 - c0)
        return value


def each(
    fn: Callable[[I], T],
    items: Iterable[I],
    warmup: int = 0,
    prepare: Callable[[I], object] | None = None,
) -> Run[T]:
    """``fn(item)`` timed for each of ``items``, in order; first ``warmup`` untimed calls on the
    first item (a table allocated, a network loaded); ``prepare(item)``, untimed, before each
    timed call (a table cleared, a position loaded)."""
    items = list(items)
    for _ in range(warmup if items else 0):
        if prepare is not None:
            prepare(items[0])
        fn(items[0])
    run: Run[T] = Run()
    for item in items:
        if prepare is not None:
            prepare(item)
        run.add(lambda: fn(item))  # noqa: B023  (called at once)
    return run


def repeat(fn: Callable[[], T], repeats: int = 1, warmup: int = 0) -> Run[T]:
    """``fn()`` timed ``repeats`` times, after ``warmup`` untimed calls.

    >>> len(repeat(lambda: None, repeats=3, warmup=1).seconds)
    3
    """
    return each(lambda _: fn(), range(repeats), warmup)


def figures(xs: Sequence[float], scale: float = 1.0) -> dict[str, float]:
    """The figures of a timed run: median, p90 (nearest rank), mean, slowest and total of
    ``xs``, each times ``scale`` (1000: milliseconds)."""
    return {
        "median": statistics.median(xs) * scale,
        "p90": percentile(xs, 0.9) * scale,
        "mean": statistics.fmean(xs) * scale,
        "slowest": max(xs) * scale,
        "total": sum(xs) * scale,
    }


def percentile(xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``xs``, the nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.9)
    5.0
    >>> percentile([3, 1, 2], 0.5)
    2
    """
    ordered = sorted(xs)
    return ordered[min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))]


def spread(times: Sequence[float], nodes: Sequence[int]) -> dict[str, Any]:
    """The distribution of a run's solve times (seconds) and nodes: median, p90, slowest, the
    shares under 1 s and 5 s, the count over 60 s, median nodes and nodes a second.

    >>> s = spread([0.5, 2.0, 70.0], [10, 20, 30])
    >>> s["median_s"], s["slowest_s"], s["share_under_1s"], s["over_60s"], s["median_nodes"]
    (2.0, 70.0, 0.333, 1, 20)
    """
    return {
        "median_s": round(statistics.median(times), 3),
        "p90_s": round(percentile(times, 0.9), 3),
        "slowest_s": round(max(times), 3),
        "share_under_1s": round(sum(t < 1 for t in times) / len(times), 3),
        "share_under_5s": round(sum(t < 5 for t in times) / len(times), 3),
        "over_60s": sum(t > 60 for t in times),
        "median_nodes": statistics.median(nodes),
        "nodes_per_s": round(sum(nodes) / max(sum(times), 1e-9)),
    }


def to_stderr(line: str) -> None:
    """A progress line on standard error, flushed (a log line a step, also into a file)."""
    print(line, file=sys.stderr, flush=True)
