"""Puzzle files (``.bpd``): one record a line, a BPN then ``; opcode operands`` operations.

>>> r = parse_record('brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; id "fp-001" ; bm +mD 7S ; v 44')
>>> r.id, [str(m) for m in r.moves("bm")], r.int_op("v")
('fp-001', ['+mD', '7S'], 44)
>>> format_record(r)
'brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; id "fp-001" ; bm +mD 7S ; v 44'
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from solver.errors import NotationError, PuzzleError
from solver.model.moves import Move, parse_moves
from solver.model.position import Position
from solver.model.ranges import unicode_text, whole_number

OPCODES = (
    "id",
    "bm",
    "am",
    "v",
    "ev",
    "evtol",
    "pv",
    "worlds",
    "seed",
    "c0",
    "c1",
    "c2",
    "c3",
    "c4",
    "c5",
    "c6",
    "c7",
    "c8",
    "c9",
)
STRING_OPS = {"id"} | {f"c{i}" for i in range(10)}
MOVE_OPS = {"bm", "am", "pv"}
INT_OPS = {"v", "worlds", "seed"}
_INT_RANGES = {"v": (-10000, 10000), "worlds": (1, 10**9), "seed": (0, 2**63 - 1)}  # (v: +-10000 a game won)
FLOAT_OPS = {"ev", "evtol"}

BINARY_PEEK = 8192  # the bytes of a file looked at for a NUL before its lines are read (as git does)

OpValue = str | int | float | list[Move]
"""An operation's operand: text, a whole number, a number, or moves (by opcode)."""


@dataclass(kw_only=True)
class Record:
    """One puzzle: the position and its operations, in file order."""

    bpn: str
    ops: dict[str, OpValue] = field(default_factory=dict)
    source: str = ""  # "file:line" where it was read
    texts: dict[str, str] = field(default_factory=dict, compare=False)
    """The numbers ``ev`` and ``evtol`` as written (their decimals are their precision)."""
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
        """The moves of ``op`` (``bm``, ``am``, ``pv``); empty when the record has none."""
        v = self.ops.get(op, [])
        if not isinstance(v, list):
            raise TypeError(f"operation {op} of {self.id} holds {v!r}, not moves")
        return list(v)

    def int_op(self, op: str) -> int | None:
        """The whole number of ``op`` (``v``, ``worlds``, ``seed``), or None."""
        v = self.ops.get(op)
        if isinstance(v, list):
            raise TypeError(f"operation {op} of {self.id} holds moves, not a number")
        return None if v is None else int(v)

    def float_op(self, op: str) -> float | None:
        """The number of ``op`` (``ev``, ``evtol``), or None."""
        v = self.ops.get(op)
        if isinstance(v, list):
            raise TypeError(f"operation {op} of {self.id} holds moves, not a number")
        return None if v is None else float(v)

    def decimals(self, op: str) -> int:
        """How many decimals the number of ``op`` (``ev``, ``evtol``) was written with: its
        precision (``-37.43``: 2, ``-37.430``: 3, ``-37`` or ``1e3``: 0); a number that was
        not read from text counts the decimals of its shortest form.

        >>> r = parse_record("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; ev -37.430")
        >>> r.decimals("ev"), r.float_op("ev")
        (3, -37.43)
        """
        try:
            exponent = decimal.Decimal(self.written(op).replace("_", "")).as_tuple().exponent
        except decimal.InvalidOperation:  # (a form float() reads and Decimal does not)
            exponent = decimal.Decimal(repr(self.float_op(op))).as_tuple().exponent
        return -exponent if isinstance(exponent, int) and exponent < 0 else 0

    def written(self, op: str) -> str:
        """The number of ``op`` (``ev``, ``evtol``) as the record wrote it (without a leading
        ``+``); a number that was not read from text (or was changed since) in its shortest
        form, ``repr``."""
        value = self.float_op(op)
        if value is None:
            raise KeyError(f"{self.id} has no operation {op}")
        text = self.texts.get(op)
        return repr(value) if text is None or float(text) != value else text


