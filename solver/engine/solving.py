"""The public face of the exact solvers: ``solve``, ``solve_batch``, ``can_reach`` and ``Solver``.

>>> from solver.model.position import Position
>>> a = solve(Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"))
>>> a.value, [str(m) for m in a.best][:2], a.move_value("AS")
(Value.margin(-4, pov='a'), ['9S', 'KS'], Value.margin(-18, pov='a'))
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Literal

from solver.engine.bounded import bounded_solve, interrupted_answer
from solver.engine.quick import quick_horizon, quick_limit
from solver.engine.reference import reference_values
from solver.engine.results import (
    Analysis,
    Limit,
    MoveValue,
    SolveInterrupted,
    current_margin,
    final_value,
    turn_of,
)
from solver.engine.seam import DEFAULT_HORIZON, DEFAULT_TABLE_BITS, engine_key, engine_root, new_engine
from solver.errors import (
    ArgumentError,
    ArgumentTypeError,
    EngineError,
    HiddenInformationError,
    IllegalMoveError,
    ImpossiblePositionError,
    PositionError,
)
from solver.model.moves import Move, move, parse_move
from solver.model.position import Position, as_position, as_positions
from solver.model.ranges import short, short_value, whole_or_none
from solver.model.rules import Rules, as_rules
from solver.model.table_memory import table_bits_argument, table_bits_in_range
from solver.model.value import RAW_TRIVIAL, Value, raw_target, raw_unreachable
from solver.native.engine import MAX_SOLVE_THREADS, Engine

MIN_SOLVE_SECONDS = 1e-6  # the time a solve given a deadline gets at it (a Limit needs some)
BOUNDED_TABLE_BITS = 20  # bounded solves clear their table first (a few ms)

Backend = Literal["native", "reference"]


Progress = Callable[[int, int, int], object]
"""``progress(done, total, nodes)``: root moves solved of the total, nodes searched so far."""

PROGRESS_SECONDS = 1.0  # how often progress hears of a root move still being searched


class ProgressTicker:
    """Calls ``progress`` as each root move is solved and, from a helper thread, every
    ``PROGRESS_SECONDS`` while one is searched (the search releases the GIL; a whole deal's
    first move alone can take minutes), one call at a time, with the nodes so far."""

    def __init__(self, progress: Progress, total: int, nodes: Callable[[], int]) -> None:
        self.progress, self.total, self.nodes = progress, total, nodes
        self.done = 0
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._tick, name="solve-progress", daemon=True)

    def report(self, done: int) -> None:
        """``done`` root moves are solved."""
        with self.lock:
            self.done = done
            self.progress(done, self.total, self.nodes())

    def _tick(self) -> None:
        while not self.stopped.wait(PROGRESS_SECONDS):
            with self.lock:
                try:
                    self.progress(self.done, self.total, self.nodes())
                except Exception:  # (a failing callback stops the ticks, not the solve)
                    return

    def __enter__(self) -> ProgressTicker:
        self.report(0)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()


def require_solvable(p: Position, over_ok: bool = False) -> None:
    """Raise unless ``p`` is a valid perfect-information position with moves left (or,
    with ``over_ok``, a finished deal, whose result no hidden card changes: a view of a
    deal ended by four kings or queens)."""
    if p.has_hidden and not (over_ok and p.is_over()):
        if not any(p.unknown):  # (both hands known: the talon alone is face down)
            raise HiddenInformationError(
                f"position {p.bpn()!r} has its talon face down; the exact solver needs the talon "
                f"order: solve_chance (brisque solve) values a face-down talon with every draw a "
                f"chance event, and the sampling analysis (brisque analyse) takes any hidden cards"
            )
        raise HiddenInformationError(
            f"position {p.bpn()!r} has hidden cards; the exact solver needs both hands and the talon "
            f"order: use the sampling analysis (brisque analyse) for hidden cards"
        )
    probs = p.problems()
    if probs:
        raise ImpossiblePositionError(p.bpn(), probs)
    if p.is_over() and not over_ok:
        raise PositionError(f"the deal is over in {p.bpn()!r}: there is nothing to solve")


def finished_analysis(p: Position) -> Analysis:
    """The answer for a finished deal: its result, with no move left to play.

    >>> a = finished_analysis(Position("petite .../... JD 21 Q9.Q98.K9.QJ7 - a 8:7 tricks=2:3 void=a:HD,b:S"))
    >>> a.value, a.moves
    (Value.margin(-1, pov='a'), [])
    """
    require_solvable(p, over_ok=True)
    return exact_analysis(p, p.value(), [], [], [], nodes=0, seconds=0.0)


def exact_analysis(
    p: Position,
    value: Value,
    best: list[Move],
    moves: list[MoveValue],
    pv: list[Move],
    *,
    nodes: int,
    seconds: float,
    proven_bounds: bool = True,
) -> Analysis:
    """The answer of an exact solve of ``p``: its ``value``, ``best`` moves, ``moves``
    valued and principal variation ``pv``; its proven bounds are the value itself (None,
    with ``proven_bounds`` false, as the reference solver answers).

    >>> p = Position("petite .../... JD 21 Q9.Q98.K9.QJ7 - a 8:7 tricks=2:3 void=a:HD,b:S")
    >>> exact_analysis(p, p.value(), [], [], [], nodes=0, seconds=0.0).upper
    Value.margin(-1, pov='a')
    """
    bound = value if proven_bounds else None
    return Analysis(
        bpn=p.bpn(),
        turn=turn_of(p),
        value=value,
        best=best,
        moves=moves,
        pv=pv,
        nodes=nodes,
        seconds=seconds,
        lower=bound,
        upper=bound,
    )


@dataclass
class _RootMoves:
    """The root moves an exact solve has valued so far (raw values) and the one it is on:
    what Ctrl-C keeps (:func:`~solver.engine.bounded.interrupted_answer`)."""

    raw: dict[int, int] = field(default_factory=dict)
    current: int | None = None


class Solver:
    """A reusable exact solver for one set of rules; its table stays warm between calls.

    >>> s = Solver(Rules())
    >>> s.solve(Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")).value
    Value.margin(-4, pov='a')
    """

    def __init__(
        self,
        rules: Rules | str | None = None,
        table_bits: int = DEFAULT_TABLE_BITS,
        horizon: str = DEFAULT_HORIZON,
    ):
        self.rules = as_rules(rules)
        # (the range, and whether the table fits in the memory left: before it is allocated)
        table_bits = table_bits_argument(table_bits)
        self.engine = new_engine(self.rules, table_bits, horizon)
        self.key = engine_key(self.rules)

    def load(self, p: Position | str) -> None:
        """Make ``p`` (a Position or a BPN string) the engine's root (checked: rules the
        engine was built for, every card known, valid, not over)."""
        p = as_position(p, "p")
        if p.rules != self.rules and engine_key(p.rules) != self.key:
            raise PositionError(f"position rules {p.rules} differ from this solver's {self.rules}")
        require_solvable(p)
        self.engine.load(engine_root(p))

    def solve(
        self,
        p: Position | str,
        every_move: bool = True,
        pv: bool = True,
        limit: Limit | None = None,
        threads: int | None = None,
        progress: Progress | None = None,
        *,
        deadline: float | None = None,
    ) -> Analysis:
        """Value, best moves, every move's value and a principal variation of ``p``, a
        Position or a BPN string.

        With a bounded ``limit`` the answer may be inexact: see :func:`solve`.  ``threads``
        share the exact searches and their table (:func:`solver_threads`); ``None``: as
        the engine is set (one thread unless set otherwise).  ``progress`` follows an
        exact solve of every move (see :func:`solve`).  ``deadline``, a
        ``time.perf_counter()`` instant, stops the search there whatever ``limit`` says
        (:func:`~solver.engine.bounded.bounded_solve`; an exact solve then runs within the
        time left): a search it stops answers ``stopped="budget"``.

        >>> Solver().solve("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35").value
        Value.margin(44, pov='b')
        """
        p = as_position(p, "p")
        limit = check_limit(limit)
        if threads is not None:
            threads = check_threads(threads, limit)
        if p.is_over():
            return finished_analysis(p)
        t0 = time.perf_counter()
        self.load(p)
        if deadline is not None and (limit is None or not limit.bounded):
            # (the exact search within the time left: the budget mode's, which costs what
            # the exact solve costs when the time suffices)
            limit = Limit(seconds=max(deadline - t0, MIN_SOLVE_SECONDS))
        if limit is not None and limit.bounded:
            return bounded_solve(self.engine, p, limit, every_move, t0, pv, deadline)
        return self._solve_exactly(p, every_move, pv, threads, progress, t0)

    def _solve_exactly(
        self,
        p: Position,
        every_move: bool,
        pv: bool,
        threads: int | None,
        progress: Progress | None,
        t0: float,
    ) -> Analysis:
        """The exact search of :meth:`solve` (``p`` loaded, no bounded limit); Ctrl-C
        raises :class:`~solver.engine.results.SolveInterrupted` with the answer so far."""
        self.engine.clear_limits()
        n0 = self.engine.nodes
        solved = _RootMoves()
        try:
            with solver_threads(self.engine, self.engine.threads if threads is None else threads):
                if every_move:  # (one move at a time, so that Ctrl-C keeps the moves solved)
                    self._solve_root_moves(solved, progress, n0)
                searched = max(solved.raw.values()) if solved.raw else self.engine.value()
            value, best, moves, line = self._exact_parts(p, solved.raw, searched, pv)
        except KeyboardInterrupt:
            # Ctrl-C: the answer so far, from the moves solved and the bounds proven
            partial = interrupted_answer(self.engine, p, solved.raw, solved.current, every_move, t0, n0)
            if partial is None:
                raise
            raise SolveInterrupted(partial) from None
        return exact_analysis(
            p, value, best, moves, line, nodes=self.engine.nodes - n0, seconds=time.perf_counter() - t0
        )

    def _solve_root_moves(self, solved: _RootMoves, progress: Progress | None, n0: int) -> None:
        """Value every root move exactly, one at a time, into ``solved``."""
        roots = self.engine.root_moves()
        ticker = ProgressTicker(progress, len(roots), lambda: self.engine.nodes - n0) if progress else None
        with ticker or nullcontext():
            for solved.current in roots:
                solved.raw[solved.current] = self.engine.move_value(solved.current)
                if ticker is not None:
                    ticker.report(len(solved.raw))

    def _exact_parts(
        self, p: Position, raw: dict[int, int], best_raw: int, pv: bool
    ) -> tuple[Value, list[Move], list[MoveValue], list[Move]]:
        """The value, best moves, moves valued and principal variation of an exact search
        whose root moves' raw values are ``raw`` (empty: not asked) and best ``best_raw``."""
        legal = [int(m) for m in p.legal_moves()]
        if raw and set(raw) != set(legal):
            raise EngineError(f"engine and rules model disagree on the legal moves of {p.bpn()!r}")
        value = final_value(p, best_raw)
        moves = []
        for m in legal:
            if m in raw:
                v = final_value(p, raw[m])
                moves.append(MoveValue(move=move(m), value=v, lower=v, upper=v))
        best = [mv.move for mv in moves if mv.value == value]
        line = [move(m) for m in self.engine.pv(best_raw)] if pv else []
        if not best:
            # without every move's value, one best move: the first of a principal variation
            # (a few zero-window tests at the root, whose subtrees the table already holds)
            best = line[:1] or [move(m) for m in self.engine.pv(best_raw, 1)]
        return value, best, moves, line

    def look_ahead(self, p: Position, depth: int = 1) -> tuple[dict[int, Value], int]:
        """Every legal move of ``p`` (a position at a decision, not over) valued by a search
        of ``depth`` tricks to the horizon evaluation, without the game-win guard or an
        answer's bookkeeping: the cheapest estimate of every move (the opponent model of
        solver.analysis.inference), and the nodes it took.

        >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
        >>> values, nodes = Solver().look_ahead(p)
        >>> sorted(values) == sorted(int(m) for m in p.legal_moves()) and nodes > 0
        True
        """
        self.load(p)
        raw, nodes = self._look_ahead_loaded(depth)
        return {m: final_value(p, v) for m, v in raw.items()}, nodes

    def look_ahead_raw(self, p: Position, depth: int = 1) -> tuple[dict[int, int], int]:
        """:meth:`look_ahead` of a position known to be valid (replayed from a checked one),
        its values raw (the future points for the player to move, or beyond
        ``WIN_THRESHOLD`` for a game won): the inference calls it thousands of times a
        decision, where the checks and the values' objects cost more than the search.

        >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
        >>> s = Solver()
        >>> raw, _ = s.look_ahead_raw(p)
        >>> values, _ = s.look_ahead(p)
        >>> all(int(final_value(p, raw[m])) == int(values[m]) for m in values)
        True
        """
        self.engine.load(engine_root(p))
        return self._look_ahead_loaded(depth)

    def _look_ahead_loaded(self, depth: int) -> tuple[dict[int, int], int]:
        n0 = self.engine.nodes
        self.engine.set_limits(depth=depth)
        try:
            raw = {
                m: self.engine.child_search(m, -RAW_TRIVIAL, RAW_TRIVIAL) for m in self.engine.root_moves()
            }
        finally:
            self.engine.clear_limits()
        return raw, self.engine.nodes - n0

    def judge(self, p: Position | str, m: Move | int | str) -> tuple[Value, Value, list[Move]]:
        """The exact value of ``p``, that of its legal move ``m``, and its best moves:
        what a line's analysis needs, without every move's exact value (one search for the
        value, a zero-window test a move for whether it reaches it, and one exact search
        for ``m`` when it does not).  On a whole deal this is many times cheaper than
        :meth:`solve`, whose bad moves each need their exact margin.

        >>> from solver.model.moves import parse_move
        >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
        >>> value, played, best = shared_solver(p.rules).judge(p, parse_move("QD"))
        >>> int(value), int(played), [str(b) for b in best]
        (44, 4, ['7S', '9D', '7C', 'AC', '+mD'])
        """
        p = as_position(p, "p")
        self.load(p)
        # (a Move is an int; any whole number is a move code, numpy's too; not 1.5, not True)
        code = int(parse_move(m)) if isinstance(m, str) else whole_or_none(m)
        if code is None:
            raise ArgumentTypeError(
                f"m={short_value(m)}: expected a move, such as 'AS' or a Move, not {type(m).__name__}"
            )
        legal = [int(x) for x in p.legal_moves()]
        if code not in legal:
            if isinstance(m, str | Move):
                given = str(move(code))
            else:  # a bare number: as given, and the move it codes if it codes one
                try:
                    given = f"{code} ({move(code)})"
                except KeyError:
                    given = str(code)
            raise IllegalMoveError(
                f"illegal move {given} in {p.bpn()!r}; legal: {' '.join(map(str, p.legal_moves()))}"
            )
        self.engine.clear_limits()
        best_raw = self.engine.value()
        best = [x for x in legal if self.engine.reaches(x, best_raw)]
        if not best:
            raise EngineError(f"no move of {p.bpn()!r} reaches its value {best_raw}")
        raw = best_raw if code in best else self.engine.move_value(code)
        return final_value(p, best_raw), final_value(p, raw), [move(x) for x in best]

    def value(self, p: Position | str) -> Value:
        """The value alone (one search) of ``p``, a Position or a BPN string."""
        p = as_position(p, "p")
        self.load(p)
        self.engine.clear_limits()
        return final_value(p, self.engine.value())

    def can_reach(self, p: Position | str, target: int) -> bool:
        """Can the player to move finish with a value of at least ``target``? (zero-window search)"""
        p = as_position(p, "p")
        target = target_argument(target)
        self.load(p)
        self.engine.clear_limits()
        if raw_unreachable(target):
            return False
        need = raw_target(target, current_margin(p))
        if need is None:
            return True
        return self.engine.value(need - 1, need) >= need

    def batch_values(self, positions: Iterable[Position | str]) -> tuple[list[Value], list[int]]:
        """Values of many positions (Positions or BPN strings) in one native call; returns
        (values, nodes)."""
        ps = as_positions(positions)
        roots = []
        for i, p in enumerate(ps, 1):
            if p.rules != self.rules and engine_key(p.rules) != self.key:
                raise PositionError(
                    f"position {i} of the batch ({short(p.bpn())}): its rules {p.rules} differ "
                    f"from this solver's {self.rules}"
                )
            require_solvable(p)
            roots.append(engine_root(p))
        self.engine.clear_limits()
        raws, nodes = self.engine.solve_batch(roots)
        return [final_value(p, r) for p, r in zip(ps, raws)], nodes


