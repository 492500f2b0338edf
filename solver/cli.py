"""The ``brisque`` command: a thin click layer over the library.

Data goes to standard output, errors and progress to standard error.  Every
command that answers a query has ``--json``.
"""

from __future__ import annotations

import json
import math
import re
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import click

from solver import __version__, startup
from solver.errors import NotationError, install_hint
from solver.model.limits import (
    MAX_BUDGET,
    MAX_DEALS,
    MAX_DEPTH,
    MAX_LINE_BYTES,
    MAX_PLIES,
    MAX_SECONDS,
    MAX_SEED,
    MAX_TABLE_BITS,
    MAX_TREE_NODES,
    MAX_TRICKS_PER_DEAL,
    MAX_WIN_WORTH,
    MAX_WORKERS,
    MAX_WORLDS,
    MIN_OWN_WORLDS,
    MIN_TABLE_BITS,
    PETITE_TRICKS,
    readable_bytes,
    short,
)
from solver.model.table_memory import (  # (the help's memory figures)
    DEFAULT_TABLE_BITS,
    TABLE_ENTRY_BYTES,
    table_bits_argument,
    table_sizes,
)

# Only what every command needs is imported here: each command imports the modules it uses
# (the analyses, the formats, the position itself), so that `brisque --help` and the start
# of `brisque solve -` do not pay for the others.
if TYPE_CHECKING:
    from concurrent.futures import Executor

    from solver.analysis.batch import Budget as _Budget  # (the budget options of brisque solve)
    from solver.analysis.equilibrium import EquilibriumAnalysis
    from solver.analysis.line import Step
    from solver.analysis.sampling import SampledAnalysis
    from solver.engine.results import Analysis
    from solver.formats.records import MatchRecord
    from solver.model.position import Position
    from solver.model.rules import Rules
    from solver.model.value import Value


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


def _option_words(message: str) -> str:
    """``message`` with the library's argument names as the command's options, and any
    overlong word (a huge input quoted whole) cut with :func:`~solver.model.limits.short`.
    What the message quotes is the input as given: ``bad move 'seed=3'`` stays as it is,
    and a byte that was no UTF-8 is shown as the byte (``'\\xff'``, not ``'\\udcff'``).

    >>> _option_words("worlds=5: too few; win_worth='0': expected more")
    '--worlds 5: too few; --win-worth 0: expected more'
    >>> _option_words("bad move 'seed=3': expected a card")
    "bad move 'seed=3': expected a card"
    """
    from solver.model.limits import short

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

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(_option_words(message))


class _Failed(click.ClickException):
    """A failure that is not the input's fault: 'Error: ...', exit 1."""

    exit_code = 1


class _OutOfMemory(_Failed):
    """The machine's memory ran out (a table too big): 'Error: out of memory ...', exit 1."""


def writable_file(path: str, what: str) -> None:
    """Refuse, before any work is done, an output file that cannot be written."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BrisqueCommandError(f"cannot write the {what} to {path!r}: no folder {folder!r}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise BrisqueCommandError(f"cannot write the {what} to {path!r}: permission denied")


def _rules_option(text: str) -> Rules:
    """The rules the ``--rules`` option gives; a bad one is an error naming the option and
    quoting the value (``--rules 'brisk': unknown game: expected one of ...``)."""
    from solver.errors import RulesError
    from solver.model.limits import short
    from solver.model.rules import Rules

    try:
        return Rules.parse(text)
    except RulesError as exc:
        raise BrisqueCommandError(f"--rules {short(text)}: {exc.reason or exc}") from None


class _Whole(click.IntRange):
    """A whole number in a range; the error quotes a long input shortened, and says which
    numbers are expected ("'x' is not a valid whole number", not an "integer range")."""

    name = "whole number"

    def __init__(self, lo: int, hi: int | None = None, note: str | None = None):
        super().__init__(lo, hi)
        self.note = note  # (a narrower range some uses have, shown in the help beside the range)

    def _describe_range(self) -> str:
        rng = super()._describe_range()
        return f"{rng}; {self.note}" if self.note else rng

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and len(value.strip()) > 30:
            from solver.model.limits import short

            self.fail(f"{short(value.strip(), 30)} is not {self._describe()}", param, ctx)
        if isinstance(value, str):
            # the notation's whole numbers (BPN, .bpd, the API's seeds): ASCII digits only, not
            # Python's int() syntax (4_8, ' 5 ', +5), so that a number means the same everywhere
            from solver.model.limits import whole_number

            lo = self.min if self.min is not None else 0
            hi = self.max if self.max is not None else 10**40
            try:
                if value != value.strip():  # (whole_number strips the spaces between fields)
                    raise ValueError(value)
                n = whole_number(value, lo, hi, signed=lo < 0)
            except ValueError:
                self.fail(f"{value!r} is not {self._describe()}", param, ctx)
            _keep_typed(value, param, ctx)
            value = n
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"{value!r} is not {self._describe()}", param, ctx)

    def _describe(self) -> str:
        if self.max is None:
            return f"a whole number from {self.min} up"
        return f"a whole number from {self.min} to {self.max}"


def whole(lo: int, hi: int | None = None, note: str | None = None) -> _Whole:
    """The click type of a whole-number option from ``lo`` to ``hi`` (None: no upper end);
    ``note`` says in the help where a use narrows the range (``"--view own: x>=10"``)."""
    return _Whole(lo, hi, note)


# The ranges of the numeric options: big enough for any real use, small enough that no
# number overflows the engine (a click error names the range).
SEED = whole(0, MAX_SEED)
NODES = whole(1, MAX_BUDGET)
WORLDS = whole(1, MAX_WORLDS)
WORKERS = whole(1, MAX_WORKERS)
DEPTH = whole(1, MAX_DEPTH)
TABLE_BITS_HELP = (
    f"Transposition table of 2**N entries of {TABLE_ENTRY_BYTES} bytes: its memory doubles with "
    f"each N ({table_sizes(range(MIN_TABLE_BITS, MAX_TABLE_BITS + 1, 2))}); each worker process "
    "of BPN - holds its own.  A size larger than the memory available is refused."
)

SCHEDULER_HELP = (
    "Run the work on a Dask cluster: its scheduler's address (tcp://host:8786), or local:N "
    "to start N worker processes here; the answers are those of a local run "
    f"(it needs {install_hint('cluster')}; docs/cluster.md)."
)


def scheduler_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """The ``--scheduler ADDRESS`` option of the commands that can run on a cluster."""
    return click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)(f)


@contextmanager
def _executor(scheduler: str | None, workers: int = 1) -> Iterator[Executor | None]:
    """The cluster ``--scheduler`` names as an executor for the command's work (None
    without it), closed at the end; a cluster that cannot be reached, or that loses a task,
    is a clear error."""
    if scheduler is None:
        yield None
        return
    if workers > 1:
        raise BrisqueCommandError(
            f"--workers {workers} and --scheduler {scheduler}: give one of them (the cluster's workers do the work)"
        )
    from solver.cluster import open_executor
    from solver.errors import BrisqueError

    try:
        ex = open_executor(scheduler)
    except BrisqueError as exc:
        raise BrisqueCommandError(str(exc)) from None
    with ex:
        try:
            yield ex
        except Exception as exc:
            if not type(exc).__module__.startswith("distributed"):
                raise
            # (Dask's own: a task given up after its workers died, a lost scheduler, ...)
            raise BrisqueCommandError(
                f"the cluster at {scheduler} failed: {type(exc).__name__}: {exc}"
            ) from None


DEALS = whole(1, MAX_DEALS)


def _keep_typed(value: Any, param: click.Parameter | None, ctx: click.Context | None) -> None:
    """Keep an option's text as typed (``1``, not the ``1.0`` it converts to), for an error
    that quotes it (:func:`_typed`)."""
    if isinstance(value, str) and param is not None and param.name and ctx is not None:
        ctx.meta.setdefault("brisque.typed", {})[param.name] = value.strip()


def _typed(name: str, value: Any) -> str:
    """The command's parameter ``name`` as it was typed, or ``value`` as text."""
    typed: dict[str, str] = click.get_current_context().meta.get("brisque.typed", {})
    return typed.get(name, str(value))


