"""The games' returns: a finished deal's, from play to the end, and the exact solver's
value of a position with every card known, for a game that ends early (``exact_tail``) or
an algorithm that wants the solver's values (a bot's evaluator, a check of a strategy).

Both are zero-sum, ``[m, -m]`` for the margin ``m`` of seat a; a game won outright is worth
the points its winner still needed (:mod:`solver.analysis.ranking`, ``win_worth="match"``).
The game definition (:mod:`solver.openspiel.game`) holds no search: it asks here.

>>> from solver.model.position import Position
>>> solved_returns(Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"))
[-44.0, 44.0]
>>> played_returns(Position("petite 7.../8... D 0 - - a 0:0").apply("7S").apply("8S"))
[-1.0, 1.0]
"""

from __future__ import annotations

from solver.analysis.ranking import RankingRule
from solver.engine.solving import solve
from solver.errors import PlayError
from solver.model.position import Position

MATCH = RankingRule.parse("match")


def played_returns(p: Position) -> list[float]:
    """The returns of the finished deal ``p`` (a PlayError if it is not over)."""
    if not p.is_over():
        raise PlayError(f"the deal is not over in {p.bpn()!r}: its returns come from play to the end")
    x = float(MATCH.number(p.value(0), p))
    return [x, -x]


def solved_returns(p: Position) -> list[float]:
    """The returns of ``p`` under best play from here, solved exactly (every card of ``p``
    must be known); those of the deal itself once it is over."""
    if p.is_over():
        return played_returns(p)
    v = solve(p, pv=False, every_move=False).value
    x = float(MATCH.number(v, p)) * (1 if p.turn == 0 else -1)
    return [x, -x]


__all__ = ["MATCH", "played_returns", "solved_returns"]
