"""``brisque analyse BPN``: the best move with hidden cards, by sampling worlds (PIMC) or
by the public subgame's equilibrium; ``brisque analyse -``: one BPN a line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import click

from solver.analysis.analyse_options import DEFAULT_WORLDS, AnalyseOptions
from solver.analysis.equilibrium import EquilibriumAnalysis, equilibrium
from solver.analysis.inference import History
from solver.analysis.ranking import RankingRule
from solver.analysis.sampling import SampledAnalysis, analyse
from solver.analysis.text_reports import format_analysis, format_equilibrium, format_sampled
from solver.analysis.thinking import Think
from solver.cli.batch import json_lines
from solver.cli.exits import BrisqueCommandError, interrupted_exit
from solver.cli.inputs import read_position, refusal
from solver.cli.options import (
    WORLDS,
    as_typed,
    choice_option,
    depth_option,
    json_option,
    number,
    options_given,
    quiet_option,
    scheduler_executor,
    scheduler_option,
    seconds_option,
    seed_option,
    shown_option,
    workers_option,
)
from solver.cli.output import StatusLine, on_terminal
from solver.engine.quick import WorldSearch
from solver.engine.results import Analysis
from solver.engine.solving import solve
from solver.errors import ArgumentError, PositionError
from solver.formats.words import plural
from solver.model.moves import parse_move
from solver.model.position import Position
from solver.model.ranges import MAX_WIN_WORTH


@click.command("analyse")
@click.argument("bpn")
@click.argument("moves", nargs=-1)
@click.option(
    "--worlds",
    type=WORLDS,
    default=None,
    help="Worlds to sample (all are enumerated when there are no more).  "
    f"[default: {DEFAULT_WORLDS}, or as many as --think allows]",
)
@seed_option("Seed of the sampling.")
@workers_option("Worker processes solving worlds in parallel.")
@seconds_option(
    "Stop after this many seconds, whatever --worlds says: the world being solved then "
    "stops too and is left out; the answer is the worlds solved so far.  Ctrl-C also gives "
    "the answer so far (exit 130).",
    name="time_limit",
)
@click.option(
    "--think",
    metavar="SECONDS",
    default=None,
    help="Think this long: as many worlds as the time allows (0.5s, 2s, 500ms).  The time "
    "is counted in the work the searches did, not on a clock, so the same seed gives the same "
    "answer on a busy machine and with any --workers (--seconds is the clock).",
)
@click.option(
    "--separation",
    type=number(0, 1000),
    default=None,
    help="Stop once the best move leads the runner-up by this many standard errors.",
)
@depth_option(
    "Tricks of look-ahead per world to the fitted linear evaluation, as --world-search depth:N "
    "(default: the quick search: 3 to the learned evaluation in Brisque and Briscan; exact in the "
    "last four talon tricks and 4 before in Petite Brisque; learned:N for N to the learned one)."
)
@click.option(
    "--world-search",
    default="quick",
    show_default=True,
    help="The search each world gets: quick (the default: three tricks to the learned horizon "
    "network in Brisque and Briscan, in Briscan the draws by chance with two talon tricks left; "
    "in Petite Brisque exact in the last four talon tricks and "
    "four tricks to the linear evaluation before), exact (every world solved exactly: slow "
    "early), depth:N (N tricks to the default horizon evaluation), learned or learned:N (exact "
    "late and four tricks before, or N tricks, with the learned network at the horizon), linear "
    "or linear:N (the same with the fitted linear evaluation: linear was the default before the "
    "network), handmade:N (N tricks to the hand-made heuristic, the default before that "
    "being handmade:3), or chance or chance:N (with at most N talon tricks left, 2 by default, "
    "each world's draws are chance events: its moves get the exact expectimax, the talon's "
    "order unknown; earlier the quick search).",
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
@choice_option(
    "--method",
    ["pimc", "equilibrium"],
    "pimc: sample worlds and solve each double dummy; equilibrium: solve the public "
    "subgame exactly (at most one talon trick left, or two cards a hand in Petite Brisque).",
)
@shown_option(
    "--max-exploitability",
    number(0, lo_open=True),
    0.1,
    "With --method equilibrium: refuse an answer a best response could exploit by more points.",
)
@choice_option(
    "--inference",
    ["on", "off"],
    "With MOVES: weigh each world by how likely the opponent's moves are in it (off: "
    "every world alike, as without MOVES).",
)
@json_option("One JSON object (method pimc, stderr, worlds, ...).")
@quiet_option("No progress bar on standard error.")
@scheduler_option
def analyse_cmd(
    bpn: str,
    moves: tuple[str, ...],
    inference: str,
    method: str,
    worlds: int | None,
    seed: int,
    workers: int,
    time_limit: float | None,
    think: str | None,
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

    With MOVES, BPN is the whole deal where the play started (every card known,
    as "brisque deal" prints it) and the position analysed is the one after
    MOVES, as the player to move then sees it: nothing hidden from him is used.
    Each world is then weighed by how likely the opponent's moves are in it (a
    marriage he did not declare, the 7 of trumps he did not exchange, his leads
    and discards); the answer gives the worlds' effective sample size.
    --inference off weighs every world alike.

    --method equilibrium solves the public subgame (both hands hidden, every
    consistent deal equally likely) exactly, late in the deal: each move's
    equilibrium probability and value, the exploitability, and what PIMC's move
    loses against the equilibrium opponent.  The sampling's options (--worlds,
    --seed, --workers, --seconds, --think, --separation, --depth, --world-search) are an
    error with it, as --max-exploitability is without it.

    \b
    Examples:
      brisque analyse "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
      brisque analyse "$(brisque deal --seed 4 --at 5 --view turn)" --worlds 400 --workers 2
      brisque analyse "$(brisque deal --seed 4 --at 5 --view turn)" --think 1s --world-search learned
      brisque analyse "$(brisque deal --seed 4)" 7H 9H 9D JD JH TH 7D --worlds 200
      brisque analyse "$(brisque deal --seed 4 --at 5 --view turn)" --worlds 2000 --scheduler local:2
      brisque analyse "petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H" --method equilibrium
    """
    # (long: a signature of many options and a --help text with examples; the code is short)
    budget, rank, search = _sampling_choices(think, win_worth, world_search, depth)
    _options_of_method(method)
    history = _history(bpn, moves, method) if moves else None
    if inference == "off" and not moves and options_given("inference"):
        raise BrisqueCommandError("--inference off: without MOVES there is no play to infer from")
    status = StatusLine(bpn != "-" and on_terminal(quiet, as_json))
    if scheduler is not None and method == "equilibrium":
        raise BrisqueCommandError("--scheduler runs the sampling's worlds: the equilibrium is solved here")
    options = AnalyseOptions(
        worlds=worlds,
        seed=seed,
        workers=workers,
        time_limit=time_limit,
        think=budget,
        separation=separation,
        depth=depth,
        world_search=search,
        history=history,
        inference=inference == "on",
        win_worth=str(rank),
    )
    if bpn != "-" and scheduler is not None:
        read_position(bpn, command="analyse")  # (a bad BPN is said before any cluster is reached)
    if bpn != "-" and method == "pimc":
        _refuse_exact(history.view if history is not None else read_position(bpn, command="analyse"))

    def run(text: str, show_progress: bool) -> tuple[Position, Answer]:
        p = (
            history.view
            if history is not None
            else read_position(text, command=None if bpn == "-" else "analyse")
        )
        progress, on_update = (
            _hooks(status, budget is not None and worlds is None) if show_progress else (None, None)
        )
        sampling = replace(options, executor=executor, progress=progress, on_update=on_update)
        try:
            return p, _answer(p, method, sampling, max_exploitability)
        finally:
            status.end()

    with scheduler_executor(scheduler, workers) as executor:
        if bpn == "-":
            json_lines(lambda line: run(line, False)[1], "analysed")
            return
        try:
            p, a = run(bpn, status.enabled)
        except (PositionError, ArgumentError) as exc:  # (ArgumentError: outside the equilibrium's domain)
            raise refusal(exc, bpn) from None
    click.echo(a.to_json() if as_json else _text(a, p))
    if isinstance(a, SampledAnalysis) and a.stopped == "interrupted":
        interrupted_exit()  # the answer so far is printed