def target_argument(target: object) -> int:
    """``can_reach``'s ``target``, a whole number (an answer's value: a margin, or
    ``10000`` for a game won); an :class:`ArgumentError` quoting anything else.

    >>> target_argument(44)
    44
    >>> target_argument("44")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentError: target='44': expected a whole number (a value such as 44, or 10000 for a game won)
    """
    n = whole_or_none(target)
    if n is None:
        raise ArgumentError(
            f"target={short_value(target)}: expected a whole number (a value such as 44, or 10000 for a game won)"
        )
    return n


def check_limit(limit: object) -> Limit | None:
    """``limit`` as a solve takes it: None or a :class:`Limit` (anything else, such as a
    number of nodes, is an :class:`ArgumentTypeError` saying what is expected).

    >>> check_limit(5)
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: limit=5: expected a solver.Limit, such as Limit(nodes=10**6)
    """
    if limit is not None and not isinstance(limit, Limit):
        raise ArgumentTypeError(
            f"limit={short_value(limit)}: expected a solver.Limit, such as Limit(nodes=10**6)"
        )
    return limit


def check_threads(threads: int, limit: Limit | None = None) -> int:
    """``threads`` as an int, checked: refuse a number of threads the engine cannot run, or
    threads with a budget (a budgeted solve is reproducible only on one thread)."""
    n = whole_or_none(threads) or 0
    if not 1 <= n <= MAX_SOLVE_THREADS:
        raise ArgumentError(f"threads={threads!r}: expected a whole number from 1 to {MAX_SOLVE_THREADS}")
    if n > 1 and limit is not None and limit.bounded:
        raise ArgumentError(
            f"threads={n} share an exact solve: give no budget (nodes, seconds, depth) and not quick=True"
        )
    return n


