"""The options several commands share, each defined once (``--json``, ``-q``,
``--workers``, ``--seed``, ``--scheduler``, ``-o``, the budgets), the two shapes of option
most commands declare (:func:`shown_option`, :func:`choice_option`), and the click types of the
numeric ones: :class:`WholeNumber` and :class:`Number`, whose errors quote the input and
say which numbers are expected."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from solver.cli.exits import BrisqueCommandError
from solver.errors import BrisqueError, RulesError, install_hint
from solver.model.ranges import (
    MAX_BUDGET,
    MAX_DEALS,
    MAX_DEPTH,
    MAX_SECONDS,
    MAX_SEED,
    MAX_TABLE_BITS,
    MAX_WORKERS,
    MAX_WORLDS,
    MIN_TABLE_BITS,
    short,
    whole_number,
)
from solver.model.rules import Rules
from solver.model.table_memory import DEFAULT_TABLE_BITS, TABLE_ENTRY_BYTES, table_sizes

if TYPE_CHECKING:
    from concurrent.futures import Executor

F = TypeVar("F", bound=Callable[..., Any])
TYPED_KEY = "brisque.typed"  # (where the context keeps the options' text as typed)


def remember_typed(value: Any, param: click.Parameter | None, ctx: click.Context | None) -> None:
    """Keep an option's text as typed (``1``, not the ``1.0`` it converts to), for an error
    that quotes it (:func:`as_typed`)."""
    if isinstance(value, str) and param is not None and param.name and ctx is not None:
        ctx.meta.setdefault(TYPED_KEY, {})[param.name] = value.strip()


def as_typed(name: str, value: Any) -> str:
    """The command's parameter ``name`` as it was typed, or ``value`` as text."""
    typed: dict[str, str] = click.get_current_context().meta.get(TYPED_KEY, {})
    return typed.get(name, str(value))


def options_given(*names: str) -> list[str]:
    """Which of the current command's parameters ``names`` were given on the command line
    (not left at their defaults): options that would be ignored are refused, not dropped."""
    ctx = click.get_current_context()
    return [n for n in names if ctx.get_parameter_source(n) is click.core.ParameterSource.COMMANDLINE]


class WholeNumber(click.IntRange):
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
            self.fail(f"{short(value.strip(), 30)} is not {self._describe()}", param, ctx)
        if isinstance(value, str):
            # the notation's whole numbers (BPN, .bpd, the API's seeds): ASCII digits only, not
            # Python's int() syntax (4_8, ' 5 ', +5), so that a number means the same everywhere
            lo = self.min if self.min is not None else 0
            hi = self.max if self.max is not None else 10**40
            try:
                if value != value.strip():  # (whole_number strips the spaces between fields)
                    raise ValueError(value)
                n = whole_number(value, lo, hi, signed=lo < 0)
            except ValueError:
                self.fail(f"{value!r} is not {self._describe()}", param, ctx)
            remember_typed(value, param, ctx)
            value = n
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"{value!r} is not {self._describe()}", param, ctx)

    def _describe(self) -> str:
        if self.max is None:
            return f"a whole number from {self.min} up"
        return f"a whole number from {self.min} to {self.max}"


