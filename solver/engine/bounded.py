"""Solving within a budget: proven bounds when the exact search does not finish.

Two modes, both driven from Python over the compiled engine:

* **budget** (nodes and/or seconds of real time): after a one-trick look-ahead (always run: every
  move gets an estimate), the moves are solved one after the other, the most promising
  first, each by the exact solve's own search of it (``Engine.move_value``: the game-win
  tests, then MTD(f) from its guess) with all the budget left.  A search the budget stops
  keeps the bounds it proved; the estimate of a move is its look-ahead value, kept inside
  the proven bounds.  A budget that suffices costs what the exact solve costs.
* **depth** (tricks to a horizon): iterative deepening, every root move searched with a
  full window to the horizon, where a documented heuristic scores the position.  A move
  whose search never reached the horizon is exact.  A node or time budget may stop the deepening,
  but never its first iteration (so a final phase is exact under any depth).

Ctrl-C in either mode, or in an exact solve (:func:`interrupted_answer`), raises
:class:`~solver.engine.results.SolveInterrupted` with the answer so far: what was proven
before the interrupt, ``stopped="interrupted"``.

>>> from solver.model.position import Position
>>> from solver.engine import Limit, Solver
>>> p = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
>>> a = Solver().solve(p, limit=Limit(nodes=10**6))
>>> a.exact, a.value
(True, Value.margin(-4, pov='a'))
"""

from __future__ import annotations

import time

from solver.engine.results import (
    Analysis,
    Bound,
    Limit,
    MoveValue,
    SolveInterrupted,
    Stop,
    final_value,
    turn_of,
)
from solver.errors import ArgumentError
from solver.model.moves import move
from solver.model.outright import game_win_possible
from solver.model.position import Position
from solver.model.value import RAW_TRIVIAL, Value
from solver.native.constants import WIN_RAW, WIN_THRESHOLD, WIN_VALUE
from solver.native.engine import Engine

TRIVIAL = RAW_TRIVIAL  # beyond any raw value: the bound known before searching
# the least nodes for a test of the game-win guard: early in the deal (more than
# GUARD_TALON_TRICKS talon tricks left) a forced game win is rarely in reach of a test, so
# the tests get little there; later about a millisecond each
GUARD_NODES = 20_000
GUARD_EARLY_NODES = 2000
GUARD_TALON_TRICKS = 8

Bounds = dict[int, int]
# the raw bounds of a move proven not to win the game outright, or not to lose it (beyond
# every margin, short of a game won or lost)
NOT_WON = WIN_THRESHOLD - 1
NOT_LOST = 1 - WIN_THRESHOLD
MIN_LEFT = 1e-6  # the seconds a search gets at its deadline (0 would be no limit to the engine)


