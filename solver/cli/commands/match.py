"""``brisque match FIRST SECOND``: a duplicate match between two players."""

from __future__ import annotations

import json

import click

from solver.cli.exits import BrisqueCommandError, CommandFailed, interrupted_exit, unwritable
from solver.cli.options import (
    DEALS,
    PROGRESS_ON_TERMINAL_HELP,
    json_option,
    parse_rules,
    quiet_option,
    rules_option,
    scheduler_executor,
    scheduler_option,
    seed_option,
    workers_option,
)
from solver.cli.output import StatusLine, on_terminal, writable_file
from solver.errors import NotationError
from solver.formats.records import MatchRecord
from solver.formats.words import plural, proportion
from solver.model.numbers import json_number, json_share
from solver.model.rules import Rules
from solver.play.match import MatchResult, run_match
from solver.play.players import make_player


@click.command("match")
@click.argument("first")
@click.argument("second")
@click.option(
    "--deals",
    type=DEALS,
    default=20,
    show_default=True,
    help="Deal pairs: each deal is played twice with the seats swapped.",
)
@seed_option("Seed of the deals.")
@rules_option("Game and options.")
@workers_option("Worker processes playing deal pairs in parallel.")
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
@json_option("End with one JSON summary object.")
@quiet_option(PROGRESS_ON_TERMINAL_HELP)
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
    pimc (100 worlds), pimc:N or pimc:0.5s, or clairvoyant (sees every card).
    A budget such as pimc:0.5s is thought in work, not on a clock: equal budgets
    are equal time, and a seed replays the same match.  PIMC and clairvoyant take @SEARCH,
    the search each world gets: quick (the default: three tricks to the learned
    horizon network in Brisque and Briscan), exact, depth:N, learned[:N] (the
    network, exact late and four tricks before, or N tricks), linear[:N] (the
    same with the fitted linear horizon), handmade:N or chance[:N] (the draws by chance:
    the exact expectimax with at most N talon tricks left; the quick search in Briscan
    there).  PIMC takes +infer at the end: its worlds weighed by the opponent's play.

    Reports, for FIRST, the mean margin per deal over the deal pairs without a
    game-winning event with its 95% confidence interval (Student's t from the pair means), the
    game-winning events of each player, the deals won, lost and drawn with a Wilson
    interval, and each player's thinking time per deal (to compare at equal time).

    \b
    Examples:
      brisque match pimc:20 greedy --deals 20 --workers 2
      brisque match pimc:10 pimc:30@handmade:3 --deals 10 --workers 2
      brisque match pimc:50ms@learned:3+infer pimc:50ms --deals 3 --workers 2
      brisque match greedy random --deals 500 --rules briscan --json
      brisque match pimc:20 clairvoyant --deals 10 --records deals.jsonl
      brisque match pimc:50 greedy --deals 2000 --scheduler tcp://10.0.0.5:8786
    """
    try:
        make_player(first)
        make_player(second)
    except (ValueError, NotationError) as exc:
        raise BrisqueCommandError(str(exc)) from None
    r = parse_rules(rules)

    if record_alias is not None:
        if records_path is not None:
            raise BrisqueCommandError("give one --records FILE")
        records_path = record_alias
    if records_path is not None:
        writable_file(records_path, "records")
    status = StatusLine(on_terminal(quiet))

    def progress(done: int, total: int) -> None:
        status.show(f"{done}/{total} deal pairs")

    out = _RecordsFile(records_path)
    try:
        with scheduler_executor(scheduler, workers) as executor:
            result = run_match(
                first,
                second,
                deals,
                seed=seed,
                rules=r,
                workers=workers,
                executor=executor,
                progress=progress,
                on_pair=out.keep,
            )
    finally:
        status.end()
        out.close()
    if as_json:
        click.echo(_json_summary(result))
    else:
        click.echo("\n".join(_text_summary(result, first, second, r, seed, records_path)))
    if result.interrupted:
        click.echo(f"interrupted after {result.summary['pairs']} of {plural(deals, 'deal pair')}", err=True)
        interrupted_exit()


class _RecordsFile:
    """The file of ``--records`` (none: nothing written), each deal pair written as it is
    played, so that Ctrl-C loses none; a write that fails (a full disk) names the file,
    as -o FILE's do."""

    def __init__(self, path: str | None):
        self.path = path
        self.out = open(path, "w", encoding="utf-8") if path is not None else None

    def _unwritable(self, exc: OSError) -> CommandFailed:
        return unwritable("records", str(self.path), exc)

    def keep(self, pair: list[MatchRecord]) -> None:
        if self.out is None:
            return
        try:
            for rec in pair:
                self.out.write(json.dumps(rec) + "\n")
            self.out.flush()
        except OSError as exc:
            try:
                self.out.close()  # (closed all the same; what it could not flush is lost)
            except OSError:
                pass
            self.out = None
            raise self._unwritable(exc) from None

    def close(self) -> None:
        if self.out is not None:
            try:
                self.out.close()
            except OSError as exc:
                raise self._unwritable(exc) from None


def _text_summary(
    result: MatchResult, first: str, second: str, r: Rules, seed: int, records_path: str | None
) -> list[str]:
    """The lines of a match's report in words."""
    s = result.summary
    lo, hi = s["ci95"]
    wlo, whi = s["won_share_ci95"]
    unit = "tricks" if r.objective == "tricks" else "points"
    lines = [
        f"{first} vs {second}, {r}, {plural(s['pairs'], 'deal pair')} ({plural(s['deals'], 'deal')}), seed {seed}"
    ]
    ci = f"95% CI [{lo:+.2f}, {hi:+.2f}]" if lo is not None else "95% CI needs two deal pairs"
    apart = ""
    if s["deals_with_events"]:
        without = s["pairs_without_events"]
        apart = f" (the {plural(without, 'pair')} without a game-winning event)"
        if without == 1:
            apart = " (the one pair without a game-winning event)"
    if s["mean_margin"] is None:
        lines.append(f"mean margin for {first}: none, every deal pair had a game-winning event")
    else:
        lines.append(f"mean margin for {first}: {s['mean_margin']:+.2f} {unit} per deal{apart}, {ci}")
    lines.append(
        f"deals won {s['won']}, lost {s['lost']}, drawn {s['drawn']}; "
        f"share won {proportion(s['won'] / s['deals'])}, 95% CI [{proportion(wlo)}, {proportion(whi)}]"
    )
    if s["game_wins_first"] or s["game_wins_second"]:
        lines.append(f"game-winning events: {first} {s['game_wins_first']}, {second} {s['game_wins_second']}")
    t = result.timing
    lines.append(
        f"thinking time per deal: {first} {t['seconds_per_deal_first']:.2f} s, "
        f"{second} {t['seconds_per_deal_second']:.2f} s (CPU)"
    )
    if records_path is not None:
        lines.append(f"records: {records_path}")
    return lines


def _json_summary(result: MatchResult) -> str:
    """A match's report as one JSON object (interrupted: marked, so that a script does not
    take the pairs played so far for the match asked)."""
    s = result.summary
    rounded = {
        "mean_margin": json_number(s["mean_margin"]),
        "ci95": [json_number(x) for x in s["ci95"]],
        "won_share_ci95": [json_share(x) for x in s["won_share_ci95"]],
    }
    timing = {k: json_share(x) for k, x in result.timing.items()}
    extra = {"interrupted": True} if result.interrupted else {}
    return json.dumps({**s, **rounded, **timing, **extra})
