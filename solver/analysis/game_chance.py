"""The chance of winning a whole game: from the game totals after a deal, played on to the
target with the deals that good players make.

A game runs to the target (500 in Brisque, 600 in Briscan, 3 deals won in Petite Brisque):
whoever has reached it at the end of a deal with the higher total wins, equal totals play
another deal, and a game-winning event (four kings or queens, a vole) ends it at once.  How
much a deal's result matters therefore depends on the totals: ten points more are nothing at
0 to 0 and everything at 495 to 490.  :class:`GameChance` gives the chance of winning the
game for a player with his total and his opponent's before a deal, his seat in it (the seats
alternate), from the distribution of the deals of self-play records
(``solver.engine.evaluation.deal_outcomes``, made by ``benchmarks/training/deal_outcomes.py``).

The table is exact for that distribution, on a grid of :data:`GRID` points (each deal's
scores rounded to it); equal totals at or beyond the target, which play another deal, count
one half.  :meth:`GameChance.of_value` turns a deal's final value (a margin, or a game won)
into the chance, splitting the deal's points by the margin: the points not yet scored are
the card points still in play and the last trick's bonus (declarations still to come are
unknown, and left out).

>>> c = GameChance.for_rules("brisque")
>>> 0.3 < c.chance(0, 0, seat=0) < 0.7, c.chance(480, 100, seat=1) > 0.9
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from solver.engine.evaluation import deal_outcomes
from solver.errors import ArgumentError
from solver.model.bits import points_of
from solver.model.position import Position
from solver.model.rules import Rules, as_rules
from solver.model.value import ExpectedMargin, Value
from solver.native.constants import PACK_POINTS

GRID = 5  # points a cell of the table in the points games (a deal's scores rounded to it)
GAME_OBJECTIVES = {"brisque": "margin", "briscan": "margin", "petite": "tricks"}  # (the outcomes' own)


@dataclass(frozen=True)
class DealOutcomes:
    """How deals end between good players, counted from self-play records: for the player
    of seat a (the elder hand, who leads), each ``(score_a, score_b, winner)`` and how
    often (``winner``: the seat letter of a game-winning event, or None)."""

    game: str
    counts: list[tuple[int, int, str | None, int]]
    source: str

    @classmethod
    def load(cls, game: str) -> DealOutcomes:
        """The shipped distribution of ``game``'s deals."""
        data = deal_outcomes()
        if game not in data:
            raise ArgumentError(
                f"game={game!r}: no deal outcomes shipped (expected one of {', '.join(data)})"
            )
        d = data[game]
        counts = [(int(a), int(b), w, int(n)) for a, b, w, n in d["outcomes"]]
        return cls(game, counts, d["source"])


