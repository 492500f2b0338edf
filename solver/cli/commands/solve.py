"""``brisque solve BPN``: the exact solve of a perfect-information position (bounded by a
budget on asking); ``brisque solve -``: one BPN a line (:mod:`solver.cli.batch`)."""

from __future__ import annotations

import time

import click

from solver.analysis.batch_solve import Budget, ChanceBudget, chance_budget
from solver.cli.batch import solve_batch
from solver.cli.exits import BrisqueCommandError, interrupted_exit
from solver.cli.inputs import impossible, read_position, refusal
from solver.cli.options import (
    PROGRESS_ON_TERMINAL_HELP,
    depth_option,
    json_option,
    nodes_option,
    quiet_option,
    scheduler_executor,
    scheduler_option,
    seconds_option,
    table_bits_option,
    workers_option,
)
from solver.cli.output import StatusLine, on_terminal
from solver.engine.chance_solving import (
    ChanceAnalysis,
    ChanceInterrupted,
    laid_out,
    solve_chance,
    talon_face_down,
)
from solver.engine.results import Analysis, SolveInterrupted
from solver.engine.solving import solve
from solver.errors import ArgumentError, HiddenInformationError, ImpossiblePositionError, PositionError
from solver.model.position import Position
from solver.model.table_memory import table_bits_argument
from solver.native.engine import MAX_SOLVE_THREADS

_NO_BUDGET: Budget = {"nodes": None, "seconds": None, "depth": None, "quick": False}


Answer = Analysis | ChanceAnalysis


def solve_one(
    bpn: str,
    table_bits: int,
    limit: Budget | None = None,
    status: StatusLine | None = None,
    threads: int | None = None,
) -> tuple[Position, Answer]:
    """The solve of one BPN (exact on ``threads`` sharing its table, with ``--workers``),
    or the expectimax of a talon given by its count; ``status`` (enabled: on a terminal)
    shows an exact solve's progress, and is ended before the answer is printed."""
    # (its validity is checked once, by the solver: an impossible position is said in the
    # command's words, quoting the BPN as given)
    p = read_position(bpn, check=False, command="solve")
    line = status or StatusLine(False)
    t0 = time.perf_counter()

    def progress(done: int, total: int, nodes: int) -> None:
        seconds = time.perf_counter() - t0
        line.show(f"solving: {done} of {total} moves, {nodes / 1e6:.1f} M nodes, {seconds:.0f} s")

    try:
        shown = progress if line.enabled else None
        if talon_face_down(p):
            return p, solve_chance(p, table_bits=table_bits, progress=shown, **_chance_budget(limit, threads))
        return p, solve(p, table_bits=table_bits, threads=threads, progress=shown, **(limit or _NO_BUDGET))
    except ImpossiblePositionError as exc:
        raise impossible(bpn, exc.problems) from None
    except HiddenInformationError:
        probs = p.problems()  # (an impossible view is said impossible first, as for any command)
        if probs:
            raise impossible(bpn, probs) from None
        raise
    finally:
        line.end()


def _chance_budget(limit: Budget | None, threads: int | None) -> ChanceBudget:
    """The budget of a face-down talon's expectimax, which runs on one thread to the end
    of the deal (no --depth, no --quick, no --workers)."""
    if threads is not None and threads > 1:
        raise BrisqueCommandError(
            "--workers shares a solve whose talon order is known between threads; a talon given "
            "by its count is solved as chance on one thread: give no --workers"
        )
    try:
        return chance_budget(limit)
    except ArgumentError:
        raise BrisqueCommandError(
            "a talon given by its count is solved as chance, every draw a chance event, to the end "
            "of the deal: --depth and --quick need the talon's order; give --nodes or --seconds"
        ) from None


def report(a: Answer, p: Position) -> str:
    """The human report of an answer to ``p``: a face-down talon's last card, known by
    elimination, laid out for the double-dummy line (:func:`laid_out`)."""
    # (imported here: the reports' module is no part of the start of brisque solve -,
    # tests/cli/test_startup.py)
    from solver.analysis.text_reports import format_analysis, format_chance_analysis

    if isinstance(a, ChanceAnalysis):
        return format_chance_analysis(a, p)
    if not talon_face_down(p) or p.is_over():
        return format_analysis(a, p)
    lines = format_analysis(a, laid_out(p)).splitlines()
    lines.insert(
        1,
        "Method: exact (double dummy): the one face-down card left is known by elimination, no chance remains",
    )
    return "\n".join(lines)