def _split_ops(text: str) -> list[str]:
    """Split on ';' outside double quotes."""
    parts: list[str] = []
    buf: list[str] = []
    quoted = False
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
        raise PuzzleError(f'operation {op} {operand.strip()!r}: expected a quoted string, e.g. {op} "text"')
    return t[1:-1]


def _recovered_id(parts: list[str]) -> str | None:
    """The id of a record that does not parse, when its ``id`` operation does: the error
    then names the record as well as its line."""
    for part in parts[1:]:
        op, _, operand = part.strip().partition(" ")
        if op == "id":
            try:
                return _parse_string(op, operand)
            except PuzzleError:
                return None
    return None


def parse_record(line: str, source: str = "") -> Record | None:
    """One line of a ``.bpd`` file; None for a blank line or a ``#`` comment.

    A malformed line raises :class:`~solver.errors.PuzzleError` naming ``source``, and the
    record's id when its ``id`` operation could be read (also as the error's ``id``):

    >>> try:
    ...     parse_record('brisque XX ; id "fp-9" ; v 1', "f.bpd:3")
    ... except PuzzleError as exc:
    ...     print(exc.id, str(exc)[:25])
    fp-9 f.bpd:3: record "fp-9": b
    """
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    try:
        parts = _split_ops(text)
    except PuzzleError as exc:  # (an unterminated quote: no operation can be trusted)
        raise PuzzleError(f"{source}: {exc}" if source else str(exc)) from None
    if len(parts) > 1 and not parts[-1].strip():
        parts.pop()  # a trailing ';', as EPD records end: no operation
    try:
        return _parse_parts(text, parts, source)
    except PuzzleError as exc:
        rid = _recovered_id(parts)
        named = f'record "{rid}": ' if rid is not None else ""
        where = f"{source}: " if source else ""
        err = PuzzleError(f"{where}{named}{exc}")
        err.id = rid
        raise err from None


def _parse_parts(text: str, parts: list[str], source: str) -> Record:
    """The record of a line split into its BPN and operations (errors without the source)."""
    bpn = parts[0].strip()
    try:
        position = Position(bpn)
    except NotationError as exc:
        raise PuzzleError(str(exc)) from None
    rec = Record(bpn=position.bpn(), ops={}, source=source, _position=position)
    for part in parts[1:]:
        item = part.strip()
        if not item:
            raise PuzzleError(f"empty operation (two ';' in a row) in {text!r}")
        op, _, operand = item.partition(" ")
        if op not in OPCODES:
            raise PuzzleError(f"unknown opcode {op!r}: expected one of {', '.join(OPCODES)}")
        if op in rec.ops:
            raise PuzzleError(f"opcode {op} given twice")
        try:
            if op in STRING_OPS:
                rec.ops[op] = _parse_string(op, operand)
            elif op in MOVE_OPS:
                mv = parse_moves(operand)
                if not mv:
                    raise PuzzleError(f"operation {op}: expected one or more moves")
                rec.ops[op] = mv
            elif op in INT_OPS:
                low, high = _INT_RANGES[op]
                # (a leading '+': every value the tool prints has its sign, and composers copy it)
                rec.ops[op] = whole_number(operand, low, high, signed=low < 0, plus=True)
            else:
                try:
                    value = float(operand.strip())
                except ValueError:  # (Python's "could not convert string to float" in words)
                    raise ValueError(
                        f"{operand.strip()!r} is not a number: expected a number such as -37.43"
                    ) from None
                if not math.isfinite(value):
                    raise ValueError(f"{operand.strip()!r} is not a finite number")
                if op == "evtol" and value < 0:  # (a tolerance: no sampled value is within -3)
                    raise ValueError(f"{operand.strip()!r} is out of range: a tolerance is 0 or more")
                rec.ops[op] = value
                rec.texts[op] = operand.strip().removeprefix("+")  # (its precision, Record.decimals)
        except PuzzleError:
            raise  # (a ValueError too: already in words)
        except (ValueError, NotationError) as exc:
            if op in INT_OPS or op in FLOAT_OPS:  # (the message says what was expected, once)
                raise PuzzleError(f"bad operand for {op} {operand.strip()!r}: {exc}") from None
            raise PuzzleError(f"bad operand for {op} {operand.strip()!r}: expected moves ({exc})") from None
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
            parts.append(f"{op} " + " ".join(str(m) for m in r.moves(op)))
        elif op in FLOAT_OPS:
            parts.append(f"{op} {r.written(op)}")  # (its decimals are its precision)
        else:
            parts.append(f"{op} {v}")
    return " ; ".join(parts)


