"""Checking puzzle records (``.bpd``) against the engine: one verdict per record.

>>> from solver.formats.bpd import parse_record
>>> r = parse_record('brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35 ; v -4 ; bm 9S')
>>> check_record(r).ok
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from solver.analysis.executors import as_executor
from solver.analysis.sampling import SampledAnalysis, analyse
from solver.engine.api import solve
from solver.engine.results import Analysis
from solver.formats.bpd import Record


@dataclass(kw_only=True)
class Verdict:
    """The result of checking one record."""

    record: Record
    ok: bool
    failures: list[str]
    answer: Analysis | SampledAnalysis | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        a = self.answer
        d: dict[str, Any] = {
            "id": self.record.id,
            "source": self.record.source,
            "bpn": self.record.bpn,
            "ok": self.ok,
            "failures": self.failures,
        }
        if a is not None:
            d.update(method=a.method, value=a.value, best=[str(m) for m in a.best])
        if self.error:
            d["error"] = self.error
        return d


def check_record(r: Record, workers: int = 1, executor: Executor | Any = None) -> Verdict:
    """Solve the record (exactly, or by sampling when cards are hidden) and check its operations."""
    executor = as_executor(executor)
    p = r.position
    probs = p.problems()
    if probs:
        return Verdict(
            record=r, ok=False, failures=["impossible position: " + "; ".join(probs)], error="; ".join(probs)
        )
    if p.has_hidden:
        worlds = r.int_op("worlds") or 100
        a = analyse(p, worlds=worlds, seed=r.int_op("seed") or 0, workers=workers, executor=executor)
    else:
        a = solve(p)
    failures = []
    best = {int(m) for m in a.best}
    for m in r.moves("bm"):
        if int(m) not in best:
            failures.append(f"bm {m}: not a best move (best: {' '.join(str(b) for b in a.best)})")
    for m in r.moves("am"):
        if int(m) in best:
            failures.append(f"am {m}: it is a best move")
    v = r.int_op("v")
    if v is not None and a.value != v:
        failures.append(f"v {v}: the value is {a.value}")
    ev = r.float_op("ev")
    if ev is not None:
        tol = r.float_op("evtol") or 0.0
        if abs(a.value - ev) > tol + 1e-9:
            failures.append(f"ev {ev:g} +- {tol:g}: the expected value is {a.value:.3f}")
    return Verdict(record=r, ok=not failures, failures=failures, answer=a)


def _checked(r: Record) -> Verdict | str:
    """A task of :func:`check_records`: the verdict, or why the solver refused the record."""
    try:
        return check_record(r)
    except Exception as exc:  # a record the solver refuses must not stop the others
        return f"{r.source}: {exc}"


def check_records(
    records: Iterable[Record], workers: int = 1, executor: Executor | Any = None
) -> Iterator[tuple[Record, Verdict | str]]:
    """Each record with its verdict (or why the solver refused it), in order.  Without an
    executor they are checked here (a sampled record with ``workers`` processes); with one
    (any ``concurrent.futures`` executor, or a ``dask.distributed`` client) each record is
    a task.

    >>> from solver.formats.bpd import parse_record
    >>> r = parse_record("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; v 44")
    >>> [v.ok for _, v in check_records([r])]
    [True]
    """
    ex = as_executor(executor)
    if ex is None:
        for r in records:
            try:
                yield r, check_record(r, workers=workers)
            except Exception as exc:  # (as in the tasks)
                yield r, f"{r.source}: {exc}"
        return
    rs = list(records)
    yield from zip(rs, ex.map(_checked, rs), strict=True)


__all__ = ["Verdict", "check_record", "check_records"]