@contextmanager
def solver_threads(engine: Engine, threads: int) -> Iterator[None]:
    """Run the exact searches inside on ``threads`` threads that share the engine's table
    (Simplified ABDADA, src_cython/parallel.pxd): the same values as one thread, sooner on
    long solves (BENCHMARKS.md).  Positions near the end of the talon use one thread.

    >>> from solver.play.dealing import random_position
    >>> p = random_position(2, "brisque", 6)   # five talon tricks to play
    >>> s = Solver()
    >>> with solver_threads(s.engine, 2):
    ...     s.solve(p).value == solve(p).value
    True
    """
    before = engine.threads
    engine.set_threads(threads)
    try:
        yield
    finally:
        engine.set_threads(before)


SHARED_SOLVERS = 4  # kept by shared_solver; each holds its table (35 MB at 2**20 entries)


class _Kept(threading.local):
    """The solvers kept for one thread.  An engine's search runs without the GIL and writes
    its table: two threads searching with one engine corrupt each other's answers (a wrong
    value, or "principal variation lost"), as a ThreadPoolExecutor or a Dask worker of
    several threads did with the worlds of one analysis.  So each thread keeps its own."""

    def __init__(self) -> None:
        self.solvers: OrderedDict[tuple[str, int, str], Solver] = OrderedDict()


