"""The options of :func:`solver.analysis.sampling.analyse`, one typed value written once.

As python-chess's ``engine.analyse(board, Limit(...))`` takes its limits in one value,
``analyse(position, AnalyseOptions(...))`` takes how to sample: the worlds, the budgets,
the seed, the workers, the search each world gets, the inference, the stopping rules and
the hooks that report progress.  The options are checked when they are made (every
check in :meth:`AnalyseOptions.__post_init__`), so a bad one is an error before any work,
and the keyword form ``analyse(position, worlds=200, seed=1)`` builds the same value.

>>> o = AnalyseOptions(worlds=200, seed=1)
>>> o.worlds, o.seed, o.target_worlds, str(o.search)
(200, 1, 200, 'quick')
>>> AnalyseOptions(think="2s").target_worlds == MAX_WORLDS
True
>>> AnalyseOptions(workers=0)
Traceback (most recent call last):
...
solver.errors.ArgumentError: workers=0: expected a whole number of worker processes from 1 to 256
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from solver.analysis.inference import History
from solver.analysis.ranking import RankingRule, WinWorth
from solver.analysis.thinking import Think
from solver.engine.quick import WorldSearch
from solver.errors import ArgumentError, ArgumentTypeError
from solver.model.ranges import (
    MAX_SEED,
    MAX_WORKERS,
    MAX_WORLDS,
    finite_argument,
    seconds_argument,
    short_value,
    whole_argument,
)

DEFAULT_WORLDS = 100  # worlds sampled when neither a number nor a budget of thinking is given


@dataclass(frozen=True, kw_only=True)
class AnalyseOptions:
    """How :func:`~solver.analysis.sampling.analyse` samples (every field has a default).

    ``worlds``: how many worlds to sample (all are enumerated when there are no more);
    100 by default, and without a bound but the budget with ``think``.
    ``think``: seconds of thinking, counted in work (:mod:`solver.analysis.thinking`): the
    worlds, in their seeded order, up to the first at which the work reaches it; so the
    same seed gives the same answer, whatever the machine's load and the workers.
    ``time_limit``: stop after this many seconds; the world being solved then, whatever
    its search, stops at the deadline too and is dropped.
    ``separation``: stop when the best move leads the runner-up by this many standard
    errors of their paired difference (after at least 2 batches of ``batch`` worlds).
    ``workers`` processes, or any ``concurrent.futures`` ``executor`` (or a
    ``dask.distributed`` client: the worlds are solved on its cluster, docs/cluster.md).
    ``depth``: tricks of look-ahead per world to the fitted linear evaluation, or
    ``world_search``, another per-world search (:class:`~solver.engine.quick.WorldSearch`:
    ``"quick"``, ``"exact"``, ``"handmade:3"``, ...), one of the two.
    ``win_worth``: what a game won outright counts in the means that rank moves
    (:mod:`solver.analysis.ranking`).  ``history``: the play that led to the position,
    whose opponent's moves weigh the worlds when ``inference`` is on.
    ``progress(done, wanted)`` is called after each round of worlds; ``on_update`` gets the
    answer so far at most every ``update_every`` seconds.

    >>> base = AnalyseOptions(worlds=50)
    >>> dataclasses.replace(base, seed=7).seed, base.seed
    (7, 0)
    """

    worlds: int | None = None
    seed: int = 0
    time_limit: float | None = None
    think: Think | str | float | None = None
    workers: int = 1
    executor: Executor | Any = None
    separation: float | None = None
    depth: int | None = None
    batch: int = 10
    progress: Callable[[int, int], object] | None = None
    win_worth: WinWorth | str = "match"
    # (its argument is the answer so far, a SampledAnalysis: named Any here because the
    # sampling module imports this one, and no import, not even a type checker's, goes round)
    on_update: Callable[[Any], object] | None = None
    update_every: float = 1.0
    world_search: WorldSearch | str = "quick"
    history: History | None = None
    inference: bool = True

    def __post_init__(self) -> None:
        # (in the order analyse always checked them, so that the first error is the same)
        RankingRule.parse(self.win_worth)
        search = WorldSearch.parse(self.world_search)
        if self.depth is not None and search.kind != "quick":
            raise ArgumentError(f"depth={self.depth} and world_search={str(search)!r}: give one of them")
        if self.think is not None:
            Think.parse(self.think)
        if self.worlds is not None:
            self._normal("worlds", whole_argument(self.worlds, "worlds", 1, MAX_WORLDS, "worlds"))
        self._normal("batch", whole_argument(self.batch, "batch", 1, MAX_WORLDS, "worlds"))
        self._normal("workers", whole_argument(self.workers, "workers", 1, MAX_WORKERS, "worker processes"))
        self._normal("update_every", finite_argument(self.update_every, "update_every", "seconds"))
        for name, hook in (("progress", self.progress), ("on_update", self.on_update)):
            if hook is not None and not callable(hook):  # (it would fail only at its first call)
                raise ArgumentTypeError(f"{name}={short_value(hook)}: expected a function or None")
        if self.time_limit is not None:
            self._normal("time_limit", seconds_argument(self.time_limit, "time_limit"))
        self._normal("seed", whole_argument(self.seed, "seed", 0, MAX_SEED))  # (the CLI's and .bpd's range)
        if self.separation is not None:
            self._normal("separation", finite_argument(self.separation, "separation", "standard errors"))
        if self.history is not None and not isinstance(self.history, History):
            raise ArgumentTypeError(
                f"history={short_value(self.history)}: expected a solver.analysis.inference.History"
            )
        if not isinstance(self.inference, bool):
            raise ArgumentTypeError(f"inference={short_value(self.inference)}: expected True or False")

    def _normal(self, name: str, value: object) -> None:
        """Keep ``value``, the checked form of field ``name`` (an int for a numpy int)."""
        object.__setattr__(self, name, value)  # (frozen: only while it is being made)

    @classmethod
    def of(
        cls, options: AnalyseOptions | None = None, overrides: Mapping[str, Any] | None = None
    ) -> AnalyseOptions:
        """``options`` (the defaults for None) with the fields named in ``overrides`` replaced;
        a name that is no field is an ArgumentTypeError, as an unknown keyword is.

        >>> AnalyseOptions.of(AnalyseOptions(worlds=5), {"seed": 2})
        AnalyseOptions(worlds=5, seed=2, ...)
        >>> AnalyseOptions.of(None, {"wrolds": 5})
        Traceback (most recent call last):
        ...
        solver.errors.ArgumentTypeError: analyse() got an unexpected keyword argument 'wrolds'
        """
        base = cls() if options is None else options
        if not isinstance(base, AnalyseOptions):
            raise ArgumentTypeError(f"options={short_value(base)}: expected a solver.AnalyseOptions or None")
        if not overrides:
            return base
        names = {f.name for f in dataclasses.fields(cls)}
        for name in overrides:
            if name not in names:
                raise ArgumentTypeError(f"analyse() got an unexpected keyword argument {name!r}")
        return dataclasses.replace(base, **overrides)

    def given(self) -> list[str]:
        """The fields that differ from their defaults, as ``name=value`` (for the refusal
        of options a method does not read).

        >>> AnalyseOptions(worlds=5, win_worth=3).given()
        ['worlds=5', 'win_worth=3']
        """
        return [
            f"{f.name}={short_value(v)}"
            for f in dataclasses.fields(self)
            if (v := getattr(self, f.name)) is not f.default and v != f.default
        ]

    @property
    def search(self) -> WorldSearch:
        """The search each world gets: ``world_search``, or ``depth`` tricks to the fitted
        linear evaluation."""
        return (
            WorldSearch("depth", self.depth)
            if self.depth is not None
            else WorldSearch.parse(self.world_search)
        )

    @property
    def rank(self) -> RankingRule:
        """The rule that values a game won outright in the ranking of moves."""
        return RankingRule.parse(self.win_worth)

    @property
    def budget(self) -> float | None:
        """The seconds of thinking (work) to spend, None without a budget."""
        return None if self.think is None else Think.parse(self.think).seconds

    @property
    def target_worlds(self) -> int:
        """The worlds to sample at most: ``worlds``, else 100, or no bound but the budget
        of thinking (MAX_WORLDS)."""
        if self.worlds is not None:
            return self.worlds
        return MAX_WORLDS if self.think is not None else DEFAULT_WORLDS


__all__ = ["DEFAULT_WORLDS", "AnalyseOptions"]
