"""How a sampled analysis ranks moves when some worlds end in a game won outright.

A game-winning event (four kings or queens, a vole) is not a margin: averaging it as
``+-10000`` into margins makes the means unreadable.  A sampled answer therefore reports,
for each move, the share of worlds won (``p_win``) and lost (``p_loss``) outright and the
mean margin over the other worlds, and ranks the moves by a *value*: the mean, over all
worlds, of each world's margin, where a game won counts for what it is worth in the match.

Rules (``win_worth``):

* ``"match"`` (the default): a game won is worth the points its winner still needed to reach
  the target (``target`` minus his game total before this deal, from BPN's ``game=``), so
  winning outright counts as much as scoring those points; under the tricks objective, the
  tricks of a whole deal;
* a whole number ``N`` from 1 to ``MAX_WIN_WORTH`` (the largest target): a game won is
  worth ``N`` points (for either seat);
* ``"sentinel"``: ``+-10000``, the number of the exact answers (the old behaviour).

>>> from solver.model.position import Position
>>> from solver.model.value import Value
>>> r = RankingRule.parse("match")
>>> p = Position("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1 game=380:120")
>>> r.number(Value.game_won(0, pov=0), p), r.number(Value.game_won(1, pov=0), p), r.number(Value.margin(7, 0), p)
(120, -380, 7)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solver.errors import ArgumentError
from solver.model.position import Position
from solver.model.ranges import MAX_WIN_WORTH, short_value, whole_number, whole_or_none
from solver.model.value import ExpectedMargin, Value

WinWorth = Literal["match", "sentinel"] | int
"""A ranking rule as the API and the CLI take it."""


@dataclass(frozen=True, kw_only=True)
class RankingRule:
    """What a game won outright counts for in the means that rank moves (module docstring)."""

    rule: Literal["match", "points", "sentinel"] = "match"
    points: int = 0

    @classmethod
    def parse(cls, text: WinWorth | str) -> RankingRule:
        """``"match"``, ``"sentinel"`` or a whole number of points from 1 to
        ``MAX_WIN_WORTH`` (an int or its digits); an ArgumentError quoting anything else.

        >>> RankingRule.parse(-1)
        Traceback (most recent call last):
        ...
        solver.errors.ArgumentError: win_worth=-1: expected 'match' (the points still needed to reach the target), 'sentinel' (+-10000) or a whole number of points from 1 to 1000000
        """
        n = whole_or_none(text)  # (an int, numpy's too; not True)
        if n is None and isinstance(text, str):
            t = text.strip().lower()
            if t in ("match", "sentinel"):
                return cls(rule="match" if t == "match" else "sentinel")
            try:  # (ASCII digits only, no 4300-digit trap)
                n = whole_number(t, 1, MAX_WIN_WORTH)
            except ValueError:
                n = None
        if n is None or not 1 <= n <= MAX_WIN_WORTH:
            raise ArgumentError(
                f"win_worth={short_value(text)}: expected 'match' (the points still needed to reach the "
                f"target), 'sentinel' (+-10000) or a whole number of points from 1 to {MAX_WIN_WORTH}"
            )
        return cls(rule="points", points=n)

    def __str__(self) -> str:
        return str(self.points) if self.rule == "points" else self.rule

    def worth(self, p: Position, winner: int) -> int:
        """What a game won by ``winner`` is worth to him in position ``p``'s deal."""
        if self.rule == "points":
            return self.points
        if p.rules.objective == "tricks":
            return p.rules.tricks_per_deal
        return max(1, p.rules.target - p.game[winner])

    def number(self, v: Value | ExpectedMargin, p: Position) -> float:
        """A world's value for ``v.pov`` as the number the ranking averages."""
        if isinstance(v, ExpectedMargin):
            return float(v)
        if self.rule == "sentinel" or v.winner is None:
            return int(v)
        w = self.worth(p, v.winner)
        return w if v.won else -w

    def describe(self) -> str:
        """The rule in words, for the answers."""
        if self.rule == "sentinel":
            return "a game won counts +-10000"
        if self.rule == "points":
            return f"a game won counts {self.points} points"
        return "a game won counts the points its winner still needed to reach the target"


__all__ = ["RankingRule", "WinWorth"]
