"""Exact equilibrium play where the imperfect-information part is small: the
public subgame solved as a sequence-form linear program.

The *public subgame* of a position is the game from what a spectator sees: both hands
hidden but their shown cards, the talon order hidden, with a uniform prior over the deals
consistent with that (the voids included).  In it each player knows his own hand and every
move.  Its leaves are where no decision with hidden cards is left: the talon gone (every
card's place is then known to both, and the engine solves the rest exactly), one card each,
or the end of the deal.  The domain (``domain_problem``): at most one talon trick left in
the games that draw, and at most two cards a hand in Petite Brisque without drawing.

The equilibrium comes from the sequence form (von Stengel): one linear program over the
root player's realization plans, solved by HiGHS (scipy), whose duals are the opponent's
plan; its value is the game's value, and each player's behaviour strategy follows from
his plan.  ``exploitability`` is the sum of both
players' best-response gains against it, in points.

>>> a = equilibrium("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H")
>>> a.method, a.deals > 1, a.exploitability < 0.1
('equilibrium', True, True)
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.analysis.public import (
    InfoKey,
    deal_cards,
    domain_problem,
    no_hidden_decision,
    public_deals,
    public_view,
)
from solver.analysis.ranking import RankingRule, WinWorth
from solver.errors import ArgumentError, ArgumentTypeError, PositionError
from solver.model.moves import Move, move
from solver.model.numbers import json_number, json_share
from solver.model.position import SEATS, Position, as_position
from solver.model.ranges import flag_argument, short_value


@dataclass(kw_only=True)
class EquilibriumMove:
    """A root move of the player to move: its equilibrium probability, and its value against
    the equilibrium opponent (he plays best afterwards), for his actual hand."""

    move: Move
    probability: float
    value: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "probability": json_share(self.probability),
            "value": json_number(self.value),
        }


@dataclass(kw_only=True)
class EquilibriumAnalysis:
    """The answer of :func:`equilibrium` (values for the player to move, ``turn``)."""

    bpn: str
    turn: str
    game_value: float  # the public subgame's equilibrium value, averaged over the deals
    value: float | None  # his equilibrium value with his actual hand (None: it is hidden)
    moves: list[EquilibriumMove] = field(default_factory=list)
    best: list[Move] = field(default_factory=list)
    exploitability: float = 0.0
    pimc_move: Move | None = None
    pimc_loss: float | None = None
    # with ``strategies``: both players' behaviour strategies by information set (seat, his
    # hand at the root, the moves since), the equilibrium's and PIMC's (pure), and PIMC's
    # exploitability (both players' best-response gains against PIMC, in points)
    strategy: dict[InfoKey, dict[int, float]] | None = None
    pimc_strategy: dict[InfoKey, int] | None = None
    pimc_exploitability: float | None = None
    deals: int = 0
    leaves: int = 0
    seconds: float = 0.0
    method: str = "equilibrium"

    def to_json(self) -> str:
        import json

        return json.dumps(self.to_dict())

    def _repr_html_(self) -> str:
        """The diagram and the moves with their equilibrium probabilities, for notebooks."""
        from solver.model.svg import answer_html

        rows = [[str(m.move), f"{m.probability:.3f}", f"{m.value:+.3f}"] for m in self.moves]
        caption = f"{self.turn} to move: game value {self.game_value:+.3f}, exploitability {self.exploitability:.2g}"
        return answer_html(
            Position(self.bpn), ["move", "probability", "value"], rows, caption=caption, best=self.best
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "bpn": self.bpn,
            "turn": self.turn,
            "method": self.method,
            "game_value": json_number(self.game_value),
            "value": json_number(self.value),
            "best": [str(m) for m in self.best],
            "moves": [m.to_dict() for m in self.moves],
            "exploitability": json_share(self.exploitability),
            "pimc_move": None if self.pimc_move is None else str(self.pimc_move),
            "pimc_loss": json_number(self.pimc_loss),
            "pimc_exploitability": None
            if self.pimc_exploitability is None
            else round(self.pimc_exploitability, 4),
            "deals": self.deals,
            "leaves": self.leaves,
            "seconds": round(self.seconds, 4),
        }


MAX_EXPLOITABILITY = 0.1  # points: the most an answer may leave to a best response


def equilibrium(
    position: Position | str,
    *,
    win_worth: WinWorth | str = "match",
    strategies: bool = False,
    max_exploitability: float = MAX_EXPLOITABILITY,
) -> EquilibriumAnalysis:
    """The exact equilibrium of ``position``'s public subgame (module docstring), for the
    player to move; refused with the reason outside the domain.  With ``strategies``, the
    answer also holds both players' whole strategies, the equilibrium's and PIMC's, and
    PIMC's exploitability (PIMC then values every decision node of every deal).

    The program is solved exactly, so the exploitability is about 1e-9 points; should the
    solver's answer ever leave more than ``max_exploitability`` points to a best response,
    it is refused (PositionError), never given as an equilibrium."""
    t0 = time.perf_counter()
    p = as_position(position)
    rank = RankingRule.parse(win_worth)
    strategies = flag_argument(strategies, "strategies")
    given: object = max_exploitability  # (callers without type checks pass anything)
    real = isinstance(given, numbers.Real) and not isinstance(given, bool)
    if not (real and 0 < max_exploitability < float("inf")):  # (a string was a bare TypeError)
        raise ArgumentError(
            f"max_exploitability={short_value(max_exploitability)}: expected a number of points above 0"
        )
    _check(p)
    from solver.analysis.subgame import solve_public  # (numpy and scipy: only when solving)

    s = solve_public(p, rank, strategies=strategies)
    if s.exploitability > max_exploitability:
        raise PositionError(
            f"the equilibrium of {p.bpn()!r} came out exploitable by {s.exploitability:.6g} points, "
            f"above the {max_exploitability:g} asked: the linear program did not solve exactly"
        )
    moves = [EquilibriumMove(move=move(m), probability=q, value=v) for m, q, v in s.moves]
    answer = EquilibriumAnalysis(
        bpn=p.bpn(),
        turn=SEATS[p.turn],
        game_value=s.game_value,
        value=s.value,
        moves=moves,
        best=[mv.move for mv in moves if mv.probability > 1e-6],
        exploitability=s.exploitability,
        deals=s.deals,
        leaves=s.leaves,
        strategy=s.strategy,
        pimc_strategy=s.pimc_strategy,
        pimc_exploitability=s.pimc_exploitability,
    )
    if s.pimc_move is not None:
        # PIMC: the move of best mean double-dummy value over the deals with his hand, and
        # what it loses against the equilibrium opponent
        answer.pimc_move = move(s.pimc_move)
        top = max(mv.value for mv in moves)
        answer.pimc_loss = top - next(mv.value for mv in moves if int(mv.move) == s.pimc_move)
    answer.seconds = time.perf_counter() - t0
    return answer


def _check(p: Position) -> None:
    """Refuse, with the reason, what the solver cannot answer exactly (before any import)."""
    try:
        import scipy.optimize  # noqa: F401
    except ImportError:
        from solver.errors import install_hint

        raise ArgumentError(
            f"the equilibrium solver needs numpy and scipy: {install_hint('openspiel')}"
        ) from None
    probs = p.problems()
    if probs:
        raise PositionError(f"impossible position {p.bpn()!r}: " + "; ".join(probs))
    why = domain_problem(p)
    if why:
        raise ArgumentError(f"{p.bpn()!r} is outside the equilibrium solver's domain: {why}")


def exploitability(
    position: Position | str,
    strategy: Mapping[InfoKey, Mapping[int, float]],
    *,
    win_worth: WinWorth | str = "match",
) -> float:
    """Both players' best-response gains, in points, against ``strategy`` in ``position``'s
    public subgame: a behaviour strategy keyed as :attr:`EquilibriumAnalysis.strategy`
    (an information set it does not name plays its moves alike).

    >>> p = "petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H shown=a:KS9C"
    >>> a = equilibrium(p, strategies=True)
    >>> exploitability(p, a.strategy) < 1e-6, exploitability(p, {}) > 0.1
    (True, True)
    """
    p = as_position(position)
    rank = RankingRule.parse(win_worth)
    _check(p)
    from solver.analysis.subgame import plan_exploitability

    given: object = strategy  # (checked as given: the annotation is no promise at run time)
    if not isinstance(given, Mapping) or not all(isinstance(v, Mapping) for v in given.values()):
        raise ArgumentTypeError(
            f"strategy={short_value(strategy)}: expected a mapping of information sets to "
            f"{{move: probability}} mappings, as EquilibriumAnalysis.strategy"
        )
    return plan_exploitability(p, rank, {key: dict(probs) for key, probs in strategy.items()})


__all__ = [
    "EquilibriumAnalysis",
    "EquilibriumMove",
    "deal_cards",
    "domain_problem",
    "equilibrium",
    "exploitability",
    "no_hidden_decision",
    "public_deals",
    "public_view",
]