Answer = Analysis | SampledAnalysis | EquilibriumAnalysis


def _answer(p: Position, method: str, options: AnalyseOptions, max_exploitability: float) -> Answer:
    """The one analysis of ``p`` the command asks for: a finished deal's result (as brisque
    solve gives it), the equilibrium, or the sampling."""
    if p.is_over():  # (the answer of brisque solve: the final margin, no moves)
        return solve(p)
    if method == "equilibrium":
        return equilibrium(p, win_worth=str(options.win_worth), max_exploitability=max_exploitability)
    return analyse(p, options)


def _text(a: Answer, p: Position) -> str:
    """The answer in words, by its kind."""
    if isinstance(a, SampledAnalysis):
        return format_sampled(a, p)
    if isinstance(a, EquilibriumAnalysis):
        return format_equilibrium(a)
    return format_analysis(a, p)


def _sampling_choices(
    think: str | None, win_worth: str, world_search: str, depth: int | None
) -> tuple[Think | None, RankingRule, WorldSearch]:
    """--think, --win-worth and --world-search read, with errors in the options' words."""
    try:
        budget = None if think is None else Think.parse(think)
    except ArgumentError as exc:
        raise BrisqueCommandError("--think " + str(exc).removeprefix("think=")) from None
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
    return budget, rank, search