def _finish(
    p: Position,
    lo: Bounds,
    hi: Bounds,
    guess: Bounds,
    legal: list[int],
    depth: int | None,
    nodes: int,
    t0: float,
    every_move: bool,
    eng: Engine,
    interrupted: bool = False,
    ran_out: bool = False,
    root: tuple[int, int] | None = None,
) -> Analysis:
    """The answer from the proven bounds ``lo``/``hi`` and the estimates ``guess`` (of the
    moves that have one; ``interrupted``: Ctrl-C stopped the search, so no further search,
    not even a principal variation's; ``ran_out``: the node or time budget stopped it,
    before ``depth``, the depth reached, got to the depth asked for).

    What a budgeted or interrupted answer promises (docs/solver.md, "What an unfinished
    answer promises"): ``best`` holds the moves with the best estimate, each estimate kept
    inside its move's proven bounds, so no move is called best while another's proven
    lower bound exceeds its proven upper bound; the headline value is the best move's
    estimate; a value that is a bare bound (its estimate lay beyond it, or there was none)
    says so in ``bound``."""
    moves = [mv for m in legal if (mv := _move_value(p, m, lo, hi, guess)) is not None]
    if not moves:  # (Ctrl-C in the first look-ahead: nothing estimated, nothing proven)
        raise KeyboardInterrupt
    all_exact = all(mv.exact for mv in moves) and len(moves) == len(legal)
    if not every_move and not all_exact and depth is None and moves and not interrupted:
        # the best move proven and every other one proven no better: the value is exact
        top = max(moves, key=lambda mv: lo[int(mv.move)])
        if top.exact and all(hi[m] <= lo[int(top.move)] for m in legal if m in hi):
            return _exact_value(p, top, moves, nodes, t0, eng, lo)
    pos_lower, pos_upper = _proven_bounds(p, moves, len(legal), root)
    # the best moves: the best estimates (proven values among them), in legal order (the
    # JSON's order); every estimate lies inside its move's proven bounds, so none is below
    # a move proven worse than another
    value = max(mv.value for mv in moves)
    tops = [mv for mv in moves if mv.value == value]
    best = [mv.move for mv in tops]
    bound = _shared_bound(tops)
    # the principal variation starts with the best proven of them (the highest proven
    # lower bound: a move proven not to lose the game before one that might), which the
    # players play
    first = max(tops, key=lambda mv: int(mv.lower if mv.lower is not None else value)).move
    if value < pos_lower or value > pos_upper:  # (what the root's search proved)
        bound = "lower" if value < pos_lower else "upper"
        value = min(max(value, pos_lower), pos_upper)
    if pos_lower == pos_upper:
        # the proven bounds meet: the value is proven (Analysis.exact), whatever the moves
        # not searched to the end; the best moves are those proven to reach it, and none
        # when no move is (the root's value proven, without every move, by a search
        # interrupted before its principal variation named one): an estimate is no proof
        value, bound = pos_lower, None
        best = [mv.move for mv in moves if mv.exact and mv.value == value]
        first = best[0] if best else first
    line = [first] if best else []
    if all_exact and not interrupted:  # the root is still loaded: walk the exact line
        line = [move(m) for m in eng.pv(max(lo.values()))]
    stopped = _stop_reason(all_exact, depth, ran_out, interrupted)
    return Analysis(
        bpn=p.bpn(),
        turn=turn_of(p),
        value=value,
        best=best,
        moves=moves if every_move else [],
        pv=line,
        nodes=nodes,
        seconds=time.perf_counter() - t0,
        method="exact" if all_exact else "bounded",
        stopped=stopped,
        lower=pos_lower,
        upper=pos_upper,
        depth=depth,
        bound=None if all_exact else bound,
    )


def _proven_bounds(
    p: Position, moves: list[MoveValue], legal: int, root: tuple[int, int] | None
) -> tuple[Value, Value]:
    """The proven bounds of the position's value: from its ``moves`` (of ``legal`` moves,
    the rest not reached and so unbounded above) and those a search of the ``root`` proved."""
    pos_lower = max(mv.lower for mv in moves if mv.lower is not None)
    pos_upper = max(mv.upper for mv in moves if mv.upper is not None)
    if len(moves) < legal:  # (an interrupted solve: the moves not reached may be better)
        pos_upper = final_value(p, TRIVIAL)
    if root is not None:  # the bounds a search of the root proved
        pos_lower = max(pos_lower, final_value(p, root[0]))
        pos_upper = min(pos_upper, final_value(p, root[1]))
    return pos_lower, pos_upper


def _stop_reason(all_exact: bool, depth: int | None, ran_out: bool, interrupted: bool) -> Stop:
    """Why a bounded search stopped (``Analysis.stopped``).

    >>> _stop_reason(False, 3, False, False), _stop_reason(False, 3, True, False)
    ('depth', 'budget')
    """
    if interrupted:
        return "interrupted"
    return "solved" if all_exact else ("depth" if depth is not None and not ran_out else "budget")