class _Number(click.FloatRange):
    """A finite number in a range (``nan`` and ``inf`` are refused); the error quotes the
    input as given, cut short when long, and says which numbers are expected ("'abc' is not
    a number above 0 and at most 1000000000", not a "valid float range")."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        given = value.strip() if isinstance(value, str) else value
        if isinstance(given, str) and len(given) > 30:
            from solver.model.limits import short

            self.fail(f"{short(given, 30)} is not {self._describe()}", param, ctx)
        try:
            v = super().convert(value, param, ctx)
        except click.BadParameter:
            v = math.nan
        if not math.isfinite(v):
            self.fail(f"{given!r} is not {self._describe()}", param, ctx)
        _keep_typed(value, param, ctx)
        return v

    def _describe(self) -> str:
        def text(x: float) -> str:  # (1000000000, not 1e+09)
            return str(int(x)) if float(x).is_integer() else f"{x:g}"

        low = "" if self.min is None else f"{'above' if self.min_open else 'from'} {text(self.min)}"
        high = "" if self.max is None else f"{'below' if self.max_open else 'at most'} {text(self.max)}"
        if low and high and not (self.min_open or self.max_open):
            return f"a number from {text(self.min)} to {text(self.max)}"  # type: ignore[arg-type]
        if low and high:
            return f"a number {low} and {high}"
        # (open-ended: 'inf' is a number above 0, so say that it must be finite)
        return f"a finite number {low or high}".rstrip()


def number(
    lo: float | None = None, hi: float | None = None, lo_open: bool = False, hi_open: bool = False
) -> _Number:
    """The click type of a number option from ``lo`` to ``hi`` (None: no end there)."""
    return _Number(min=lo, max=hi, min_open=lo_open, max_open=hi_open)


SECONDS = number(0, MAX_SECONDS, lo_open=True)


BPN_WIDTH = 200  # a BPN quoted in an error is cut beyond this (a canonical one is shorter)

QUOTE_HINT = (
    "A BPN has spaces: give it as one argument, in quotes, such as "
    '"brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"'
)


def _file_hint(text: str, command: str | None) -> str:
    """What to say when a position argument names a file: how that command reads a file
    ("" when ``text`` is no file)."""
    import os

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


def _given(*names: str) -> list[str]:
    """Which of the current command's parameters ``names`` were given on the command line
    (not left at their defaults): options that would be ignored are refused, not dropped."""
    ctx = click.get_current_context()
    return [n for n in names if ctx.get_parameter_source(n) is click.core.ParameterSource.COMMANDLINE]


def _position(bpn: str, check: bool = True, command: str | None = None) -> Position:
    """The position the argument BPN gives, or a command error that says what is wrong with
    it (and how to give it, when the argument is a file or the BPN was not quoted)."""
    from solver.model.limits import short
    from solver.model.position import Position
    from solver.model.rules import GAMES

    try:
        p = Position(bpn)
    except NotationError as exc:
        alone = bpn.strip()
        if alone and " " not in alone and alone.split("(")[0] in GAMES:  # the rest became other arguments
            raise BrisqueCommandError(f"{exc}. {QUOTE_HINT}") from None
        hint = _file_hint(bpn, command) if " " not in alone else ""
        raise BrisqueCommandError(f"{exc}. {hint}" if hint else str(exc)) from None
    if check:
        probs = p.problems()
        if probs:
            raise BrisqueCommandError(
                f"impossible position {short(bpn.strip(), BPN_WIDTH)}: " + "; ".join(probs)
            )
    return p


_SIGNALS = {"received": 0}  # the signal that interrupted the command, if any
SIGPIPE: int = getattr(signal, "SIGPIPE", 13)  # (13 on every POSIX system; Windows has none)
_WRITE_FAILURES = {"ENOSPC", "EDQUOT", "EFBIG", "EROFS"}  # errno names: the output cannot be written


def _silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of
    what is still buffered does not fail again on a closed pipe ("Exception ignored ...")."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # (no standard output at all: nothing left to flush)
        pass


def _io_failure(exc: OSError) -> str:
    """The words for an input or output that failed under a command (a disk full as the
    answer is written): the reason, and the file when the system names it."""
    import errno

    reason = exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    if errno.errorcode.get(exc.errno or 0) in _WRITE_FAILURES:
        return f"cannot write the output{where}: {reason}"
    return f"input or output failed{where}: {reason}"


def _on_signal(signum: int, frame: object) -> None:
    """SIGTERM (and SIGINT) interrupt the command like Ctrl-C: the answer so far is kept."""
    _SIGNALS["received"] = signum
    raise KeyboardInterrupt


def _forget_handled_interrupts() -> None:
    """Clear CPython's note of an unhandled KeyboardInterrupt, for one the command handled.

    CPython notes a KeyboardInterrupt that leaves code run by ``exec`` or ``eval`` of a
    string (dataclasses make their methods so, while the command imports them) as
    unhandled, even when a caller handles it; ``python -m solver.cli`` then ends by
    SIGINT (status -2) after the command's own exit (130 "interrupted", or 0).  An
    ``exec`` of a string starts by clearing that note; a KeyboardInterrupt still
    unhandled at the top is noted again as it leaves the module."""
    exec("")


def _interrupted_exit() -> NoReturn:
    """Exit as the shells expect after a signal: 128 + its number (130 for Ctrl-C)."""
    sys.exit(128 + (_SIGNALS["received"] or signal.SIGINT))


class StatusLine:
    """A progress line on standard error, rewritten in place with ``\\r``: each text is padded
    with spaces over what the longer one before it showed.  It shows only on a terminal
    (``enabled``); elsewhere (a log file, a pipe) it writes nothing.

    >>> import io
    >>> out = io.StringIO()
    >>> line = StatusLine(True, out)
    >>> line.show("20 worlds, best KS +3.0"); line.show("30/400 worlds"); line.end()
    >>> out.getvalue()
    '\\r20 worlds, best KS +3.0\\r30/400 worlds          \\n'
    """

    def __init__(self, enabled: bool, stream: Any = None) -> None:
        self.enabled = enabled
        self.stream = stream
        self.width = 0  # the length of the line on the screen

    def _write(self, text: str) -> None:
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(text)
        stream.flush()

    def show(self, text: str) -> None:
        """Show ``text`` in place of the line shown before."""
        if self.enabled:
            self._write("\r" + text.ljust(self.width))
            self.width = len(text)

    def clear(self) -> None:
        """Wipe the line (before other output is written to the terminal)."""
        if self.enabled and self.width:
            self._write("\r" + " " * self.width + "\r")
            self.width = 0

    def end(self) -> None:
        """Leave the last line shown on the screen, and go to the next."""
        if self.enabled and self.width:
            self._write("\n")
            self.width = 0


def _on_terminal(quiet: bool, as_json: bool = False) -> bool:
    """Whether progress is shown: on a terminal, and not asked away (-q, or --json)."""
    return not quiet and not as_json and sys.stderr.isatty()


BPN_COMMANDS = ("show", "solve", "analyse", "line", "tree")


def _first_argument(argv: list[str], command: click.Command | None) -> str | None:
    """The command's first argument in ``argv`` (its name first), skipping the options and
    the values of those that take one; None when there is none."""
    valued = {
        name
        for p in (command.params if command is not None else [])
        if isinstance(p, click.Option) and not p.is_flag and not p.count
        for name in p.opts
    }
    args = iter(argv[1:])
    for a in args:
        if a == "--":
            return next(args, None)
        if a.startswith("-") and a != "-":
            if a in valued:
                next(args, None)  # (its value)
            continue
        return a
    return None


def _json_error(argv: list[str], message: str, command: click.Command | None = None) -> None:
    """With --json, an error is also a JSON object on standard output, as a bad line of a
    batch gets: {"bpn": ..., "error": ...} (the bpn when the command has one, as given but
    for a byte that is no UTF-8, written ``\\xff`` as the message quotes it: the object is
    valid Unicode, which a lone surrogate ``\\udcff`` is not)."""
    if "--json" not in argv:
        return
    from solver.model.limits import unicode_text

    error: dict[str, str] = {}
    if argv and argv[0] in BPN_COMMANDS:
        if command is not None:  # (the BPN argument as given, even a malformed one)
            bpn = _first_argument(argv, command)
        else:
            bpn = next((a for a in argv[1:] if " " in a or a == "-"), None)  # (a BPN has spaces)
        if bpn is not None:
            error["bpn"] = unicode_text(bpn)
    error["error"] = message
    click.echo(json.dumps(error))


# the commands that read one BPN a line from standard input when given - for the BPN
READS_LINES = ("solve", "analyse")


def _extra_argument_hint(argv: list[str], message: str) -> str:
    """The hint for click's "Got unexpected extra argument(s) (...)": quote a BPN (its
    fields became arguments), or, when an extra argument is itself a whole BPN (it has
    spaces: it was quoted), give the BPNs one a line on standard input.

    >>> S = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    >>> _extra_argument_hint(["solve", S, S], f"Got unexpected extra argument ({S})")[:51]
    'brisque solve takes one BPN: for several, give - an'
    """
    from solver.model.rules import GAMES

    listed = message[message.find("(") + 1 : message.rfind(")")]
    extras = next(
        (argv[-k:] for k in range(1, len(argv)) if " ".join(argv[-k:]) == listed), []
    )  # (the arguments left over: the end of the command line)
    if argv and any(" " in a.strip() and a.split()[0].split("(")[0] in GAMES for a in extras):
        command = argv[0]
        if command in READS_LINES:
            return (
                f"brisque {command} takes one BPN: for several, give - and one BPN a line on standard input "
                f'(printf \'%s\\n\' "$S1" "$S2" | brisque {command} -)'
            )
        return f"brisque {command} takes one BPN: run it once for each"
    return QUOTE_HINT


class _Group(click.Group):
    """The command group: a signal ends any command with the shells' status, no traceback."""

    def _json_error(self, ctx: click.Context, message: str) -> None:
        argv: list[str] = ctx.meta.get("argv", [])
        command = self.get_command(ctx, argv[0]) if argv else None
        if command is not None and any("--json" in getattr(o, "opts", ()) for o in command.params):
            _json_error(argv, message, command)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["argv"] = list(args)  # (for the JSON form of an error)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        signal.signal(signal.SIGTERM, _on_signal)
        # a process started with SIGINT ignored (a background job of a script, nohup) keeps
        # ignoring it, as the shells expect: Ctrl-C in that terminal is for the foreground
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, _on_signal)
        try:
            if startup.interrupted():  # (Ctrl-C while the command loaded: it ends as later)
                _SIGNALS["received"] = startup.interrupted()
                raise KeyboardInterrupt
            return super().invoke(ctx)
        except click.UsageError as exc:
            text = _option_words(exc.format_message())  # (a huge input is quoted cut)
            if "unexpected extra argument" in text:
                text = f"{text}. {_extra_argument_hint(ctx.meta.get('argv', []), exc.format_message())}"
            self._json_error(ctx, text)
            if text == exc.format_message():
                raise
            raise click.UsageError(text, ctx=exc.ctx) from None
        except click.ClickException as exc:
            text = _option_words(exc.format_message())
            self._json_error(ctx, text)
            if text == exc.format_message():
                raise
            if exc.exit_code == BrisqueCommandError.exit_code:
                raise BrisqueCommandError(text) from None
            raise _Failed(text) from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            argv: list[str] = ctx.meta.get("argv", [])
            if "-" not in argv[1:]:  # (a batch's answers so far stand as they are)
                # a script reading --json gets an object for the answer it will not get
                self._json_error(ctx, "interrupted")
            _interrupted_exit()
        except BrokenPipeError:
            # The reader went away (brisque puzzles FILE | head): stop quietly, with the status
            # of a process that SIGPIPE ends (as `yes | head` reports it), not click's 1, which
            # here means a failed puzzle or batch line.
            _silence_stdout()
            sys.exit(128 + SIGPIPE)
        except OSError as exc:  # (a write that failed: a full disk under -o FILE or > FILE)
            raise _Failed(_io_failure(exc)) from None
        except MemoryError as exc:  # (a table too big for the machine: an error, not a traceback)
            failure = _OutOfMemory(
                f"out of memory: {str(exc) or 'an allocation failed'} (a smaller --table-bits, or fewer workers, needs less)"
            )
            self._json_error(ctx, failure.format_message())
            raise failure from None
        finally:
            startup.ending(_on_signal)  # (a signal from now on changes nothing)
            _forget_handled_interrupts()  # (the command's status is its own: 130, 0 ...)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="brisque")
def main() -> None:
    """Solve and analyse Brisque, Briscan and Petite Brisque positions.

    Positions are written in BPN, one argument in quotes: "brisque show --help"
    explains the fields, and the notation is documented at
    https://github.com/brisque-solver/brisque-solver/tree/main/docs (notation.md).
    Values are final deal margins for the player to move (tricks in Petite
    Brisque); a game-winning event is worth 10000.

    \b
    Examples:
      brisque show  "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
      brisque solve "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
      brisque analyse "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
      brisque deal --seed 7 --rules briscan --at 5
      brisque puzzles positions/*.bpd
      brisque match pimc:50 greedy --deals 20

    Every query command has --json; "brisque COMMAND --help" tells more.

    \b
    Exit status: 0 done; 1 puzzles that failed, or batch lines that got an
    error; 2 bad input (a malformed or impossible position, a bad option);
    128 + N after signal N (130 for Ctrl-C), with the answer so far printed
    where there is one (a sampled analysis, a line, a match, the lines of a
    batch, a solve's bounds proven so far; with --json, an "interrupted" error
    where nothing was proven yet); 141 (SIGPIPE's) when the reader of the
    output goes away, as "| head" does.
    """


