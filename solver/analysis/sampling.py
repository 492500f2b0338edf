"""Best move and expected score with hidden cards: determinization sampling (PIMC).

The worlds consistent with the view of the player to move are sampled (or all
enumerated when there are few enough), each is solved by the engine, and every legal
move is scored by its mean value over the *same* worlds, with a standard error.

>>> a = analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=20, seed=1)
>>> a.method, a.worlds, len(a.moves)
('pimc', 20, 6)
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

from solver.analysis.analyse_options import AnalyseOptions
from solver.analysis.chance_worlds import draws_are_chance, world_chance_values
from solver.analysis.equilibrium import EquilibriumAnalysis, equilibrium
from solver.analysis.executors import as_executor, executor_width
from solver.analysis.inference import History, effective_worlds, infers, log_likelihood, model_for
from solver.analysis.ranking import RankingRule
from solver.analysis.thinking import world_work
from solver.analysis.worlds import all_worlds, iter_worlds, shuffled_worlds, world_count
from solver.engine.evaluation import DEFAULT_HORIZON
from solver.engine.quick import WorldSearch, quick_limit, quick_summary
from solver.engine.results import Analysis, Limit, lookup_move_value
from solver.engine.solving import shared_solver, solve
from solver.errors import ArgumentError, ImpossiblePositionError, PositionError
from solver.formats.words import percent
from solver.model.moves import Move, move, parse_move
from solver.model.numbers import json_number, json_share
from solver.model.position import SEATS, Position, as_position
from solver.model.rules import Rules
from solver.model.value import ExpectedMargin, Value

if TYPE_CHECKING:
    from solver.analysis.pool import InOrder
    from solver.native.engine import Engine

MIN_EFFECTIVE_WORLDS = 10  # weighted worlds worth fewer do not stop the sampling by separation
MIN_WORLD_SECONDS = 1e-6  # the time left given to a world at the deadline (a Limit needs some)
WORLD_TABLE_BITS = 16  # small enough to clear for every world (results then never
# depend on which worker solved which world before)


SampleStop = Literal["worlds", "enumerated", "time", "think", "separated", "interrupted"]
"""Why sampling stopped: the worlds asked for were solved, every consistent world was
(``enumerated``), the time limit, the budget of thinking spent (solver.analysis.thinking),
the best move separated from the runner-up, or an interrupt (Ctrl-C: the answer so far)."""

WorldResult = tuple[dict[int, Value | ExpectedMargin], int, int, float]
"""One world solved: every root move's value (by move number), the nodes searched, the
learned evaluation's evaluations (with the nodes, the work a budget of thinking counts), and
the log-likelihood of the opponent's play in it (0 without inference)."""


@dataclass(kw_only=True)
class SampledMove:
    """A move over the worlds: the share of worlds where the player to move wins (``p_win``)
    or loses (``p_loss``) the game outright, the mean final ``margin`` over the other worlds
    with its standard error (None when every world ended in a game won), and ``value``, the
    number moves are ranked by (solver.analysis.ranking), with its standard error."""

    move: Move
    value: float
    stderr: float | None  # None from one sampled world: no standard error (not 0, certain)
    p_win: float = 0.0
    p_loss: float = 0.0
    margin: float | None = None
    margin_stderr: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "value": json_number(self.value),
            "stderr": json_number(self.stderr),
            "p_win": json_share(self.p_win),
            "p_loss": json_share(self.p_loss),
            "margin": json_number(self.margin),
            "margin_stderr": json_number(self.margin_stderr),
        }

    def describe(self, turn: str, with_stderr: bool = True) -> str:
        """``b wins the game in 12% of worlds; otherwise +23.4 +- 2.1`` (seat ``turn`` to move;
        without the standard error where there is none, as of a single world)."""
        other = "ab"[1 - "ab".index(turn)]
        events = []
        if self.p_win:
            events.append(f"{turn} wins the game in {percent(self.p_win)} of worlds")
        if self.p_loss:
            events.append(f"{other} wins the game in {percent(self.p_loss)} of worlds")
        if self.margin is None:
            return "; ".join(events)
        margin = f"{self.margin:+.1f}"
        if with_stderr:
            margin += f" +- {self.margin_stderr or 0.0:.1f}"
        return "; ".join(events) + "; otherwise " + margin if events else margin