def _hooks(
    status: StatusLine, by_budget: bool
) -> tuple[Callable[[int, int], None], Callable[[SampledAnalysis], None]]:
    """The progress line's hooks: the worlds solved (of how many, unless a budget of
    thinking, ``by_budget``, bounds them), then the best move so far."""

    def bar(done: int, total: int) -> None:
        # (under a budget of thinking the total is no count of worlds to expect)
        status.show(f"{plural(done, 'world')}" if by_budget else f"{done}/{total} worlds")

    def best_so_far(a: SampledAnalysis) -> None:
        mv = next(m for m in a.moves if m.move == a.best[0])
        spread = "?" if mv.stderr is None else f"{mv.stderr:.1f}"
        status.show(f"{plural(a.worlds, 'world')}, best {mv.move} {mv.value:+.1f} +- {spread}")

    return bar, best_so_far


def _refuse_exact(analysed: Position) -> None:
    """Refuse the sampling's options given for a position with every card known (its answer
    is the exact solve), rather than ignore them."""
    if analysed.has_hidden:
        return
    values = click.get_current_context().params
    given = [f"{PIMC_ONLY[name]} {as_typed(name, values[name])}" for name in options_given(*PIMC_ONLY)]
    if given:
        raise BrisqueCommandError(
            f"{', '.join(given)}: every card of this position is known, so no worlds are "
            "sampled: the answer is the exact solve (brisque solve takes a budget)"
        )
    if options_given("win_worth"):
        raise BrisqueCommandError(
            f"--win-worth {values['win_worth']}: every card of this position is known, so no move is ranked "
            "by sampled values: the answer is the exact solve, where a game won is +-10000 and "
            "'win' names the winner"
        )


def _history(bpn: str, moves: tuple[str, ...], method: str) -> History:
    """The play of MOVES from the whole deal BPN, as the player to move after them saw it."""
    if bpn == "-":
        raise BrisqueCommandError(
            "MOVES: give the whole deal as BPN, not '-' (one BPN a line takes no moves)"
        )
    if method == "equilibrium":
        raise BrisqueCommandError("MOVES: the equilibrium solves a position, without inference from play")
    start = read_position(bpn, command="analyse")
    if start.has_hidden:
        raise BrisqueCommandError(
            f"BPN {bpn!r} hides cards: with MOVES give the whole deal where the play started "
            "(as brisque deal prints it), and the view after MOVES is derived from it"
        )
    p = start.copy()
    try:
        for text in moves:
            p.push(parse_move(text))
    except (ValueError, PositionError) as exc:
        raise BrisqueCommandError(f"MOVES: {exc}") from None
    if p.is_over():
        raise BrisqueCommandError("MOVES: the deal is over after them: nothing to analyse")
    return History.from_play(start, p.move_stack, p.turn)


# The options of brisque analyse that only one method reads, by its parameter's name.
PIMC_ONLY = {
    "worlds": "--worlds",
    "seed": "--seed",
    "workers": "--workers",
    "time_limit": "--seconds",
    "think": "--think",
    "separation": "--separation",
    "depth": "--depth",
    "world_search": "--world-search",
}
EQUILIBRIUM_ONLY = {"max_exploitability": "--max-exploitability"}


def _options_of_method(method: str) -> None:
    """Refuse the options of ``brisque analyse`` given on the command line that the other
    method reads (rather than ignore them)."""
    others = PIMC_ONLY if method == "equilibrium" else EQUILIBRIUM_ONLY
    given = [others[name] for name in options_given(*others)]
    if given:
        names = ", ".join(dict.fromkeys(given))
        if method == "equilibrium":
            raise BrisqueCommandError(
                f"{names}: {'this option is' if len(given) == 1 else 'these options are'} for the "
                f"sampling (--method pimc); the equilibrium solves every deal exactly"
            )
        raise BrisqueCommandError(f"{names}: this option is for --method equilibrium only")