_SHARED = _Kept()


def forget_shared_solvers() -> None:
    """Let every solver this thread kept go, and its table: the next question starts cold,
    as in a new process (for benchmarks that time a cold start)."""
    _SHARED.solvers.clear()


def shared_solver(
    rules: Rules, table_bits: int = DEFAULT_TABLE_BITS, horizon: str = DEFAULT_HORIZON
) -> Solver:
    """A solver for ``rules`` kept for reuse in this thread (its table stays warm), by
    :func:`solve`, the players and the sampling workers.

    Rule sets that differ only in options the engine does not read share one
    (:func:`~solver.engine.seam.engine_key`), and at most ``SHARED_SOLVERS`` are kept: the
    least recently used is let go, and its table freed, so that a batch of many rule sets
    runs in bounded memory.

    >>> shared_solver(Rules.parse("brisque(target=1000)")) is shared_solver(Rules.parse("brisque"))
    True
    """
    kept = _SHARED.solvers  # (this thread's: see _Kept)
    key = (engine_key(rules), table_bits, horizon)
    solver = kept.get(key)
    if solver is None:
        while len(kept) >= SHARED_SOLVERS:
            kept.popitem(last=False)
        solver = kept[key] = Solver(rules, table_bits, horizon)
    kept.move_to_end(key)
    return solver


