"""The command line's errors and exit statuses: a user error exits 2, a failure that is
not the input's fault 1, a signal N 128 + N (130 for Ctrl-C), a reader gone away 141.

Every error message of a command passes through :func:`option_words`, which names the
library's arguments as the command's options and cuts an overlong quoted input.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import sys
from typing import NoReturn

import click

from solver.model.ranges import readable_bytes, short

USAGE_ERROR = 2  # bad input: a malformed or impossible position, a bad option
FAILED = 1  # puzzles that failed, batch lines that got an error, an output that cannot be written
SIGPIPE: int = getattr(signal, "SIGPIPE", 13)  # (13 on every POSIX system; Windows has none)

# The Python arguments that library errors name, and the options that give them: an error
# met on the command line names the option ("--worlds 5", not "worlds=5").
OPTION_OF_ARGUMENT = {
    "worlds": "--worlds",
    "seed": "--seed",
    "win_worth": "--win-worth",
    "world_search": "--world-search",
    "depth": "--depth",
    "nodes": "--nodes",
    "seconds": "--seconds",
    "time_limit": "--seconds",
    "separation": "--separation",
    "workers": "--workers",
    "threads": "--workers",
    "max_exploitability": "--max-exploitability",
    "deals": "--deals",
    "view": "--view",
    "table_bits": "--table-bits",
}
_ARGUMENT = re.compile(r"(?<![\w=-])(" + "|".join(OPTION_OF_ARGUMENT) + r")=('[^'\s]*'|[^\s:,;)']+)")
# a quoted input (repr's quotes, either kind; not an apostrophe): the user's words, kept
_QUOTED = re.compile(r"(?<!\w)(?:'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")")
_ARGUMENT_OR_QUOTED = re.compile(f"{_QUOTED.pattern}|{_ARGUMENT.pattern}")
LONG_WORD = 100  # a word of an error message longer than this is input: cut in the middle
_LONG = re.compile(rf"'[^'\s]{{{LONG_WORD - 1},}}'|\S{{{LONG_WORD + 1},}}")

# (said when a BPN's fields came as several arguments: the group and the inputs give it)
QUOTE_HINT = (
    "A BPN has spaces: give it as one argument, in quotes, such as "
    '"brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"'
)


def option_words(message: str) -> str:
    """``message`` with the library's argument names as the command's options, and any
    overlong word (a huge input quoted whole) cut with :func:`~solver.model.ranges.short`.
    What the message quotes is the input as given: ``bad move 'seed=3'`` stays as it is,
    and a byte that was no UTF-8 is shown as the byte (``'\\xff'``, not ``'\\udcff'``).

    >>> option_words("worlds=5: too few; win_worth='0': expected more")
    '--worlds 5: too few; --win-worth 0: expected more'
    >>> option_words("bad move 'seed=3': expected a card")
    "bad move 'seed=3': expected a card"
    """

    def option(m: re.Match[str]) -> str:
        if m.group(1) is None:  # a quoted input: kept
            return m.group(0)
        return f"{OPTION_OF_ARGUMENT[m.group(1)]} {m.group(2).strip(chr(39))}"

    def cut(m: re.Match[str]) -> str:
        word = m.group(0)
        return short(word[1:-1] if word[0] == word[-1] == "'" else word, LONG_WORD // 2)

    # (every error of a command comes through here: the one place for bytes any quote holds)
    message = _ARGUMENT_OR_QUOTED.sub(option, readable_bytes(message))
    return _LONG.sub(cut, message)


class BrisqueCommandError(click.ClickException):
    """A user error: printed as 'Error: ...' with exit code 2 (in the command's words)."""

    exit_code = USAGE_ERROR

    def __init__(self, message: str) -> None:
        super().__init__(option_words(message))


class CommandFailed(click.ClickException):
    """A failure that is not the input's fault: 'Error: ...', exit 1."""

    exit_code = FAILED


class OutOfMemory(CommandFailed):
    """The machine's memory ran out (a table too big): 'Error: out of memory ...', exit 1."""


def unwritable(what: str, path: str, exc: OSError) -> CommandFailed:
    """The error for an output file that failed as it was written (a full disk): the file
    named, not a traceback."""
    return CommandFailed(f"cannot write the {what} to {path!r}: {exc.strerror or exc}")


_WRITE_FAILURES = {"ENOSPC", "EDQUOT", "EFBIG", "EROFS"}  # errno names: the output cannot be written


def io_failure(exc: OSError) -> str:
    """The words for an input or output that failed under a command (a disk full as the
    answer is written): the reason, and the file when the system names it."""
    reason = exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    if errno.errorcode.get(exc.errno or 0) in _WRITE_FAILURES:
        return f"cannot write the output{where}: {reason}"
    return f"input or output failed{where}: {reason}"


# ----------------------------------------------------------------------------- signals
SIGNALS = {"received": 0}  # the signal that interrupted the command, if any


def on_signal(signum: int, frame: object) -> None:
    """SIGTERM (and SIGINT) interrupt the command like Ctrl-C: the answer so far is kept."""
    SIGNALS["received"] = signum
    raise KeyboardInterrupt


def interrupted_exit() -> NoReturn:
    """Exit as the shells expect after a signal: 128 + its number (130 for Ctrl-C)."""
    sys.exit(128 + (SIGNALS["received"] or signal.SIGINT))


def forget_handled_interrupts() -> None:
    """Clear CPython's note of an unhandled KeyboardInterrupt, for one the command handled.

    CPython notes a KeyboardInterrupt that leaves code run by ``exec`` or ``eval`` of a
    string (dataclasses make their methods so, while the command imports them) as
    unhandled, even when a caller handles it; ``python -m solver.cli`` then ends by
    SIGINT (status -2) after the command's own exit (130 "interrupted", or 0).  An
    ``exec`` of a string starts by clearing that note; a KeyboardInterrupt still
    unhandled at the top is noted again as it leaves the module."""
    exec("")


def silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of
    what is still buffered does not fail again on a closed pipe ("Exception ignored ...")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # (no standard output at all: nothing left to flush)
        pass
