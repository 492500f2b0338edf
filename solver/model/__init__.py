"""The game model: cards and card sets, rules, melds, moves, ``Position`` with BPN, validity
and views.  It imports nothing above it: only ``solver.errors`` and ``solver.native``.

>>> from solver.model import Position
>>> Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35").trick_number
11
"""

from solver.model.cards import card_str, format_hand, parse_card, parse_hand
from solver.model.melds import MELDS, Meld, game_melds, parse_meld_code
from solver.model.moves import EXCHANGE, PASS, Move, parse_move, parse_moves
from solver.model.position import SEATS, Outcome, Position, seat
from solver.model.rules import GAMES, Rules

__all__ = [
    "EXCHANGE",
    "GAMES",
    "MELDS",
    "Meld",
    "Move",
    "Outcome",
    "PASS",
    "Position",
    "Rules",
    "SEATS",
    "card_str",
    "format_hand",
    "game_melds",
    "parse_card",
    "parse_hand",
    "parse_meld_code",
    "parse_move",
    "parse_moves",
    "seat",
]