def solve(
    position: Position | str,
    *,
    every_move: bool = True,
    pv: bool = True,
    engine: Backend = "native",
    table_bits: int = DEFAULT_TABLE_BITS,
    limit: Limit | None = None,
    nodes: int | None = None,
    seconds: float | None = None,
    depth: int | None = None,
    quick: bool = False,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Solve a perfect-information position.

    Exact by default.  A budget (``nodes``, ``seconds`` of real time, or a ``Limit``) makes it stop
    early: the answer then has ``exact=False``, proven ``lower``/``upper`` bounds for the
    position and for every move searched, and the best move found.  ``depth=N`` searches N
    tricks and evaluates the horizon with a heuristic (``docs/solver.md``).
    ``engine="reference"`` uses the plain Python solver (slow; the tests' oracle).
    ``quick=True`` runs the search each sampled world gets (:mod:`solver.engine.quick`):
    three tricks to the learned evaluation in Brisque and Briscan; exact in the last
    talon tricks and a four-trick estimate before in Petite Brisque.
    ``threads`` share an exact solve and its table (the same answer, sooner on a whole deal).
    ``progress(done, total, nodes)`` follows an exact solve of every move, which goes a root
    move at a time: called before the first (``done`` 0), as each is solved, and every
    second while one is searched (from a helper thread, one call at a time), with the
    nodes searched so far (a budgeted solve, bounded anyway, does not call it).
    A position with hidden cards raises :class:`HiddenInformationError` (a finished deal
    is answered, its result known whatever the hidden cards).

    >>> a = solve("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
    >>> int(a.value), a.value.describe(), str(a.best[0]), a.move_value("QD")
    (44, '+44', '7S', Value.margin(4, pov='b'))
    >>> solve("brisque A97.J.QJ./QJ...AT98 7D 8D9DAH TK8.TKQ987.ATK.KQJ7 - a 13:52 tricks=1:7 exchanged=b taken=AD",
    ...       nodes=50).exact
    False
    """
    p = as_position(position)
    # (checked here too: a bounded solve's table is at most BOUNDED_TABLE_BITS, which must
    # not make table_bits=99 pass unseen)
    table_bits = table_bits_in_range(table_bits)
    budget = nodes is not None or seconds is not None or depth is not None
    if quick:
        if limit is not None or budget:
            raise ArgumentError("quick=True is a search of its own: give no other limit with it")
        limit = quick_limit(p)
    elif budget:
        if limit is not None:
            raise ArgumentError(f"limit={limit!r} and nodes/seconds/depth: give the budget one way, not both")
        limit = Limit(nodes=nodes, seconds=seconds, depth=depth)  # (which checks each number)
    else:
        limit = check_limit(limit)
    if threads is not None:
        threads = check_threads(threads, limit)
    if engine == "reference":
        if quick or limit is not None or threads is not None:
            # (the reference solver is a plain exact minimax on one thread: a budget, a
            # quick search or threads would be ignored, and an answer given as if obeyed)
            raise ArgumentError(
                "engine='reference' is the plain exact solver: give it no budget (nodes, "
                "seconds, depth, limit), no quick=True and no threads"
            )
        return _reference_analysis(p)
    if engine != "native":
        raise ArgumentError(f"engine={engine!r}: expected 'native' or 'reference'")
    if limit is not None and limit.bounded:
        # estimates and budgets depend on what the table holds: start from an empty one so
        # that the same question always gets the same answer
        horizon = quick_horizon(p.rules) if quick else DEFAULT_HORIZON
        solver = shared_solver(p.rules, min(table_bits, BOUNDED_TABLE_BITS), horizon)
        solver.engine.clear()
        return solver.solve(p, every_move=every_move, pv=pv, limit=limit)
    return shared_solver(p.rules, table_bits).solve(
        p, every_move=every_move, pv=pv, limit=limit, threads=threads, progress=progress
    )


def solve_batch(positions: Iterable[Position | str], *, table_bits: int = DEFAULT_TABLE_BITS) -> list[Value]:
    """Values of many positions (same rules) in one native call sharing one table.

    >>> solve_batch(["brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35",
    ...              "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"])
    [Value.margin(-4, pov='a'), Value.margin(44, pov='b')]
    """
    ps = as_positions(positions)
    table_bits = table_bits_in_range(table_bits)  # (an empty batch too)
    if not ps:
        return []
    return Solver(ps[0].rules, table_bits).batch_values(ps)[0]


def can_reach(position: Position | str, target: int, *, table_bits: int = DEFAULT_TABLE_BITS) -> bool:
    """Whether the player to move can finish the deal with a value of at least ``target``.

    >>> bpn = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    >>> can_reach(bpn, 44), can_reach(bpn, 45)
    (True, False)
    """
    p = as_position(position)
    target = target_argument(target)
    return shared_solver(p.rules, table_bits).can_reach(p, target)


def _reference_analysis(p: Position) -> Analysis:
    if p.is_over():
        return finished_analysis(p)
    require_solvable(p)
    t0 = time.perf_counter()
    raw = reference_values(p)
    moves = [MoveValue(move=m, value=final_value(p, raw[str(m)])) for m in p.legal_moves()]
    value = final_value(p, max(raw.values()))
    best = [mv.move for mv in moves if mv.value == value]
    pv = _reference_pv(p)
    return exact_analysis(
        p, value, best, moves, pv, nodes=0, seconds=time.perf_counter() - t0, proven_bounds=False
    )


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


__all__ = [
    "BOUNDED_TABLE_BITS",
    "Backend",
    "Progress",
    "ProgressTicker",
    "Solver",
    "can_reach",
    "forget_shared_solvers",
    "require_solvable",
    "solve",
    "solve_batch",
    "solver_threads",
]
