"""The public face of the solvers: ``solve``, ``solve_batch`` and ``can_reach``.

>>> from solver.position import Position
>>> a = solve(Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"))
>>> a.value, [str(m) for m in a.best][:2], a.move_value("AS")
(-4, ['9S', 'KS'], -18)
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from solver.melds import MELDS
from solver.moves import Move, move, parse_move
from solver.position import SEATS, WIN_VALUE, HiddenInformationError, Position, PositionError
from solver.reference import WIN_THRESHOLD, reference_values
from solver.rules import Rules

DEFAULT_TABLE_BITS = 20
BOUNDED_TABLE_BITS = 20      # bounded solves clear their table first (a few ms)


@dataclass(frozen=True)
class Limit:
    """A budget for one solve: nodes, CPU seconds, and/or a depth in tricks to a heuristic
    horizon.  With no field set the search is exact and unbounded.

    >>> Limit(nodes=100_000).bounded
    True
    """
    nodes: int | None = None
    seconds: float | None = None
    depth: int | None = None

    @property
    def bounded(self) -> bool:
        return bool(self.nodes or self.seconds or self.depth is not None)


@dataclass
class MoveValue:
    """One legal move and its value for the player to move (``win`` names a game winner).

    When the search did not finish, ``value`` is the best estimate and ``lower``/``upper``
    are proven bounds (``exact`` is False)."""
    move: Move
    value: int
    win: str | None = None
    lower: int | None = None
    upper: int | None = None
    exact: bool = True

    def to_dict(self) -> dict:
        d = {"move": str(self.move), "value": self.value}
        if not self.exact:
            d.update(exact=False, lower=self.lower, upper=self.upper)
        return d


def lookup_move_value(moves, m):
    """The value of move ``m`` (a Move or move string) among analysed ``moves``."""
    target = parse_move(m) if isinstance(m, str) else m
    for mv in moves:
        if mv.move == target:
            return mv.value
    raise KeyError(f"{m} is not a legal move here")


@dataclass
class Analysis:
    """The answer of an exact solve, from the point of view of the player to move."""
    bpn: str
    turn: str
    value: int
    best: list[Move]
    moves: list[MoveValue]
    pv: list[Move]
    win: str | None
    nodes: int
    seconds: float
    method: str = "exact"
    exact: bool = True
    lower: int | None = None      # proven bounds of the value (equal to it when exact)
    upper: int | None = None
    depth: int | None = None      # tricks searched to a horizon; None: to the end of the deal

    def move_value(self, m) -> int:
        """The value of one move (a Move or move string)."""
        return lookup_move_value(self.moves, m)

    def to_dict(self) -> dict:
        """The JSON answer of NOTATION.md (with ``exact``, bounds and depth when bounded)."""
        d = {"bpn": self.bpn, "turn": self.turn, "method": self.method, "value": self.value,
             "best": [str(m) for m in self.best], "moves": [m.to_dict() for m in self.moves],
             "pv": [str(m) for m in self.pv], "win": self.win, "nodes": self.nodes,
             "seconds": round(self.seconds, 6)}
        if not self.exact:
            d.update(exact=False, lower=self.lower, upper=self.upper, depth=self.depth)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


def _rules_dict(r: Rules) -> dict:
    return dict(game=("brisque", "briscan", "petite").index(r.game), draws=int(r.draws),
                exchange=int(r.exchange), exchange_points=r.exchange_points,
                quartet_game=int(r.quartet_win == "game"), final_decl=int(r.final_declarations),
                one_decl=int(r.one_declaration_per_turn), tricks_obj=int(r.objective == "tricks"),
                must_beat=int(r.must_beat), forced_start=int(r.forced_follow_from_start),
                window=int(r.last_pickup_window), exch_lead_only=int(r.exchange_on_lead_only),
                last_bonus=r.last_trick_bonus)


def _meld_allowed(game: str) -> list[bool]:
    if game == "briscan":
        return [True] * len(MELDS)
    if game == "brisque":
        return [m.kind == 0 or m.code in ("kK", "kQ") for m in MELDS]
    return [False] * len(MELDS)


def new_engine(rules: Rules, table_bits: int = DEFAULT_TABLE_BITS):
    """A compiled engine for ``rules`` with a table of ``2**table_bits`` entries."""
    from solver._engine import Engine
    cards = [m.cards for m in MELDS]
    kinds = [m.kind for m in MELDS]
    points = [[m.points(t, rules.game) for m in MELDS] for t in range(4)]
    return Engine(_rules_dict(rules), cards, kinds, points, _meld_allowed(rules.game), table_bits)


def engine_state(p: Position) -> tuple:
    """The root tuple the compiled engine loads."""
    return (p.hands[0], p.hands[1], p.out, p.turnup, p.trump, list(p.talon or ()), p.trick, p.turn,
            p.tricks[0], p.tricks[1], p.final[0], p.final[1], list(p.melds[0]), list(p.melds[1]),
            p.exchanged, p.taken, p.declared)


def _require_solvable(p: Position) -> None:
    if p.has_hidden:
        raise HiddenInformationError(
            f"position {p.bpn()!r} has hidden cards; the exact solver needs both hands and the talon "
            f"order: use the sampling analysis (brisque analyse) for hidden cards")
    probs = p.problems()
    if probs:
        raise PositionError(f"impossible position {p.bpn()!r}: " + "; ".join(probs))
    if p.is_over():
        raise PositionError(f"the deal is over in {p.bpn()!r}: there is nothing to solve")


def to_final(p: Position, raw: int) -> tuple[int, str | None]:
    """A raw future value as the final value for the player to move, and the winner's seat."""
    me = p.turn
    if raw >= WIN_THRESHOLD:
        return WIN_VALUE, SEATS[me]
    if raw <= -WIN_THRESHOLD:
        return -WIN_VALUE, SEATS[1 - me]
    if p.rules.objective == "tricks":
        return p.tricks[me] - p.tricks[1 - me] + raw, None
    return p.score[me] - p.score[1 - me] + raw, None


