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

from solver.analysis import SampledAnalysis, analyse, analyse_line, solution_tree
from solver.engine import Analysis, Limit, MoveValue, Solver, can_reach, solve, solve_batch
from solver.errors import (
    BPNError,
    BrisqueError,
    EngineError,
    EngineMissingError,
    HiddenInformationError,
    IllegalMoveError,
    ImpossiblePositionError,
    NotationError,
    PositionError,
    PuzzleError,
    RecordError,
    RulesError,
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

__version__ = "0.2.0"

__all__ = [
    "Analysis",
    "BPNError",
    "BrisqueError",
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
    "NotationError",
    "Outcome",
    "PASS",
    "Position",
    "PositionError",
    "PuzzleError",
    "RecordError",
    "Rules",
    "RulesError",
    "SampledAnalysis",
    "Solver",
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
]
