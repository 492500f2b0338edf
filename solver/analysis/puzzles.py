"""Checking puzzle records (``.bpd``) against the engine: one verdict per record.

>>> from solver.formats.bpd import parse_record
>>> r = parse_record('brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35 ; v -4 ; bm 9S')
>>> check_record(r).ok
True
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

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


def check_record(r: Record, workers: int = 1, executor: Executor | None = None) -> Verdict:
    """Solve the record (exactly, or by sampling when cards are hidden) and check its operations."""
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


__all__ = ["Verdict", "check_record"]
