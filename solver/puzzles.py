"""Puzzle files (``.bpd``): one record a line, a BPN then ``; opcode operands`` operations.

>>> r = parse_record('brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; id "fp-001" ; bm +mD 7S ; v 44')
>>> r.id, [str(m) for m in r.moves("bm")], r.int_op("v")
('fp-001', ['+mD', '7S'], 44)
>>> format_record(r)
'brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; id "fp-001" ; bm +mD 7S ; v 44'
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from solver.cards import NotationError
from solver.moves import Move, parse_moves
from solver.position import Position

OPCODES = ("id", "bm", "am", "v", "ev", "evtol", "pv", "worlds", "seed",
           "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9")
STRING_OPS = {"id"} | {f"c{i}" for i in range(10)}
MOVE_OPS = {"bm", "am", "pv"}
INT_OPS = {"v", "worlds", "seed"}
FLOAT_OPS = {"ev", "evtol"}


class PuzzleError(NotationError):
    """A malformed puzzle record; the message names the file and line when known."""


@dataclass
class Record:
    """One puzzle: the position and its operations, in file order."""
    bpn: str
    ops: dict[str, object] = field(default_factory=dict)
    source: str = ""          # "file:line" where it was read
    _position: Position | None = field(default=None, repr=False, compare=False)

    @property
    def position(self) -> Position:
        if self._position is None:
            self._position = Position(self.bpn)
        return self._position

    @property
    def id(self) -> str:
        return str(self.ops.get("id", self.source or self.bpn[:40]))

    def moves(self, op: str) -> list[Move]:
        return list(self.ops.get(op, []))

    def int_op(self, op: str) -> int | None:
        v = self.ops.get(op)
        return None if v is None else int(v)

    def float_op(self, op: str) -> float | None:
        v = self.ops.get(op)
        return None if v is None else float(v)


def _split_ops(text: str) -> list[str]:
    """Split on ';' outside double quotes."""
    parts, buf, quoted = [], [], False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            parts.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
    if quoted:
        raise PuzzleError(f"unterminated quoted string in {text!r}")
    parts.append("".join(buf))
    return parts


def _parse_string(op: str, operand: str) -> str:
    t = operand.strip()
    if len(t) < 2 or not (t.startswith('"') and t.endswith('"')):
        raise PuzzleError(f"operation {op} {operand.strip()!r}: expected a quoted string, e.g. {op} \"text\"")
    return t[1:-1]


def parse_record(line: str, source: str = "") -> Record | None:
    """One line of a ``.bpd`` file; None for a blank line or a ``#`` comment."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    where = f"{source}: " if source else ""
    try:
        parts = _split_ops(text)
    except PuzzleError as exc:
        raise PuzzleError(f"{where}{exc}") from None
    bpn = parts[0].strip()
    try:
        position = Position(bpn)
    except NotationError as exc:
        raise PuzzleError(f"{where}{exc}") from None
    rec = Record(position.bpn(), {}, source, position)
    for part in parts[1:]:
        item = part.strip()
        if not item:
            raise PuzzleError(f"{where}empty operation (two ';' in a row or a trailing ';') in {text!r}")
        op, _, operand = item.partition(" ")
        if op not in OPCODES:
            raise PuzzleError(f"{where}unknown opcode {op!r}: expected one of {', '.join(OPCODES)}")
        if op in rec.ops:
            raise PuzzleError(f"{where}opcode {op} given twice")
        try:
            if op in STRING_OPS:
                rec.ops[op] = _parse_string(op, operand)
            elif op in MOVE_OPS:
                mv = parse_moves(operand)
                if not mv:
                    raise PuzzleError(f"operation {op}: expected one or more moves")
                rec.ops[op] = mv
            elif op in INT_OPS:
                rec.ops[op] = int(operand.strip())
            else:
                rec.ops[op] = float(operand.strip())
        except PuzzleError as exc:
            raise PuzzleError(f"{where}{exc}") from None
        except (ValueError, NotationError) as exc:
            kind = "a whole number" if op in INT_OPS else "a number" if op in FLOAT_OPS else "moves"
            raise PuzzleError(f"{where}bad operand for {op} {operand.strip()!r}: expected {kind} ({exc})") from None
    return rec


def format_record(r: Record) -> str:
    """The canonical line: the BPN, then the operations in the order of :data:`OPCODES`."""
    parts = [r.bpn]
    for op in OPCODES:
        if op not in r.ops:
            continue
        v = r.ops[op]
        if op in STRING_OPS:
            parts.append(f'{op} "{v}"')
        elif op in MOVE_OPS:
            parts.append(f"{op} " + " ".join(str(m) for m in v))
        elif op in FLOAT_OPS:
            parts.append(f"{op} {float(v)!r}")     # repr: the shortest exact form
        else:
            parts.append(f"{op} {v}")
    return " ; ".join(parts)


def read_bpd(path: str) -> list[Record | PuzzleError]:
    """Every record of a file, in order; a malformed line gives its error in its place."""
    out: list[Record | PuzzleError] = []
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            try:
                rec = parse_record(line, f"{path}:{no}")
            except PuzzleError as exc:
                out.append(exc)
                continue
            if rec is not None:
                out.append(rec)
    return out


def write_bpd(path: str, records: list[Record], header: str = "") -> None:
    with open(path, "w", encoding="utf-8") as f:
        for line in header.splitlines():
            f.write(f"# {line}\n" if line else "#\n")
        for r in records:
            f.write(format_record(r) + "\n")


@dataclass
class Verdict:
    """The result of checking one record."""
    record: Record
    ok: bool
    failures: list[str]
    answer: object | None = None      # the Analysis or SampledAnalysis
    error: str | None = None

    def to_dict(self) -> dict:
        a = self.answer
        d = {"id": self.record.id, "source": self.record.source, "bpn": self.record.bpn,
             "ok": self.ok, "failures": self.failures}
        if a is not None:
            d.update(method=a.method, value=a.value, best=[str(m) for m in a.best])
        if self.error:
            d["error"] = self.error
        return d


def check_record(r: Record, workers: int = 1, executor=None) -> Verdict:
    """Solve the record (exactly, or by sampling when cards are hidden) and check its operations."""
    from solver.sampling import analyse
    from solver.search import solve
    p = r.position
    probs = p.problems()
    if probs:
        return Verdict(r, False, ["impossible position: " + "; ".join(probs)], error="; ".join(probs))
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
    return Verdict(r, not failures, failures, a)


__all__ = ["OPCODES", "PuzzleError", "Record", "Verdict", "check_record", "format_record",
           "parse_record", "read_bpd", "write_bpd"]
