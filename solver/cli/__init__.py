"""The ``brisque`` command: a click group over the library, one module a command.

Data goes to standard output, errors and progress to standard error.  Every command that
answers a query has ``--json``.  The group (:mod:`solver.cli.group`) imports a command's
module only when that command runs: ``brisque --help`` lists them from :data:`COMMANDS`.

The package: :mod:`~solver.cli.commands` (one module a command), :mod:`~solver.cli.options`
(the shared options and the numeric types), :mod:`~solver.cli.exits` (errors, exit
statuses, signals), :mod:`~solver.cli.inputs` (BPN arguments, standard input),
:mod:`~solver.cli.output` (the progress line, output files), :mod:`~solver.cli.batch`
(the ``-`` batches) and :mod:`~solver.cli.group` (the group itself).
"""

from __future__ import annotations

import click

from solver import __version__
from solver.cli.group import BrisqueGroup, Subcommand

# Each command: its module and click command, and the line "brisque --help" shows for it
# (its help's first sentence; tests/cli/test_cli_help.py checks that they agree).
COMMANDS = {
    "show": Subcommand(
        "solver.cli.commands.show:show_cmd",
        "Print a readable picture of the position BPN and whether it is valid.",
    ),
    "deal": Subcommand("solver.cli.commands.deal:deal_cmd", "Print the BPN of a position dealt from SEED."),
    "solve": Subcommand(
        "solver.cli.commands.solve:solve_cmd", "Solve a position with both hands known exactly."
    ),
    "analyse": Subcommand(
        "solver.cli.commands.analyse:analyse_cmd",
        "Best move and expected score with hidden cards (determinization sampling).",
    ),
    "puzzles": Subcommand(
        "solver.cli.commands.puzzles:puzzles_cmd",
        "Solve every record of puzzle files (.bpd) and check bm, am, pv, v and ev.",
    ),
    "line": Subcommand(
        "solver.cli.commands.line:line_cmd",
        "Play MOVES from BPN and give, for every move, its value, the best value and the loss.",
    ),
    "tree": Subcommand(
        "solver.cli.commands.tree:tree_cmd",
        "Write the solution tree of BPN as a graph: positions with their values, moves as edges "
        "with each move's value, the best moves marked, transpositions merged.",
    ),
    "match": Subcommand(
        "solver.cli.commands.match:match_cmd",
        "Duplicate match between two players: FIRST and SECOND are random, greedy, pimc (100 "
        "worlds), pimc:N or pimc:0.5s, or clairvoyant (sees every card).",
    ),
    "bench": Subcommand(
        "solver.cli.commands.bench:bench_cmd",
        "Run the standard benchmarks from the installed package and print their figures.",
    ),
    "serve": Subcommand(
        "solver.cli.commands.serve:serve_cmd",
        "Start the analysis board in the browser: paste a position, see its diagram and every "
        "move's value, play moves by clicking, step through puzzle files and match records.",
    ),
    "play": Subcommand(
        "solver.cli.commands.play:play_cmd",
        "Play against the engine in the browser, at a level from beginner to master, with hints "
        "and a review of your play after each deal.",
    ),
}


@click.group(cls=BrisqueGroup, subcommands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
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
      brisque match pimc:20 greedy --deals 10

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


__all__ = ["COMMANDS", "main"]
