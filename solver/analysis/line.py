"""A played line, move by move: the value after every move and what each move lost.

>>> steps = analyse_line("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", ["QD"])
>>> steps[0].move_value, steps[0].best_value, steps[0].loss
(Value.margin(4, pov='b'), Value.margin(44, pov='b'), 40)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from solver.engine.api import solve
from solver.engine.quick import quick_limit
from solver.engine.results import Limit
from solver.errors import IllegalMoveError, PositionError
from solver.model.moves import Move, parse_move
from solver.model.position import SEATS, Position
from solver.model.value import Value


def default_limit(p: Position) -> Limit | None:
    """The engine's quick search: exact near the end of the talon, a three-trick estimate
    earlier (:mod:`solver.engine.quick`)."""
    return quick_limit(p)


@dataclass(kw_only=True)
class Step:
    """One move of the line, valued for the player who made it."""

    number: int
    trick: int
    player: str
    move: Move
    move_value: Value | float  # a Value when solved, a mean over worlds when sampled
    best_value: Value | float
    loss: float
    best: list[Move]
    exact: bool
    bpn: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "trick": self.trick,
            "player": self.player,
            "move": str(self.move),
            "value": self.move_value,
            "best_value": self.best_value,
            "loss": self.loss,
            "best": [str(m) for m in self.best],
            "exact": self.exact,
            "bpn": self.bpn,
        }


def analyse_line(
    start: Position | str,
    moves: Iterable[Move | str],
    limit: Limit | None = None,
    auto_limit: bool = True,
    worlds: int = 100,
    seed: int = 0,
) -> list[Step]:
    """Play ``moves`` from ``start``; before each, value every legal move.

    Perfect-information positions are solved (exactly, or within ``limit``; with
    ``auto_limit`` early talon positions get a three-trick estimate); positions with
    hidden cards are analysed by sampling (``worlds``, ``seed``).
    """
    from solver.analysis.sampling import analyse

    p = Position(start) if isinstance(start, str) else start.copy()
    steps = []
    for i, text in enumerate(moves, 1):
        m = parse_move(text) if isinstance(text, str) else text
        if p.is_over():
            raise PositionError(f"move {i} ({m}): the deal is already over")
        if not p.is_legal(m):
            legal = " ".join(str(x) for x in p.legal_moves())
            raise IllegalMoveError(f"move {i} ({m}) is not legal in {p.bpn()!r}; legal: {legal}")
        if p.has_hidden:
            a = analyse(p, worlds=worlds, seed=seed)
            exact = a.method == "exact"
        else:
            lim = limit if limit is not None else (default_limit(p) if auto_limit else None)
            a = solve(p, pv=False, limit=lim)
            exact = a.exact
        mv_value = a.move_value(m)
        steps.append(
            Step(
                number=i,
                trick=min(p.trick_number, p.rules.tricks_per_deal),
                player=SEATS[p.turn],
                move=m,
                move_value=mv_value,
                best_value=a.value,
                loss=a.value - mv_value,
                best=list(a.best),
                exact=exact,
                bpn=p.bpn(),
            )
        )
        p.push(m)
    return steps


def losses_by_player(steps: list[Step]) -> dict[str, float]:
    """The total loss of each player (``a``, ``b``) over the steps of a line."""
    out: dict[str, float] = {"a": 0, "b": 0}
    for s in steps:
        out[s.player] += s.loss
    return out


__all__ = ["Step", "analyse_line", "default_limit", "losses_by_player"]