@dataclass(frozen=True, kw_only=True)
class RunnerUp:
    """The move ranked second, and how much worse than the best move it is: the mean over
    the same worlds of their paired difference (``difference``, 0 or more) and its standard
    error (0 when every consistent world was solved, None from a single sampled world)."""

    move: Move
    difference: float
    stderr: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "difference": json_number(self.difference),
            "stderr": json_number(self.stderr),
        }


@dataclass(kw_only=True)
class SampledAnalysis:
    """The answer of :func:`analyse` for a position with hidden cards."""

    bpn: str
    turn: str
    value: float
    stderr: float | None  # None from fewer than two sampled worlds (0: every world solved)
    best: list[Move]
    moves: list[SampledMove]
    worlds: int
    enumerated: bool
    seed: int
    nodes: int
    seconds: float
    world_method: str  # "exact" or "depth N" (the per-world search)
    stopped: SampleStop
    ranking: str = "match"  # the rule a game won outright is valued by (analysis/ranking.py)
    work: float = 0.0  # the work seconds of the worlds counted (solver.analysis.thinking)
    method: Literal["pimc"] = "pimc"
    pv: list[Move] = field(default_factory=list)
    win: str | None = None
    # each world's ranking number of each move (by move number), for paired comparisons
    world_numbers: list[dict[int, float]] = field(default_factory=list, repr=False)
    # each world's final value of each move (a margin or a game won), for chances that are
    # no function of the number: the chance of winning a whole game (solver.analysis.game_chance)
    world_values: list[dict[int, Value | ExpectedMargin]] = field(default_factory=list, repr=False)
    # each world's weight by the inference (empty: every world alike), and their effective
    # sample size, (sum w)^2 / sum w^2 (None: no inference)
    world_weights: list[float] = field(default_factory=list, repr=False)
    effective_worlds: float | None = None

    def move_value(self, m: Move | str) -> float:
        """The mean value of one move (a Move or move string)."""
        return lookup_move_value(self.moves, m)

    def paired_loss(self, m: Move | str) -> tuple[float, float | None]:
        """(loss, stderr): how much ``m`` gives away against the best move, as the mean over
        the worlds of their difference, and the standard error of that paired difference
        (0 when every consistent world was solved: then there is no sampling noise; None
        from a single sampled world, which says nothing of the noise).  The mean of the
        differences is the difference of the means.

        >>> a = analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=10, seed=3)
        >>> worst = min(a.moves, key=lambda mv: mv.value)
        >>> loss, se = a.paired_loss(worst.move)
        >>> round(loss, 6) == round(a.value - worst.value, 6) and loss > 0 and se > 0
        True
        """
        mv = parse_move(m) if isinstance(m, str) else m
        best, other = int(self.best[0]), int(mv)
        if not self.world_numbers or other not in self.world_numbers[0]:
            raise ArgumentError(f"{mv} is not a legal move of {self.bpn!r}")
        loss, se = _mean_se([w[best] - w[other] for w in self.world_numbers], self.world_weights or None)
        return loss, 0.0 if self.enumerated else se

    def paired_win_drop(
        self, m: Move | str, chance: Callable[[Value | ExpectedMargin], float] | None = None
    ) -> tuple[float, float | None]:
        """(drop, stderr): how much ``m`` lowers the chance of winning the deal against the
        move with the best chance (the share of the worlds where a move's number is above 0:
        a margin won or a game won outright), paired over the same worlds as
        :meth:`paired_loss`; with ``chance``, the mean of ``chance(value)`` over the worlds
        instead (the chance of winning a whole game from each world's final value:
        :mod:`solver.analysis.game_chance`).

        >>> a = analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=10, seed=3)
        >>> drop, se = a.paired_win_drop(a.best[0])
        >>> drop, se   # (the mean's best move is not always the likeliest to win)
        (0.1, 0.179...)
        """
        mv = parse_move(m) if isinstance(m, str) else m
        other = int(mv)
        if not self.world_numbers or other not in self.world_numbers[0]:
            raise ArgumentError(f"{mv} is not a legal move of {self.bpn!r}")
        ws = self.world_weights or None
        if chance is None:
            chances = [{k: float(n > 0) for k, n in w.items()} for w in self.world_numbers]
        else:
            chances = [{k: chance(v) for k, v in w.items()} for w in self.world_values]
        # (the reference is the move best for the chance, which need not be the best margin)
        best = max(
            chances[0], key=lambda k: (_mean_se([c[k] for c in chances], ws)[0], k == int(self.best[0]))
        )
        drop, se = _mean_se([c[best] - c[other] for c in chances], ws)
        return drop, 0.0 if self.enumerated else se

    @property
    def runner_up(self) -> RunnerUp | None:
        """The second move of the ranking against the best (:meth:`paired_loss`): whether
        the best really beats it is its ``difference`` against its ``stderr``; None with a
        single legal move.

        >>> a = analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=10, seed=3)
        >>> r = a.runner_up
        >>> r.move != a.best[0] and round(r.difference, 6) == round(a.value - a.move_value(r.move), 6)
        True
        """
        others = [mv for mv in self.moves if mv.move != self.best[0]]
        if not others or not self.world_numbers:
            return None
        second = max(others, key=lambda mv: mv.value)  # (the first in legal order of equals)
        difference, se = self.paired_loss(second.move)
        return RunnerUp(move=second.move, difference=difference, stderr=se)

    def _repr_html_(self) -> str:
        """The diagram and the moves with their sampled values, for notebooks."""
        from solver.model.svg import answer_html

        rows = [
            [
                str(m.move),
                f"{m.value:+.2f}",
                "?" if m.stderr is None else f"{m.stderr:.2f}",
                m.describe(self.turn),
            ]
            for m in self.moves
        ]
        caption = f"{self.turn} to move, {self.worlds} worlds ({self.world_method}), best {' '.join(map(str, self.best))}"
        return answer_html(
            Position(self.bpn), ["move", "value", "stderr", "in words"], rows, caption=caption, best=self.best
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "bpn": self.bpn,
            "turn": self.turn,
            "method": self.method,
            "value": json_number(self.value),
            "stderr": json_number(self.stderr),
            "best": [str(m) for m in self.best],
            "moves": [m.to_dict() for m in self.moves],
            "pv": [str(m) for m in self.pv],
            "win": self.win,
            "worlds": self.worlds,
            "enumerated": self.enumerated,
            "seed": self.seed,
            "world_search": self.world_method,
            "ranking": self.ranking,
            "stopped": self.stopped,
            "runner_up": None if (r := self.runner_up) is None else r.to_dict(),
            "effective_worlds": json_number(self.effective_worlds),
            "nodes": self.nodes,
            "work_seconds": json_share(self.work),
            "seconds": json_share(self.seconds),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


MAX_TASK_WORLDS = 100  # worlds per task sent to a worker (of a cluster)
# worlds per task sent to our own worker processes: a task takes a fraction of a second
# even on a loaded machine, so that Ctrl-C finds tasks finished (a task cut short is lost)
OWN_TASK_WORLDS = 20


WorldTask = tuple[str, list[str], Limit | None, str, float | None, "tuple[History, int] | None"]
"""The worlds one task solves: the rules, the worlds' BPNs, the search's limit, the
evaluation of its horizon (solver.engine.evaluation.HORIZONS), the seconds left to the analysis's
time limit (None: no time limit), and the history and seed of the inference (None: none)."""


def _solve_worlds(task: WorldTask, out: list[WorldResult] | None = None) -> list[WorldResult]:
    """Worker: solve each world (BPN) for every root move (within ``limit``, with the
    horizon evaluation named); returns ({move: value}, nodes) for each world solved,
    appended to ``out`` as each is (so that a caller interrupted keeps those solved).

    Under a time limit every world's search, whatever its kind, stops at the deadline
    (``seconds`` left, counted from when the task starts: clocks differ between machines);
    a world so stopped is left out: its values are not what the search stands for."""
    rules_text, bpns, limit, horizon, seconds, inference = task
    deadline = None if seconds is None else time.perf_counter() + max(seconds, MIN_WORLD_SECONDS)
    rules = Rules.parse(rules_text)
    solver = shared_solver(rules, WORLD_TABLE_BITS, horizon)
    out = [] if out is None else out
    known: dict[tuple[int, int], tuple[dict[int, Value | ExpectedMargin], int]] = {}
    for bpn in bpns:
        solver.engine.clear()
        e0 = solver.engine.network_evaluations
        world = Position(bpn)
        chance = _chance_values(solver.engine, world, limit, deadline, known)
        values: dict[int, Value | ExpectedMargin]
        if chance is None:
            a = solver.solve(
                world, every_move=True, pv=False, limit=_dd_limit(limit, world), deadline=deadline
            )
            if a.stopped == "budget":
                continue
            values, nodes = {int(m.move): m.value for m in a.moves}, a.nodes
        else:
            values, nodes = chance
        # (the inference's searches are not counted here: its work is by the moves it replays)
        ll = 0.0 if inference is None else log_likelihood(inference[0], world, inference[1])[0]
        out.append((values, nodes, solver.engine.network_evaluations - e0, ll))
    return out


def _chance_values(
    engine: Engine,
    world: Position,
    limit: Limit | None,
    deadline: float | None,
    known: dict[tuple[int, int], tuple[dict[int, Value | ExpectedMargin], int]],
) -> tuple[dict[int, Value | ExpectedMargin], int] | None:
    """A world's values with its draws by chance and the nodes searched, under a ``chance``
    limit (None: not asked for, a game win at stake, or the deadline passed: the
    double-dummy solve instead).  Worlds that differ only in the talon's order have the
    same values: ``known`` keeps them by the hands, with the nodes they took, so that the
    work counted does not depend on how the worlds were shared among workers; each search
    starts from an empty table for the same reason."""
    if limit is None or not limit.chance or not draws_are_chance(world):
        return None
    hands = (world.hands[0], world.hands[1])
    if hands in known:
        return known[hands]
    if deadline is not None:
        engine.set_limits(wall_seconds=max(deadline - time.perf_counter(), MIN_WORLD_SECONDS))
    engine.chance_clear()
    n0 = engine.nodes
    try:
        values = world_chance_values(engine, world)
    finally:
        engine.clear_limits()
    if values is None:
        return None
    known[hands] = (dict(values), engine.nodes - n0)
    return known[hands]


def _dd_limit(limit: Limit | None, world: Position) -> Limit | None:
    """The double-dummy solve's limit: a ``chance`` limit's worlds left to it get the quick
    search (exact this late in the deal)."""
    return quick_limit(world) if limit is not None and limit.chance else limit


def solve_world(
    rules: Rules, bpn: str, limit: Limit | None = None, horizon: str = DEFAULT_HORIZON
) -> WorldResult | None:
    """One sampled world (a BPN with every card known) solved as an analysis's worker solves
    it, for every root move, within ``limit``, to the ``horizon`` evaluation, with no time
    limit and no inference: ({move: value}, nodes, network evaluations, 0.0); None when
    ``limit``'s budget stopped the search (an analysis leaves such a world out).  The cost
    of thinking (``benchmarks/bench_thinking.py``) times worlds through it.

    >>> from solver.analysis.worlds import iter_worlds
    >>> v = Position("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1")
    >>> world = next(iter_worlds(v, 1))
    >>> values, nodes, evaluations, log_likelihood = solve_world(v.rules, world.bpn())
    >>> sorted(values) == sorted(int(m) for m in v.legal_moves()), nodes > 0, log_likelihood
    (True, True, 0.0)
    """
    done = _solve_worlds((str(rules), [bpn], limit, horizon, None, None))
    return done[0] if done else None


def _seconds_left(deadline: float | None) -> float | None:
    """The seconds left to ``deadline`` (None: none), for the next task."""
    return None if deadline is None else max(deadline - time.perf_counter(), MIN_WORLD_SECONDS)


@overload
def analyse(
    position: Position | str,
    options: AnalyseOptions | None = None,
    *,
    method: Literal["pimc"] = "pimc",
    **overrides: Any,
) -> Analysis | SampledAnalysis: ...


@overload
def analyse(
    position: Position | str,
    options: AnalyseOptions | None = None,
    *,
    method: Literal["equilibrium"],
    **overrides: Any,
) -> EquilibriumAnalysis: ...


def analyse(
    position: Position | str,
    options: AnalyseOptions | None = None,
    *,
    method: Literal["pimc", "equilibrium"] = "pimc",
    **overrides: Any,
) -> Analysis | SampledAnalysis | EquilibriumAnalysis:
    """Best move and expected score for the player to move, whose view this is, sampled as
    ``options`` say (:class:`~solver.analysis.analyse_options.AnalyseOptions`); ``overrides`` are
    fields of the options given as keywords (``worlds=200, seed=1``), over ``options`` or
    the defaults.

    >>> a = analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", AnalyseOptions(worlds=10, seed=3))
    >>> a.worlds, a.stopped, len(a.moves)
    (10, 'worlds', 6)
    >>> analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=10, seed=3).best == a.best
    True

    ``worlds`` counts the worlds solved (under ``time_limit``, none solved is an
    ArgumentError).  Ctrl-C (KeyboardInterrupt) returns the answer so far,
    ``stopped="interrupted"``.  The same seed gives the same answer with any number of
    workers: the separation rule looks only at counts of worlds that are multiples of
    ``batch``.  A position with no hidden cards, and a finished deal (its result, no
    moves), gets the exact answer of :func:`solver.engine.solve`.  ``method="equilibrium"`` solves
    the public subgame exactly instead (:func:`solver.analysis.equilibrium.equilibrium`).
    """
    o = AnalyseOptions.of(options, overrides)
    if method == "equilibrium":
        # the sampling's options mean nothing to an exact solve: refuse them, as the
        # command line refuses --worlds with --method equilibrium, rather than answer as if
        # analyse(p, method="equilibrium", worlds=5, workers=8) had used them
        given = [g for g in o.given() if not g.startswith("win_worth=")]
        if given:
            raise ArgumentError(
                f"{', '.join(given)}: method='equilibrium' solves the public subgame exactly, without "
                f"sampling; give only win_worth with it (or use method='pimc')"
            )
        return equilibrium(position, win_worth=o.win_worth)
    if method != "pimc":
        raise ArgumentError(f"method={method!r}: expected 'pimc' or 'equilibrium'")
    return _sample(position, o)


def _sample(position: Position | str, o: AnalyseOptions) -> Analysis | SampledAnalysis:
    """The PIMC answer of :func:`analyse`: the exact one where nothing is hidden (or one
    world is consistent), else the worlds sampled and solved."""
    t0 = time.perf_counter()
    executor = as_executor(o.executor)  # (a dask.distributed client too)
    p = as_position(position)
    if o.history is not None and o.history.views[-1] != p.bpn():
        raise ArgumentError(
            f"history: it ends in {o.history.views[-1]!r}, not in the position analysed {p.bpn()!r}"
        )
    probs = p.problems()
    if probs:
        raise ImpossiblePositionError(p.bpn(), probs)
    if p.is_over() or not p.has_hidden:  # (a finished deal: its result, as solve gives it)
        return solve(p)
    if p.unknown[p.turn]:
        raise PositionError(
            f"{p.bpn()!r} hides the hand of {SEATS[p.turn]}, the player to move: the sampling "
            f"analysis needs the view of the player to move (his own hand shown)"
        )
    total = world_count(p)
    if total == 1:  # e.g. a final-phase view: the hidden hand is known
        a = solve(next(all_worlds(p)))
        a.bpn = p.bpn()
        return a
    return _Sampling(p, o, executor, total, t0).run()


class _Sampling:
    """One run of the sampling of :func:`analyse`: the worlds drawn and solved so far, the
    work they cost, and why the run stopped."""

    def __init__(self, p: Position, o: AnalyseOptions, executor: Executor | None, total: int, t0: float):
        self.p, self.o, self.t0 = p, o, t0
        self.rank, self.budget = o.rank, o.budget
        self.legal = [int(m) for m in p.legal_moves()]
        self.enumerated = total <= o.target_worlds
        self.wanted = total if self.enumerated else o.target_worlds
        # worlds are drawn lazily, in the order of the seeded stream, so that memory and time
        # follow the worlds solved, not the worlds asked for; an enumeration too goes in a seeded
        # order, so that one cut short (time, separation, Ctrl-C) is a fair sample of the worlds
        self.source = shuffled_worlds(p, o.seed) if self.enumerated else iter_worlds(p, o.seed)
        ws = o.search
        self.lim = ws.limit(p)  # the same search for every world (a Limit crosses to workers)
        self.horizon = ws.horizon(p.rules)
        history = o.history
        self.infer = (
            (history, o.seed)
            if history is not None and o.inference and history.opponent_decisions and infers(p.rules)
            else None
        )
        model = None if self.infer is None else model_for(p.rules.game)
        self.temper = None if model is None else model.temper
        self.replayed = 0 if history is None or model is None else len(history.moves) * model.histories
        self.described = ws.describe(self.lim, p)
        self.rules_text = str(p.rules)
        self.executor = executor
        self.workers = o.workers
        if executor is not None:  # (a cluster's or a pool's width: its tasks at once)
            self.workers = max(self.workers, executor_width(executor) or 1)
        self.size = self._task_size()
        self.deadline = t0 + o.time_limit if o.time_limit is not None else None
        self.one_by_one = (
            self.deadline is not None or self.budget is not None
        )  # (a rule that stops at a world)
        self.own_pool: ProcessPoolExecutor | None = None
        self.in_order: InOrder[list[WorldResult]] | None = None  # (the tasks of a round on an executor)
        self.results: list[WorldResult] = []
        self.stopped: SampleStop = "enumerated" if self.enumerated else "worlds"
        self.drawn = 0  # the worlds drawn: those solved, and those an exact search left at the deadline
        self.checked = 0  # the separation rule looks at fixed counts of worlds: every ``batch``
        self.numbers: list[dict[int, float]] = []  # the worlds' ranking numbers, for the separation rule
        self.work = 0.0  # the work seconds of the worlds in results (solver.analysis.thinking)
        self.counted = 0  # the worlds of results whose work is in ``work``
        self.last_update = t0

    def _task_size(self) -> int:
        """The worlds a task solves: ``batch``, or, when nothing needs intermediate results,
        a few large tasks per worker, which cost less (at most MAX_TASK_WORLDS, so that an
        interrupt keeps the worlds solved so far)."""
        o = self.o
        if o.time_limit is None and o.separation is None and self.budget is None:
            if self.executor is not None or self.workers > 1:
                cap = MAX_TASK_WORLDS if self.executor is not None else OWN_TASK_WORLDS
                return max(o.batch, min(cap, -(-self.wanted // (2 * max(self.workers, 2)))))
        return o.batch

    def answer(self, complete: bool) -> SampledAnalysis:
        """The answer over the worlds solved so far (``complete``: every consistent world)."""
        return _summarise(
            self.p,
            self.legal,
            self.results,
            complete,
            self.o.seed,
            self.t0,
            self.described,
            self.stopped,
            self.rank,
            self.horizon,
            self.lim is None,
            self.temper,
            self.replayed,
        )

    def run(self) -> SampledAnalysis:
        """Solve worlds round by round until one of the rules stops the run."""
        if self.executor is None and self.workers > 1:
            from solver.processes import worker_pool  # (its import costs 20 ms: only when used)

            self.own_pool = self.executor = worker_pool(self.workers)
        try:
            while len(self.results) < self.wanted:
                if not self._round():  # (every world drawn, some left at the deadline)
                    break
                if self._stops():
                    break
        except KeyboardInterrupt:
            self._interrupted()
        finally:
            if self.own_pool is not None:
                self.own_pool.shutdown()
        if self.drawn > len(self.results) and self.stopped in ("worlds", "enumerated"):
            self.stopped = "time"  # (worlds left unsolved at the deadline: neither all asked for nor all)
        if not self.results and self.o.time_limit is not None:  # (every world drawn was left at the deadline)
            raise ArgumentError(
                _none_in_time(self.o.time_limit, self.o.search, self.p.rules, self.o.depth is not None)
            )
        return self.answer(self.enumerated and self.stopped == "enumerated")

    def _task(self, worlds: list[Position], left: float | None) -> WorldTask:
        """The task that solves ``worlds`` with ``left`` seconds (counted from when it starts)."""
        return (self.rules_text, [w.bpn() for w in worlds], self.lim, self.horizon, left, self.infer)

    def _round(self) -> int:
        """Draw and solve a round of worlds into ``results``; the worlds drawn."""
        left = self.wanted - len(self.results)
        if self.executor is None:
            # in process, one world at a time under a time limit (so that it holds)
            step = 1 if self.one_by_one else self.size
            round_worlds = list(itertools.islice(self.source, min(step, left)))
            self.drawn += len(round_worlds)
            # (into results as each world is solved: Ctrl-C keeps those of the round)
            _solve_worlds(self._task(round_worlds, _seconds_left(self.deadline)), self.results)
            return len(round_worlds)
        # a task per worker and round (all of them without a stopping rule)
        many = not (self.one_by_one or self.o.separation is not None)
        width = 2 * max(self.workers, 2) if many else self.workers
        task_size = 1 if self.one_by_one else self.size
        round_worlds = list(itertools.islice(self.source, min(width * task_size, left)))
        chunks = [round_worlds[i : i + task_size] for i in range(0, len(round_worlds), task_size)]
        seconds = _seconds_left(self.deadline)  # (counted from when a worker starts a task)
        tasks = [self._task(ch, seconds) for ch in chunks]
        from solver.analysis.pool import InOrder

        self.in_order = InOrder(self.executor, _solve_worlds, tasks)
        for part in self.in_order:
            self.results.extend(part)
        self.in_order = None
        self.drawn += len(round_worlds)
        return len(round_worlds)

    def _stops(self) -> bool:
        """After a round: whether a rule stops the run (the budget, the separation, the
        time limit), having reported the progress when none does."""
        o = self.o
        if self.budget is not None:
            self._spend(self.budget)
        if o.separation is not None and self._separated(o.separation):
            return True
        if self.stopped == "think":
            return True
        if o.progress is not None:
            o.progress(len(self.results), self.wanted)
        if (
            o.on_update is not None
            and self.results
            and time.perf_counter() - self.last_update >= o.update_every
        ):
            self.last_update = time.perf_counter()
            o.on_update(self.answer(False))
        if (
            self.deadline is not None
            and len(self.results) < self.wanted
            and time.perf_counter() >= self.deadline
        ):
            self.stopped = "time"
            return True
        return False

    def _spend(self, budget: float) -> None:
        """Count the work of the worlds solved; once it reaches the budget, stop at the first
        world that spends it, in the worlds' order, whatever the workers solved beyond it."""
        p, results = self.p, self.results
        while self.counted < len(results) and self.work < budget:
            r = results[self.counted]
            self.work += world_work(p.rules.game, self.horizon, self.lim is None, r[1], r[2], self.replayed)
            self.counted += 1
        if self.work >= budget and self.counted < self.wanted:
            del results[self.counted :]
            self.stopped = "think"

    def _separated(self, z: float) -> bool:
        """Whether the best move has separated from the runner-up at a count of worlds that
        is a multiple of ``batch`` (the answer at that count, whatever the workers)."""
        batch, results = self.o.batch, self.results
        # each world's ranking numbers once, as it arrives (checks reuse them)
        self.numbers.extend(
            {m: self.rank.number(r[0][m], self.p) for m in self.legal} for r in results[len(self.numbers) :]
        )
        while self.checked + batch <= len(results):
            self.checked += batch
            if (
                self.checked >= 2 * batch
                and self.checked < self.wanted
                and _separated(
                    self.numbers[: self.checked],
                    self.legal,
                    z,
                    _weights(results[: self.checked], self.temper),
                )
            ):
                del results[self.checked :]
                self.stopped = "separated"
                return True
        return False

    def _interrupted(self) -> None:
        """Ctrl-C: keep the worlds solved so far (re-raise when there are none)."""
        if self.in_order is not None and self.executor is not None:
            # at once, with or without an answer: the workers ignore Ctrl-C, and the orderly
            # shutdown of ``finally`` would wait for every task queued (minutes of worlds);
            # the tasks finished meanwhile count, in whatever order they ended
            self.in_order.stop(self.executor, own=self.own_pool is not None)
            self.own_pool = None
            try:
                self.results.extend(w for part in self.in_order.finished() for w in part)
            except KeyboardInterrupt:  # (a second Ctrl-C: what is taken stands)
                pass
        if self.own_pool is not None:
            from solver.processes import stop_pool

            stop_pool(self.own_pool, wait=False)
            self.own_pool = None
        if not self.results:
            raise
        self.stopped = "interrupted"  # the answer so far


def _none_in_time(time_limit: float, ws: WorldSearch, rules: Rules, as_depth: bool = False) -> str:
    """The error when the time limit stopped the first world's search: what that search
    does, and what would answer (``as_depth``: the search was given as ``depth=N``)."""
    if ws.kind == "exact":
        why = "solves each world exactly, which can take long before the last talon tricks"
        advice = "give more time, or world_search='quick'"
    elif ws.kind == "quick":
        why = f"searches each world {quick_summary(rules)}"
        advice = "give more time"
    else:
        why = f"searches each world {ws.depth} tricks deep, which takes longer the deeper"
        advice = "give more time, a smaller depth, or world_search='quick'"
    given = f"depth={ws.depth}" if as_depth else f"world_search={str(ws)!r}"
    return f"time_limit={time_limit:g}: no world was solved in that time ({given} {why}): {advice}"


def _mean_se(xs: Sequence[float], ws: Sequence[float] | None = None) -> tuple[float, float | None]:
    """The mean and its standard error, None from fewer than two values (one sampled world
    says nothing of the spread: not 0, which reads as certain); with weights ``ws`` (the
    inference's), the weighted mean and the standard error of a ratio estimate, which equals
    the plain one when the weights are equal."""
    # (fsum: exactly rounded, so the same worlds in another order give the same figures)
    n = len(xs)
    if ws is None:
        mean = math.fsum(xs) / n
        if n < 2:
            return mean, None
        var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
        return mean, math.sqrt(var / n)
    total = math.fsum(ws)
    mean = math.fsum(w * x for w, x in zip(ws, xs)) / total
    if n < 2:
        return mean, None
    var = math.fsum((w * (x - mean)) ** 2 for w, x in zip(ws, xs)) / total**2 * n / (n - 1)
    return mean, math.sqrt(var)


def _weights(results: Sequence[WorldResult], temper: float | None) -> list[float] | None:
    """Each world's weight from the log-likelihood of the opponent's play in it, raised to
    the model's ``temper`` (None: no inference, every world alike)."""
    if temper is None or not results:
        return None
    top = max(r[3] for r in results)
    return [math.exp(temper * (r[3] - top)) for r in results]


def _share(flags: Sequence[bool], ws: Sequence[float] | None) -> float:
    """The (weighted) share of the worlds where ``flags`` hold."""
    if ws is None:
        return sum(flags) / len(flags)
    return math.fsum(w for w, f in zip(ws, flags) if f) / math.fsum(ws)


def _separated(
    nums: list[dict[int, float]], legal: list[int], z: float, ws: Sequence[float] | None = None
) -> bool:
    """Whether the best move leads the runner-up by ``z`` standard errors of their paired
    difference, over the worlds' ranking numbers ``nums`` (weighted by ``ws``)."""
    if ws is not None and math.fsum(ws) ** 2 < MIN_EFFECTIVE_WORLDS * math.fsum(w * w for w in ws):
        return False  # (a few heavy worlds: their standard error says little of the noise)
    means = {m: _mean_se([n[m] for n in nums], ws)[0] for m in legal}
    ranked = sorted(legal, key=lambda m: -means[m])
    if len(ranked) < 2:
        return True
    a, b = ranked[0], ranked[1]
    diff, se = _mean_se([n[a] - n[b] for n in nums], ws)
    if se is None:  # (one world: nothing known of the noise)
        return False
    return se == 0.0 and diff > 0 or se > 0 and diff > z * se


def _summarise(
    p: Position,
    legal: list[int],
    results: list[WorldResult],
    enumerated: bool,
    seed: int,
    t0: float,
    world_method: str,
    stopped: SampleStop,
    rank: RankingRule,
    horizon: str = "linear",
    exact: bool = True,
    temper: float | None = None,
    replayed: int = 0,
) -> SampledAnalysis:
    moves = []
    numbers: list[dict[int, float]] = [{m: rank.number(r[0][m], p) for m in legal} for r in results]
    ws = _weights(results, temper)
    for m in legal:
        values = [r[0][m] for r in results]
        mean, se = _mean_se([w[m] for w in numbers], ws)
        kept = [i for i, v in enumerate(values) if not v.is_game_win]
        margin, margin_se = (
            _mean_se([float(values[i]) for i in kept], None if ws is None else [ws[i] for i in kept])
            if kept
            else (None, None)
        )
        if enumerated:  # every consistent world solved: the means are exact, without noise
            se, margin_se = 0.0, None if margin_se is None else 0.0
        moves.append(
            SampledMove(
                move=move(m),
                value=mean,
                stderr=se,
                p_win=_share([v.won for v in values], ws),
                p_loss=_share([v.lost for v in values], ws),
                margin=margin,
                margin_stderr=margin_se,
            )
        )
    top = max(mv.value for mv in moves)
    best = [mv.move for mv in moves if mv.value == top]
    best_mv = next(mv for mv in moves if mv.value == top)
    nodes = sum(r[1] for r in results)
    # a game-winning event in every world is a certain win (or loss): name the winner
    outcomes = [r[0][int(best_mv.move)] for r in results]
    win = None
    if all(v.won for v in outcomes):
        win = SEATS[p.turn]
    elif all(v.lost for v in outcomes):
        win = SEATS[1 - p.turn]
    return SampledAnalysis(
        bpn=p.bpn(),
        turn=SEATS[p.turn],
        value=top,
        stderr=best_mv.stderr,
        best=best,
        moves=moves,
        worlds=len(results),
        enumerated=enumerated,
        seed=seed,
        nodes=nodes,
        seconds=time.perf_counter() - t0,
        world_method=world_method,
        stopped=stopped,
        ranking=str(rank),
        pv=[best[0]],
        win=win,
        world_numbers=numbers,
        world_values=[{m: r[0][m] for m in legal} for r in results],
        world_weights=ws or [],
        effective_worlds=None if ws is None else effective_worlds([r[3] * (temper or 0.0) for r in results]),
        work=math.fsum(world_work(p.rules.game, horizon, exact, r[1], r[2], replayed) for r in results),
    )


__all__ = [
    "RunnerUp",
    "SampledAnalysis",
    "SampledMove",
    "WorldResult",
    "analyse",
    "solve_world",
]