class Solver:
    """A reusable exact solver for one set of rules; its table stays warm between calls.

    >>> s = Solver(Rules())
    >>> s.solve(Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")).value
    -4
    """

    def __init__(self, rules: Rules | None = None, table_bits: int = DEFAULT_TABLE_BITS):
        self.rules = rules or Rules()
        self.engine = new_engine(self.rules, table_bits)

    def _load(self, p: Position) -> None:
        if p.rules != self.rules:
            raise PositionError(f"position rules {p.rules} differ from this solver's {self.rules}")
        _require_solvable(p)
        self.engine.load(engine_state(p))

    def solve(self, p: Position, every_move: bool = True, pv: bool = True,
              limit: Limit | None = None) -> Analysis:
        """Value, best moves, every move's value and a principal variation.

        With a bounded ``limit`` the answer may be inexact: see :func:`solve`."""
        if limit is not None and limit.bounded:
            from solver.bounded import bounded_solve
            return bounded_solve(self, p, limit, every_move)
        t0 = time.perf_counter()
        self._load(p)
        self.engine.clear_limits()
        n0 = self.engine.nodes
        legal = [int(m) for m in p.legal_moves()]
        if every_move:
            raw = dict(self.engine.move_values())
        else:
            best_raw = self.engine.value()
            raw = {}
        if set(raw) and set(raw) != set(legal):
            raise RuntimeError(f"engine and rules model disagree on the legal moves of {p.bpn()!r}")
        best_raw = max(raw.values()) if raw else best_raw
        value, win = to_final(p, best_raw)
        moves = []
        for m in legal:
            if m in raw:
                v, w = to_final(p, raw[m])
                moves.append(MoveValue(move(m), v, w, v, v))
        best = [mv.move for mv in moves if mv.value == value] if moves else []
        line = [move(m) for m in self.engine.pv(best_raw)] if pv else []
        if not best and line:
            best = [line[0]]
        return Analysis(p.bpn(), SEATS[p.turn], value, best, moves, line, win,
                        self.engine.nodes - n0, time.perf_counter() - t0, lower=value, upper=value)

    def value(self, p: Position) -> int:
        """The value alone (one search)."""
        self._load(p)
        self.engine.clear_limits()
        return to_final(p, self.engine.value())[0]

    def can_reach(self, p: Position, target: int) -> bool:
        """Can the player to move finish with a value of at least ``target``? (zero-window search)"""
        self._load(p)
        self.engine.clear_limits()
        if target > WIN_VALUE:
            return False
        if target > max(abs(v) for v in (p.score[0] - p.score[1], 2000)) + 5000:
            raw_target = WIN_THRESHOLD   # only a game win reaches it
        else:
            current = to_final(p, 0)[0]
            raw_target = target - current
            if target == WIN_VALUE:
                raw_target = WIN_THRESHOLD
            elif target <= -WIN_VALUE:
                return True
        return self.engine.value(raw_target - 1, raw_target) >= raw_target

    def batch_values(self, positions: list[Position]) -> tuple[list[int], list[int]]:
        """Values of many positions in one native call; returns (values, nodes)."""
        states = []
        for p in positions:
            if p.rules != self.rules:
                raise PositionError(f"position rules {p.rules} differ from this solver's {self.rules}")
            _require_solvable(p)
            states.append(engine_state(p))
        self.engine.clear_limits()
        raws, nodes = self.engine.solve_batch(states)
        return [to_final(p, r)[0] for p, r in zip(positions, raws)], nodes


