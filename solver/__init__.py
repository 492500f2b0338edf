"""Brisque, Briscan and Petite Brisque: rules, positions and (soon) solvers.

>>> import solver
>>> p = solver.Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
>>> p.turn, p.trick_number
(1, 11)
"""
from solver.cards import NotationError, card_str, format_hand, parse_card, parse_hand
from solver.moves import EXCHANGE, PASS, Move, parse_move, parse_moves
from solver.position import (BPNError, HiddenInformationError, Outcome, Position, PositionError,
                             WIN_VALUE)
from solver.rules import Rules, RulesError

__version__ = "0.1.0"

__all__ = [
    "BPNError", "EXCHANGE", "HiddenInformationError", "Move", "NotationError", "Outcome", "PASS",
    "Position", "PositionError", "Rules", "RulesError", "WIN_VALUE", "card_str", "format_hand",
    "parse_card", "parse_hand", "parse_move", "parse_moves",
]