class Number(click.FloatRange):
    """A finite number in a range (``nan`` and ``inf`` are refused); the error quotes the
    input as given, cut short when long, and says which numbers are expected ("'abc' is not
    a number above 0 and at most 1000000000", not a "valid float range")."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        given = value.strip() if isinstance(value, str) else value
        if isinstance(given, str) and len(given) > 30:
            self.fail(f"{short(given, 30)} is not {self._describe()}", param, ctx)
        try:
            v = super().convert(value, param, ctx)
        except click.BadParameter:
            v = math.nan
        if not math.isfinite(v):
            self.fail(f"{given!r} is not {self._describe()}", param, ctx)
        remember_typed(value, param, ctx)
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
) -> Number:
    """The click type of a number option from ``lo`` to ``hi`` (None: no end there)."""
    return Number(min=lo, max=hi, min_open=lo_open, max_open=hi_open)


# The ranges of the numeric options: big enough for any real use, small enough that no
# number overflows the engine (a click error names the range).
SEED = WholeNumber(0, MAX_SEED)
NODES = WholeNumber(1, MAX_BUDGET)
WORLDS = WholeNumber(1, MAX_WORLDS)
WORKERS = WholeNumber(1, MAX_WORKERS)
DEPTH = WholeNumber(1, MAX_DEPTH)
DEALS = WholeNumber(1, MAX_DEALS)
SECONDS = number(0, MAX_SECONDS, lo_open=True)

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
PROGRESS_HELP = "No progress on standard error."
PROGRESS_ON_TERMINAL_HELP = "No progress on standard error (shown only on a terminal)."


def shown_option(
    name: str, type: click.ParamType[Any] | type[Any], default: Any, help: str
) -> Callable[[F], F]:
    """An option ``name`` of click type ``type`` whose ``default`` the help shows, as most
    options with a default do: ``shown_option("--port", WholeNumber(0, 65535), 8000, "The
    port.")`` is ``--port INTEGER RANGE  The port.  [default: 8000; 0<=x<=65535]``."""
    return click.option(name, type=type, default=default, show_default=True, help=help)


def choice_option(name: str, choices: Sequence[str], help: str) -> Callable[[F], F]:
    """An option ``name`` taking one of ``choices``, the first the default (shown in the
    help): ``choice_option("--seat", ["a", "b"], ...)`` defaults to ``a``."""
    return shown_option(name, click.Choice(choices), choices[0], help)


def output_option(help: str) -> Callable[[F], F]:
    """``-o``/``--output FILE`` (the parameter ``output``): a file to write the answer to."""
    return click.option(
        "-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None, help=help
    )


def json_option(help: str) -> Callable[[F], F]:
    """``--json`` (the parameter ``as_json``): the command's answer as JSON, ``help`` saying
    what it holds."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def quiet_option(help: str = PROGRESS_HELP) -> Callable[[F], F]:
    """``--quiet``/``-q``: no progress line on standard error."""
    return click.option("--quiet", "-q", is_flag=True, help=help)


def workers_option(help: str) -> Callable[[F], F]:
    """``--workers N`` (default 1): the cores or worker processes, ``help`` saying which."""
    return click.option("--workers", type=WORKERS, default=1, show_default=True, help=help)


def seed_option(help: str, required: bool = False) -> Callable[[F], F]:
    """``--seed N`` (default 0, or ``required``)."""
    if required:
        return click.option("--seed", type=SEED, required=True, help=help)
    return click.option("--seed", type=SEED, default=0, show_default=True, help=help)


def scheduler_option(f: F) -> F:
    """The ``--scheduler ADDRESS`` option of the commands that can run on a cluster."""
    return click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)(f)


def table_bits_option(f: F) -> F:
    """``--table-bits N``: the size of the transposition table."""
    return click.option(
        "--table-bits",
        type=WholeNumber(MIN_TABLE_BITS, MAX_TABLE_BITS),
        default=DEFAULT_TABLE_BITS,
        show_default=True,
        help=TABLE_BITS_HELP,
    )(f)


def nodes_option(help: str) -> Callable[[F], F]:
    """``--nodes N``: a node budget (none by default)."""
    return click.option("--nodes", type=NODES, default=None, help=help)


def seconds_option(help: str, name: str = "seconds") -> Callable[[F], F]:
    """``--seconds S``: a time budget (none by default), as the parameter ``name``."""
    return click.option("--seconds", name, type=SECONDS, default=None, help=help)


def depth_option(help: str) -> Callable[[F], F]:
    """``--depth N``: tricks of look-ahead (none by default: each command's own rule)."""
    return click.option("--depth", type=DEPTH, default=None, help=help)


def rules_option(help: str) -> Callable[[F], F]:
    """``--rules TEXT`` (default brisque), read with :func:`parse_rules`."""
    return click.option("--rules", "rules", default="brisque", show_default=True, help=help)


def parse_rules(text: str) -> Rules:
    """The rules the ``--rules`` option gives; a bad one is an error naming the option and
    quoting the value (``--rules 'brisk': unknown game: expected one of ...``)."""
    try:
        return Rules.parse(text)
    except RulesError as exc:
        raise BrisqueCommandError(f"--rules {short(text)}: {exc.reason or exc}") from None


@contextmanager
def scheduler_executor(scheduler: str | None, workers: int = 1) -> Iterator[Executor | None]:
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
    # (imported only for a cluster: solver.cluster loads Dask, an optional extra)
    from solver.cluster import open_executor

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
