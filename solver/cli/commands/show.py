"""``brisque show BPN``: the position's picture, JSON or SVG diagram, and its validity."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

import click

from solver.cli.exits import USAGE_ERROR, BrisqueCommandError, unwritable
from solver.cli.inputs import read_position
from solver.cli.options import WholeNumber, json_option, options_given, output_option, shown_option
from solver.cli.output import writable_file
from solver.errors import ArgumentError, HiddenInformationError
from solver.formats.picture import picture, suit_symbols
from solver.model.position import Position
from solver.model.svg import MarkError, svg


@click.command("show")
@click.argument("bpn")
@json_option("One JSON object instead of the picture.")
@click.option(
    "--svg",
    "as_svg",
    is_flag=True,
    help="An SVG card diagram instead of the picture (to -o FILE, or stdout).",
)
@output_option("With --svg: the file to write the diagram to.")
@click.option(
    "--pov",
    type=click.Choice(["a", "b"]),
    help="With --svg: the seat at the bottom (default: the player to act).",
)
@shown_option("--size", WholeNumber(16, 4000), 480, "With --svg: width in pixels.")
@click.option(
    "--highlight", "marks", multiple=True, help="With --svg: a move to ring (repeatable), such as TH or x."
)
@click.option(
    "--arrow",
    "arrows",
    multiple=True,
    help="With --svg: a card move to draw as an arrow to the trick (repeatable).",
)
def show_cmd(
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
    p = read_position(bpn, check=False, command="show")
    probs = p.problems()
    if not as_svg:
        _refuse_drawing_options()
    if as_json and as_svg:
        raise click.UsageError("--json and --svg are two answers: choose one")
    if as_svg:
        _show_svg(
            p, probs, output, partial(svg, pov=pov, size=size, highlight=list(marks), arrows=list(arrows))
        )
    elif as_json:
        click.echo(json.dumps(_summary(p, probs)))
    else:
        click.echo(picture(p, suit_symbols(getattr(sys.stdout, "encoding", None))))
    if probs:
        sys.exit(USAGE_ERROR)  # (the same status as solve's for it)


def _refuse_drawing_options() -> None:
    """Refuse the options of the SVG diagram given without --svg."""
    option = {
        "output": "-o/--output",
        "pov": "--pov",
        "size": "--size",
        "marks": "--highlight",
        "arrows": "--arrow",
    }
    drawing_only = [option[key] for key in options_given(*option)]
    if drawing_only:
        raise click.UsageError(
            f"{' and '.join(drawing_only)} {'is' if len(drawing_only) == 1 else 'are'} for the "
            f"SVG diagram: add --svg"
        )


def _show_svg(p: Position, probs: list[str], output: str | None, draw: Callable[[Position], str]) -> None:
    """Draw ``p`` as SVG with ``draw`` (:func:`svg` given the drawing options), to standard
    output or the file ``output``."""
    try:
        drawing = draw(p)
    except MarkError as exc:  # (named as the option that gave it: --arrow ZZ)
        raise BrisqueCommandError(f"--{exc.detail}") from None
    except ArgumentError as exc:
        raise BrisqueCommandError(str(exc)) from None
    if probs:  # (drawn all the same, as the picture is, and the reasons said)
        click.echo(f"impossible position {p.bpn()!r}: " + "; ".join(probs), err=True)
    if not output:
        click.echo(drawing)
        return
    writable_file(output, "diagram")
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(drawing + "\n")
    except OSError as exc:  # (a full disk: the file named, not a traceback)
        raise unwritable("diagram", output, exc) from None
    click.echo(f"wrote {output}", err=True)


def _summary(p: Position, probs: list[str]) -> dict[str, Any]:
    """``brisque show --json``'s object: the position, whether it is valid, its moves."""
    try:
        moves: list[str] | None = [str(m) for m in p.legal_moves()]
    except HiddenInformationError:
        moves = None
    return {
        "bpn": p.bpn(),
        "valid": not probs,
        "problems": probs,
        "turn": "ab"[p.turn],
        "trick": min(p.trick_number, p.rules.tricks_per_deal),
        "over": p.is_over(),
        "legal": moves,
    }
