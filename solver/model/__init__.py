"""The game model: cards and card sets, rules, melds, moves, ``Position`` with BPN, validity
and views.  It imports nothing above it: only ``solver.errors`` and ``solver.native``.

>>> from solver.model import Position
>>> Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35").trick_number
11
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.model.lazy import by_module, lazy_names

if TYPE_CHECKING:  # (for type checkers, re-exported: at run time, __getattr__ below imports each name)
    from solver.model.cards import card_str as card_str
    from solver.model.cards import format_hand as format_hand
    from solver.model.cards import parse_card as parse_card
    from solver.model.cards import parse_hand as parse_hand
    from solver.model.melds import MELDS as MELDS
    from solver.model.melds import Meld as Meld
    from solver.model.melds import game_melds as game_melds
    from solver.model.melds import parse_meld_code as parse_meld_code
    from solver.model.moves import EXCHANGE as EXCHANGE
    from solver.model.moves import PASS as PASS
    from solver.model.moves import Move as Move
    from solver.model.moves import parse_move as parse_move
    from solver.model.moves import parse_moves as parse_moves
    from solver.model.position import SEATS as SEATS
    from solver.model.position import Outcome as Outcome
    from solver.model.position import Position as Position
    from solver.model.position import as_position as as_position
    from solver.model.position import seat as seat
    from solver.model.rules import GAMES as GAMES
    from solver.model.rules import Rules as Rules

# Where each name comes from, imported on first use (PEP 562): a module of the package
# (such as solver.model.ranges, whose numbers the command line's options need) is
# imported without the others.
_SOURCES = by_module(
    {
        "solver.model.cards": ("card_str", "format_hand", "parse_card", "parse_hand"),
        "solver.model.melds": ("MELDS", "Meld", "game_melds", "parse_meld_code"),
        "solver.model.moves": ("EXCHANGE", "Move", "PASS", "parse_move", "parse_moves"),
        "solver.model.position": ("Outcome", "Position", "SEATS", "as_position", "seat"),
        "solver.model.rules": ("GAMES", "Rules"),
    }
)

# the submodules that importing this package made attributes when it imported everything
_SUBMODULES = frozenset(
    {"bits", "bpn", "cards", "melds", "moves", "outright", "position", "ranges", "rules", "value"}
)


__all__ = sorted(_SOURCES)

if not TYPE_CHECKING:  # (type checkers see the names imported above, and no others)
    __getattr__, __dir__ = lazy_names(globals(), _SOURCES, _SUBMODULES)