@click.command("solve")
@click.argument("bpn")
@json_option("One JSON object (the answer format of docs/notation.md).")
@table_bits_option
@nodes_option("Node budget: stop early with proven bounds (exact: false) when spent.")
@seconds_option("Time budget in seconds (real time), as --nodes.")
@depth_option(
    "Search this many tricks and score the horizon with the fitted evaluation "
    "of docs/solver.md, the final phase exact (fast, approximate)."
)
@click.option(
    "--quick",
    is_flag=True,
    help="Run the search each world of a sampled analysis gets (to measure it against the exact "
    "solve): three tricks to the learned horizon evaluation in Brisque and Briscan; exact in the "
    "last four talon tricks and four tricks to the fitted linear evaluation before in Petite Brisque.",
)
@workers_option(
    "Cores: threads sharing one exact solve and its table (one BPN: the same answer, "
    "sooner on a long one), or worker processes for the lines of BPN - in chunks."
)
@quiet_option(PROGRESS_ON_TERMINAL_HELP)
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
    """Solve a position with both hands known exactly.

    Prints the value for the player to move (the final deal margin, tricks in
    Petite Brisque), every legal move with its value best first, and the principal
    variation trick by trick.  A card's value is that of playing it at once.

    A talon given by its count (face down: its order unknown to both players) is
    solved as chance: every draw a chance event, each order of the face-down
    cards equally likely (the expectimax of docs/solver.md).  Its values are the
    expected final margin, exact fractions (-86 2/3, and in --json "value_exact":
    "-260/3" beside the decimal "value"), a game won outright counting +-30000;
    its principal variation goes up to the next draw.  It runs on one thread and
    takes at most 15 face-down cards (eight talon tricks to play); --nodes and
    --seconds stop it, the moves not reached then reported as not searched.  With
    the talon's order written out, the values are the clairvoyant's (double dummy).

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

    Positions with a hidden hand (?N, +?N) need the sampling analysis instead
    (brisque analyse).

    \b
    Examples:
      brisque solve "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
      brisque solve "brisque AJ.KQ.7.8/T87.A87.. JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1"
      brisque deal --seed 3 --at 11 | brisque solve - > answers.jsonl
      brisque solve - --scheduler local:2 < positions.txt > answers.jsonl
      brisque solve "$(brisque deal --seed 3)" --seconds 5
      brisque solve "$(brisque deal --seed 3)" --workers 2
    """
    # (long: a signature of many options and a --help text with examples; the code is short)
    if quick and (nodes or seconds or depth):
        raise BrisqueCommandError(
            "--quick is a search of its own: give no --nodes, --seconds or --depth with it"
        )
    limit: Budget = {"nodes": nodes, "seconds": seconds, "depth": depth, "quick": quick}
    if scheduler is None:  # (a cluster's workers hold their tables on their own machines)
        try:  # (before any table is made: a table too large swapped for a minute, or failed)
            table_bits_argument(table_bits, tables=workers if bpn == "-" else 1)
        except ArgumentError as exc:
            raise BrisqueCommandError(str(exc)) from None
    if bpn == "-":
        with scheduler_executor(scheduler, workers) as ex:
            solve_batch(table_bits, limit, ex, workers)
        return
    if scheduler is not None:
        raise BrisqueCommandError("--scheduler runs the lines of 'brisque solve -' on a cluster: give BPN -")
    try:
        if workers > 1:
            if nodes or seconds or depth or quick:
                raise BrisqueCommandError(
                    "--workers shares an exact solve: give no --nodes, --seconds, --depth or --quick"
                )
            # (parallel_solve's threads, with the progress line)
            threads = min(workers, MAX_SOLVE_THREADS)
            p, a = solve_one(bpn, table_bits, None, StatusLine(on_terminal(quiet, as_json)), threads)
        else:
            p, a = solve_one(bpn, table_bits, limit, StatusLine(on_terminal(quiet, as_json)))
    except PositionError as exc:
        raise refusal(exc, bpn) from None
    except (SolveInterrupted, ChanceInterrupted) as stop:  # Ctrl-C: what was proven so far, then exit 130
        partial: Answer = stop.analysis
        click.echo(partial.to_json() if as_json else report(partial, Position(partial.bpn)))
        click.echo("interrupted", err=True)
        interrupted_exit()
    click.echo(a.to_json() if as_json else report(a, p))