def _move_value(p: Position, m: int, lo: Bounds, hi: Bounds, guess: Bounds) -> MoveValue | None:
    """Move ``m``'s value: exact when its proven bounds meet, else its estimate kept inside
    them; a move whose estimate lay beyond a bound, or that has none, is worth that bound
    (``bound`` says which).  None: a move with neither an estimate nor a proven bound (not
    reached before an interrupt)."""
    if m not in lo:
        return None
    lower, upper = _bound_value(p, lo[m]), _bound_value(p, hi[m])
    if lo[m] == hi[m]:
        return MoveValue(move=move(m), value=lower, lower=lower, upper=upper, exact=True)
    bound: Bound | None = None
    if m in guess:
        g = guess[m]
        if g > hi[m]:
            bound, g = "upper", hi[m]
        elif g < lo[m]:
            bound, g = "lower", lo[m]
    elif hi[m] < TRIVIAL:  # no estimate: the bounds alone
        bound, g = "upper", hi[m]
    elif lo[m] > -TRIVIAL:
        bound, g = "lower", lo[m]
    else:
        return None
    return MoveValue(
        move=move(m), value=_bound_value(p, g), lower=lower, upper=upper, exact=False, bound=bound
    )


def _shared_bound(tops: list[MoveValue]) -> Bound | None:
    """The headline's ``bound``: none when one of the best moves is exact or an estimate."""
    kinds = {mv.bound for mv in tops}
    if None in kinds:
        return None
    # (one of them at least that value, another at most: the value is proven a lower bound)
    return "lower" if "lower" in kinds else "upper"


def _bound_value(p: Position, raw: int) -> Value:
    """The final value of a raw bound or estimate.  The game-win guard's bounds (a move
    proven not to win the game, or not to lose it: raw ``WIN_THRESHOLD - 1`` or
    ``1 - WIN_THRESHOLD``) are beyond every margin: they read as the margin next to the
    game's marker, ``+9999`` or ``-9999`` (a margin, not a game won or lost)."""
    v = final_value(p, raw)
    if v.winner is None and abs(int(v)) >= WIN_VALUE:
        return Value.margin(WIN_VALUE - 1 if int(v) > 0 else 1 - WIN_VALUE, pov=p.turn)
    return v


def _exact_value(
    p: Position, top: MoveValue, moves: list[MoveValue], nodes: int, t0: float, eng: Engine, lo: Bounds
) -> Analysis:
    """The answer without every move's value whose value is nonetheless proven (the exact
    solve's answer then: one best move, no move list)."""
    return Analysis(
        bpn=p.bpn(),
        turn=turn_of(p),
        value=top.value,
        best=[top.move],
        moves=[],
        pv=[move(m) for m in eng.pv(lo[int(top.move)])],
        nodes=nodes,
        seconds=time.perf_counter() - t0,
        lower=top.value,
        upper=top.value,
    )


def bounded_solve(
    eng: Engine,
    p: Position,
    limit: Limit,
    every_move: bool = True,
    t0: float | None = None,
    pv: bool = True,
    deadline: float | None = None,
) -> Analysis:
    """Solve ``p``, already loaded as the root of ``eng``, within ``limit`` (see the module
    docstring); ``t0`` is when the caller started the clock; ``pv=False``: an exact value
    alone comes with its best move, not a whole principal variation (as in the exact solve).

    ``deadline`` (a ``time.perf_counter()`` instant) stops the search there without changing
    what search it is: a depth-limited search keeps its game-win guard (which a budget of
    seconds skips), and one the deadline stops answers ``stopped="budget"`` (a sampled
    world's search cut short by the analysis's time limit)."""
    t0 = time.perf_counter() if t0 is None else t0
    n0 = eng.nodes
    legal = [int(m) for m in p.legal_moves()]
    if limit.depth is not None:
        return _depth_solve(eng, p, limit, legal, t0, n0, every_move, deadline)
    budget = limit.nodes or 0
    deadline = _sooner(t0 + limit.seconds if limit.seconds else None, deadline)
    # the one-trick look-ahead always runs, whatever the budget (a few hundred nodes): every
    # move gets a real estimate, and the final phase (no horizon there) is solved outright
    lo, hi, guess, _, stop, _ = _deepen(eng, Limit(depth=1), legal, t0, n0)
    root: tuple[int, int] | None = None
    try:
        if not stop and every_move:
            _narrow(eng, legal, lo, hi, guess, budget, deadline, n0, every_move)
        elif not stop:
            # the value alone: the exact solve's own search of the root (its game-win tests
            # and MTD(f) from its guess) with all the budget left, so that a budget that
            # suffices costs what the exact solve costs; stopped, it keeps what it proved
            exact = _root_solve(eng, p, budget, deadline, n0, t0, pv)
            if exact is not None:
                return exact
            root = _root_bounds(eng)
    except KeyboardInterrupt:
        stop = True  # (the bounds proven by the tests that finished stand)
        root = None if every_move else _root_bounds(eng)
    eng.clear_limits()
    answer = _finish(p, lo, hi, guess, legal, None, eng.nodes - n0, t0, every_move, eng, stop, root=root)
    if stop:
        raise SolveInterrupted(answer)
    return answer


