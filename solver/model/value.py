"""What a deal is worth: a final margin, or a game won outright, from a named seat's view.

Like python-chess's ``PovScore`` with ``Cp`` and ``Mate``, a :class:`Value` keeps apart
the two kinds of answer and knows whose point of view it takes.  It is an ``int`` so that
it compares, sorts and serialises as the answers always have (NOTATION.md): a margin is
the number itself, a game won is ``+WIN_VALUE`` and a game lost ``-WIN_VALUE``.

This module is the only place that knows those numbers and the engine's raw scale (a
game-winning event is worth exactly ``+-WIN_RAW`` inside the search, and raw values beyond
``+-WIN_THRESHOLD`` are game wins): everything else asks it.

>>> v = Value.margin(-4, pov="a")
>>> v, v.is_game_win, v.for_seat("b")
(Value.margin(-4, pov='a'), False, Value.margin(4, pov='b'))
>>> w = Value.game_won(winner="b", pov="a")
>>> int(w), w.win, w.lost, w > Value.margin(300, pov=0)
(-10000, 'b', True, False)
"""

from __future__ import annotations

import operator

from solver.errors import ArgumentError
from solver.model.ranges import short_value, whole_or_none
from solver.native.constants import WIN_RAW, WIN_THRESHOLD, WIN_VALUE

_SEATS = "ab"

Seat = int | str
"""A seat: ``'a'`` or ``'b'`` (any case), or 0 or 1."""


def seat_index(seat: object, name: str = "seat") -> int:
    """The seat ``'a'``/``'b'`` (any case) or 0/1 as 0 or 1; an :class:`ArgumentError`
    quoting anything else (``name`` is the argument's name in the message).

    >>> seat_index("a"), seat_index("B"), seat_index(1)
    (0, 1, 1)
    >>> seat_index("c", "pov")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentError: pov='c': expected a seat, 'a' or 'b' (or 0 or 1)
    """
    if isinstance(seat, str):
        t = seat.strip().lower()
        if t in ("a", "b"):
            return _SEATS.index(t)
    else:
        i = whole_or_none(seat)  # (any whole number, numpy's too; not True, not 1.0)
        if i is not None and i in (0, 1):
            return i
    raise ArgumentError(f"{name}={short_value(seat)}: expected a seat, 'a' or 'b' (or 0 or 1)")


class Value(int):
    """A final value for the seat ``pov``: a margin, or a game won by ``winner``.

    Seats are ``'a'`` and ``'b'`` (or 0 and 1, as they are stored: ``pov`` and ``winner``
    are ints).  Build it with :meth:`margin`, :meth:`game_won`, :meth:`from_raw` or
    :meth:`from_number`.

    >>> Value.margin(5, "b").pov, Value.game_won("a", pov=1).win
    (1, 'a')
    """

    pov: int
    winner: int | None

    def __new__(cls, number: int, pov: Seat, winner: Seat | None = None) -> Value:
        try:
            if isinstance(number, bool):  # (True is no number of points, whatever int() says)
                raise TypeError
            number = operator.index(number)
        except TypeError:
            raise ArgumentError(f"Value({short_value(number)}): expected a whole number") from None
        pov = seat_index(pov, "pov")
        winner = None if winner is None else seat_index(winner, "winner")
        if winner is not None:
            number = WIN_VALUE if winner == pov else -WIN_VALUE
        # unchecked here: real deals stay far inside +-WIN_VALUE (margin() refuses more), and
        # a raw search bound turned into a value may lie beyond; ``winner`` tells the kinds apart
        self = super().__new__(cls, number)
        self.pov = pov
        self.winner = winner
        return self

    # ------------------------------------------------------------------ construction
    @classmethod
    def margin(cls, margin: int, pov: Seat) -> Value:
        """A deal played out: ``margin`` for ``pov`` (his score, or tricks, minus his opponent's),
        a whole number inside ``+-WIN_VALUE`` (the number of a game won: :meth:`game_won`).

        >>> Value.margin(10000, "a")
        Traceback (most recent call last):
        ...
        solver.errors.ArgumentError: margin=10000: expected a whole number from -9999 to 9999 (+-10000 is a game won: Value.game_won)
        """
        m = whole_or_none(margin)
        if m is None or not -WIN_VALUE < m < WIN_VALUE:
            raise ArgumentError(
                f"margin={short_value(margin)}: expected a whole number from {1 - WIN_VALUE} to "
                f"{WIN_VALUE - 1} (+-{WIN_VALUE} is a game won: Value.game_won)"
            )
        return cls(m, pov)

    @classmethod
    def game_won(cls, winner: Seat, pov: Seat) -> Value:
        """A game won outright by ``winner`` (four kings or queens, a vole), seen by ``pov``."""
        return cls(0, pov, winner)

    @classmethod
    def from_raw(cls, raw: int, pov: Seat, current: int) -> Value:
        """The final value of an engine's raw *future* value ``raw`` for the player to move
        ``pov``, whose margin so far is ``current``."""
        pov = seat_index(pov, "pov")
        if raw >= WIN_THRESHOLD:
            return cls.game_won(pov, pov)
        if raw <= -WIN_THRESHOLD:
            return cls.game_won(1 - pov, pov)
        return cls(current + raw, pov)  # (a search's bound may lie beyond margin()'s range)

    @classmethod
    def from_number(cls, number: int, pov: Seat) -> Value:
        """Read an answer's number (``+-WIN_VALUE`` is a game won or lost)."""
        pov = seat_index(pov, "pov")
        if number >= WIN_VALUE:
            return cls.game_won(pov, pov)
        if number <= -WIN_VALUE:
            return cls.game_won(1 - pov, pov)
        return cls.margin(number, pov)

    # ------------------------------------------------------------------ reading
    @property
    def is_game_win(self) -> bool:
        """A game won outright (by either seat), not a margin."""
        return self.winner is not None

    @property
    def won(self) -> bool:
        """``pov`` wins the game outright."""
        return self.winner == self.pov

    @property
    def lost(self) -> bool:
        """``pov``'s opponent wins the game outright."""
        return self.winner is not None and self.winner != self.pov

    @property
    def win(self) -> str | None:
        """The seat letter of the game's winner (the answers' ``win``), or None for a margin."""
        return None if self.winner is None else _SEATS[self.winner]

    def for_seat(self, seat: Seat) -> Value:
        """The same value from ``seat``'s point of view (``'a'``/``'b'``, or 0/1).

        >>> Value.margin(5, "a").for_seat("b")
        Value.margin(-5, pov='b')
        """
        seat = seat_index(seat)
        if seat == self.pov:
            return self
        if self.winner is not None:
            return Value.game_won(self.winner, seat)
        return Value(-int(self), seat)  # (as unchecked as self)

    # printed as the number of the answers (a Value is an int); repr tells the kinds apart
    __str__ = int.__repr__

    def __repr__(self) -> str:
        if self.winner is not None:
            return f"Value.game_won({_SEATS[self.winner]!r}, pov={_SEATS[self.pov]!r})"
        return f"Value.margin({int(self)}, pov={_SEATS[self.pov]!r})"

    def describe(self) -> str:
        """Text for people: ``+12``, ``-4``, ``game won by a``."""
        if self.winner is not None:
            return f"game won by {_SEATS[self.winner]}"
        return f"{int(self):+d}"

    def __reduce__(self) -> tuple[type, tuple[int, int, int | None]]:
        return (Value, (int(self), self.pov, self.winner))


