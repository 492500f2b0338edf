"""The expectimax of a position whose talon is face down: ``solve_chance``.

Neither player knows the order of the talon.  With both hands known and the talon given
by its count, the exact value of a position is an expectimax: the players choose their
moves, and every draw is a chance event, each ordered pair of the face-down cards equally
likely, the trick winner's card first (docs/solver.md, "The talon as chance").  The
compiled engine computes it (``Engine.chance_move``) as an integer, the deal's result times
``n!`` for the ``n`` face-down cards; the answers here are exact :class:`~fractions.Fraction`
values.

A value is the deal's expected final result for the player to move: his final margin
(points, or tricks in Petite Brisque), with a game won outright counting ``+WIN_RAW``
(30000) and a game lost ``-WIN_RAW`` in the expectation, the weight the search gives it
(beyond any margin: a chance of a game won is worth more than any points).

The search runs on one thread (the answers of a position with two talon tricks left take
milliseconds, with three about a second, with four a minute or two).

>>> a = solve_chance("brisque AJ.KQ.7.8/T87.A87.. JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1")
>>> a.value, [str(m) for m in a.best], str(a.move_value("7S")), a.pv_ends
(Fraction(-74, 1), ['7H', '8H'], '-260/3', 'draw')
"""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

from solver.engine.results import (
    Analysis,
    Limit,
    SolveInterrupted,
    current_margin,
    lookup_move_value,
    turn_of,
)
from solver.engine.seam import DEFAULT_TABLE_BITS, engine_root
from solver.engine.solving import (
    BOUNDED_TABLE_BITS,
    Progress,
    ProgressTicker,
    check_limit,
    shared_solver,
    solve,
)
from solver.errors import (
    ArgumentError,
    EngineError,
    HiddenInformationError,
    ImpossiblePositionError,
    Interrupted,
)
from solver.model.moves import Move, move
from solver.model.numbers import json_number
from solver.model.position import SEATS, Position, as_position
from solver.model.table_memory import table_bits_in_range
from solver.native.constants import WIN_RAW
from solver.native.engine import Engine

MAX_FACE_DOWN = 15  # the engine's MAX_CHANCE_CARDS (chance.pxd): 15! * WIN_RAW fits in int64

ChanceStop = Literal["solved", "budget", "interrupted"]
"""Why the expectimax stopped: every move valued (``solved``), the nodes or seconds ran out
(``budget``), or Ctrl-C (``interrupted``)."""

PvEnd = Literal["draw", "end"]
"""Where a principal variation of the expectimax stops: at the move that completes a trick
and draws face-down cards (``draw``: what follows depends on the draw), or at the deal's end."""


def _exact_text(v: Fraction | None) -> str | None:
    return None if v is None else str(v)


def _decimal(v: Fraction | None) -> int | float | None:
    """A value as a JSON number: an int when whole, else rounded as every float value."""
    if v is None:
        return None
    return v.numerator if v.denominator == 1 else json_number(float(v))


@dataclass(kw_only=True)
class ChanceMove:
    """One legal move and its expectimax value for the player to move; ``value`` None:
    not searched (the budget ran out, or Ctrl-C, before it was).

    >>> from solver.model.moves import parse_move
    >>> ChanceMove(move=parse_move("7S"), value=Fraction(-260, 3)).to_dict()
    {'move': '7S', 'value': -86.667, 'value_exact': '-260/3'}
    """

    move: Move
    value: Fraction | None

    def to_dict(self) -> dict[str, Any]:
        return {"move": str(self.move), "value": _decimal(self.value), "value_exact": _exact_text(self.value)}