def _root_solve(
    eng: Engine, p: Position, budget: int, deadline: float | None, n0: int, t0: float, pv: bool
) -> Analysis | None:
    """The exact solve's answer without every move (its search of the root's value, then a
    principal variation) when it finishes within the budget, else None (the bounds it
    proved: :func:`_root_bounds`)."""
    if not _set_budget(eng, budget, deadline, n0):
        return None
    v = eng.value()
    if eng.aborted:
        return None
    eng.clear_limits()
    value = final_value(p, v)
    line = [move(m) for m in (eng.pv(v) if pv else eng.pv(v, 1))]
    return Analysis(
        bpn=p.bpn(),
        turn=turn_of(p),
        value=value,
        best=line[:1],
        moves=[],
        pv=line,
        nodes=eng.nodes - n0,
        seconds=time.perf_counter() - t0,
        lower=value,
        upper=value,
    )


def _root_bounds(eng: Engine) -> tuple[int, int]:
    """The raw bounds on the root's value that its stopped search proved (the trivial
    ones where it proved nothing)."""
    p_lo, p_hi = eng.proven_bounds
    lo = p_lo if p_lo is not None and p_lo > -WIN_RAW else -TRIVIAL
    hi = p_hi if p_hi is not None and p_hi < WIN_RAW else TRIVIAL
    if lo >= WIN_THRESHOLD:
        return WIN_RAW, WIN_RAW
    if hi <= -WIN_THRESHOLD:
        return -WIN_RAW, -WIN_RAW
    return lo, hi


def _narrow(
    eng: Engine,
    legal: list[int],
    lo: Bounds,
    hi: Bounds,
    guess: Bounds,
    budget: int,
    deadline: float | None,
    n0: int,
    every_move: bool,
) -> None:
    """The exact solve's work, within the budget: the moves one after the other, the most
    promising first, each by the exact solve's own search of it (the game-win tests, then
    MTD(f) from its guess) with all the budget left; a search the budget stops tightens the
    proven bounds ``lo``/``hi`` by what it proved.

    A budget that suffices thus costs what the exact solve costs (a test cut short by the
    budget would be work lost, so no test gets a mere slice of it).  (Without every move
    the root's value is searched instead, :func:`_root_solve`; called so, only the most
    promising move gets that search, and each other one is tested against the best
    proven value by MTD(f) zero-window tests, and dropped when it cannot beat it.)"""
    first = True
    for m in sorted(legal, key=lambda m: -guess[m]):
        if lo[m] < hi[m] and (every_move or first):
            # the exact solve's own search of the move (Engine.move_value: the game-win
            # tests early in a deal, then MTD(f) from its guess), with all the budget left
            first = False
            if not _set_budget(eng, budget, deadline, n0):
                return
            try:
                v = eng.move_value(m)
            except KeyboardInterrupt:  # (what its tests proved stands)
                _keep_proven(eng, m, lo, hi, guess)
                raise
            if not eng.aborted:
                lo[m] = hi[m] = guess[m] = v
                continue
            _keep_proven(eng, m, lo, hi, guess)
            return
        if lo[m] < hi[m]:  # the exact solve's own guess (Engine.guess_depth)
            first = False
            if not _set_budget(eng, budget, deadline, n0, eng.guess_depth(m)):
                return
            taint = eng.taint
            v = eng.child_search(m, -TRIVIAL, TRIVIAL)
            if eng.aborted:
                return
            guess[m] = v
            if eng.taint == taint:
                lo[m] = hi[m] = v
        g = min(max(guess[m], lo[m]), hi[m])
        while lo[m] < hi[m]:
            best_lo = max(lo[x] for x in legal if x != m) if len(legal) > 1 else -TRIVIAL
            if not every_move and hi[m] <= best_lo:
                break  # cannot be the best move
            if not _set_budget(eng, budget, deadline, n0):
                return
            if not every_move and best_lo > lo[m]:
                beta = best_lo + 1  # does it beat the best so far?
            else:
                beta = g + 1 if g <= lo[m] else min(g, hi[m])
            v = eng.child_search(m, beta - 1, beta)
            if eng.aborted:
                return
            if v >= beta:
                lo[m] = max(lo[m], v)
            else:
                hi[m] = min(hi[m], v)
            g = v


