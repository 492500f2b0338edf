"""Checking puzzle records (``.bpd``) against the engine: one verdict per record.

What is checked (docs/notation.md, "Puzzle files"): every ``bm`` move is legal and one of
the best moves; every ``am`` move is legal and not one of them; ``v`` is the exact value,
``ev`` the sampled one within ``evtol``; a ``pv`` is played out move by move, each move
legal where it is played and, with every card known, keeping the position's value (a
best move at each step), or with hidden cards, legal as far as the cards are known and
its first move one of the sampled best moves.  A record with none of ``bm``, ``am``,
``pv``, ``v``, ``ev`` is solved but not checked (``checked`` is False).

>>> from solver.formats.bpd import parse_record
>>> bpn = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
>>> check_record(parse_record(bpn + " ; v 44 ; bm +mD ; pv +mD AC 9C")).ok
True
>>> check_record(parse_record(bpn + " ; bm AH ; pv 7S KS")).failures
['bm AH: illegal in this position (legal: 7S 9D QD KD 7C AC +mD)', 'pv move 2 KS: not a best move after 7S: the value for b becomes +58 instead of +44']
>>> v = check_record(parse_record(bpn + ' ; id "x"'))
>>> v.ok, v.checked
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, overload

from solver.analysis.analyse_options import AnalyseOptions
from solver.analysis.executors import as_executor, executor_width
from solver.analysis.sampling import SampledAnalysis, analyse
from solver.engine.results import Analysis
from solver.engine.solving import shared_solver, solve
from solver.errors import PositionError, PuzzleError
from solver.formats.bpd import Record
from solver.model.moves import Move
from solver.model.numbers import json_number
from solver.model.position import SEATS, Position
from solver.model.value import Value

EXPECTATIONS = ("bm", "am", "pv", "v", "ev")
"""The operations that state something to check; a record with none of them is unchecked."""


@dataclass(kw_only=True)
class Verdict:
    """The result of checking one record."""

    record: Record
    ok: bool
    failures: list[str]
    answer: Analysis | SampledAnalysis | None = None
    error: str | None = None
    checked: bool = True  # False: the record states no expectation (EXPECTATIONS)

    def to_dict(self) -> dict[str, Any]:
        a = self.answer
        d: dict[str, Any] = {
            "id": self.record.id,
            "source": self.record.source,
            "bpn": self.record.bpn,
            "ok": self.ok,
            "checked": self.checked,
            "failures": self.failures,
        }
        if a is not None:
            d.update(method=a.method, value=json_number(a.value), best=[str(m) for m in a.best])
        if self.error:
            d["error"] = self.error
        return d


def check_record(r: Record, workers: int = 1, executor: Executor | Any = None) -> Verdict:
    """Solve the record (exactly, or by sampling when cards are hidden) and check its operations.

    Ctrl-C raises KeyboardInterrupt, also during the sampling (whose answer so far is not
    the record's: it is not judged)."""
    executor = as_executor(executor)
    p = r.position
    probs = p.problems()
    if probs:
        return Verdict(
            record=r, ok=False, failures=["impossible position: " + "; ".join(probs)], error="; ".join(probs)
        )
    if p.has_hidden:
        worlds = r.int_op("worlds") or 100
        options = AnalyseOptions(
            worlds=worlds, seed=r.int_op("seed") or 0, workers=workers, executor=executor
        )
        a = analyse(p, options)
        if a.stopped == "interrupted":  # (Ctrl-C: fewer worlds than the record's say nothing of it)
            raise KeyboardInterrupt
    else:
        a = solve(p)
    failures = []
    best = {int(m) for m in a.best}
    legal = {int(m) for m in p.legal_moves()}  # (the player to move sees his own hand)
    for m in r.moves("bm"):
        if int(m) not in legal:
            failures.append(f"bm {m}: illegal in this position ({_legal_text(p)})")
        elif int(m) not in best:
            failures.append(f"bm {m}: {_worth_against_best(m, a)}")
    for m in r.moves("am"):
        if int(m) not in legal:
            failures.append(f"am {m}: illegal in this position ({_legal_text(p)})")
        elif int(m) in best:
            failures.append(f"am {m}: it is a best move")
    if "pv" in r.ops:
        failures.extend(_pv_failures(p, r.moves("pv"), a))
    v = r.int_op("v")
    if v is not None and p.has_hidden:  # (as an illegal bm: the record fails, saying why)
        failures.append(
            f"v {v}: v is the exact value, and this position has hidden cards (its value "
            f"{_sampled_text(a.value, 2)} is sampled): use ev, with evtol or at the precision it "
            "is written with"
        )
    elif v is not None and a.value != v:
        failures.append(f"v {v}: the value is {a.value}")
    ev = r.float_op("ev")
    if ev is not None:
        failures.extend(_ev_failures(r, ev, a.value))
    checked = any(op in r.ops for op in EXPECTATIONS)
    return Verdict(record=r, ok=not failures, failures=failures, answer=a, checked=checked)


def _ev_failures(r: Record, ev: float, value: float) -> list[str]:
    """What is wrong with a record's ``ev``: the value is not within ``evtol`` of it, or
    without ``evtol``, does not round to it at the decimals it is written with (``ev -37.43``
    passes for -37.4286).  The value is shown signed, as ``brisque puzzles`` prints it, with
    as many decimals as the operands have (2 at least), and more when they would hide the
    difference."""
    tol = r.float_op("evtol")
    if tol is not None:
        if abs(value - ev) <= tol + 1e-9:
            return []
        digits = max(2, r.decimals("ev"), r.decimals("evtol"))
        within = f"+- {r.written('evtol')}"
    else:
        digits = r.decimals("ev")
        if abs(value - ev) <= 0.5 * 10.0**-digits + 1e-9:  # (it rounds to the ev written)
            return []
        digits = max(2, digits)
        within = f"at {r.decimals('ev')} decimals"
    digits = min(digits, 12)  # (no sampled value has more: ev 1e-40 is not shown with 40)
    shown = _sampled_text(value, digits)
    while float(shown) == ev and digits < 12:  # (more decimals: the difference shows)
        digits += 1
        shown = _sampled_text(value, digits)
    return [f"ev {r.written('ev')} {within}: the expected value is {shown}"]


def _sampled_text(value: float, digits: int) -> str:
    """A sampled value as ``brisque puzzles`` prints it: signed, with ``digits`` decimals."""
    return f"{value:+.{digits}f}"


def _worth_against_best(m: Move, a: Analysis | SampledAnalysis) -> str:
    """``AS is worth -12, the best move 7C +4``: a move's value in the answer against the
    best one's (sampled values with 2 decimals, as ``brisque puzzles`` prints them).

    >>> from solver.formats.bpd import parse_record
    >>> r = parse_record("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; bm KD")
    >>> check_record(r).failures
    ['bm KD: KD is worth +4, the best moves 7S 9D 7C AC +mD are worth +44']
    """

    def shown(v: Value | float) -> str:
        return v.describe() if isinstance(v, Value) else _sampled_text(v, 2)

    worth = f"{m} is worth {shown(a.move_value(m))}"
    if len(a.best) == 1:
        return f"{worth}, the best move {a.best[0]} {shown(a.value)}"
    return f"{worth}, the best moves {' '.join(str(b) for b in a.best)} are worth {shown(a.value)}"


def _legal_text(p: Position) -> str:
    if p.is_over():
        return "the deal is over"
    if p.unknown[p.turn]:
        return "the hand of the player to move is hidden"
    return "legal: " + " ".join(str(m) for m in p.legal_moves())


def _pv_failures(p: Position, pv: list[Move], a: Analysis | SampledAnalysis) -> list[str]:
    """What is wrong with a record's principal variation: its first illegal move, or with
    every card known its first move that changes the position's value (not a best move
    where it is played); with hidden cards, a first move that is not one of the best."""
    q = p.copy()
    root = p.turn
    exact = None if p.has_hidden or not isinstance(a.value, Value) else a.value
    for i, m in enumerate(pv, 1):
        where = "in this position" if i == 1 else "after " + " ".join(str(x) for x in pv[: i - 1])
        if not q.is_over() and not q.unknown[q.turn] and m not in q.legal_moves():
            return [f"pv move {i} {m}: illegal {where} ({_legal_text(q)})"]
        try:
            q.push(m)  # (with a hidden hand: a move that hand may hold)
        except PositionError:
            return [f"pv move {i} {m}: illegal {where} ({_legal_text(q)})"]
        if exact is None:
            if i == 1 and m not in a.best:
                return [f"pv move 1 {m}: {_worth_against_best(m, a)}"]
            continue
        after = q.value() if q.is_over() else shared_solver(q.rules).value(q)
        if after.for_seat(root) != exact:
            return [
                f"pv move {i} {m}: not a best move {where}: the value for {SEATS[root]} becomes "
                f"{after.for_seat(root).describe()} instead of {exact.describe()}"
            ]
    return []


def _checked(r: Record) -> Verdict | str:
    """A task of :func:`check_records`: the verdict, or why the solver refused the record."""
    try:
        return check_record(r)
    except Exception as exc:  # a record the solver refuses must not stop the others
        return _refused(r, exc)


def _refused(r: Record, exc: Exception) -> str:
    """Why the solver refused a record, after its ``file:line`` and its id (as a malformed
    record's error names them)."""
    named = f'record "{r.ops["id"]}": ' if "id" in r.ops else ""
    return f"{r.source}: {named}{exc}" if r.source else f"{named}{exc}"


@overload
def check_records(
    records: Iterable[Record],
    workers: int = 1,
    executor: Executor | Any = None,
    before: Callable[[Record], object] | None = None,
) -> Iterator[tuple[Record, Verdict | str]]: ...


@overload
def check_records(
    records: Iterable[Record | PuzzleError],
    workers: int = 1,
    executor: Executor | Any = None,
    before: Callable[[Record], object] | None = None,
) -> Iterator[tuple[Record | PuzzleError, Verdict | str]]: ...


def check_records(
    records: Iterable[Record | PuzzleError],
    workers: int = 1,
    executor: Executor | Any = None,
    before: Callable[[Record], object] | None = None,
) -> Iterator[tuple[Record | PuzzleError, Verdict | str]]:
    """Each record with its verdict (or why the solver refused it), in order.  Without an
    executor they are checked here (a sampled record with ``workers`` processes); with one
    (any ``concurrent.futures`` executor, or a ``dask.distributed`` client) each record is
    a task.  A :class:`~solver.errors.PuzzleError` among the records (a malformed line, as
    :func:`~solver.formats.bpd.read_bpd` gives it in its place) comes back in its place with
    its message.  ``before(record)`` runs before a record's verdict is awaited (progress).

    Records are read as they are checked: from an iterator (a pipe's lines,
    :func:`~solver.formats.bpd.iter_bpd_lines`) each verdict comes out as soon as it is
    known, not when the input ends; with an executor they are read and sent to it in a
    thread, a few ahead per worker, so that a verdict does not wait for the next line.

    >>> from solver.formats.bpd import parse_record
    >>> r = parse_record("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; v 44")
    >>> [v.ok for _, v in check_records([r])]
    [True]
    """
    ex = as_executor(executor)
    if ex is None:

        def here(r: Record) -> object:
            try:
                return check_record(r, workers=workers)
            except Exception as exc:  # (as in the tasks)
                return _refused(r, exc)

        yield from _in_place(records, before, here)
        return
    if isinstance(records, Sequence):  # (all known: every record a task at once)
        verdicts = iter(ex.map(_checked, [r for r in records if isinstance(r, Record)]))
        yield from _in_place(records, before, lambda r: next(verdicts))
        return
    yield from _streamed(records, ex, before)


def _in_place(records: Iterable[Any], before: Any, verdict: Any) -> Iterator[tuple[Any, Any]]:
    """Each record with its verdict, in order; a malformed line's error passes through."""
    for r in records:
        if not isinstance(r, Record):
            yield r, str(r)
            continue
        if before is not None:
            before(r)
        yield r, verdict(r)


_END = object()  # (the end of the records, in _streamed's queue)


def _streamed(
    records: Iterable[Record | PuzzleError], ex: Executor, before: Callable[[Record], object] | None
) -> Iterator[tuple[Record | PuzzleError, Verdict | str]]:
    """:func:`check_records` with an executor on records read as they come: a thread reads
    them and sends each to ``ex`` (at most a few ahead per worker), and the verdicts come
    back here in order, each as soon as its task is done, while the thread may be waiting
    for the next record."""
    import queue
    import threading

    ahead: queue.Queue[tuple[object, Any]] = queue.Queue(maxsize=4 * (executor_width(ex) or 2))
    stop = threading.Event()

    def put(item: tuple[object, Any]) -> bool:
        while not stop.is_set():
            try:
                ahead.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def read() -> None:
        try:
            for r in records:
                task = ex.submit(_checked, r) if isinstance(r, Record) else None
                if not put((r, task)):
                    return  # (the verdicts are no longer wanted)
        except BaseException as exc:  # (reading failed: raised where the verdicts are wanted)
            put((_END, exc))
            return
        put((_END, None))

    threading.Thread(target=read, name="brisque-records", daemon=True).start()
    try:
        while True:
            r, task = ahead.get()
            if r is _END:
                if task is not None:
                    raise task
                return
            assert isinstance(r, Record | PuzzleError)
            if isinstance(r, PuzzleError):
                yield r, str(r)
                continue
            if before is not None:
                before(r)
            yield r, task.result()
    finally:
        stop.set()  # (the thread stops at its next record; one waiting for input is a daemon)


__all__ = ["EXPECTATIONS", "Verdict", "check_record", "check_records"]