# ---------------------------------------------------------------------- the raw scale
# The engine's and the reference solver's raw future values, for the code that drives them.

RAW_TRIVIAL = WIN_RAW + 5000
"""Beyond every raw value: the bound known before searching."""


class ExpectedMargin(float):
    """A world's value with the draws by chance: the expected final margin for the seat
    ``pov`` over every order of the talon (the exact expectimax of the world), where no game
    win is at stake.  It reads like a margin :class:`Value` (no winner), but is no whole
    number: sampled analyses average it as they average margins.

    >>> v = ExpectedMargin(-86.5, "b")
    >>> v.is_game_win, v.won, v.win, v.for_seat("a")
    (False, False, None, ExpectedMargin(86.5, pov='a'))
    """

    pov: int
    winner: None = None
    is_game_win = False
    won = False
    lost = False
    win = None

    def __new__(cls, margin: float, pov: Seat) -> ExpectedMargin:
        self = super().__new__(cls, margin)
        self.pov = seat_index(pov, "pov")
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (ExpectedMargin, (float(self), self.pov))

    def for_seat(self, seat: Seat) -> ExpectedMargin:
        """The same value from ``seat``'s point of view."""
        seat = seat_index(seat)
        return self if seat == self.pov else ExpectedMargin(-float(self), seat)

    def __repr__(self) -> str:
        return f"ExpectedMargin({float(self)}, pov={_SEATS[self.pov]!r})"


def raw_game_win(mover_wins: bool) -> int:
    """The raw value of a game-winning event for the player to move."""
    return WIN_RAW if mover_wins else -WIN_RAW


def is_raw_game_win(raw: int) -> bool:
    """Whether a raw future value is a game won or lost, not a margin."""
    return raw >= WIN_THRESHOLD or raw <= -WIN_THRESHOLD


def raw_target(target: int, current: int) -> int | None:
    """The raw future value the player to move needs to finish with at least ``target``
    (an answer's number: ``WIN_VALUE`` asks for a game win), whose margin so far is
    ``current``; ``None`` when every outcome reaches it (``target <= -WIN_VALUE``).

    >>> raw_target(10, 4), raw_target(-10000, 4) is None
    (6, True)
    """
    if target <= -WIN_VALUE:
        return None
    if target >= WIN_VALUE:
        return WIN_THRESHOLD  # only a game win reaches it
    # ordinary raw values lie strictly inside +-WIN_THRESHOLD: a need beyond is a game win
    # to reach, or any outcome but a game lost
    return max(1 - WIN_THRESHOLD, min(target - current, WIN_THRESHOLD))


def raw_unreachable(target: int) -> bool:
    """Whether no outcome at all reaches ``target`` (more than a game win)."""
    return target > WIN_VALUE


__all__ = [
    "RAW_TRIVIAL",
    "Seat",
    "Value",
    "is_raw_game_win",
    "raw_game_win",
    "raw_target",
    "raw_unreachable",
    "seat_index",
]