def _set_budget(eng: Engine, budget: int, deadline: float | None, n0: int, depth: int = -1) -> bool:
    """Limit the engine's next search to what is left of the node ``budget`` (counted from
    ``n0``) and of the time to ``deadline``, to ``depth`` tricks (-1: to the end); False,
    and no limit set, when nothing is left."""
    used = eng.nodes - n0
    left = deadline - time.perf_counter() if deadline else 0.0
    if (budget and used >= budget) or (deadline and left <= 0):
        return False
    eng.set_limits(nodes=budget - used if budget else 0, seconds=left, wall_seconds=left, depth=depth)
    return True


def _keep_proven(eng: Engine, m: int, lo: Bounds, hi: Bounds, guess: Bounds) -> None:
    """Tighten the bounds of move ``m`` by what its exact search, stopped by the budget,
    proved (:attr:`Engine.proven_bounds`, raw for the player to move; nothing proven maps
    to the trivial +-WIN_RAW, which tightens nothing)."""
    p_lo, p_hi = eng.proven_bounds
    if p_lo is not None and p_lo > -WIN_RAW:
        lo[m] = max(lo[m], p_lo)
    if p_hi is not None and p_hi < WIN_RAW:
        hi[m] = min(hi[m], p_hi)
    if lo[m] >= WIN_THRESHOLD:  # (the only value from WIN_THRESHOLD up, and down)
        lo[m] = hi[m] = WIN_RAW
    elif hi[m] <= -WIN_THRESHOLD:
        lo[m] = hi[m] = -WIN_RAW


def _sooner(a: float | None, b: float | None) -> float | None:
    """The sooner of two deadlines (None: none)."""
    return b if a is None else a if b is None else min(a, b)


def _deepen(
    eng: Engine, limit: Limit, legal: list[int], t0: float, n0: int, stop_at: float | None = None
) -> tuple[Bounds, Bounds, Bounds, int, bool, bool]:
    """Iterative deepening by tricks to ``limit.depth`` within the budget.

    The first iteration, the one-trick look-ahead, always runs whatever the budget (a few
    hundred nodes; in the final phase, which has no horizon, it solves the position
    exactly): every move gets a real estimate, and a final phase under a budget is exact.

    Returns (lo, hi, guess, depth reached, interrupted, ran out): proven bounds (exact for
    moves whose search never met the horizon) and the heuristic values of the last
    complete iteration, whether Ctrl-C stopped it, and whether the budget (or the
    ``stop_at`` deadline of :func:`bounded_solve`) did."""
    if limit.depth is None:
        raise ArgumentError("iterative deepening needs a limit with a depth")
    budget = limit.nodes or 0
    deadline = _sooner(t0 + limit.seconds if limit.seconds else None, stop_at)
    lo = {m: -TRIVIAL for m in legal}
    hi = {m: TRIVIAL for m in legal}
    guess: Bounds = {}  # (no estimate before the first iteration is complete)
    reached = 0
    ran_out = False
    for depth in range(1, limit.depth + 1):
        values: Bounds = {}
        exact: dict[int, bool] = {}
        complete = True
        for m in legal:
            if depth == 1:  # the look-ahead: whatever the budget
                eng.set_limits(depth=depth)
            else:
                if not _set_budget(eng, budget, deadline, n0, depth):
                    complete = False
                    break
            taint = eng.taint
            try:
                v = eng.child_search(m, -TRIVIAL, TRIVIAL)
            except KeyboardInterrupt:  # the iterations completed stand
                eng.clear_limits()
                return lo, hi, guess, reached, True, False
            if eng.aborted:
                complete = False
                break
            values[m] = v
            exact[m] = eng.taint == taint
        if not complete:
            ran_out = True
            break
        reached = depth
        for m in legal:
            guess[m] = values[m]
            if exact[m]:
                lo[m] = hi[m] = values[m]
        if all(lo[m] == hi[m] for m in legal):
            break
    eng.clear_limits()
    return lo, hi, guess, reached, False, ran_out


