"""Brisque, Briscan and Petite Brisque: the rules, positions in BPN, an exact solver, and
analyses with hidden cards.

>>> import solver
>>> p = solver.Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
>>> p.turn, p.trick_number, solver.solve(p).value
(0, 11, Value.margin(-4, pov='a'))

The layers, from the bottom: ``solver.errors`` and ``solver.native`` (the compiled code),
``solver.model``, ``solver.formats``, ``solver.engine``, ``solver.analysis``,
``solver.play``, and the command line ``solver.cli`` (docs/architecture.md).
"""

from __future__ import annotations

# First: in the brisque command, Ctrl-C while the modules load is noted, not a traceback
from solver import startup

startup.guard()

from typing import TYPE_CHECKING  # noqa: E402

# The compiled modules, at once: a source tree without a build fails here, at `import
# solver`, with the error that says how to build it (EngineMissingError), as it always did.
from solver import native  # noqa: F401, E402
from solver.model.lazy import lazy_names  # noqa: E402

if TYPE_CHECKING:  # (for type checkers: at run time, __getattr__ below imports each name)
    from solver.analysis import AnalyseOptions, SampledAnalysis, analyse, analyse_line, solution_tree
    from solver.engine import (
        Analysis,
        ChanceAnalysis,
        ChanceInterrupted,
        Limit,
        MoveValue,
        SolveInterrupted,
        Solver,
        can_reach,
        solve,
        solve_batch,
        solve_chance,
    )
    from solver.errors import (
        ArgumentError,
        ArgumentTypeError,
        BoardError,
        BPNError,
        BrisqueError,
        EngineError,
        EngineMissingError,
        HiddenInformationError,
        IllegalMoveError,
        ImpossiblePositionError,
        NetworkFileError,
        NotationError,
        PlayError,
        PositionError,
        PuzzleError,
        RecordError,
        RulesError,
        TreeLimitError,
    )
    from solver.formats import DealRecord, picture, read_bpd
    from solver.model import (
        EXCHANGE,
        MELDS,
        PASS,
        Move,
        Outcome,
        Position,
        Rules,
        card_str,
        format_hand,
        parse_card,
        parse_hand,
        parse_move,
        parse_moves,
    )
    from solver.model.value import Value
    from solver.native.constants import WIN_VALUE
    from solver.play import deal, make_player, play_deal, run_match


__version__ = "0.3.0"

__all__ = [
    "Analysis",
    "AnalyseOptions",
    "ArgumentError",
    "ArgumentTypeError",
    "BPNError",
    "BoardError",
    "BrisqueError",
    "ChanceAnalysis",
    "ChanceInterrupted",
    "DealRecord",
    "EXCHANGE",
    "EngineError",
    "EngineMissingError",
    "HiddenInformationError",
    "IllegalMoveError",
    "ImpossiblePositionError",
    "Limit",
    "MELDS",
    "Move",
    "MoveValue",
    "NetworkFileError",
    "NotationError",
    "Outcome",
    "PASS",
    "PlayError",
    "Position",
    "PositionError",
    "PuzzleError",
    "RecordError",
    "Rules",
    "RulesError",
    "SampledAnalysis",
    "SolveInterrupted",
    "Solver",
    "TreeLimitError",
    "Value",
    "WIN_VALUE",
    "__version__",
    "analyse",
    "analyse_line",
    "can_reach",
    "card_str",
    "deal",
    "format_hand",
    "make_player",
    "parse_card",
    "parse_hand",
    "parse_move",
    "parse_moves",
    "picture",
    "play_deal",
    "read_bpd",
    "run_match",
    "solution_tree",
    "solve",
    "solve_batch",
    "solve_chance",
]

# Where each public name comes from.  The names are imported on first use (PEP 562), so
# that `import solver` and the start of the command line (`brisque solve -`) do not pay
# for the analysis, play and format modules, and what they import, before they need them;
# `from solver import X` and `solver.X` work as before.
_SOURCES: dict[str, str] = {
    "AnalyseOptions": "solver.analysis",
    "SampledAnalysis": "solver.analysis",
    "analyse": "solver.analysis",
    "analyse_line": "solver.analysis",
    "solution_tree": "solver.analysis",
    "Analysis": "solver.engine",
    "ChanceAnalysis": "solver.engine",
    "ChanceInterrupted": "solver.engine",
    "Limit": "solver.engine",
    "MoveValue": "solver.engine",
    "SolveInterrupted": "solver.engine",
    "Solver": "solver.engine",
    "can_reach": "solver.engine",
    "solve": "solver.engine",
    "solve_batch": "solver.engine",
    "solve_chance": "solver.engine",
    "ArgumentError": "solver.errors",
    "ArgumentTypeError": "solver.errors",
    "BPNError": "solver.errors",
    "BoardError": "solver.errors",
    "BrisqueError": "solver.errors",
    "EngineError": "solver.errors",
    "EngineMissingError": "solver.errors",
    "HiddenInformationError": "solver.errors",
    "IllegalMoveError": "solver.errors",
    "ImpossiblePositionError": "solver.errors",
    "NetworkFileError": "solver.errors",
    "NotationError": "solver.errors",
    "PlayError": "solver.errors",
    "PositionError": "solver.errors",
    "PuzzleError": "solver.errors",
    "RecordError": "solver.errors",
    "RulesError": "solver.errors",
    "TreeLimitError": "solver.errors",
    "DealRecord": "solver.formats",
    "picture": "solver.formats",
    "read_bpd": "solver.formats",
    "EXCHANGE": "solver.model",
    "MELDS": "solver.model",
    "Move": "solver.model",
    "Outcome": "solver.model",
    "PASS": "solver.model",
    "Position": "solver.model",
    "Rules": "solver.model",
    "card_str": "solver.model",
    "format_hand": "solver.model",
    "parse_card": "solver.model",
    "parse_hand": "solver.model",
    "parse_move": "solver.model",
    "parse_moves": "solver.model",
    "Value": "solver.model.value",
    "WIN_VALUE": "solver.native.constants",
    "deal": "solver.play",
    "make_player": "solver.play",
    "play_deal": "solver.play",
    "run_match": "solver.play",
}

# the submodules that `import solver` made attributes when it imported everything
_SUBMODULES = frozenset({"analysis", "engine", "errors", "formats", "model", "native", "play"})


if not TYPE_CHECKING:  # (type checkers see the names imported above, and no others)
    __getattr__, __dir__ = lazy_names(globals(), _SOURCES, _SUBMODULES)
