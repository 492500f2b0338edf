"""The timing loop: wall seconds of a call, quantiles by the nearest rank, a run's spread.

Times are compared side by side in one run and reported as ratios; node counts, which are
deterministic, compare across machines.

>>> value, seconds = timed(sum, [1, 2, 3])
>>> value, seconds >= 0
(6, True)
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

Progress = Callable[[str], object] | None
"""A function that hears a line of text at each step of a long run (None: silence)."""


def timed(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """``fn(*args, **kwargs)`` and the wall seconds it took (``time.perf_counter``)."""
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


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