_SOLVERS: dict = {}


def _solver_for(rules: Rules, table_bits: int) -> Solver:
    key = (rules, table_bits)
    if key not in _SOLVERS:
        _SOLVERS[key] = Solver(rules, table_bits)
    return _SOLVERS[key]


def solve(position: Position | str, *, every_move: bool = True, pv: bool = True,
          engine: str = "native", table_bits: int = DEFAULT_TABLE_BITS, limit: Limit | None = None,
          nodes: int | None = None, seconds: float | None = None, depth: int | None = None) -> Analysis:
    """Solve a perfect-information position.

    Exact by default.  A budget (``nodes``, CPU ``seconds``, or a ``Limit``) makes it stop
    early: the answer then has ``exact=False``, proven ``lower``/``upper`` bounds for the
    position and for every move searched, and the best move found.  ``depth=N`` searches N
    tricks and evaluates the horizon with a heuristic (``docs/solver.md``).
    ``engine="reference"`` uses the plain Python solver (slow; the tests' oracle).
    A position with hidden cards raises :class:`HiddenInformationError`.
    """
    p = Position(position) if isinstance(position, str) else position
    if limit is None and (nodes or seconds or depth is not None):
        limit = Limit(nodes=nodes, seconds=seconds, depth=depth)
    if engine == "reference":
        return _reference_analysis(p)
    if engine != "native":
        raise ValueError(f"engine={engine!r}: expected 'native' or 'reference'")
    if limit is not None and limit.bounded:
        # estimates and budgets depend on what the table holds: start from an empty one so
        # that the same question always gets the same answer
        solver = _solver_for(p.rules, min(table_bits, BOUNDED_TABLE_BITS))
        solver.engine.clear()
        return solver.solve(p, every_move=every_move, pv=pv, limit=limit)
    return _solver_for(p.rules, table_bits).solve(p, every_move=every_move, pv=pv, limit=limit)


def solve_batch(positions, *, table_bits: int = DEFAULT_TABLE_BITS) -> list[int]:
    """Values of many positions (same rules) in one native call sharing one table."""
    ps = [Position(x) if isinstance(x, str) else x for x in positions]
    if not ps:
        return []
    rules = ps[0].rules
    return Solver(rules, table_bits).batch_values(ps)[0]


def can_reach(position: Position | str, target: int, *, table_bits: int = DEFAULT_TABLE_BITS) -> bool:
    """Whether the player to move can finish the deal with a value of at least ``target``."""
    p = Position(position) if isinstance(position, str) else position
    return _solver_for(p.rules, table_bits).can_reach(p, target)


def _reference_analysis(p: Position) -> Analysis:
    _require_solvable(p)
    t0 = time.perf_counter()
    raw = reference_values(p)
    moves = []
    for m in p.legal_moves():
        v, w = to_final(p, raw[str(m)])
        moves.append(MoveValue(m, v, w))
    value, win = to_final(p, max(raw.values()))
    best = [mv.move for mv in moves if mv.value == value]
    line = _reference_pv(p)
    return Analysis(p.bpn(), SEATS[p.turn], value, best, moves, line, win, 0,
                    time.perf_counter() - t0, method="exact")


def _reference_pv(p: Position) -> list[Move]:
    q = p.copy()
    line = []
    while not q.is_over():
        raw = reference_values(q)
        best = max(raw.values())
        m = next(m for m in q.legal_moves() if raw[str(m)] == best)
        line.append(m)
        q.push(m)
        if q.win >= 0:
            break
    return line


__all__ = ["Analysis", "Limit", "MoveValue", "Solver", "can_reach", "engine_state", "new_engine", "solve",
           "solve_batch", "to_final"]