@main.command()
@click.argument("bpn")
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of the picture.")
@click.option(
    "--svg",
    "as_svg",
    is_flag=True,
    help="An SVG card diagram instead of the picture (to -o FILE, or stdout).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="With --svg: the file to write the diagram to.",
)
@click.option(
    "--pov",
    type=click.Choice(["a", "b"]),
    help="With --svg: the seat at the bottom (default: the player to act).",
)
@click.option(
    "--size", type=_Whole(16, 4000), default=480, show_default=True, help="With --svg: width in pixels."
)
@click.option(
    "--highlight", "marks", multiple=True, help="With --svg: a move to ring (repeatable), such as TH or x."
)
@click.option(
    "--arrow",
    "arrows",
    multiple=True,
    help="With --svg: a card move to draw as an arrow to the trick (repeatable).",
)
def show(
    bpn: str,
    as_json: bool,
    as_svg: bool,
    output: str | None,
    pov: str | None,
    size: int,
    marks: tuple[str, ...],
    arrows: tuple[str, ...],
) -> None:
    """Print a readable picture of the position BPN and whether it is valid.

    Shows both hands by suit (the suits a player has shown out of marked "shown
    out"), the trump, the talon, scores and tricks ("tricks not recorded" when
    a Brisque BPN leaves them out), who is to act and the legal moves.  An impossible position is pictured with the reasons, and
    exits with status 2, as malformed BPN does and as every command does for it.

    \b
    BPN fields, separated by spaces:
      rules   brisque, briscan, petite, with options: briscan(target=300)
      hands   a's hand/b's hand, suits S.H.D.C: AK9.97..9/7..Q9.A7 (?6: six hidden)
      trump   the turnup card (9C), or the trump suit once it is taken (D)
      talon   the cards in draw order (KH9S8C), or their number when hidden (13)
      out     the cards played in earlier tricks, as a hand (TQJ8.ATKQJ8..), or -
      trick   the card led to the current trick, or -
      turn    a or b, the player to act
      score   A:B, points so far; then optional key=value fields (tricks=2:1, ...)

    \b
    Examples:
      brisque show "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"
      brisque show "$(brisque deal --seed 3 --at 5)" --svg -o deal.svg --arrow TS --highlight +mH
    """
    from solver.errors import HiddenInformationError
    from solver.formats.picture import picture, suit_symbols

    p = _position(bpn, check=False, command="show")
    probs = p.problems()
    if not as_svg:
        option = {
            "output": "-o/--output",
            "pov": "--pov",
            "size": "--size",
            "marks": "--highlight",
            "arrows": "--arrow",
        }
        drawing_only = [option[key] for key in _given(*option)]
        if drawing_only:
            raise click.UsageError(
                f"{' and '.join(drawing_only)} {'is' if len(drawing_only) == 1 else 'are'} for the "
                f"SVG diagram: add --svg"
            )
    if as_json and as_svg:
        raise click.UsageError("--json and --svg are two answers: choose one")
    if as_svg:
        from solver.errors import ArgumentError
        from solver.model.svg import MarkError, svg

        try:
            drawing = svg(p, pov=pov, size=size, highlight=list(marks), arrows=list(arrows))
        except MarkError as exc:  # (named as the option that gave it: --arrow ZZ)
            raise BrisqueCommandError(f"--{exc.detail}") from None
        except ArgumentError as exc:
            raise BrisqueCommandError(str(exc)) from None
        if probs:  # (drawn all the same, as the picture is, and the reasons said)
            click.echo(f"impossible position {p.bpn()!r}: " + "; ".join(probs), err=True)
        if output:
            writable_file(output, "diagram")
            try:
                with open(output, "w", encoding="utf-8") as f:
                    f.write(drawing + "\n")
            except OSError as exc:  # (a full disk: the file named, not a traceback)
                raise _Failed(f"cannot write the diagram to {output!r}: {exc.strerror or exc}") from None
            click.echo(f"wrote {output}", err=True)
        else:
            click.echo(drawing)
    elif as_json:
        try:
            moves = [str(m) for m in p.legal_moves()]
        except HiddenInformationError:
            moves = None
        click.echo(
            json.dumps(
                {
                    "bpn": p.bpn(),
                    "valid": not probs,
                    "problems": probs,
                    "turn": "ab"[p.turn],
                    "trick": min(p.trick_number, p.rules.tricks_per_deal),
                    "over": p.is_over(),
                    "legal": moves,
                }
            )
        )
    else:
        click.echo(picture(p, suit_symbols(getattr(sys.stdout, "encoding", None))))
    if probs:
        sys.exit(BrisqueCommandError.exit_code)  # (the same status as solve's for it)


@main.command()
@click.option("--seed", type=SEED, required=True, help="Seed of the shuffle: the same seed, the same deal.")
@click.option(
    "--rules",
    "rules",
    default="brisque",
    show_default=True,
    help="Game and options, as the BPN rules field: brisque, briscan, petite, 'brisque(target=300)'.",
)
@click.option(
    "--at",
    "at",
    type=whole(1, MAX_TRICKS_PER_DEAL, note=f"Petite Brisque: x<={PETITE_TRICKS}"),
    default=1,
    show_default=True,
    help=f"Play on by random legal moves (seeded) until this trick starts (at most the deal's "
    f"tricks: {MAX_TRICKS_PER_DEAL} in Brisque and Briscan, {PETITE_TRICKS} in Petite Brisque).",
)
@click.option(
    "--view",
    type=click.Choice(["a", "b", "turn"]),
    default=None,
    help="Print the position as this player sees it (hidden cards as ?N); 'turn' is the player to move.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="One JSON object: the BPN, with the seed, rules, view, player to move and trick.",
)
def deal(seed: int, rules: str, at: int, view: str | None, as_json: bool) -> None:
    """Print the BPN of a position dealt from SEED.

    The talon order is known (a double-dummy position).  With --at the deal is
    played on by random legal moves to the start of the given trick.

    \b
    Examples:
      brisque deal --seed 7
      brisque deal --seed 7 --rules briscan --at 12
      brisque show "$(brisque deal --seed 7 --at 11)"
      brisque deal --seed 7 --at 11 --json
    """
    from solver.play.dealing import random_position

    r = _rules_option(rules)
    if at > r.tricks_per_deal:
        raise BrisqueCommandError(f"--at {at}: a deal of {r.game} has {r.tricks_per_deal} tricks")
    p = random_position(seed, r, at)
    seat = None if view is None else "ab"[p.turn] if view == "turn" else view
    if seat is not None:
        p = p.view(seat)
    if not as_json:
        click.echo(p.bpn())
        return
    # Every other command answers in JSON on asking; a script dealing positions gets what
    # it would otherwise recompute (the seat of --view turn resolved, the trick reached).
    answer = {
        "bpn": p.bpn(),
        "seed": seed,
        "rules": str(r),
        "view": seat,
        "turn": "ab"[p.turn],
        "trick": p.trick_number,  # (the trick --at asked for: a deal never ends before it)
    }
    click.echo(json.dumps(answer))


_NO_BUDGET: _Budget = {"nodes": None, "seconds": None, "depth": None, "quick": False}


def _solve_one(
    bpn: str,
    table_bits: int,
    limit: _Budget | None = None,
    status: StatusLine | None = None,
    threads: int | None = None,
) -> tuple[Position, Analysis]:
    """The solve of one BPN (exact on ``threads`` sharing its table, with ``--workers``);
    ``status`` (enabled: on a terminal) shows an exact solve's progress, and is ended
    before the answer is printed."""
    from solver.engine.api import solve

    p = _position(bpn, command="solve")
    line = status or StatusLine(False)
    t0 = time.perf_counter()

    def progress(done: int, total: int, nodes: int) -> None:
        seconds = time.perf_counter() - t0
        line.show(f"solving: {done} of {total} moves, {nodes / 1e6:.1f} M nodes, {seconds:.0f} s")

    try:
        shown = progress if line.enabled else None
        return p, solve(p, table_bits=table_bits, threads=threads, progress=shown, **(limit or _NO_BUDGET))
    finally:
        line.end()


def _refusal(exc: Exception, given: str) -> BrisqueCommandError:
    """The library's message (which quotes the canonical BPN), plus the input as typed
    when that differs."""
    from solver.model.limits import short

    msg = str(exc)
    if given.strip() not in msg:
        msg += f" (given as {short(given.strip(), BPN_WIDTH)})"
    return BrisqueCommandError(msg)


READ_BYTES = min(1 << 16, MAX_LINE_BYTES)  # standard input is read in blocks of at most this
QUOTE_BYTES = 100  # of a line too long, the bytes kept of its beginning and of its end


class _PendingLine:
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

    def take(self, number: int) -> Iterator[tuple[str | None, str | None]]:
        """The line, line ``number``, as :func:`_stdin_line` gives it (an error when too
        long); this then holds the next line."""
        pieces, too_long, size, head, tail = self.pieces, self.too_long, self.size, self.head, self.tail
        self._begin()
        if not too_long:
            yield from _stdin_line(b"".join(pieces), number)
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


def _stdin_lines(before_wait: Callable[[], object] | None = None) -> Iterator[tuple[str | None, str | None]]:
    """Standard input's BPN lines, stripped, without blank lines and ``#`` comments: each as
    (line, None), or (None, its error as a JSON answer) for a line that is not UTF-8 text
    or is longer than ``MAX_LINE_BYTES`` (not kept whole: :class:`_PendingLine`).

    Input is read a block at a time, as much as is there; ``before_wait`` runs before each
    read, which may wait: there a batch flushes its answers, so that a coprocess that writes
    a line and waits gets its answer at once, while a file costs one flush a block."""
    stream = sys.stdin.buffer
    read1 = getattr(stream, "read1", None)
    number = 0
    pending = _PendingLine()
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
            yield from _stdin_line(raw, number)  # (within one block: at most READ_BYTES)
        pending.add(raws[-1])
    if pending.size:
        yield from pending.take(number + 1)


def _stdin_line(raw: bytes, number: int) -> Iterator[tuple[str | None, str | None]]:
    """One line of :func:`_stdin_lines`: nothing for a blank line or a comment."""
    try:
        line = raw.decode("utf-8").lstrip("\ufeff").strip()  # (a byte-order mark is no text)
    except UnicodeDecodeError as exc:
        # (each byte that is no UTF-8 as \xff, as a BPN argument's is: docs/notation.md, "Errors")
        text = raw.decode("utf-8", errors="backslashreplace").strip()
        yield None, json.dumps({"bpn": text, "error": f"line {number} is not UTF-8 text ({exc.reason})"})
        return
    if line and not line.startswith("#"):
        yield line, None


def _json_lines(answer: Callable[[str], Analysis | SampledAnalysis | EquilibriumAnalysis], verb: str) -> None:
    """Standard input, one BPN a line, to standard output, one JSON object a line.

    A line that fails gives {"bpn": ..., "error": ...} and the others still run; the exit
    status is 1 when any line failed."""
    from solver.errors import BrisqueError
    from solver.model.limits import short

    failed = read = 0
    for line, error in _stdin_lines():
        read += 1
        if line is None:
            failed += 1
            click.echo(error)
            continue
        try:
            a = answer(line)
            click.echo(a.to_json())
            if getattr(a, "stopped", None) == "interrupted":
                # Ctrl-C (or SIGTERM) during a sampled line: its answer so far is out, and the
                # batch stops there as every command does (exit 130), not with the next line
                raise KeyboardInterrupt
        except (BrisqueCommandError, BrisqueError) as exc:
            failed += 1
            msg = exc.message if isinstance(exc, click.ClickException) else _option_words(str(exc))
            click.echo(json.dumps({"bpn": line, "error": msg}))
        except Exception as exc:  # a bad line never stops the others: say what failed
            failed += 1
            error = _option_words(f"internal error on {short(line)}: {type(exc).__name__}: {exc}")
            click.echo(json.dumps({"bpn": line, "error": error}))
    _batch_end(read, failed, verb)


