"""``brisque deal --seed N``: the BPN of a dealt position."""

from __future__ import annotations

import json

import click

from solver.cli.exits import BrisqueCommandError
from solver.cli.options import WholeNumber, json_option, parse_rules, rules_option, seed_option
from solver.model.ranges import MAX_TRICKS_PER_DEAL, PETITE_TRICKS
from solver.play.dealing import random_position


@click.command("deal")
@seed_option("Seed of the shuffle: the same seed, the same deal.", required=True)
@rules_option("Game and options, as the BPN rules field: brisque, briscan, petite, 'brisque(target=300)'.")
@click.option(
    "--at",
    "at",
    type=WholeNumber(1, MAX_TRICKS_PER_DEAL, note=f"Petite Brisque: x<={PETITE_TRICKS}"),
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
@json_option("One JSON object: the BPN, with the seed, rules, view, player to move and trick.")
def deal_cmd(seed: int, rules: str, at: int, view: str | None, as_json: bool) -> None:
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
    r = parse_rules(rules)
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
