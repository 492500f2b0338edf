"""Moves: one atomic action of the player to act, as a small int.

0..31 play that card; 32 exchange the 7 of trumps (``x``); 33 decline the
last-pickup exchange (``pass``); 40 + i declare meld ``MELDS[i]`` (``+mH``).
:class:`Move` is an ``int`` that prints in move notation.

>>> parse_move("10h"), str(parse_move("+mh")), str(EXCHANGE)
(Move('TH'), '+mH', 'x')
"""

from __future__ import annotations

from solver.errors import ArgumentError, ArgumentTypeError, NotationError
from solver.model.cards import card_str, parse_card
from solver.model.melds import MELDS, Meld, parse_meld_code
from solver.model.ranges import short, short_value, text_argument, whole_or_none
from solver.native.constants import DECLARE_BASE, MOVE_EXCHANGE, MOVE_PASS

# the engine's move codes
EXCHANGE_CODE = MOVE_EXCHANGE
PASS_CODE = MOVE_PASS


class Move(int):
    """A move number that prints as ``AS``, ``x``, ``pass`` or ``+mH``.

    ``Move(text)`` parses move notation (so a move's ``repr`` reads back as the move) and
    ``Move(code)`` gives the move of an engine code; a code that is no move, or a value
    that is neither, is an error quoting it.

    >>> Move("10h"), Move(32), Move(repr(Move(40))[6:-2])
    (Move('TH'), Move('x'), Move('+mS'))
    >>> Move(34)
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentError: move=34: no move has this code: expected 0..31 (a card), 32 (x), 33 (pass) or 40..111 (a declaration)
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Move:
        return as_move(value)  # (the shared instances below are made with int.__new__)

    @property
    def is_card(self) -> bool:
        return self < 32

    @property
    def is_declaration(self) -> bool:
        return self >= DECLARE_BASE

    @property
    def meld(self) -> Meld | None:
        """The meld a declaration declares; None for any other move."""
        return MELDS[self - DECLARE_BASE] if self >= DECLARE_BASE else None

    def __str__(self) -> str:
        name = _NAMES.get(self)  # (every move's name made once: answers print thousands)
        return name if name is not None else f"move{int(self)}"  # (no move has this code)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def __reduce__(self) -> tuple[type[Move], tuple[int]]:
        return (Move, (int(self),))


def _name(code: int) -> str:
    if code < 32:
        return card_str(code)
    if code == EXCHANGE_CODE:
        return "x"
    if code == PASS_CODE:
        return "pass"
    return "+" + MELDS[code - DECLARE_BASE].code


_CODES = [*range(34), *range(DECLARE_BASE, DECLARE_BASE + len(MELDS))]  # (every move's code)
_NAMES = {i: _name(i) for i in _CODES}

# One shared instance per move so that legal-move generation allocates nothing.
_ALL: dict[int, Move] = {i: int.__new__(Move, i) for i in _CODES}
EXCHANGE = _ALL[EXCHANGE_CODE]
PASS = _ALL[PASS_CODE]


def move(code: int) -> Move:
    """The shared :class:`Move` for a move number."""
    return _ALL[code]


_CODE_FORMS = (
    f"0..31 (a card), {EXCHANGE_CODE} (x), {PASS_CODE} (pass) or "
    f"{DECLARE_BASE}..{DECLARE_BASE + len(MELDS) - 1} (a declaration)"
)


def as_move(value: object, name: str = "move") -> Move:
    """The :class:`Move` that ``value`` names, for every function that takes a move: a
    :class:`Move`, an engine move code (an int) or move notation (a str).  A code that is no
    move is an :class:`~solver.errors.ArgumentError`, a value of another type (a float, a
    bool, None) an :class:`~solver.errors.ArgumentTypeError`, both quoting it; a string that
    is no move is a :class:`~solver.errors.NotationError`.

    >>> as_move("AS"), as_move(33)
    (Move('AS'), Move('pass'))
    >>> as_move(0.5)
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: move=0.5: expected a Move, a move code (int) or a move such as 'AS', 'x', 'pass' or '+mH', not float
    """
    if isinstance(value, str):
        return parse_move(value)
    code = whole_or_none(value)
    if code is None:
        raise ArgumentTypeError(
            f"{name}={short_value(value)}: expected a Move, a move code (int) or a move such as "
            f"'AS', 'x', 'pass' or '+mH', not {type(value).__name__}"
        )
    m = _ALL.get(code)
    if m is None:
        raise ArgumentError(f"{name}={short_value(value)}: no move has this code: expected {_CODE_FORMS}")
    return m


def declare(meld_index: int) -> Move:
    return _ALL[DECLARE_BASE + meld_index]


_MOVE_FORMS = "a card (AS, TH, 10H), x, pass, or + and a meld code (+mH)"


def parse_move(text: str) -> Move:
    """Parse one move: ``AS``, ``10h``, ``x``, ``pass``, ``+mH``, ``+3KS``."""
    t = text_argument(text, "move", _MOVE_FORMS).strip()
    if t.lower() == "x":
        return EXCHANGE
    if t.lower() == "pass":
        return PASS
    if t.startswith("+"):
        return declare(parse_meld_code(t[1:]).index)
    try:
        return _ALL[parse_card(t)]
    except NotationError:
        raise NotationError(f"bad move {short(text)}: expected {_MOVE_FORMS}") from None


def parse_moves(text: str) -> list[Move]:
    """Whitespace-separated moves: ``'+mH +3KS AS'``."""
    return [parse_move(t) for t in text_argument(text, "moves", "moves separated by spaces").split()]


__all__ = [
    "DECLARE_BASE",
    "EXCHANGE",
    "EXCHANGE_CODE",
    "Move",
    "PASS",
    "PASS_CODE",
    "as_move",
    "declare",
    "move",
    "parse_move",
    "parse_moves",
]