def _batch_end(read: int, failed: int, verb: str) -> None:
    """The end of a batch (``-``): a note on standard error when no position was read (exit
    status 0: nothing failed), or how many lines failed (exit status 1)."""
    if not read:
        click.echo("no positions read from standard input (one BPN a line expected)", err=True)
    if failed:
        from solver.formats.words import plural

        click.echo(f"{plural(failed, 'line')} could not be {verb}", err=True)
        sys.exit(1)


def _broken_pool(exc: Exception) -> bool:
    """Whether ``exc`` is a process pool's ``BrokenProcessPool``.  Its module (with
    multiprocessing: some 20 ms to import) is looked up only if a pool imported it, so that
    ``brisque solve -`` without workers does not import it: without a pool, none broke."""
    pool = sys.modules.get("concurrent.futures.process")
    return pool is not None and isinstance(exc, pool.BrokenProcessPool)


FLUSH_SECONDS = 0.05  # the longest a batch keeps an answer it could write


def _json_batch(table_bits: int, limit: _Budget, executor: Executor | None, workers: int = 1) -> None:
    """``brisque solve -``: standard input, one BPN a line, to standard output, one JSON
    object a line, in order, solved here, by ``workers`` processes or by ``executor``
    (:func:`solver.analysis.batch.solve_lines`); a line that is not UTF-8 text gets its
    error in its place.  The exit status is 1 when any line failed."""
    from collections import deque

    from solver.analysis.batch import solve_lines
    from solver.engine.results import SolveInterrupted

    pending: deque[str | None] = deque()  # by line read: its error, or None (being solved)
    # the answers, kept here and written out when input may wait (see _stdin_lines) or when
    # many are kept: one write a block of input, even where standard output is unbuffered
    kept: list[str] = []

    last_flush = [time.monotonic()]

    def write(text: str) -> None:
        kept.append(text)
        # (a slow answer, or a long run of quick ones, goes out at once: kept answers are
        # never held back for more than a moment by the next solve)
        if len(kept) >= 1000 or time.monotonic() - last_flush[0] > FLUSH_SECONDS:
            flush()

    def flush() -> None:
        if kept:
            text = "\n".join(kept) + "\n"
            kept.clear()  # (before writing: a Ctrl-C inside the write cannot write it twice)
            sys.stdout.write(text)
        sys.stdout.flush()
        last_flush[0] = time.monotonic()

    def before_wait() -> None:
        flush_errors()  # (a line that is not UTF-8 is answered before input is awaited too)
        flush()

    read = 0

    def texts() -> Iterator[str]:
        nonlocal read
        for line, error in _stdin_lines(before_wait):
            read += 1
            pending.append(error)
            if line is not None:
                yield line

    failed = 0

    def flush_errors() -> None:
        nonlocal failed
        while pending and pending[0] is not None:
            failed += 1
            write(pending.popleft())  # type: ignore[arg-type]

    try:
        for answer, ok in solve_lines(
            texts(), table_bits, limit, executor, workers=workers, before_slow=flush
        ):
            flush_errors()
            pending.popleft()
            failed += not ok
            write(answer)
        flush_errors()
    except SolveInterrupted as stop:
        # Ctrl-C in a line solved here: what it proved goes out in its place, as `solve BPN`
        # prints it (the lines of worker processes are lost with their workers)
        flush_errors()
        if pending:
            pending.popleft()
        write(stop.analysis.to_json())
        raise
    except Exception as exc:
        if not _broken_pool(exc):
            raise
        # (a worker killed from outside: the answers so far are out)
        raise BrisqueCommandError(
            "a worker process died (killed from outside?): the answers above are complete"
        ) from None
    finally:
        flush()  # (what was answered is written, on Ctrl-C too)
    _batch_end(read, failed, "solved")


@main.command("solve")
@click.argument("bpn")
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON object (the answer format of docs/notation.md)."
)
@click.option(
    "--table-bits",
    type=whole(MIN_TABLE_BITS, MAX_TABLE_BITS),
    default=DEFAULT_TABLE_BITS,
    show_default=True,
    help=TABLE_BITS_HELP,
)
@click.option(
    "--nodes",
    type=NODES,
    default=None,
    help="Node budget: stop early with proven bounds (exact: false) when spent.",
)
@click.option(
    "--seconds",
    type=SECONDS,
    default=None,
    help="Time budget in seconds (real time), as --nodes.",
)
@click.option(
    "--depth",
    type=DEPTH,
    default=None,
    help="Search this many tricks and score the horizon with the fitted evaluation "
    "of docs/solver.md, the final phase exact (fast, approximate).",
)
@click.option(
    "--quick",
    is_flag=True,
    help="Run the search each world of a sampled analysis gets: exact in the last four talon "
    "tricks, four tricks to the fitted horizon evaluation before (to measure it against the exact solve).",
)
@click.option(
    "--workers",
    type=WORKERS,
    default=1,
    show_default=True,
    help="Cores: threads sharing one exact solve and its table (one BPN: the same answer, "
    "sooner on a long one), or worker processes for the lines of BPN - in chunks.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress on standard error (shown only on a terminal).")
@scheduler_option
def solve_cmd(
    bpn: str,
    as_json: bool,
    table_bits: int,
    nodes: int | None,
    seconds: float | None,
    depth: int | None,
    quick: bool,
    workers: int,
    scheduler: str | None,
    quiet: bool,
) -> None:
    """Solve a perfect-information position exactly.

    Prints the value for the player to move (the final deal margin, tricks in
    Petite Brisque), every legal move with its value best first, and the principal
    variation trick by trick.  A card's value is that of playing it at once.

    BPN "-" reads one BPN a line from standard input and writes one JSON object
    a line; a bad line gives {"bpn": ..., "error": ...} and the others still run
    (exit status 1 if any line failed).  Blank lines and # comments are skipped;
    input without any position gets a note on standard error (exit status 0).

    Whole deals (talon order known) can take long: --nodes, --seconds or --depth
    bound the work; the answer then gives proven lower and upper bounds for the
    position and every move, and says exact: false unless the position's bounds
    meet (a proven value, such as a game won outright).

    On a terminal, a progress line counts the moves an exact solve has done, one
    root move at a time, and the nodes and seconds, each second (not with -q or
    --json).

    Positions with hidden cards (?N, or a talon given only by its count) need the
    sampling analysis instead.

    \b
    Examples:
      brisque solve "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
      brisque deal --seed 3 --at 11 | brisque solve - > answers.jsonl
      brisque solve - --scheduler local:2 < positions.txt > answers.jsonl
      brisque solve "$(brisque deal --seed 3)" --seconds 5
      brisque solve "$(brisque deal --seed 3)" --workers 2
    """
    if quick and (nodes or seconds or depth):
        raise BrisqueCommandError(
            "--quick is a search of its own: give no --nodes, --seconds or --depth with it"
        )
    limit: _Budget = {"nodes": nodes, "seconds": seconds, "depth": depth, "quick": quick}
    if scheduler is None:  # (a cluster's workers hold their tables on their own machines)
        from solver.errors import ArgumentError

        try:  # (before any table is made: a table too large swapped for a minute, or failed)
            table_bits_argument(table_bits, tables=workers if bpn == "-" else 1)
        except ArgumentError as exc:
            raise BrisqueCommandError(str(exc)) from None
    if bpn == "-":
        with _executor(scheduler, workers) as ex:
            _json_batch(table_bits, limit, ex, workers)
        return
    from solver.analysis.report import format_analysis
    from solver.engine.results import SolveInterrupted
    from solver.errors import PositionError

    if scheduler is not None:
        raise BrisqueCommandError("--scheduler runs the lines of 'brisque solve -' on a cluster: give BPN -")
    try:
        if workers > 1:
            if nodes or seconds or depth or quick:
                raise BrisqueCommandError(
                    "--workers shares an exact solve: give no --nodes, --seconds, --depth or --quick"
                )
            from solver.native.engine import MAX_SOLVE_THREADS

            # (parallel_solve's threads, with the progress line)
            threads = min(workers, MAX_SOLVE_THREADS)
            p, a = _solve_one(bpn, table_bits, None, StatusLine(_on_terminal(quiet, as_json)), threads)
        else:
            p, a = _solve_one(bpn, table_bits, limit, StatusLine(_on_terminal(quiet, as_json)))
    except PositionError as exc:
        raise _refusal(exc, bpn) from None
    except SolveInterrupted as stop:  # Ctrl-C: what was proven so far, then exit 130
        click.echo(stop.analysis.to_json() if as_json else format_analysis(stop.analysis))
        click.echo("interrupted", err=True)
        _interrupted_exit()
    click.echo(a.to_json() if as_json else format_analysis(a, p))


@main.command("analyse")
@click.argument("bpn")
@click.option(
    "--worlds",
    type=WORLDS,
    default=100,
    show_default=True,
    help="Worlds to sample (all are enumerated when there are no more).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the sampling.")
@click.option(
    "--workers",
    type=WORKERS,
    default=1,
    show_default=True,
    help="Worker processes solving worlds in parallel.",
)
@click.option(
    "--seconds",
    "time_limit",
    type=SECONDS,
    default=None,
    help="Stop after this many seconds, whatever --worlds says: the world being solved then "
    "stops too and is left out; the answer is the worlds solved so far.  Ctrl-C also gives "
    "the answer so far (exit 130).",
)
@click.option(
    "--separation",
    type=number(0, 1000),
    default=None,
    help="Stop once the best move leads the runner-up by this many standard errors.",
)
@click.option(
    "--depth",
    type=DEPTH,
    default=None,
    help="Tricks of look-ahead per world (default: exact in the last four talon tricks, 4 before).",
)
@click.option(
    "--world-search",
    default="quick",
    show_default=True,
    help="The search each world gets: quick (the default rule), exact (every world solved "
    "exactly: slow early), depth:N (N tricks to the fitted horizon evaluation) or handmade:N "
    "(N tricks to the hand-made heuristic, the old default being handmade:3).",
)
@click.option(
    "--win-worth",
    default="match",
    show_default=True,
    help="What a game won outright (four kings or queens, a vole) counts in the values that rank "
    "the moves: 'match' (the points its winner still needed to reach the target), a whole number "
    f"of points (1 to {MAX_WIN_WORTH}), or 'sentinel' (+-10000).  The answer also gives each move's p_win, p_loss and its "
    "margin over the other worlds.",
)
@click.option(
    "--method",
    type=click.Choice(["pimc", "equilibrium"]),
    default="pimc",
    show_default=True,
    help="pimc: sample worlds and solve each double dummy; equilibrium: solve the public "
    "subgame exactly (at most one talon trick left, or two cards a hand in Petite Brisque).",
)
@click.option(
    "--max-exploitability",
    type=number(0, lo_open=True),
    default=0.1,
    show_default=True,
    help="With --method equilibrium: refuse an answer a best response could exploit by more points.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object (method pimc, stderr, worlds, ...).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on standard error.")
