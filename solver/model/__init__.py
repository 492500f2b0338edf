"""The game model: cards and card sets, rules, melds, moves, ``Position`` with BPN, validity
and views.  It imports nothing above it: only ``solver.errors`` and ``solver.native``.

>>> from solver.model import Position
>>> Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35").trick_number
11
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.model.lazy import lazy_names

if TYPE_CHECKING:  # (for type checkers: at run time, __getattr__ below imports each name)
    from solver.model.cards import card_str, format_hand, parse_card, parse_hand
    from solver.model.melds import MELDS, Meld, game_melds, parse_meld_code
    from solver.model.moves import EXCHANGE, PASS, Move, parse_move, parse_moves
    from solver.model.position import SEATS, Outcome, Position, as_position, seat
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
    "as_position",
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

# Where each name comes from, imported on first use (PEP 562): a module of the package
# (such as solver.model.ranges, whose numbers the command line's options need) is
# imported without the others.
_SOURCES: dict[str, str] = {
    "card_str": "solver.model.cards",
    "format_hand": "solver.model.cards",
    "parse_card": "solver.model.cards",
    "parse_hand": "solver.model.cards",
    "MELDS": "solver.model.melds",
    "Meld": "solver.model.melds",
    "game_melds": "solver.model.melds",
    "parse_meld_code": "solver.model.melds",
    "EXCHANGE": "solver.model.moves",
    "Move": "solver.model.moves",
    "PASS": "solver.model.moves",
    "parse_move": "solver.model.moves",
    "parse_moves": "solver.model.moves",
    "Outcome": "solver.model.position",
    "Position": "solver.model.position",
    "SEATS": "solver.model.position",
    "as_position": "solver.model.position",
    "seat": "solver.model.position",
    "GAMES": "solver.model.rules",
    "Rules": "solver.model.rules",
}

# the submodules that importing this package made attributes when it imported everything
_SUBMODULES = frozenset(
    {"bits", "bpn", "cards", "limits", "melds", "moves", "outright", "position", "rules", "value"}
)


if not TYPE_CHECKING:  # (type checkers see the names imported above, and no others)
    __getattr__, __dir__ = lazy_names(globals(), _SOURCES, _SUBMODULES)
