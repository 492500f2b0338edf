"""``brisque play``: a game against the engine on the board, in the browser (the extra ``board``)."""

from __future__ import annotations

from urllib.parse import urlencode

import click

from solver.cli.commands.serve import BoardSettings, board_options, run_board
from solver.cli.options import WholeNumber, choice_option, shown_option
from solver.model.ranges import MAX_SEED
from solver.play.levels import DEFAULT_LEVEL, LEVELS

LEVEL_HELP = "; ".join(f"{lv.number} {lv.name}: {lv.about}" for lv in LEVELS)


@click.command("play")
@choice_option("--game", ["brisque", "briscan", "petite"], "The game.")
@shown_option("--level", WholeNumber(1, len(LEVELS)), DEFAULT_LEVEL, LEVEL_HELP + ".")
@click.option(
    "--seed", type=WholeNumber(0, MAX_SEED), default=None, help="The cards (the same seed deals them again)."
)
@choice_option("--seat", ["a", "b"], "a: the elder hand, who leads the first trick; b: the dealer.")
@click.option(
    "--whole-game", is_flag=True, help="Play a whole game to the target (500 in Brisque, 600 in Briscan)."
)
@board_options
def play_cmd(
    game: str,
    level: int,
    seed: int | None,
    seat: str,
    whole_game: bool,
    board: BoardSettings,
) -> None:
    """Play against the engine in the browser, at a level from beginner to master, with hints
    and a review of your play after each deal.

    Choose the game, your seat, a level and one deal or a whole game; the engine thinks in
    the background; ask for a hint; after each deal, review your play: every decision graded
    from what you could see, the double-dummy loss beside it, and a graph of your expected
    margin.

    Opens the board's play page with these settings (a seed deals the same cards again, as
    a link you can share).  Games are kept on disk, so a reload or a restart resumes them.
    Ctrl-C stops the server.

    \b
    Examples:
      brisque play
      brisque play --game briscan --level 4 --seed 2026
      brisque play --whole-game --level 1 --no-browser --port 8765
    """
    params = {"game": game, "level": str(level), "seat": seat}
    if seed is not None:
        params["seed"] = str(seed)
    if whole_game:
        params["whole"] = "1"
    run_board(board, "/play?" + urlencode(params))