def read_bpd(path: str) -> list[Record | PuzzleError]:
    """Every record of a file, in order; a malformed line gives its error in its place.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "two.bpd")
    >>> _ = open(path, "w").write("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35 ; v -4\\nnonsense\\n")
    >>> [type(r).__name__ for r in read_bpd(path)]
    ['Record', 'PuzzleError']
    """
    with open(path, "rb") as f:
        head = f.peek(BINARY_PEEK)[:BINARY_PEEK]  # (not read: a pipe, <(...), cannot seek back)
        if b"\0" in head:  # (a binary file: one error, not one a "line" of it)
            return [_not_text(unicode_text(path), head[: head.index(b"\0")].count(b"\n") + 1)]
        return read_bpd_lines(f, path)


def _not_text(name: str, no: int) -> PuzzleError:
    """The error of a file that holds a NUL byte (on line ``no``): no text file does."""
    err = PuzzleError(
        f"{name}:{no}: not a text file (it holds a NUL byte): expected UTF-8 text, one puzzle "
        "record a line, 'BPN ; op operand ; ...'"
    )
    err.source = f"{name}:{no}"
    return err


def read_bpd_lines(lines: Iterable[bytes], name: str) -> list[Record | PuzzleError]:
    """Every record of ``lines`` (bytes, such as an open file or ``sys.stdin.buffer``), as
    :func:`read_bpd` reads a file; ``name`` stands for the file in each ``source``.

    >>> [r.source for r in read_bpd_lines([b"# two\\n", b"petite 9...Q7/.8.K.J JD 21 Q.Q9.9. - a 3:3 tricks=1:1\\n"], "stdin")]
    ['stdin:2']
    """
    return list(iter_bpd_lines(lines, name))


def iter_bpd_lines(lines: Iterable[bytes], name: str) -> Iterator[Record | PuzzleError]:
    """The records of :func:`read_bpd_lines` one at a time, each as soon as its line is
    read: a pipe's records can be checked while the next ones are still being written."""
    name = unicode_text(name)  # (a file name's undecodable byte as \xff: sources go into JSON)
    for no, raw in enumerate(lines, 1):
        if b"\0" in raw:  # a binary file (no text holds a NUL): said once, the rest unread
            yield _not_text(name, no)
            return
        try:  # line by line: one bad byte costs its line, not the file
            line = raw.decode("utf-8").lstrip("\ufeff")  # (a byte-order mark is no text)
        except UnicodeDecodeError as exc:
            bad = PuzzleError(f"{name}:{no}: the line is not UTF-8 text ({exc.reason} at byte {exc.start})")
            bad.source = f"{name}:{no}"
            yield bad
            continue
        try:
            rec = parse_record(line, f"{name}:{no}")
        except PuzzleError as exc:
            exc.source = f"{name}:{no}"  # (a script lines the error up with the file, as a record)
            yield exc
            continue
        if rec is not None:
            yield rec


def write_bpd(path: str, records: list[Record], header: str = "") -> None:
    """Write ``records`` one canonical line each, after ``header`` as ``#`` comment lines."""
    with open(path, "w", encoding="utf-8") as f:
        for line in header.splitlines():
            f.write(f"# {line}\n" if line else "#\n")
        for r in records:
            f.write(format_record(r) + "\n")


__all__ = [
    "OPCODES",
    "Record",
    "format_record",
    "iter_bpd_lines",
    "parse_record",
    "read_bpd",
    "read_bpd_lines",
    "write_bpd",
]
