"""Reading the commands' inputs: a BPN argument (with a hint when it names a file or was
not quoted), and standard input's BPN lines for ``-`` (a line at a time, however long)."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator

from solver.cli.exits import QUOTE_HINT, BrisqueCommandError
from solver.errors import NotationError
from solver.model.position import Position
from solver.model.ranges import MAX_LINE_BYTES, short
from solver.model.rules import GAMES

BPN_WIDTH = 200  # a BPN quoted in an error is cut beyond this (a canonical one is shorter)


def file_hint(text: str, command: str | None) -> str:
    """What to say when a position argument names a file: how that command reads a file
    ("" when ``text`` is no file)."""
    name = text.strip()
    try:
        folder = bool(name) and " " not in name and os.path.isdir(name)
        if not name or not (folder or os.path.isfile(name)):
            return ""
    except (OSError, ValueError):  # (a name too long for the system, a NUL byte)
        return ""
    quoted = name if re.fullmatch(r"[\w./-]+", name) else repr(name)
    if folder:
        return f"{name!r} is a folder: give the position itself (a BPN, in quotes), not a path"
    if name.endswith(".bpd"):
        return f"{quoted} looks like a puzzle file: to check its records use `brisque puzzles {quoted}`"
    if command in ("solve", "analyse"):
        return f"{quoted} looks like a file: to {command} each line use `brisque {command} - < {quoted}`"
    if command == "line":
        if name.endswith((".jsonl", ".json")):
            return f"{quoted} looks like a deal record file: give it with `brisque line --record {quoted}`"
        return (
            f'{quoted} looks like a file: give the position itself, such as "$(head -n 1 {quoted})", '
            f"or a deal record file with `--record {quoted}`"
        )
    return f'{quoted} looks like a file: give the position itself, such as "$(head -n 1 {quoted})"'


def impossible(bpn: str, problems: list[str]) -> BrisqueCommandError:
    """The error for an impossible position, quoting the BPN as given."""
    return BrisqueCommandError(f"impossible position {short(bpn.strip(), BPN_WIDTH)}: " + "; ".join(problems))


def read_position(bpn: str, check: bool = True, command: str | None = None) -> Position:
    """The position the argument BPN gives, or a command error that says what is wrong with
    it (and how to give it, when the argument is a file or the BPN was not quoted).
    ``check``: an impossible position is an error too (without it, the caller checks)."""
    try:
        p = Position(bpn)
    except NotationError as exc:
        alone = bpn.strip()
        if alone and " " not in alone and alone.split("(")[0] in GAMES:  # the rest became other arguments
            raise BrisqueCommandError(f"{exc}. {QUOTE_HINT}") from None
        hint = file_hint(bpn, command) if " " not in alone else ""
        raise BrisqueCommandError(f"{exc}. {hint}" if hint else str(exc)) from None
    if check:
        probs = p.problems()
        if probs:
            raise impossible(bpn, probs)
    return p


def refusal(exc: Exception, given: str) -> BrisqueCommandError:
    """The library's message (which quotes the canonical BPN), plus the input as typed
    when that differs."""
    msg = str(exc)
    if given.strip() not in msg:
        msg += f" (given as {short(given.strip(), BPN_WIDTH)})"
    return BrisqueCommandError(msg)


# ----------------------------------------------------------------------------- standard input
READ_BYTES = min(1 << 16, MAX_LINE_BYTES)  # standard input is read in blocks of at most this
QUOTE_BYTES = 100  # of a line too long, the bytes kept of its beginning and of its end

# A line of standard input: (its text, None), or (None, its error as a JSON answer).
InputLine = tuple[str | None, str | None]


class PendingLine:
    """The line of standard input not ended yet: its pieces while it is at most
    ``MAX_LINE_BYTES`` long; beyond, only its length, its beginning and its end (what the
    error quotes), so that memory stays small whatever the line."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []  # (joined once, when the line ends)
        self.size = 0
        self.too_long = False
        self.head = self.tail = b""  # (a line too long: its beginning and its end)

    def _begin(self) -> None:
        """A new line begins."""
        self.pieces, self.size, self.too_long, self.head, self.tail = [], 0, False, b"", b""

    def add(self, piece: bytes) -> None:
        self.size += len(piece)
        if self.too_long:
            self.tail = (self.tail + piece)[-QUOTE_BYTES:]
            return
        self.pieces.append(piece)
        if self.size > MAX_LINE_BYTES:
            whole = b"".join(self.pieces)  # (at most MAX_LINE_BYTES + one block)
            self.head, self.tail = whole[:QUOTE_BYTES], whole[-QUOTE_BYTES:]
            self.pieces, self.too_long = [], True

    def take(self, number: int) -> Iterator[InputLine]:
        """The line, line ``number``, as :func:`stdin_line` gives it (an error when too
        long); this then holds the next line."""
        pieces, too_long, size, head, tail = self.pieces, self.too_long, self.size, self.head, self.tail
        self._begin()
        if not too_long:
            yield from stdin_line(b"".join(pieces), number)
            return
        if head.lstrip().startswith(b"#"):  # (a comment, however long)
            return
        begin = head.decode("utf-8", errors="backslashreplace")
        end = tail.decode("utf-8", errors="backslashreplace")
        quoted = short(begin + end, 40, length=f"{size} bytes")
        error = (
            f"line {number} is too long: {quoted}, more than the {MAX_LINE_BYTES} bytes a line "
            f"may have (a BPN is some 70)"
        )
        yield None, json.dumps({"bpn": f"{begin}...{end}", "error": error})


def stdin_lines(before_wait: Callable[[], object] | None = None) -> Iterator[InputLine]:
    """Standard input's BPN lines, stripped, without blank lines and ``#`` comments: each as
    (line, None), or (None, its error as a JSON answer) for a line that is not UTF-8 text
    or is longer than ``MAX_LINE_BYTES`` (not kept whole: :class:`PendingLine`).

    Input is read a block at a time, as much as is there; ``before_wait`` runs before each
    read, which may wait: there a batch flushes its answers, so that a coprocess that writes
    a line and waits gets its answer at once, while a file costs one flush a block."""
    stream = sys.stdin.buffer
    read1 = getattr(stream, "read1", None)
    number = 0
    pending = PendingLine()
    while True:
        if before_wait is not None:
            before_wait()
        block = read1(READ_BYTES) if read1 is not None else stream.readline(READ_BYTES)
        if not block:
            break
        raws = block.split(b"\n")  # (a block's own lines, split in C: the batch's fast path)
        pending.add(raws[0])
        if len(raws) == 1:
            continue
        number += 1
        yield from pending.take(number)
        for raw in raws[1:-1]:
            number += 1
            yield from stdin_line(raw, number)  # (within one block: at most READ_BYTES)
        pending.add(raws[-1])
    if pending.size:
        yield from pending.take(number + 1)


def stdin_line(raw: bytes, number: int) -> Iterator[InputLine]:
    """One line of :func:`stdin_lines`: nothing for a blank line or a comment."""
    try:
        line = raw.decode("utf-8").lstrip("\ufeff").strip()  # (a byte-order mark is no text)
    except UnicodeDecodeError as exc:
        # (each byte that is no UTF-8 as \xff, as a BPN argument's is: docs/notation.md, "Errors")
        text = raw.decode("utf-8", errors="backslashreplace").strip()
        yield None, json.dumps({"bpn": text, "error": f"line {number} is not UTF-8 text ({exc.reason})"})
        return
    if line and not line.startswith("#"):
        yield line, None
