"""The result of a finished deal (:meth:`solver.model.position.Position.outcome`), in a
module of its own so that what reads positions without importing them (the diagram, the
validity check: :mod:`solver.model.deal_state`) can name it.

>>> from solver.model.position import Position
>>> Position("petite 7.../8... D 0 - - a 0:0").apply("7S").apply("8S").outcome()
Outcome(score=0:0, tricks=0:1)
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.model.bpn import SEATS, seat
from solver.model.rules import Rules
from solver.model.value import Value


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """The result of a finished deal: final scores and tricks (seat a, seat b), the seat
    that won the game outright (``win``, None: nobody), under ``rules``.

    >>> from solver.model.position import Position
    >>> Position("petite 7.../8... D 0 - - a 0:0").apply("7S").apply("8S").outcome().winner
    1
    """

    score: tuple[int, int]
    tricks: tuple[int, int]
    win: int | None
    rules: Rules

    @property
    def winner(self) -> int | None:
        """Who won the deal: by a game-winning event, most tricks (Petite) or most points."""
        if self.win is not None:
            return self.win
        key = self.tricks if self.rules.objective == "tricks" else self.score
        if key[0] == key[1]:
            return None
        return 0 if key[0] > key[1] else 1

    def margin(self, player: int | str = 0) -> Value:
        """The deal's value for ``player``: his margin, or the game won outright."""
        p = seat(player)
        if self.win is not None:
            return Value.game_won(self.win, p)
        key = self.tricks if self.rules.objective == "tricks" else self.score
        return Value.margin(key[p] - key[1 - p], p)

    def __repr__(self) -> str:
        w = "" if self.win is None else f", win={SEATS[self.win]!r}"
        return f"Outcome(score={self.score[0]}:{self.score[1]}, tricks={self.tricks[0]}:{self.tricks[1]}{w})"


__all__ = ["Outcome"]