class GameChance:
    """The chance of winning the game, by the totals and the seat of the next deal.

    >>> c = GameChance.for_rules("petite")
    >>> c.chance(2, 0, seat=0) > c.chance(1, 0, seat=0) > c.chance(0, 0, seat=0)
    True
    """

    def __init__(self, rules: Rules, outcomes: DealOutcomes) -> None:
        self.rules = rules
        if rules.objective != GAME_OBJECTIVES.get(outcomes.game, rules.objective):
            raise ArgumentError(
                f"rules={str(rules)!r}: the chance of the game is known for {outcomes.game}'s own "
                f"objective ({GAME_OBJECTIVES[outcomes.game]}), not {rules.objective}"
            )
        # (a target off the grid's edges, such as 333: cells of one point)
        self.grid = 1 if rules.objective == "tricks" or rules.target % GRID else GRID
        self.target = rules.target
        self.cells = -(-rules.target // self.grid)  # cells below the target
        self.source = outcomes.source
        self._table = self._solve(outcomes)

    @classmethod
    def for_rules(cls, rules: Rules | str) -> GameChance:
        """The table of a game's rules (made once a process: about a tenth of a second)."""
        return _table_of(str(as_rules(rules)))

    # ---------------------------------------------------------------- the table
    def _cell(self, points: int) -> int:
        """The cell of a total: cell k holds the totals from k grids up to the next (the
        target is a cell's edge, so that a cell is wholly short of it or wholly beyond)."""
        return points // self.grid

    def _step(self, points: int) -> int:
        """The cells a deal's points add: from the middle of a cell, the cell they reach."""
        return (2 * points + self.grid) // (2 * self.grid)

    def _solve(self, outcomes: DealOutcomes) -> np.ndarray:
        """``table[s, i, j]``: the chance that the player of seat ``s`` in the next deal, with
        totals in cells ``i`` and ``j``, wins the game.  Every deal counted adds a cell to
        someone, so a game ends within ``2 * cells - 1`` deals: that many sweeps from the
        terminal values give the exact table (an error if they did not)."""
        n = self.cells
        # each seat's view of a deal: (my cells, his cells, my outright result, weight)
        # (deals of the same cells are added up first: a few hundred sums, not thousands).
        # A deal that adds nothing (a drawn Petite deal) is left out: it only hands the lead over
        merged: list[dict[tuple[int, int, float | None], float]] = [{}, {}]
        for a, b, w, count in outcomes.counts:
            mine = (a, b), (b, a)
            for s in (0, 1):
                x, y = mine[s]
                outright = None if w is None else float(w == "ab"[s])
                key = (0, 0, outright) if outright is not None else (self._step(x), self._step(y), None)
                if key == (0, 0, None):
                    continue
                merged[s][key] = merged[s].get(key, 0.0) + count
        total = sum(merged[0].values())
        if total == 0:
            raise ArgumentError(f"no deal that adds to the totals in the outcomes of {outcomes.game}")
        views = [[(x, y, o, wt / total) for (x, y, o), wt in m.items()] for m in merged]
        reach = max(max(x, y) for v in views for x, y, _, _ in v) + 1
        size = n + reach
        # the totals at or beyond the target after a deal: the higher wins, equal is a half
        i, j = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
        over = (i >= n) | (j >= n)
        final = np.where(i > j, 1.0, np.where(i < j, 0.0, 0.5))
        table = np.full((2, n, n), 0.5)
        for _ in range(2 * n + 1):
            new = np.zeros_like(table)
            for s in (0, 1):
                after = np.where(over, final, 0.0)
                after[:n, :n] = table[1 - s]  # (the next deal at the other seat)
                for x, y, outright, weight in views[s]:
                    if outright is not None:
                        new[s] += weight * outright
                    else:
                        new[s] += weight * after[x : x + n, y : y + n]
            if np.array_equal(new, table):
                return table
            table = new
        raise ArgumentError(f"the chance of the game of {outcomes.game} did not settle in {2 * n + 1} sweeps")

    # ---------------------------------------------------------------- reading it
    def chance(self, mine: int, his: int, seat: int) -> float:
        """The chance of winning the game with totals ``mine`` and ``his`` before a deal
        in which the player has ``seat`` (0: a, the elder hand; 1: b), or after the last
        one (at or beyond the target: 1, 0, or a half for equal totals)."""
        if mine >= self.target or his >= self.target:
            return 1.0 if mine > his else 0.0 if mine < his else 0.5
        return float(self._table[seat, self._cell(mine), self._cell(his)])

    def of_value(self, p: Position, v: Value | ExpectedMargin) -> float:
        """The chance that ``v.pov`` wins the game if the deal of ``p`` (with its game
        totals) ends with the value ``v``; he has the other seat in the next deal.  An
        expected margin (a world's draws by chance) is read as its nearest whole margin: an
        approximation, the game's chance not being linear in the margin."""
        if isinstance(v, ExpectedMargin):
            v = Value(round(v), v.pov)
        me = v.pov
        if v.winner is not None:
            return 1.0 if v.winner == me else 0.0
        if self.rules.objective == "tricks":  # a deal won is a game point
            mine, his = (1, 0) if int(v) > 0 else (0, 1) if int(v) < 0 else (0, 0)
        else:
            mine, his = final_scores(p, v)
        return self.chance(p.game[me] + mine, p.game[1 - me] + his, seat=1 - me)


def final_scores(p: Position, v: Value) -> tuple[int, int]:
    """The deal's final scores of ``v.pov`` and his opponent if the deal of ``p`` ends with
    the margin ``v``: each keeps what he has scored, and the points still to be scored (the
    card points in play and the last trick's bonus, or the margin's change if that is more:
    declarations to come are unknown) are split so that the margin comes out.

    >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
    >>> final_scores(p, Value.margin(44, "b")), final_scores(p, Value.margin(-90, "b"))
    ((96, 52), (35, 125))
    """
    me = v.pov
    still = 0 if p.is_over() else PACK_POINTS - points_of(p.out) + p.rules.last_trick_bonus
    change = int(v) - (p.score[me] - p.score[1 - me])  # the margin still to come
    rest = max(still, abs(change))
    return p.score[me] + (rest + change) // 2, p.score[1 - me] + (rest - change) // 2


@cache
def _table_of(rules: str) -> GameChance:
    r = as_rules(rules)
    return GameChance(r, DealOutcomes.load(r.game))


__all__ = ["GAME_OBJECTIVES", "GRID", "DealOutcomes", "GameChance", "final_scores"]