@scheduler_option
def analyse_cmd(
    bpn: str,
    method: str,
    worlds: int,
    seed: int,
    workers: int,
    time_limit: float | None,
    separation: float | None,
    depth: int | None,
    world_search: str,
    win_worth: str,
    max_exploitability: float,
    scheduler: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Best move and expected score with hidden cards (determinization sampling).

    BPN is the position as the player to move sees it: the opponent's unseen cards
    as ?N and the talon as a count.  Worlds consistent with that view are sampled
    with SEED, every world is solved by the engine, and each legal move gets its
    mean value over the same worlds with a standard error.  Without hidden cards
    the answer is the exact solve (the sampling's options are then an error), and
    a finished deal gets the answer of "brisque solve": its final margin, no moves.  BPN "-" reads one BPN a line and
    writes one JSON object a line (as "brisque solve -" does).

    --method equilibrium solves the public subgame (both hands hidden, every
    consistent deal equally likely) exactly, late in the deal: each move's
    equilibrium probability and value, the exploitability, and what PIMC's move
    loses against the equilibrium opponent.  The sampling's options (--worlds,
    --seed, --workers, --seconds, --separation, --depth, --world-search) are an
    error with it, as --max-exploitability is without it.

    \b
    Examples:
      brisque analyse "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
      brisque analyse "$(brisque deal --seed 4 --at 5 --view turn)" --worlds 400 --workers 2
      brisque analyse "$(brisque deal --seed 4 --at 5 --view turn)" --worlds 2000 --scheduler local:2
      brisque analyse "petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H" --method equilibrium
    """
    from solver.analysis.equilibrium import EquilibriumAnalysis
    from solver.analysis.ranking import RankingRule
    from solver.analysis.report import format_sampled
    from solver.analysis.sampling import SampledAnalysis, analyse
    from solver.engine.quick import WorldSearch
    from solver.errors import ArgumentError, PositionError

    try:
        rank = RankingRule.parse(win_worth)
        search = WorldSearch.parse(world_search)
        if depth is not None and search.kind != "quick":  # (analyse says so too, in its words)
            raise ArgumentError(f"--depth {depth} and --world-search {world_search}: give one of them")
    except ArgumentError as exc:
        message = str(exc)  # (WorldSearch.parse names no option: "world search 'x': ...")
        if message.startswith("world search "):
            message = "--world-search " + message.removeprefix("world search ")
        raise BrisqueCommandError(message) from None
    _options_of_method(method)
    status = StatusLine(bpn != "-" and _on_terminal(quiet, as_json))

    def bar(done: int, total: int) -> None:
        status.show(f"{done}/{total} worlds")

    def best_so_far(a: SampledAnalysis) -> None:
        from solver.formats.words import plural

        mv = next(m for m in a.moves if m.move == a.best[0])
        spread = "?" if mv.stderr is None else f"{mv.stderr:.1f}"
        status.show(f"{plural(a.worlds, 'world')}, best {mv.move} {mv.value:+.1f} +- {spread}")

    if scheduler is not None and method == "equilibrium":
        raise BrisqueCommandError("--scheduler runs the sampling's worlds: the equilibrium is solved here")

    def run(
        text: str, show_progress: bool
    ) -> tuple[Position, Analysis | SampledAnalysis | EquilibriumAnalysis]:
        p = _position(text, command=None if bpn == "-" else "analyse")
        if p.is_over():  # (the answer of brisque solve: the final margin, no moves)
            from solver.engine.api import solve

            return p, solve(p)
        if method == "equilibrium":
            from solver.analysis.equilibrium import equilibrium

            return p, equilibrium(p, win_worth=str(rank), max_exploitability=max_exploitability)
        try:
            return p, analyse(
                p,
                worlds=worlds,
                seed=seed,
                workers=workers,
                executor=executor,
                time_limit=time_limit,
                separation=separation,
                depth=depth,
                world_search=search,
                progress=bar if show_progress else None,
                on_update=best_so_far if show_progress else None,
                win_worth=str(rank),
            )
        finally:
            status.end()

    if bpn != "-" and scheduler is not None:
        _position(bpn, command="analyse")  # (a bad BPN is said before any cluster is reached)
    if bpn != "-" and method == "pimc":
        values = click.get_current_context().params
        given = [f"{PIMC_ONLY[name]} {_typed(name, values[name])}" for name in _given(*PIMC_ONLY)]
        if given and not _position(bpn, command="analyse").has_hidden:  # (refuse, don't ignore)
            raise BrisqueCommandError(
                f"{', '.join(given)}: every card of this position is known, so no worlds are "
                "sampled: the answer is the exact solve (brisque solve takes a budget)"
            )
        if _given("win_worth") and not _position(bpn, command="analyse").has_hidden:
            raise BrisqueCommandError(
                f"--win-worth {win_worth}: every card of this position is known, so no move is ranked "
                "by sampled values: the answer is the exact solve, where a game won is +-10000 and "
                "'win' names the winner"
            )
    with _executor(scheduler, workers) as executor:
        if bpn == "-":
            _json_lines(lambda line: run(line, False)[1], "analysed")
            return
        try:
            p, a = run(bpn, status.enabled)
        except (PositionError, ArgumentError) as exc:  # (ArgumentError: outside the equilibrium's domain)
            raise _refusal(exc, bpn) from None
    if as_json:
        click.echo(a.to_json())
    elif isinstance(a, SampledAnalysis):
        click.echo(format_sampled(a, p))
    elif isinstance(a, EquilibriumAnalysis):
        from solver.analysis.report import format_equilibrium

        click.echo(format_equilibrium(a))
    else:
        from solver.analysis.report import format_analysis

        click.echo(format_analysis(a, p))
    if isinstance(a, SampledAnalysis) and a.stopped == "interrupted":
        _interrupted_exit()  # the answer so far is printed


# The options of brisque analyse that only one method reads, by its parameter's name.
PIMC_ONLY = {
    "worlds": "--worlds",
    "seed": "--seed",
    "workers": "--workers",
    "time_limit": "--seconds",
    "separation": "--separation",
    "depth": "--depth",
    "world_search": "--world-search",
}
EQUILIBRIUM_ONLY = {"max_exploitability": "--max-exploitability"}


def _options_of_method(method: str) -> None:
    """Refuse the options of ``brisque analyse`` given on the command line that the other
    method reads (rather than ignore them)."""
    others = PIMC_ONLY if method == "equilibrium" else EQUILIBRIUM_ONLY
    given = [others[name] for name in _given(*others)]
    if given:
        names = ", ".join(dict.fromkeys(given))
        if method == "equilibrium":
            raise BrisqueCommandError(
                f"{names}: {'this option is' if len(given) == 1 else 'these options are'} for the "
                f"sampling (--method pimc); the equilibrium solves every deal exactly"
            )
        raise BrisqueCommandError(f"{names}: this option is for --method equilibrium only")


ID_WIDTH = 10  # the least width of brisque puzzles' id column (wider for a longer id)
VALUE_WIDTH = 7  # the least width of its value column ('-120.00'; wider for a longer value)


@main.command("puzzles")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, allow_dash=True)
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record.")
@click.option(
    "--workers",
    type=WORKERS,
    default=1,
    show_default=True,
    help="Worker processes for the records that need sampling.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress on standard error.")
@scheduler_option
def puzzles_cmd(
    files: tuple[str, ...], as_json: bool, workers: int, quiet: bool, scheduler: str | None
) -> None:
    """Solve every record of puzzle files (.bpd) and check bm, am, pv, v and ev.

    Positions with every card known are solved exactly, those with hidden cards
    by sampling with the record's worlds and seed.  bm and am moves must be legal;
    a pv must be legal and, with every card known, keep the value at each move
    (with hidden cards: its first move one of the best).  FILE "-" reads standard
    input, each record answered as soon as it is checked.  Prints a line per record
    (status, id, value, best moves, then FILE:LINE and what failed) and a summary
    ("58 of 61 solved, 2 failed, 1 unreadable"; after Ctrl-C, "12 of 12 solved so
    far", marked "interrupted" with --json, exit 130); a record with none of bm, am,
    pv, v, ev is solved but not checked ("--", counted apart).  Exits 1 when any
    record fails or is malformed (a malformed line is reported with its file and
    line, a file that is not text once, and the others still run).  An id given
    twice is warned of on standard error.

    \b
    Examples:
      brisque puzzles positions/brisque-endgames.bpd positions/hidden-cards.bpd
      brisque puzzles positions/*.bpd --scheduler local:2
      brisque deal --seed 3 --at 11 | brisque puzzles -
    """
    from solver.analysis.puzzles import check_records
    from solver.errors import PuzzleError
    from solver.formats.bpd import Record, iter_bpd_lines, read_bpd

    def read(path: str) -> Iterator[Record | PuzzleError]:
        try:
            yield from iter_bpd_lines(sys.stdin.buffer, "stdin") if path == "-" else read_bpd(path)
        except OSError as exc:
            raise BrisqueCommandError(f"cannot read {path!r}: {exc.strerror}") from None

    def nothing_read() -> BrisqueCommandError:
        return BrisqueCommandError(
            f"no puzzle records in {', '.join(files)}: expected lines 'BPN ; op operand ; ...'"
        )

    # Files are read whole first, so that the id column fits the longest id and the columns
    # after it line up however long an id is.  Standard input is checked as it is read (a
    # pipe's first lines are answered before it ends): there the id column is ID_WIDTH
    # wide, and wider from the first longer id on.
    streamed = "-" in files
    items: Iterable[Record | PuzzleError]
    if streamed:
        items = (item for path in files for item in read(path))
        id_width, total_text = ID_WIDTH, ""
    else:
        items = [item for path in files for item in read(path)]
        if not items:
            raise nothing_read()
        id_width = max([ID_WIDTH, *(len(r.id) for r in items if isinstance(r, Record))])
        total_text = f"/{len(items)}"
    value_width = VALUE_WIDTH
    solved = failed = unreadable = unchecked = done = 0
    progress = StatusLine(_on_terminal(quiet, as_json))
    first_seen: dict[str, str] = {}  # each id given so far, and where (file:line)

    def started(r: Record) -> None:
        progress.show(f"[{done + 1}{total_text}] {r.id}")

    def duplicate(rid: str | None, source: str | None) -> str | None:
        """Where ``rid`` was given before ``source``, said on standard error; None for an id
        seen first (or no id)."""
        if rid is None or source is None:
            return None
        first = first_seen.setdefault(rid, source)
        if first == source:  # (the first, or the same file given twice: nothing to tell apart)
            return None
        click.echo(f'warning: id "{rid}" at {source} was already given at {first}', err=True)
        return first

    interrupted = False
    try:
        with _executor(scheduler, workers) as executor:
            for item, verdict in check_records(items, workers=workers, executor=executor, before=started):
                done += 1
                progress.clear()  # (wiped before the record's line)
                if isinstance(item, PuzzleError):
                    unreadable += 1
                    before = duplicate(item.id, item.source)
                    if as_json:  # (with its source, file:line, as a record that could be read)
                        bad: dict[str, object] = {"id": item.id, "source": item.source, "ok": False}
                        bad.update(error=str(item), **({"duplicate_of": before} if before else {}))
                        click.echo(json.dumps(bad))
                    else:
                        click.echo(f"ERROR  {item}")
                    continue
                id_width = max(id_width, len(item.id))  # (streamed: from the first longer id on)
                before = duplicate(str(item.ops["id"]) if "id" in item.ops else None, item.source)
                also = {"duplicate_of": before} if before else {}
                if isinstance(verdict, str):  # a record the solver refused: the others still run
                    failed += 1
                    click.echo(
                        json.dumps(
                            {"id": item.id, "source": item.source, "ok": False, "error": verdict, **also}
                        )
                        if as_json
                        else f"ERROR  {verdict}"
                    )
                    continue
                if not verdict.checked:  # nothing to check: neither solved nor failed
                    unchecked += 1
                elif verdict.ok:
                    solved += 1
                else:
                    failed += 1
                if as_json:
                    click.echo(json.dumps({**verdict.to_dict(), **also}))
                else:
                    a = verdict.answer
                    status = "ok   " if verdict.ok else "FAIL "
                    # (file:line before what failed: an editor or a terminal opens it there)
                    detail = "" if verdict.ok else f"  {item.source}: " + "; ".join(verdict.failures)
                    if verdict.ok and not verdict.checked:
                        status, detail = "--   ", "  not checked: no bm, am, pv, v or ev"
                    if a is None:  # not even solvable: an impossible position
                        click.echo(f"{status} {item.id:<{id_width}}{detail}")
                        continue
                    # the value before the best moves, whose number varies (one to a whole hand
                    # and its declarations): the last column, it pushes nothing out of line
                    shown = f"{a.value:+.2f}" if a.method == "pimc" else f"{a.value:+d}"
                    value_width = max(value_width, len(shown))
                    best = " ".join(str(m) for m in a.best)
                    click.echo(
                        f"{status} {item.id:<{id_width}} value {shown:<{value_width}} best {best}{detail}"
                    )
    except KeyboardInterrupt:  # (the records checked so far stand: their summary follows)
        progress.clear()
        if not done:
            raise
        interrupted = True
    if not done:  # (standard input that held no record)
        raise nothing_read()
    # (the records checked: an unchecked one states nothing to solve)
    total = solved + failed + unreadable
    if not as_json:
        click.echo(_puzzles_summary(solved, failed, unreadable, unchecked, interrupted))
    else:
        # (interrupted: a script must not take the records checked so far for the files)
        click.echo(
            json.dumps(
                {
                    "summary": True,
                    "solved": solved,
                    "total": total,
                    "unchecked": unchecked,
                    "failed": failed,
                    "unreadable": unreadable,
                    **({"interrupted": True} if interrupted else {}),
                }
            )
        )
    if interrupted:
        from solver.formats.words import plural

        whole = f" of {len(items)}" if isinstance(items, list) else ""  # (standard input: not known)
        click.echo(f"interrupted after {plural(done, 'record')}{whole}", err=True)
        _interrupted_exit()
    if failed or unreadable:
        sys.exit(1)


def _puzzles_summary(solved: int, failed: int, unreadable: int, unchecked: int, interrupted: bool) -> str:
    """The last line of ``brisque puzzles``: ``2 of 5 solved, 1 failed, 2 unreadable`` (the
    records checked, failed and unreadable ones included; a count of none is left out).

    >>> _puzzles_summary(2, 1, 2, 0, False)
    '2 of 5 solved, 1 failed, 2 unreadable'
    >>> _puzzles_summary(3, 0, 0, 1, True)
    '3 of 3 solved so far, 1 not checked (no bm, am, pv, v or ev)'
    """
    parts = [f"{solved} of {solved + failed + unreadable} solved{' so far' if interrupted else ''}"]
    if failed:
        parts.append(f"{failed} failed")
    if unreadable:
        parts.append(f"{unreadable} unreadable")
    if unchecked:
        parts.append(f"{unchecked} not checked (no bm, am, pv, v or ev)")
    return ", ".join(parts)


@main.command("line")
@click.argument("bpn", required=False)
@click.argument("moves", nargs=-1)
@click.option(
    "--record",
    "record_file",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Analyse a whole deal record (JSON Lines as written by brisque match --records) instead.",
)
@click.option(  # (the spelling of brisque match, taken here too)
    "--records", "records_alias", type=click.Path(exists=True, dir_okay=False), default=None, hidden=True
)
@click.option(
    "--deal",
    "deal_index",
    type=whole(1, 10**9),
    default=1,
    show_default=True,
    help="Which record of the --record file.",
)
@click.option("--nodes", type=NODES, default=None, help="Node budget per position.")
@click.option("--depth", type=DEPTH, default=None, help="Tricks of look-ahead per position (estimates).")
@click.option("--exact", is_flag=True, help="Solve every position exactly, however early (can be slow).")
@click.option(
    "--view",
    type=click.Choice(["full", "own"]),
    default="full",
    show_default=True,
    help="full: judge moves double-dummy (every card seen).  own: judge each move from its player's "
    "own information, sampling the worlds his view allows; a move is then a mistake only when its "
    "loss exceeds two standard errors of the paired difference (an inaccuracy where the worlds' "
    "values are estimates, early in the talon), and the double-dummy loss is shown beside it "
    "(needs a deal with every card known, such as a record).",
)
@click.option(
    "--worlds",
    type=whole(1, MAX_WORLDS, note=f"--view own: x>={MIN_OWN_WORLDS}"),
    default=100,
    show_default=True,
    help=f"Worlds per move with --view own (at least {MIN_OWN_WORLDS}: fewer say nothing of the "
    "noise), and for positions with hidden cards.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the sampled worlds.")
@click.option("--quiet", "-q", is_flag=True, help="No progress on standard error.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object with every step.")
def line_cmd(
    bpn: str | None,
    moves: tuple[str, ...],
    record_file: str | None,
    records_alias: str | None,
    deal_index: int,
    nodes: int | None,
    depth: int | None,
    exact: bool,
    view: str,
    worlds: int,
    seed: int,
    quiet: bool,
    as_json: bool,
) -> None:
    """Play MOVES from BPN and give, for every move, its value, the best value and the loss.

    Finds the mistakes of a played line: loss is how much the move gave away
    against the best move, for the player who made it.  Positions late in the deal
    are solved exactly; earlier talon positions get a four-trick estimate unless
    --exact (or --nodes / --depth) says otherwise.

    A double-dummy loss blames a player for not seeing hidden cards.  --view own
    judges each move from what its player knew: the loss over the worlds his view
    allows, flagged as a mistake only beyond two standard errors of the noise
    (an inaccuracy where those worlds' values are estimates, early in the talon).
    Positions with hidden cards are judged the same way (sampled, beyond two
    standard errors); a loss between "(estimate)" values is an inaccuracy, a
    mistake only when the search's bounds prove it.

    \b
    Examples:
      brisque line "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35" QD 9C
      brisque line --record deals.jsonl --deal 3
      brisque line --record deals.jsonl --deal 3 --view own --worlds 50
    """
    from solver.analysis.line import LineInterrupted, analyse_line
    from solver.engine.results import Limit
    from solver.errors import ArgumentError, PositionError, RecordError
    from solver.formats.records import DealRecord

    if records_alias is not None:
        if record_file is not None:
            raise BrisqueCommandError("give one --record FILE")
        record_file = records_alias
    if not record_file and _given("deal_index"):
        raise BrisqueCommandError(f"--deal {deal_index} picks a record of a --record FILE: add --record")
    if view == "own" and worlds < MIN_OWN_WORLDS:
        raise BrisqueCommandError(
            f"--worlds {worlds}: --view own needs at least {MIN_OWN_WORLDS} worlds a move "
            "(fewer say nothing of the noise)"
        )
    if record_file:
        if bpn:
            raise BrisqueCommandError("give either BPN and MOVES or --record, not both")
        with open(record_file, "rb") as f:
            lines = [ln for ln in f if ln.strip()]
        if deal_index > len(lines):
            from solver.formats.words import plural

            raise BrisqueCommandError(
                f"--deal {deal_index}: {record_file} holds {plural(len(lines), 'record')}"
            )
        try:
            rec = DealRecord.from_json(lines[deal_index - 1].decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise BrisqueCommandError(
                f"{record_file}: record {deal_index} is not UTF-8 text ({exc.reason} at byte {exc.start})"
            ) from None
        except RecordError as exc:
            raise BrisqueCommandError(f"{record_file}: record {deal_index}: {exc}") from None
        bpn, moves = rec.start, tuple(rec.moves)
    if not bpn:
        raise BrisqueCommandError("give a BPN and moves, or --record FILE")
    moves = tuple(t for m in moves for t in m.split())  # ("QD 9C" in one argument too)
    if not moves and not record_file:
        raise BrisqueCommandError(
            "no moves to judge after the BPN: give the moves played from it (brisque line BPN QD 9C), "
            "or --record FILE"
        )
    # an error inside a record names the file and the record, as a malformed record's does
    where = f"{record_file}: record {deal_index}: " if record_file else ""
    try:
        p = _position(bpn, command=None if record_file else "line")
    except BrisqueCommandError as exc:
        raise BrisqueCommandError(f"{where}{exc.message}") from None
    if view == "full" and not p.has_hidden:  # (no world is sampled: refuse, don't ignore)
        given = [f"--{name} {dict(worlds=worlds, seed=seed)[name]}" for name in _given("worlds", "seed")]
        if given:
            raise BrisqueCommandError(
                f"{', '.join(given)}: every card of this line is known, so no worlds are sampled "
                "(--worlds and --seed are for --view own or a position with hidden cards)"
            )
    limit = Limit(nodes=nodes, depth=depth) if (nodes or depth) else None
    status = StatusLine(view == "own" and _on_terminal(quiet, as_json))

    def progress(done: int, total: int) -> None:
        status.show(f"{done}/{total} moves")

    show = status.enabled
    interrupted = False
    try:
        steps = analyse_line(
            p,
            list(moves),
            limit=limit,
            auto_limit=not exact,
            worlds=worlds,
            seed=seed,
            view="own" if view == "own" else "full",
            progress=progress if show else None,
        )
    except (PositionError, NotationError, ArgumentError) as exc:
        raise BrisqueCommandError(f"{where}{exc}") from None
    except LineInterrupted as stop:  # Ctrl-C: the moves judged so far, then exit 130
        steps, interrupted = stop.steps, True
    finally:
        status.end()
    if interrupted:
        _line_interrupted(p, steps, len(moves), view, as_json)
    _print_line(p, steps, view, as_json)


def _bound_note(s: Step) -> str:
    """A line step's values that are bare proven bounds, not estimates, said so."""
    said = {"upper": "at most", "lower": "at least"}
    notes = [f"{s.move} {said[s.value_bound]} {s.move_value:+d}"] if s.value_bound else []
    if s.best_bound:
        notes.append(f"best {said[s.best_bound]} {s.best_value:+d}")
    return "".join(f"; {n}" for n in notes)


def _line_interrupted(p: Position, steps: list[Step], moves: int, view: str, as_json: bool) -> NoReturn:
    """The end of ``brisque line`` after Ctrl-C: the moves judged so far (with --json, an
    object marked interrupted, even with none), what was cut short, and exit 130."""
    from solver.formats.words import plural

    if steps or as_json:
        _print_line(p, steps, view, as_json, interrupted=True)
        click.echo(f"interrupted after {len(steps)} of {plural(moves, 'move')}", err=True)
    else:  # (a table with a head and no row would read as a line of no moves)
        click.echo(
            f"interrupted before the first move was analysed ({plural(moves, 'move')} given)", err=True
        )
    _interrupted_exit()


def _print_line(p: Position, steps: list[Step], view: str, as_json: bool, interrupted: bool = False) -> None:
    """The answer of ``brisque line``: a table, or one JSON object (marked ``interrupted``
    when Ctrl-C cut the line short)."""
    from solver.analysis.line import MISTAKE_Z, games_given_up, losses_by_player
    from solver.formats.numbers import json_number

    losses = losses_by_player(steps)
    games = games_given_up(steps)
    likely = games_given_up(steps, proven=False)
    if as_json:
        out: dict[str, Any] = {
            "bpn": p.bpn(),
            "view": view,
            "steps": [s.to_dict() for s in steps],
            "loss": {seat: json_number(x) for seat, x in losses.items()},
            "games_given_up": games,
            "games_given_up_unproven": likely,
        }
        if interrupted:  # (a script must not take the moves judged so far for the whole line)
            out["interrupted"] = True
        click.echo(json.dumps(out))
        return

    def fmt(v: Value | float) -> str:
        return f"{v:+.2f}" if isinstance(v, float) else f"{v:+d}"

    own = view == "own"
    head = f"{'#':>3} {'trick':>5} {'who':>3}  {'move':<6}{'value':>8}{'best':>8}"
    head += f"{'dd loss':>9}{'own loss':>17}" if own else f"{'loss':>7}"
    click.echo(head + "  best moves")
    for s in steps:
        mark = (
            ""
            if s.exact
            else f"  (sampled, +- {s.loss_stderr:.1f})"
            if s.loss_stderr is not None
            else "  (sampled, one world: no standard error)"
            if s.sampled
            else f"  (estimate{_bound_note(s)})"
        )
        flag = "  <-- mistake" if s.mistake else "  <-- inaccuracy (estimate)" if s.inaccuracy else ""
        if s.game is not None and s.mistake:  # (a game won is no number of points: say what was lost)
            flag = f"  <-- {s.game}"
        shown = f"{s.loss:g}"  # (a game event's: its ranking number, kept out of the totals)
        loss = f"{shown:>7}"
        if own:
            own_se = "?" if s.own_stderr is None else f"{s.own_stderr:.1f}"
            noise = f"{s.own_loss:+.1f} +- {own_se}" if s.own_loss is not None else ""
            loss = f"{shown:>9}{noise:>17}"
        click.echo(
            f"{s.number:>3} {s.trick:>5} {s.player:>3}  {str(s.move):<6}{fmt(s.move_value):>8}"
            f"{fmt(s.best_value):>8}{loss}  {' '.join(str(m) for m in s.best)}{mark}{flag}"
        )
    games_text = (  # (kept apart: a game won is no number of points)
        f"; games given up (not in the totals): a {games['a']}, b {games['b']}"
        if games["a"] or games["b"]
        else ""
    )
    if likely["a"] or likely["b"]:
        games_text += f"; games given up by estimates, not proven: a {likely['a']}, b {likely['b']}"
    click.echo(
        (
            f"total double-dummy loss: a {losses['a']:g}, b {losses['b']:g}"
            if own
            else f"total loss: a {losses['a']:g}, b {losses['b']:g}"
        )
        + games_text
    )
    if own:
        mistakes = {seat: sum(1 for s in steps if s.player == seat and s.mistake) for seat in "ab"}
        slips = {seat: sum(1 for s in steps if s.player == seat and s.inaccuracy) for seat in "ab"}
        click.echo(
            f"mistakes from the player's own information (loss beyond {MISTAKE_Z:g} standard errors): "
            f"a {mistakes['a']}, b {mistakes['b']}"
            + (
                f"; inaccuracies (between estimates): a {slips['a']}, b {slips['b']}"
                if any(slips.values())
                else ""
            )
        )


TREE_FORMATS = ["graphml", "gexf", "json", "dot"]  # (brisque tree --format; -o FILE.EXT names one)


@main.command("tree")
@click.argument("bpn")
@click.option(
    "--depth",
    type=whole(1, MAX_PLIES),
    default=2,
    show_default=True,
    help="Moves (plies) below the position.",
)
@click.option(
    "--max-nodes",
    type=whole(2, MAX_TREE_NODES),
    default=2000,
    show_default=True,
    help="Stop expanding at this many nodes (a message on standard error says so).",
)
@click.option("--best-only", is_flag=True, help="Follow only the best moves.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(TREE_FORMATS),
    default=None,
    help="Gephi opens graphml/gexf, Graphviz dot.  Default: from the -o file's extension "
    "(.graphml, .gexf, .json, .dot), else graphml; a --format that contradicts the extension "
    "is refused.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write to this file instead of standard output.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress on standard error.")
def tree_cmd(
    bpn: str, depth: int, max_nodes: int, best_only: bool, fmt: str, output: str | None, quiet: bool
) -> None:
    """Write the solution tree of BPN as a graph: positions with their values, moves as
    edges with each move's value, the best moves marked, transpositions merged.

    Every position above the last level is solved exactly, every move: in the last
    talon tricks and the final phase that takes moments, from a whole deal or an early
    trick minutes a position (the same time as brisque solve of it), and --depth 2
    solves some ten positions.  A terminal shows the positions solved so far; Ctrl-C
    writes the tree built so far (every position in it valued) and exits 130.

    \b
    Examples:
      brisque tree "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35" --format dot | dot -Tsvg
      brisque tree "$(brisque deal --seed 2 --at 13)" --depth 4 -o tree.graphml
    """
    fmt = _tree_format(fmt, output)
    if output:
        writable_file(output, "tree")
    from solver.analysis.tree import TreeInterrupted, solution_tree, write_tree
    from solver.errors import PositionError
    from solver.formats.words import plural

    p = _position(bpn, command="tree")
    progress = StatusLine(_on_terminal(quiet))
    interrupted = False
    try:
        g = solution_tree(
            p,
            depth=depth,
            max_nodes=max_nodes,
            best_only=best_only,
            progress=lambda solved, nodes: progress.show(
                f"solving position {solved + 1} ({plural(nodes, 'position')} in the tree so far)"
            ),
        )
    except PositionError as exc:
        raise BrisqueCommandError(str(exc)) from None
    except TreeInterrupted as stop:  # Ctrl-C: the tree built so far is written, then exit 130
        g, interrupted = stop.graph, True
    finally:
        progress.clear()
    if g.graph["truncated"]:
        click.echo(
            f"tree truncated at {g.number_of_nodes()} nodes (--max-nodes {max_nodes}); "
            f"raise it or lower --depth",
            err=True,
        )
    if output:
        try:
            with open(output, "wb") as f:
                write_tree(g, fmt, f)
        except OSError as exc:  # (a full disk: the file named, not a traceback)
            raise _Failed(f"cannot write the tree to {output!r}: {exc.strerror or exc}") from None
        nodes, edges = plural(g.number_of_nodes(), "node"), plural(g.number_of_edges(), "edge")
        click.echo(f"{nodes}, {edges} written to {output}", err=True)
    else:
        write_tree(g, fmt, sys.stdout.buffer)
        sys.stdout.flush()
    if interrupted:
        click.echo(
            f"interrupted: the tree holds the {plural(g.number_of_nodes(), 'position')} valued so far "
            f"(graph attribute interrupted)",
            err=True,
        )
        _interrupted_exit()


def _tree_format(fmt: str | None, output: str | None) -> str:
    """The format of ``brisque tree``: ``--format``, else the one the ``-o`` file's extension
    names, else graphml; a ``--format`` the extension contradicts is refused (a tree.dot
    holding GraphML would fail in Graphviz, far from its cause)."""
    import os

    ext = os.path.splitext(output or "")[1].lower().lstrip(".")
    named = ext if ext in TREE_FORMATS else None
    if fmt is None:
        return named or "graphml"
    if named is not None and named != fmt:
        raise BrisqueCommandError(
            f"--format {fmt} contradicts the extension of -o {output!r} (a .{ext} file holds {named}): "
            f"give -o with a .{fmt} extension, or leave --format out to write {named}"
        )
    return fmt


@main.command("match")
@click.argument("first")
@click.argument("second")
@click.option(
    "--deals",
    type=DEALS,
    default=20,
    show_default=True,
    help="Deal pairs: each deal is played twice with the seats swapped.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the deals.")
@click.option("--rules", "rules", default="brisque", show_default=True, help="Game and options.")
@click.option(
    "--workers",
    type=WORKERS,
    default=1,
    show_default=True,
    help="Worker processes playing deal pairs in parallel.",
)
@click.option(
    "--records",
    "records_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write every deal's record to this file (JSON Lines; replay with brisque line "
    "--record).  Without it no file is written.",
)
@click.option(  # (the spelling of brisque line, taken here too)
    "--record", "record_alias", type=click.Path(dir_okay=False, writable=True), default=None, hidden=True
)
@click.option("--json", "as_json", is_flag=True, help="End with one JSON summary object.")
@click.option("--quiet", "-q", is_flag=True, help="No progress on standard error (shown only on a terminal).")
@scheduler_option
def match_cmd(
    first: str,
    second: str,
    deals: int,
    seed: int,
    rules: str,
    workers: int,
    records_path: str | None,
    record_alias: str | None,
    scheduler: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Duplicate match between two players: FIRST and SECOND are random, greedy,
    pimc (100 worlds) or pimc:N, or clairvoyant (sees every card).  PIMC and
    clairvoyant take @SEARCH, the search each world gets: quick (the default),
    exact, depth:N or handmade:N (the old default was handmade:3).

    Reports, for FIRST, the mean margin per deal over the deal pairs without a
    game-winning event with its 95% confidence interval (Student's t from the pair means), the
    game-winning events of each player, the deals won, lost and drawn with a Wilson
    interval, and each player's thinking time per deal (to compare at equal time).

    \b
    Examples:
      brisque match pimc:50 greedy --deals 100 --workers 2
      brisque match pimc:20 pimc:40@handmade:3 --deals 300 --workers 2
      brisque match greedy random --deals 500 --rules briscan --json
      brisque match pimc:20 clairvoyant --deals 10 --records deals.jsonl
      brisque match pimc:50 greedy --deals 2000 --scheduler tcp://10.0.0.5:8786
    """
    from solver.play.match import run_match
    from solver.play.players import make_player

    try:
        make_player(first)
        make_player(second)
    except (ValueError, NotationError) as exc:
        raise BrisqueCommandError(str(exc)) from None
    r = _rules_option(rules)
    from solver.formats.words import plural, proportion

    if record_alias is not None:
        if records_path is not None:
            raise BrisqueCommandError("give one --records FILE")
        records_path = record_alias
    if records_path is not None:
        writable_file(records_path, "records")
    status = StatusLine(_on_terminal(quiet))

    def progress(done: int, total: int) -> None:
        status.show(f"{done}/{total} deal pairs")

    out = open(records_path, "w", encoding="utf-8") if records_path is not None else None

    def unwritable(exc: OSError) -> _Failed:  # (a full disk: the file named, as -o FILE's are)
        return _Failed(f"cannot write the records to {records_path!r}: {exc.strerror or exc}")

    def keep(pair: list[MatchRecord]) -> None:  # each pair as it is played: Ctrl-C loses none
        nonlocal out
        if out is not None:
            try:
                for rec in pair:
                    out.write(json.dumps(rec) + "\n")
                out.flush()
            except OSError as exc:
                try:
                    out.close()  # (closed all the same; what it could not flush is lost)
                except OSError:
                    pass
                out = None
                raise unwritable(exc) from None

    try:
        with _executor(scheduler, workers) as executor:
            result = run_match(
                first,
                second,
                deals,
                seed=seed,
                rules=r,
                workers=workers,
                executor=executor,
                progress=progress,
                on_pair=keep,
            )
    finally:
        status.end()
        if out is not None:
            try:
                out.close()
            except OSError as exc:
                raise unwritable(exc) from None
    s = result.summary
    if not as_json:
        lo, hi = s["ci95"]
        wlo, whi = s["won_share_ci95"]
        unit = "tricks" if r.objective == "tricks" else "points"
        click.echo(
            f"{first} vs {second}, {r}, {plural(s['pairs'], 'deal pair')} ({plural(s['deals'], 'deal')}), "
            f"seed {seed}"
        )
        ci = f"95% CI [{lo:+.2f}, {hi:+.2f}]" if lo is not None else "95% CI needs two deal pairs"
        apart = ""
        if s["deals_with_events"]:
            without = s["pairs_without_events"]
            apart = f" (the {plural(without, 'pair')} without a game-winning event)"
            if without == 1:
                apart = " (the one pair without a game-winning event)"
        if s["mean_margin"] is None:
            click.echo(f"mean margin for {first}: none, every deal pair had a game-winning event")
        else:
            click.echo(f"mean margin for {first}: {s['mean_margin']:+.2f} {unit} per deal{apart}, {ci}")
        click.echo(
            f"deals won {s['won']}, lost {s['lost']}, drawn {s['drawn']}; "
            f"share won {proportion(s['won'] / s['deals'])}, 95% CI [{proportion(wlo)}, {proportion(whi)}]"
        )
        if s["game_wins_first"] or s["game_wins_second"]:
            click.echo(
                f"game-winning events: {first} {s['game_wins_first']}, {second} {s['game_wins_second']}"
            )
        t = result.timing
        click.echo(
            f"thinking time per deal: {first} {t['seconds_per_deal_first']:.2f} s, "
            f"{second} {t['seconds_per_deal_second']:.2f} s (CPU)"
        )
        if records_path is not None:
            click.echo(f"records: {records_path}")
    else:
        # (interrupted: a script must not take the pairs played so far for the match asked)
        from solver.formats.numbers import json_number, json_share

        rounded = {
            "mean_margin": json_number(s["mean_margin"]),
            "ci95": [json_number(x) for x in s["ci95"]],
            "won_share_ci95": [json_share(x) for x in s["won_share_ci95"]],
        }
        timing = {k: json_share(x) for k, x in result.timing.items()}
        extra = {"interrupted": True} if result.interrupted else {}
        click.echo(json.dumps({**s, **rounded, **timing, **extra}))
    if result.interrupted:
        click.echo(f"interrupted after {s['pairs']} of {plural(deals, 'deal pair')}", err=True)
        _interrupted_exit()


@main.command("bench")
@click.option(
    "--suite",
    "suites",
    multiple=True,
    # (the names of solver.bench.suites.SUITES and RESEARCH: tests/test_bench.py checks them)
    type=click.Choice(
        ["final-phase", "deep", "sampling", "batch"]
        + ["reference", "enhancements", "whole-deals", "sampling-workers", "matches", "research"]
    ),
    help="A suite to run (repeatable; default the four standard ones).",
)
@click.option(
    "--quick", is_flag=True, help="A few positions of each suite: a quick check, not figures to publish."
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object: machine, suites, signature.")
@click.option(
    "--compare",
    "compare_to",
    type=click.Path(exists=True, dir_okay=False),
    help="A saved run (the --json of an earlier bench): each figure beside it, as a ratio; the suites run that it lacks are named.",
)
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="No progress lines on standard error (written a line a step, also to a file or pipe, as a log).",
)
def bench_cmd(
    suites: tuple[str, ...], quick: bool, as_json: bool, compare_to: str | None, quiet: bool
) -> None:
    """Run the standard benchmarks from the installed package and print their figures.

    The standard suites, run by default (about a minute): final-phase (every
    move's value of 1000 positions at the start of Brisque's final phase, one
    batch), deep (exact values with 2 to 5 talon tricks left), sampling (PIMC
    analyses of six views), batch (the solve - path in this process).  Their
    positions ship with the package.  The run ends with a signature: the total
    node count of the final-phase and deep suites.  The search is deterministic,
    so the signature changes exactly when the search does, on any machine.

    The research suites, run only when named (BENCHMARKS.md is written from
    them by benchmarks/run_all.py): reference (the engine against the Python
    reference solver), enhancements (each search enhancement added one at a
    time, by talon tricks left: hours), whole-deals (30 whole deals on one
    thread and on two: about ten minutes), sampling-workers (one worker process
    against two), matches (PIMC duplicate matches: about half an hour).
    --suite research runs them all.

    \b
    Examples:
      brisque bench
      brisque bench --suite final-phase --suite deep --json > run.json
      brisque bench --compare run.json
      brisque bench --suite whole-deals --quick
    """
    from solver.bench.suites import check_comparable, check_saved, compare, figures, not_compared, run
    from solver.errors import ArgumentError

    old = None
    if compare_to:
        try:
            with open(compare_to, encoding="utf-8") as f:
                old = json.load(f)
            if not isinstance(old, dict) or not isinstance(old.get("suites"), list):
                raise ValueError("no 'suites' list")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise BrisqueCommandError(
                f"cannot compare with {compare_to!r}: expected the JSON of brisque bench --json ({exc})"
            ) from None
        try:  # (before the run: a whole run can take an hour, to be refused at its end)
            check_saved(old)
            check_comparable(old, quick)
        except ArgumentError as exc:
            raise BrisqueCommandError(f"cannot compare with {compare_to!r}: {exc}") from None

    result = run(
        list(suites) or None,
        quick=quick,
        progress=None if quiet else (lambda line: click.echo(line, err=True)),
    )
    if old is not None:
        try:
            result["compare"] = compare(result, old)
        except ArgumentError as exc:
            raise BrisqueCommandError(str(exc)) from None
        result["compare_signature"] = old.get("signature")
        result["compare_missing"] = not_compared(result, old)
    nothing = ""  # (why nothing was compared, said rather than a silent exit 0)
    if old is not None and not result["compare"]:
        saved = ", ".join(r["name"] for r in old["suites"]) or "no suite"
        missing = result["compare_missing"]
        nothing = f"nothing to compare with {compare_to!r}: " + (
            f"the suites run ({', '.join(missing)}) are not in it (it holds {saved})"
            if len(missing) == len(result["suites"])
            else f"it holds no figure of the suites run other than 0 (it holds {saved})"
        )
    if as_json:
        click.echo(json.dumps(result))
        if nothing:
            click.echo(f"brisque bench: {nothing}", err=True)
        return
    click.echo(f"Machine: {result['machine']}{' (quick)' if quick else ''}")
    from solver.bench.research import summary

    for r in result["suites"]:
        lines = summary(r)  # (a research suite: its own lines instead of every figure)
        shown = f"positions {r['positions']}" if lines else figures(r, skip=())
        click.echo(f"  {r['name']:12} {shown}")
        for line in lines:
            click.echo(f"    {line}")
        for k, level in r.get("levels", {}).items():
            click.echo(
                f"    {k} talon tricks left: {level['positions']} positions, median {level['median_ms']} ms, {level['nodes']} nodes"
            )
    for row in result.get("compare", []):
        click.echo(
            f"  vs saved: {row['suite']} {row['figure']}: {row['new']} / {row['old']} = {row['ratio']}"
        )
    if nothing:
        click.echo(f"  vs saved: {nothing}")
    elif result.get("compare_missing"):
        click.echo(f"  vs saved: not in {compare_to!r}: {', '.join(result['compare_missing'])}")
    if result["signature"] is not None:
        same = ""
        if old is not None and isinstance(old.get("signature"), int):
            same = (
                " (the same search)"
                if old["signature"] == result["signature"]
                else f" (saved: {old['signature']}: the search changed)"
            )
        click.echo(f"Signature: {result['signature']}{same}")


@main.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on (127.0.0.1: this machine only).",
)
@click.option(
    "--port", type=_Whole(0, 65535), default=8000, show_default=True, help="The port (0: any free one)."
)
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
@click.option(
    "--max-running", type=_Whole(1, 64), default=2, show_default=True, help="Analyses that run at once."
)
@click.option(
    "--max-seconds",
    type=number(0.1, 3600),
    default=30.0,
    show_default=True,
    help="Time of one analysis.",
)
def serve_cmd(host: str, port: int, no_browser: bool, max_running: int, max_seconds: float) -> None:
    """Start the analysis board in the browser: paste a position, see its diagram and every
    move's value, play moves by clicking, step through puzzle files and match records.

    The page works offline (no CDN).  The server listens on 127.0.0.1 unless told
    otherwise, answers requests for its own address from its own page only, reads no
    file but those you upload, and bounds request sizes and times, analysis times and the
    analyses running at once.  Ctrl-C stops it and its analyses.

    \b
    Examples:
      brisque serve
      brisque serve --port 8765 --no-browser
      open http://127.0.0.1:8000/?bpn=...   (a position straight away)
    """
    try:
        from solver.board.app import create_app, server
        from solver.board.jobs import Limits
    except ImportError:
        raise BrisqueCommandError(f"the board needs Starlette and uvicorn: {install_hint('board')}") from None
    import socket

    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: other machines can reach the board", err=True)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise BrisqueCommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bound = sock.getsockname()[1]
    shown = {"0.0.0.0": "127.0.0.1", "localhost": "127.0.0.1", "::": "[::1]"}.get(host, host)
    url = f"http://{f'[{shown}]' if ':' in shown and not shown.startswith('[') else shown}:{bound}/"
    click.echo(f"the board is at {url} (Ctrl-C stops it)", err=True)
    app = create_app(Limits(max_running=max_running, max_seconds=max_seconds), host=host)
    if not no_browser:
        import threading
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server(app).run(sockets=[sock])


if __name__ == "__main__":  # pragma: no cover
    main()
