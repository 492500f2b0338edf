"""Result types of the exact solver: :class:`Limit`, :class:`MoveValue`, :class:`Analysis`.

Values are :class:`~solver.model.value.Value` objects for the player to move: ints that
compare and serialise as the JSON answers of NOTATION.md (``value`` is ``+-10000`` for a
game won, whose winner is named in ``win``).

>>> from solver.model.moves import parse_move
>>> mv = MoveValue(move=parse_move("AS"), value=Value.margin(-18, pov=0))
>>> mv.to_dict(), mv.win
({'move': 'AS', 'value': -18}, None)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from solver.errors import IllegalMoveError, Interrupted
from solver.model.moves import Move, parse_move
from solver.model.position import SEATS, Position
from solver.model.ranges import MAX_BUDGET, MAX_DEPTH, seconds_argument, short_value, whole_argument
from solver.model.value import Value

Method = Literal["exact", "bounded"]
"""How an exact-solver answer was found: searched to the end (``exact``), or within a
budget with proven bounds (``bounded``)."""

Bound = Literal["lower", "upper"]
"""What an inexact value is when it is no estimate: the proven bound its estimate lay beyond
(``upper``: worth at most the value, although the estimate said more; ``lower``: at least)."""

Stop = Literal["solved", "budget", "depth", "interrupted"]
"""Why the search stopped: every value proven (``solved``), the nodes or seconds ran out
(``budget``), the depth-limited search reached its horizon (``depth``), or Ctrl-C
(``interrupted``: the answer so far, see :class:`SolveInterrupted`)."""


@dataclass(frozen=True, kw_only=True)
class Limit:
    """A budget for one solve: nodes, seconds (real time), and/or a depth in tricks to a heuristic
    horizon.  With no field set the search is exact and unbounded.

    >>> Limit(nodes=100_000).bounded
    True
    """

    nodes: int | None = None
    seconds: float | None = None
    depth: int | None = None
    guard: bool = True  # to a depth: prove game wins and losses beyond the horizon
    # a sampled world's draws are chance events (solver.analysis.chance_worlds): its moves get
    # the exact expectimax, the talon's order unknown, in place of the double dummy
    chance: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        # a limit of nothing is a mistake, not a search (depth=0 gave trivial bounds), and
        # so is a number of the wrong kind (nodes=1.5, seconds="5", depth=True)
        if self.nodes is not None:
            whole_argument(self.nodes, "nodes", 1, MAX_BUDGET, "nodes")
        if self.seconds is not None:
            seconds_argument(self.seconds)
        if self.depth is not None:
            whole_argument(self.depth, "depth", 1, MAX_DEPTH, "tricks")

    @property
    def bounded(self) -> bool:
        return bool(self.nodes or self.seconds or self.depth is not None)


@dataclass(kw_only=True)
class MoveValue:
    """One legal move and its value for the player to move.

    When the search did not finish, ``lower``/``upper`` are proven bounds (``exact`` is
    False) and ``value`` is the estimate, kept inside them; when the estimate lay beyond
    one of them, ``value`` is that bound and ``bound`` says which (``"upper"``: the move is
    worth at most ``value``), so that a bare bound is never taken for an estimate."""

    move: Move
    value: Value
    lower: Value | None = None
    upper: Value | None = None
    exact: bool = True
    bound: Bound | None = None

    def __post_init__(self) -> None:
        # proven bounds that meet are a proven value, however the search was cut short
        if not self.exact and self.lower is not None and self.lower == self.upper:
            self.exact, self.value = True, self.lower
        if self.exact:
            self.bound = None

    @property
    def win(self) -> str | None:
        """The seat that wins the game outright with this move, when that is proven."""
        return self.value.win if self.exact else None

    def to_dict(self, bounds: bool = False) -> dict[str, Any]:
        """The move's JSON: ``move`` and ``value``, and ``exact``, ``lower``, ``upper`` and
        ``bound`` when the value is inexact or ``bounds`` asks for them (every move of a
        bounded answer has them; an exact move's bounds are its value, its ``bound`` null)."""
        d: dict[str, Any] = {"move": str(self.move), "value": int(self.value)}
        if not self.exact or bounds:
            lower = self.value if self.exact else self.lower
            upper = self.value if self.exact else self.upper
            d.update(exact=self.exact, lower=_num(lower), upper=_num(upper), bound=self.bound)
        return d


_V = TypeVar("_V")
_V_co = TypeVar("_V_co", covariant=True)


class _HasMoveValue(Protocol[_V_co]):
    @property
    def move(self) -> Move: ...

    @property
    def value(self) -> _V_co: ...


def lookup_move_value(moves: Iterable[_HasMoveValue[_V]], m: Move | str) -> _V:
    """The value of move ``m`` (a Move or move string) among analysed ``moves``."""
    target = parse_move(m) if isinstance(m, str) else m
    analysed = list(moves)
    for mv in analysed:
        if mv.move == target:
            return mv.value
    given = str(m) if isinstance(m, Move) else short_value(m)
    legal = " ".join(str(mv.move) for mv in analysed) or "none"
    raise IllegalMoveError(f"{given} is not a legal move here; legal: {legal}")


@dataclass(kw_only=True)
class Analysis:
    """The answer of an exact solve, from the point of view of the player to move."""

    bpn: str
    turn: str
    value: Value
    best: list[Move]
    moves: list[MoveValue]
    pv: list[Move]
    nodes: int
    seconds: float
    method: Method = "exact"
    stopped: Stop = "solved"
    lower: Value | None = None  # proven bounds of the value (equal to it when exact)
    upper: Value | None = None
    depth: int | None = None  # tricks searched to a horizon; None: to the end of the deal
    # an inexact value that is the best move's proven bound, not an estimate (MoveValue.bound)
    bound: Bound | None = None

    @property
    def exact(self) -> bool:
        """The value of the answer is proven: searched to the end (``method`` ``"exact"``,
        every value proven), or a bounded search whose proven bounds met (``lower`` equals
        ``upper``; its moves may still be estimates, each with its own ``exact``)."""
        return self.method == "exact" or (self.lower is not None and self.lower == self.upper)

    @property
    def win(self) -> str | None:
        """The seat that wins the game outright under best play, when that is proven."""
        return self.value.win if self.exact else None

    def move_value(self, m: Move | str) -> Value:
        """The value of one move (a Move or move string)."""
        return lookup_move_value(self.moves, m)

    def _repr_html_(self) -> str:
        """The diagram and the moves with their values, for notebooks."""
        from solver.model.position import Position
        from solver.model.svg import answer_html

        said = {"upper": "at most ", "lower": "at least ", None: ""}
        rows = [
            [
                str(m.move),
                said[m.bound] + m.value.describe() + ("" if m.exact else " (estimate)" * (not m.bound)),
            ]
            for m in self.moves
        ]
        kind = "exact" if self.exact else "a proven bound" if self.bound else "estimate"
        # (a best move proven at most a value bounds the position only when no other move
        # may be worth more: as the text report says)
        whose = self.bound == "upper" and self.upper is not None and self.upper > self.value
        caption = (
            f"{self.turn} to move: {said[self.bound]}{self.value.describe()}"
            f"{' for the best move' if whose else ''} ({kind}), "
            f"best {' '.join(map(str, self.best))}"
        )
        return answer_html(Position(self.bpn), ["move", "value"], rows, caption=caption, best=self.best)

    def to_dict(self) -> dict[str, Any]:
        """The JSON answer of NOTATION.md (with ``exact``, bounds and depth when bounded)."""
        d: dict[str, Any] = {
            "bpn": self.bpn,
            "turn": self.turn,
            "method": self.method,
            "value": int(self.value),
            "best": [str(m) for m in self.best],
            "moves": [m.to_dict(bounds=self.method != "exact") for m in self.moves],
            "pv": [str(m) for m in self.pv],
            "win": self.win,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.method != "exact":
            d.update(
                exact=self.exact,
                lower=_num(self.lower),
                upper=_num(self.upper),
                depth=self.depth,
                stopped=self.stopped,
                bound=None if self.exact else self.bound,
            )
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


class SolveInterrupted(Interrupted[Analysis]):
    """Ctrl-C during a solve: ``analysis`` (the ``partial`` answer) holds the answer so
    far (``stopped`` is ``"interrupted"``), with the bounds proven before the interrupt and
    the values of the moves already solved.  A KeyboardInterrupt, so code that does not
    look for it stops as before.

    >>> issubclass(SolveInterrupted, KeyboardInterrupt)
    True
    """

    def __init__(self, analysis: Analysis):
        super().__init__(f"interrupted after {analysis.nodes} nodes", analysis)

    @property
    def analysis(self) -> Analysis:
        return self.partial


def _num(v: Value | None) -> int | None:
    return None if v is None else int(v)


def current_margin(p: Position, seat: int | None = None) -> int:
    """The margin so far of ``seat`` (default: the player to move): score, or tricks under
    the tricks objective."""
    me = p.turn if seat is None else seat
    key: Sequence[int] = p.tricks if p.rules.objective == "tricks" else p.score
    return key[me] - key[1 - me]


def final_value(p: Position, raw: int) -> Value:
    """The final value, for the player to move, of a raw future value of the engine."""
    return Value.from_raw(raw, pov=p.turn, current=current_margin(p))


def turn_of(p: Position) -> str:
    """The seat letter of the player to move (the answers' ``turn``)."""
    return SEATS[p.turn]


__all__ = [
    "Analysis",
    "Bound",
    "Limit",
    "Method",
    "MoveValue",
    "SolveInterrupted",
    "Stop",
    "current_margin",
    "final_value",
    "lookup_move_value",
    "turn_of",
]