def _depth_solve(
    eng: Engine,
    p: Position,
    limit: Limit,
    legal: list[int],
    t0: float,
    n0: int,
    every_move: bool,
    deadline: float | None = None,
) -> Analysis:
    """Iterative deepening to ``limit.depth`` tricks with the horizon evaluation, then the
    game-win guard (both stopped by ``deadline``, when given)."""
    lo, hi, guess, reached, stop, ran_out = _deepen(eng, limit, legal, t0, n0, deadline)
    try:
        if limit.guard and not (limit.nodes or limit.seconds) and not stop and not ran_out:
            # (a budget is a budget: no guard under one; a deadline only stops it)
            ran_out = _guard_game_wins(eng, p, legal, lo, hi, eng.nodes - n0, deadline)
    except KeyboardInterrupt:
        stop = True
    eng.clear_limits()
    answer = _finish(p, lo, hi, guess, legal, reached, eng.nodes - n0, t0, every_move, eng, stop, ran_out)
    if stop:
        raise SolveInterrupted(answer)
    return answer


def _guard_game_wins(
    eng: Engine,
    p: Position,
    legal: list[int],
    lo: Bounds,
    hi: Bounds,
    budget: int,
    deadline: float | None = None,
) -> bool:
    """Exact zero-window tests of whether the inexact moves win the game outright, and
    whether they lose it: a horizon never hides a forced game win or loss that these prove.

    Only a player who might still win outright
    (:func:`~solver.model.outright.game_win_possible`) is tested for it, and the root is
    tested first (no move wins when the position does not).  The tests share ``budget``
    nodes (the depth-limited search's own), at least ``GUARD_NODES`` each
    (``GUARD_EARLY_NODES`` early in the deal); a test that runs out of nodes proves nothing.
    Returns whether ``deadline`` stopped the tests (the guard then did not do its work)."""
    me = p.turn
    open_moves = [m for m in legal if lo[m] != hi[m]]
    mine, theirs = game_win_possible(p, me), game_win_possible(p, 1 - me)
    # a game no player can still win outright: no move wins it, and none loses it (kept as
    # bounds, so that a move proven to win or lose the game is judged against them)
    for m in open_moves:
        if not mine:
            hi[m] = min(hi[m], NOT_WON)
        if not theirs:
            lo[m] = max(lo[m], NOT_LOST)
    if not open_moves or not (mine or theirs):
        return False
    least = GUARD_NODES if (p.talon_count + 1) // 2 <= GUARD_TALON_TRICKS else GUARD_EARLY_NODES
    per_test = max(least, budget // (1 + len(open_moves) * (mine + theirs)))
    if mine:
        if _past(deadline):
            return True
        _test_limits(eng, per_test, deadline)
        root = eng.value(WIN_THRESHOLD - 1, WIN_THRESHOLD)
        if eng.aborted and _past(deadline):
            return True
        if eng.aborted or root >= WIN_THRESHOLD:
            if _prove_each(eng, open_moves, lo, hi, WIN_THRESHOLD - 1, WIN_THRESHOLD, per_test, deadline):
                return True
        else:  # the position wins no game: no move does
            for m in open_moves:
                hi[m] = min(hi[m], NOT_WON)
    if theirs:
        rest = [m for m in open_moves if lo[m] != hi[m]]
        if _prove_each(eng, rest, lo, hi, -WIN_THRESHOLD, -WIN_THRESHOLD + 1, per_test, deadline):
            return True
    eng.clear_limits()
    return False


def _past(deadline: float | None) -> bool:
    """Whether ``deadline`` (a ``time.perf_counter()`` instant, None: none) has passed."""
    return deadline is not None and time.perf_counter() >= deadline


def _test_limits(eng: Engine, nodes: int, deadline: float | None) -> None:
    """A guard test's limits: ``nodes``, and the time left to ``deadline`` when there is one."""
    left = 0.0  # (no limit of time to the engine)
    if deadline is not None:  # (a deadline just reached gets the least time, not no limit)
        left = max(deadline - time.perf_counter(), MIN_LEFT)
    eng.set_limits(nodes=nodes, seconds=left, wall_seconds=left, depth=-1)


def _prove_each(
    eng: Engine,
    moves: list[int],
    lo: Bounds,
    hi: Bounds,
    alpha: int,
    beta: int,
    nodes: int,
    deadline: float | None = None,
) -> bool:
    """A zero-window test of each move at (alpha, beta): a proven game win or loss is exact.
    Returns whether ``deadline`` stopped the tests."""
    for m in moves:
        if _past(deadline):
            return True
        _test_limits(eng, nodes, deadline)
        v = eng.child_search(m, alpha, beta)
        if eng.aborted:
            if _past(deadline):
                return True
            continue
        if v >= WIN_THRESHOLD:
            lo[m] = hi[m] = WIN_RAW
        elif v <= -WIN_THRESHOLD:
            lo[m] = hi[m] = -WIN_RAW
        elif v < beta:  # proven not to win the game
            hi[m] = min(hi[m], NOT_WON)
        else:  # proven not to lose it
            lo[m] = max(lo[m], NOT_LOST)
    return False


def interrupted_answer(
    eng: Engine, p: Position, raw: dict[int, int], current: int | None, every_move: bool, t0: float, n0: int
) -> Analysis | None:
    """The answer so far of an exact solve of ``p`` stopped by Ctrl-C, or None when nothing
    was proven yet.

    ``raw``: the exact raw values of the root moves solved before; ``current``: the move
    whose search was interrupted (None: the root's own value was being searched, without
    every move), whose proven bounds the engine kept (:attr:`Engine.proven_bounds`)."""
    lo_b, hi_b = eng.proven_bounds
    if not raw and lo_b is None and hi_b is None:
        return None
    lo_v = -TRIVIAL if lo_b is None else lo_b
    hi_v = TRIVIAL if hi_b is None else hi_b
    legal = [int(m) for m in p.legal_moves()]
    lo, hi, guess = _estimates_after_interrupt(eng, legal)
    for m, v in raw.items():
        lo[m] = hi[m] = v
    root: tuple[int, int] | None = None
    if not every_move:
        root = (lo_v, hi_v)
    elif current is not None and current not in raw:
        lo[current], hi[current] = max(lo.get(current, -TRIVIAL), lo_v), min(hi.get(current, TRIVIAL), hi_v)
    if not lo:
        return None
    return _finish(
        p, lo, hi, guess, legal, None, eng.nodes - n0, t0, every_move, eng, interrupted=True, root=root
    )


def _estimates_after_interrupt(eng: Engine, legal: list[int]) -> tuple[Bounds, Bounds, Bounds]:
    """Every move's one-trick look-ahead, as a budgeted solve starts with (a few hundred
    nodes; exact in the final phase), so that an interrupted exact solve answers with
    estimates, not bare bounds: (lo, hi, estimates), all empty when a second Ctrl-C stops
    it too."""
    try:
        lo, hi, guess, _, stop, _ = _deepen(eng, Limit(depth=1), legal, time.perf_counter(), eng.nodes)
    except KeyboardInterrupt:
        return {}, {}, {}
    return ({}, {}, {}) if stop else (lo, hi, guess)


__all__ = ["bounded_solve", "interrupted_answer"]
