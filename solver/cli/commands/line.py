"""``brisque line BPN MOVES...``: every move of a played line judged (its value, the
best value and the loss), double dummy or from each player's own information."""

from __future__ import annotations

import json
from typing import Any, NoReturn

import click

from solver.analysis.analyse_options import DEFAULT_WORLDS
from solver.analysis.line import (
    GRADES,
    MISTAKE_Z,
    LineInterrupted,
    Step,
    analyse_line,
    games_given_up,
    losses_by_player,
)
from solver.cli.exits import BrisqueCommandError, interrupted_exit
from solver.cli.inputs import read_position
from solver.cli.options import (
    WholeNumber,
    choice_option,
    depth_option,
    json_option,
    nodes_option,
    options_given,
    quiet_option,
    seed_option,
)
from solver.cli.output import StatusLine, on_terminal
from solver.engine.results import Limit
from solver.errors import ArgumentError, NotationError, PositionError, RecordError
from solver.formats.records import DealRecord
from solver.formats.words import plural
from solver.model.numbers import json_number
from solver.model.position import Position
from solver.model.ranges import MAX_WORLDS, MIN_OWN_WORLDS
from solver.model.value import Value


@click.command("line")
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
    type=WholeNumber(1, 10**9),
    default=1,
    show_default=True,
    help="Which record of the --record file.",
)
@nodes_option("Node budget per position.")
@depth_option("Tricks of look-ahead per position (estimates).")
@click.option("--exact", is_flag=True, help="Solve every position exactly, however early (can be slow).")
@choice_option(
    "--view",
    ["full", "own"],
    "full: judge moves double-dummy (every card seen).  own: judge each move from its player's "
    "own information, sampling the worlds his view allows; a move is then a mistake only when its "
    "loss exceeds two standard errors of the paired difference (an inaccuracy where the worlds' "
    "values are estimates, early in the talon), and the double-dummy loss is shown beside it "
    "(needs a deal with every card known, such as a record).",
)
@click.option(
    "--worlds",
    type=WholeNumber(1, MAX_WORLDS, note=f"--view own: x>={MIN_OWN_WORLDS}"),
    default=DEFAULT_WORLDS,
    show_default=True,
    help=f"Worlds per move with --view own (at least {MIN_OWN_WORLDS}: fewer say nothing of the "
    "noise), and for positions with hidden cards.",
)
@click.option(
    "--chance",
    type=click.Choice(["deal", "game"]),
    default=None,
    help="With --view own, the chance of winning that a move's grade weighs: of the deal, or of "
    "the whole game to the target from the start's game totals (a game won by the deals good "
    "players make).  [default: game for a record of a whole game (brisque play), else deal]",
)
@seed_option("Seed of the sampled worlds.")
@quiet_option()
@json_option("One JSON object with every step.")
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
    chance: str | None,
    seed: int,
    quiet: bool,
    as_json: bool,
) -> None:
    """Play MOVES from BPN and give, for every move, its value, the best value and the loss.

    Finds the mistakes of a played line: loss is how much the move gave away
    against the best move, for the player who made it.  Positions late in the deal
    are solved exactly; earlier talon positions get the estimate of the search each
    sampled world gets (three tricks to the learned evaluation in Brisque and Briscan,
    four to the linear one in Petite Brisque) unless --exact (or --nodes / --depth)
    says otherwise.

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
    # (long: a signature of many options and a --help text with examples; the code is short)
    if records_alias is not None:
        if record_file is not None:
            raise BrisqueCommandError("give one --record FILE")
        record_file = records_alias
    _check_choices(record_file, deal_index, chance, view, worlds)
    if record_file:
        if bpn:
            raise BrisqueCommandError("give either BPN and MOVES or --record, not both")
        rec = _read_record(record_file, deal_index)
        bpn, moves = rec.start, tuple(rec.moves)
        if chance is None and rec.whole_game:
            chance = "game"
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
        p = read_position(bpn, command=None if record_file else "line")
    except BrisqueCommandError as exc:
        raise BrisqueCommandError(f"{where}{exc.message}") from None
    if view == "full" and not p.has_hidden:  # (no world is sampled: refuse, don't ignore)
        _refuse_worlds(worlds, seed)
    limit = Limit(nodes=nodes, depth=depth) if (nodes or depth) else None
    status = StatusLine(view == "own" and on_terminal(quiet, as_json))

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
            chance="game" if chance == "game" else "deal",
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


def _check_choices(
    record_file: str | None, deal_index: int, chance: str | None, view: str, worlds: int
) -> None:
    """Refuse options that mean nothing together, before any file is read."""
    if not record_file and options_given("deal_index"):
        raise BrisqueCommandError(f"--deal {deal_index} picks a record of a --record FILE: add --record")
    if chance is not None and view != "own":
        raise BrisqueCommandError(
            f"--chance {chance} weighs the grades of --view own: add --view own (--view full judges "
            "moves by their points, every card seen)"
        )
    if view == "own" and worlds < MIN_OWN_WORLDS:
        raise BrisqueCommandError(
            f"--worlds {worlds}: --view own needs at least {MIN_OWN_WORLDS} worlds a move "
            "(fewer say nothing of the noise)"
        )


def _read_record(record_file: str, deal_index: int) -> DealRecord:
    """The record ``deal_index`` (from 1) of a JSON Lines file of deal records."""
    with open(record_file, "rb") as f:
        lines = [ln for ln in f if ln.strip()]
    if deal_index > len(lines):
        raise BrisqueCommandError(f"--deal {deal_index}: {record_file} holds {plural(len(lines), 'record')}")
    try:
        return DealRecord.from_json(lines[deal_index - 1].decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise BrisqueCommandError(
            f"{record_file}: record {deal_index} is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    except RecordError as exc:
        raise BrisqueCommandError(f"{record_file}: record {deal_index}: {exc}") from None


def _refuse_worlds(worlds: int, seed: int) -> None:
    """Refuse --worlds and --seed given for a line with every card known, judged double
    dummy: no world is sampled."""
    given = [f"--{name} {dict(worlds=worlds, seed=seed)[name]}" for name in options_given("worlds", "seed")]
    if given:
        raise BrisqueCommandError(
            f"{', '.join(given)}: every card of this line is known, so no worlds are sampled "
            "(--worlds and --seed are for --view own or a position with hidden cards)"
        )


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
    if steps or as_json:
        _print_line(p, steps, view, as_json, interrupted=True)
        click.echo(f"interrupted after {len(steps)} of {plural(moves, 'move')}", err=True)
    else:  # (a table with a head and no row would read as a line of no moves)
        click.echo(
            f"interrupted before the first move was analysed ({plural(moves, 'move')} given)", err=True
        )
    interrupted_exit()


def _print_line(p: Position, steps: list[Step], view: str, as_json: bool, interrupted: bool = False) -> None:
    """The answer of ``brisque line``: a table, or one JSON object (marked ``interrupted``
    when Ctrl-C cut the line short)."""
    if as_json:
        click.echo(_line_json(p, steps, view, interrupted))
        return
    own = view == "own"
    head = f"{'#':>3} {'trick':>5} {'who':>3}  {'move':<6}{'value':>8}{'best':>8}"
    head += f"{'dd loss':>9}{'own loss':>17}" if own else f"{'loss':>7}"
    click.echo(head + "  best moves")
    for s in steps:
        click.echo(_step_row(s, own))
    click.echo(_totals(steps, own))
    if own:
        click.echo("\n".join(_own_summary(steps)))


def _line_json(p: Position, steps: list[Step], view: str, interrupted: bool) -> str:
    """The answer of ``brisque line --json``."""
    out: dict[str, Any] = {
        "bpn": p.bpn(),
        "view": view,
        "steps": [s.to_dict() for s in steps],
        "loss": {seat: json_number(x) for seat, x in losses_by_player(steps).items()},
        "games_given_up": games_given_up(steps),
        "games_given_up_unproven": games_given_up(steps, proven=False),
    }
    if interrupted:  # (a script must not take the moves judged so far for the whole line)
        out["interrupted"] = True
    return json.dumps(out)


def _value_text(v: Value | float) -> str:
    return f"{v:+.2f}" if isinstance(v, float) else f"{v:+d}"


def _step_row(s: Step, own: bool) -> str:
    """A move's row of the table (``own``: with the loss from the player's information)."""
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
    if own and s.grade is not None:
        flag += f"  [grade: {s.grade}]"
    shown = f"{s.loss:g}"  # (a game event's: its ranking number, kept out of the totals)
    loss = f"{shown:>7}"
    if own:
        own_se = "?" if s.own_stderr is None else f"{s.own_stderr:.1f}"
        noise = f"{s.own_loss:+.1f} +- {own_se}" if s.own_loss is not None else ""
        loss = f"{shown:>9}{noise:>17}"
    return (
        f"{s.number:>3} {s.trick:>5} {s.player:>3}  {str(s.move):<6}{_value_text(s.move_value):>8}"
        f"{_value_text(s.best_value):>8}{loss}  {' '.join(str(m) for m in s.best)}{mark}{flag}"
    )


def _totals(steps: list[Step], own: bool) -> str:
    """The line of the total losses, and the games given up (kept apart: a game won is no
    number of points)."""
    losses = losses_by_player(steps)
    games = games_given_up(steps)
    likely = games_given_up(steps, proven=False)
    games_text = (
        f"; games given up (not in the totals): a {games['a']}, b {games['b']}"
        if games["a"] or games["b"]
        else ""
    )
    if likely["a"] or likely["b"]:
        games_text += f"; games given up by estimates, not proven: a {likely['a']}, b {likely['b']}"
    total = (
        f"total double-dummy loss: a {losses['a']:g}, b {losses['b']:g}"
        if own
        else f"total loss: a {losses['a']:g}, b {losses['b']:g}"
    )
    return total + games_text


def _own_summary(steps: list[Step]) -> list[str]:
    """The grades and the mistakes of each player, judged from his own information."""
    graded = {
        seat: ", ".join(
            plural(n, g, g[:-1] + "ies" if g.endswith("y") else None)
            for g in reversed(GRADES)
            if (n := sum(1 for s in steps if s.player == seat and s.grade == g))
        )
        or "none"
        for seat in "ab"
    }
    weighed = (
        "the chance of winning the game given up"
        if any(s.own_win_of == "game" for s in steps)
        else "points given away, or the chance of winning the deal"
    )
    mistakes = {seat: sum(1 for s in steps if s.player == seat and s.mistake) for seat in "ab"}
    slips = {seat: sum(1 for s in steps if s.player == seat and s.inaccuracy) for seat in "ab"}
    return [
        f"grades from the player's own information ({weighed}, beyond the noise): "
        f"a {graded['a']}; b {graded['b']}",
        f"mistakes from the player's own information (loss beyond {MISTAKE_Z:g} standard errors): "
        f"a {mistakes['a']}, b {mistakes['b']}"
        + (
            f"; inaccuracies (between estimates): a {slips['a']}, b {slips['b']}"
            if any(slips.values())
            else ""
        ),
    ]