@dataclass(kw_only=True)
class ChanceAnalysis:
    """The answer of :func:`solve_chance`, from the point of view of the player to move.

    ``value``: the deal's expected final result (the module docstring), the best of the
    moves valued (None when none was); ``exact``: every move was valued (or, without every
    move, the root's value was found), else ``value`` is the best of the moves valued, of
    which the position is worth at least as much.  ``best``: every move worth ``value``;
    ``pv``: a principal variation up to the next draw of face-down cards (``pv_ends``), or
    to the end of the deal; ``face_down``: the face-down cards."""

    bpn: str
    turn: str
    value: Fraction | None
    best: list[Move]
    moves: list[ChanceMove]
    pv: list[Move]
    pv_ends: PvEnd | None
    face_down: int
    nodes: int
    seconds: float
    exact: bool = True
    stopped: ChanceStop = "solved"
    method: Literal["expectimax"] = "expectimax"

    @property
    def win(self) -> str | None:
        """The seat that wins the game outright whatever the draws, when that is proven."""
        if not self.exact or self.value is None or abs(self.value) != WIN_RAW:
            return None
        me = SEATS.index(self.turn)
        return SEATS[me if self.value > 0 else 1 - me]

    def move_value(self, m: Move | str) -> Fraction | None:
        """The value of one move (a Move or move string); None: not searched."""
        return lookup_move_value(self.moves, m)

    def to_dict(self) -> dict[str, Any]:
        """The JSON answer (docs/notation.md, "JSON answers": ``"method": "expectimax"``)."""
        return {
            "bpn": self.bpn,
            "turn": self.turn,
            "method": self.method,
            "value": _decimal(self.value),
            "value_exact": _exact_text(self.value),
            "best": [str(m) for m in self.best],
            "moves": [mv.to_dict() for mv in self.moves],
            "pv": [str(m) for m in self.pv],
            "pv_ends": self.pv_ends,
            "win": self.win,
            "face_down": self.face_down,
            "exact": self.exact,
            "stopped": self.stopped,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


class ChanceInterrupted(Interrupted[ChanceAnalysis]):
    """Ctrl-C during :func:`solve_chance`: ``analysis`` holds the moves valued so far
    (``stopped`` is ``"interrupted"``).  A KeyboardInterrupt, as :class:`SolveInterrupted`.

    >>> issubclass(ChanceInterrupted, KeyboardInterrupt)
    True
    """

    def __init__(self, analysis: ChanceAnalysis):
        super().__init__(f"interrupted after {analysis.nodes} nodes", analysis)

    @property
    def analysis(self) -> ChanceAnalysis:
        return self.partial


def talon_face_down(p: Position) -> bool:
    """Whether ``p``'s talon is given by its count, cards to draw whose order is unknown
    (Petite Brisque's undealt cards are never drawn: not a talon face down).

    >>> talon_face_down(Position("brisque AJ.KQ.7.8/T87.A87.. JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10"))
    True
    """
    return p.rules.draws and p.talon is None and p.talon_count > 0


def laid_out(p: Position) -> Position:
    """``p`` with a face-down talon laid out in a canonical order (the cards no hand holds:
    the engine's expectimax treats them as a set; one card is known by elimination), or
    ``p`` itself when its talon is not face down.  Both hands must be known."""
    if not talon_face_down(p):
        return p
    if any(p.unknown):
        raise _hidden_hand(p)
    q = p.copy()
    q.talon = [c for c in range(32) if p.unseen() >> c & 1]
    if len(q.talon) != q.talon_count:
        raise EngineError(f"the cards face down in {p.bpn()!r} are not the talon's {p.talon_count}")
    return q


def _hidden_hand(p: Position) -> HiddenInformationError:
    return HiddenInformationError(
        f"position {p.bpn()!r} has a hidden hand: the exact solver needs both hands "
        f"(the talon may be face down): use the sampling analysis (brisque analyse) for hidden cards"
    )


def _check_chance_position(p: Position) -> None:
    """Refuse what the expectimax cannot answer: a hidden hand, an impossible position,
    more face-down cards than the engine's integers hold."""
    if any(p.unknown):
        raise _hidden_hand(p)
    probs = p.problems()
    if probs:
        raise ImpossiblePositionError(p.bpn(), probs)
    if p.talon_count > MAX_FACE_DOWN:
        raise HiddenInformationError(
            f"position {p.bpn()!r} has {p.talon_count} face-down cards: the exact expectimax takes "
            f"at most {MAX_FACE_DOWN} face-down cards (eight talon tricks to play, seven draws by "
            f"chance): use the sampling analysis (brisque analyse, its work bounded by --worlds or "
            f"--seconds), or give the talon's order"
        )


def _chance_limit(limit: Limit | None, nodes: int | None, seconds: float | None) -> Limit | None:
    """The budget, one way: ``limit`` or ``nodes``/``seconds`` (no depth: the expectimax
    searches to the end of the deal)."""
    if nodes is not None or seconds is not None:
        if limit is not None:
            raise ArgumentError(f"limit={limit!r} and nodes/seconds: give the budget one way, not both")
        limit = Limit(nodes=nodes, seconds=seconds)  # (which checks each number)
    limit = check_limit(limit)
    if limit is not None and limit.depth is not None:
        raise ArgumentError(
            f"limit={limit!r}: the expectimax of a face-down talon searches to the end of the "
            f"deal: give it nodes or seconds, not a depth"
        )
    return limit if limit is not None and limit.bounded else None


def solve_chance(
    position: Position | str,
    *,
    every_move: bool = True,
    pv: bool = True,
    limit: Limit | None = None,
    nodes: int | None = None,
    seconds: float | None = None,
    table_bits: int = DEFAULT_TABLE_BITS,
    progress: Progress | None = None,
) -> ChanceAnalysis | Analysis:
    """The exact expectimax of a position with both hands known and its talon face down
    (a count in BPN): every draw a chance event (the module docstring), on one thread.

    ``every_move``: value every legal move (else the root's value and one best move).
    ``pv``: a principal variation up to the next draw.  A budget (``nodes``, ``seconds``
    of real time, or a ``Limit`` of them) stops the search: the moves valued keep their
    exact values, the others are not searched (``value`` None), ``stopped="budget"``.
    ``progress(done, total, nodes)`` as for :func:`~solver.engine.solving.solve`.
    Ctrl-C raises :class:`ChanceInterrupted` with the moves valued so far.

    A position with no chance left (its talon's order known, or one face-down card at
    most, which both players know by elimination) gets :func:`~solver.engine.solving.solve`'s
    double-dummy :class:`Analysis` (``method`` ``"exact"``), its ``bpn`` as given.  A hidden
    hand, or more than 15 face-down cards, raises :class:`HiddenInformationError`.

    >>> a = solve_chance("brisque AJ.KQ.7.8/T87.A87.. JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1",
    ...                  every_move=False)
    >>> a.value, [str(m) for m in a.best], a.moves
    (Fraction(-74, 1), ['7H'], [])
    """
    p = as_position(position)
    budget = _chance_limit(limit, nodes, seconds)
    table_bits = table_bits_in_range(table_bits)
    if p.is_over() or not talon_face_down(p) or p.talon_count <= 1:
        return _double_dummy(p, every_move, pv, budget, table_bits, progress)
    _check_chance_position(p)
    if budget is None:
        engine = shared_solver(p.rules, table_bits).engine
    else:
        # (a budget's answer depends on what the tables hold: from empty ones, the same
        # question always gets the same answer, as a bounded solve's)
        engine = shared_solver(p.rules, min(table_bits, BOUNDED_TABLE_BITS)).engine
        engine.clear()
        engine.chance_clear()
    return _ChanceSearch(engine, p, budget).answer(every_move, pv, progress)


def _double_dummy(
    p: Position,
    every_move: bool,
    pv: bool,
    limit: Limit | None,
    table_bits: int,
    progress: Progress | None,
) -> Analysis:
    """:func:`solve` of a position with no chance left, a last face-down card laid out,
    its answer quoting the position as given."""
    q = p if p.is_over() else laid_out(p)
    try:
        a = solve(q, every_move=every_move, pv=pv, limit=limit, table_bits=table_bits, progress=progress)
    except SolveInterrupted as stop:
        raise SolveInterrupted(replace(stop.analysis, bpn=p.bpn())) from None
    return a if q is p else replace(a, bpn=p.bpn())


@dataclass
class _Valued:
    """The root moves valued so far (scaled integers), and the root's own value."""

    raw: dict[int, int] = field(default_factory=dict)
    root: int | None = None
    best: list[int] = field(default_factory=list)


class _ChanceSearch:
    """One expectimax of ``p`` on ``engine``, within ``limit`` (None: exact)."""

    def __init__(self, engine: Engine, p: Position, limit: Limit | None) -> None:
        self.engine, self.p, self.limit = engine, p, limit
        self.t0 = time.perf_counter()
        self.deadline = self.t0 + limit.seconds if limit is not None and limit.seconds else None
        self.n0 = engine.nodes
        self.legal = [int(m) for m in p.legal_moves()]
        self.valued = _Valued()
        self.stopped: ChanceStop = "solved"

    def answer(self, every_move: bool, pv: bool, progress: Progress | None) -> ChanceAnalysis:
        """Search, and answer (Ctrl-C: :class:`ChanceInterrupted` with the moves valued)."""
        self.engine.load(engine_root(laid_out(self.p)))
        self.scale = self.engine.chance_scale
        if set(self.engine.root_moves()) != set(self.legal):
            raise EngineError(f"engine and rules model disagree on the legal moves of {self.p.bpn()!r}")
        line: list[int] = []
        ends: PvEnd | None = None
        try:
            if every_move:
                self._every_move(progress)
            else:
                self._root_value()
            if pv and self.stopped == "solved" and self.valued.best:
                line, ends = self._principal_variation()
        except KeyboardInterrupt:
            if not self.valued.raw and self.valued.root is None:
                raise
            self.stopped = "interrupted"
            raise ChanceInterrupted(self._result(every_move, [], None)) from None
        finally:
            self.engine.clear_limits()
        return self._result(every_move, line, ends)

    def _budget(self) -> bool:
        """Limit the engine's next search to what is left of the budget; False when
        nothing is left (``stopped`` then says so)."""
        if self.limit is None:
            self.engine.clear_limits()
            return True
        used = self.engine.nodes - self.n0
        left = self.deadline - time.perf_counter() if self.deadline is not None else 0.0
        if (self.limit.nodes and used >= self.limit.nodes) or (self.deadline is not None and left <= 0):
            self.stopped = "budget"
            return False
        nodes = self.limit.nodes - used if self.limit.nodes else 0
        self.engine.set_limits(nodes=nodes, seconds=left, wall_seconds=left)
        return True

    def _spent(self) -> bool:
        """Whether the last search ran out of budget (its value then means nothing)."""
        if self.engine.aborted:
            self.stopped = "budget"
        return self.engine.aborted

    def _every_move(self, progress: Progress | None) -> None:
        """Value every root move exactly, in legal order, until the budget is spent."""
        past = current_margin(self.p)
        ticker = (
            ProgressTicker(progress, len(self.legal), lambda: self.engine.nodes - self.n0)
            if progress
            else None
        )
        with ticker or nullcontext():
            for m in self.legal:
                if not self._budget():
                    return
                v = self.engine.chance_move(m, past)
                if self._spent():
                    return
                self.valued.raw[m] = v
                if ticker is not None:
                    ticker.report(len(self.valued.raw))
        top = max(self.valued.raw.values())
        self.valued.root = top
        self.valued.best = [m for m in self.legal if self.valued.raw[m] == top]

    def _root_value(self) -> None:
        """The root's value, and the first move (in legal order) that reaches it."""
        past = current_margin(self.p)
        if not self._budget():
            return
        v = self.engine.chance_value(past)
        if self._spent():
            return
        self.valued.root = v
        for m in self.legal:
            if not self._budget():
                return
            reaches = self.engine.chance_move(m, past, v - 1, v) >= v
            if self._spent():
                return
            if reaches:
                self.valued.best = [m]
                return
        raise EngineError(f"no move of {self.p.bpn()!r} reaches its expectimax value {v}/{self.scale}")

    def _principal_variation(self) -> tuple[list[int], PvEnd]:
        """A best line from the root up to the move that draws face-down cards, or to the
        deal's end: each position after a move without a draw is loaded as the root (the
        tables stay warm) and its first move that reaches the value is played."""
        q = laid_out(self.p)
        m = self.valued.best[0]
        v = self.valued.root
        assert v is not None
        line: list[int] = []
        self.engine.clear_limits()  # (a line's tests are few, in the tables' subtrees)
        while True:
            mover, left = q.turn, q.talon_count
            q.push(move(m), check=False)
            line.append(m)
            if q.is_over():
                return line, "end"
            if q.talon_count < left:  # (two or more were left: a chance event)
                return line, "draw"
            v = v if q.turn == mover else -v
            self.engine.load(engine_root(q))
            if self.engine.chance_scale != self.scale:
                raise EngineError(f"the face-down cards changed without a draw in {q.bpn()!r}")
            past = current_margin(q)
            m = next((x for x in q.legal_moves() if self.engine.chance_move(int(x), past, v - 1, v) >= v), -1)
            if m < 0:
                raise EngineError(f"no move of {q.bpn()!r} reaches its expectimax value {v}/{self.scale}")

    def _result(self, every_move: bool, line: list[int], ends: PvEnd | None) -> ChanceAnalysis:
        """The answer from the moves valued so far."""
        raw, scale = self.valued.raw, self.scale
        moves = [
            ChanceMove(move=move(m), value=Fraction(raw[m], scale) if m in raw else None) for m in self.legal
        ]
        root = self.valued.root
        if root is None and raw:
            root = max(raw.values())
        best = self.valued.best or ([m for m in self.legal if raw.get(m) == root] if raw else [])
        return ChanceAnalysis(
            bpn=self.p.bpn(),
            turn=turn_of(self.p),
            value=None if root is None else Fraction(root, scale),
            best=[move(m) for m in best],
            moves=moves if every_move else [],
            pv=[move(m) for m in line],
            pv_ends=ends,
            face_down=self.p.talon_count,
            nodes=self.engine.nodes - self.n0,
            seconds=time.perf_counter() - self.t0,
            exact=self.valued.root is not None,  # (every move valued, or the root's value found)
            stopped=self.stopped,
        )


__all__ = [
    "MAX_FACE_DOWN",
    "ChanceAnalysis",
    "ChanceInterrupted",
    "ChanceMove",
    "ChanceStop",
    "PvEnd",
    "laid_out",
    "solve_chance",
    "talon_face_down",
]
