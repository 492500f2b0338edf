"""Duplicate matches between two players.

Every deal is played twice from the same shuffle with the seats swapped, so that the luck
of the cards cancels.  The statistics are per deal, for the first player named:

* mean margin per deal (the deal's objective: score margin, tricks in Petite Brisque) over
  the deal pairs that ended without a game-winning event, with a 95% confidence interval
  from their pair means (Student's t with pairs - 1 degrees of freedom: :func:`t95`) (the pairs are the independent units, and only a whole pair cancels
  the luck of the cards);
* the game-winning events (four kings or queens, a vole), counted apart for each player;
* deals won, lost and drawn (a game won outright is a deal won), with a Wilson 95% interval
  for the share won;
* each player's thinking time, in CPU seconds per deal (to compare players at equal time).

>>> s = duplicate_summary([[10, -4], [0, 6]])
>>> s["deals"], s["mean_margin"], s["won"], s["lost"], s["drawn"]
(4, 3.0, 2, 1, 1)
>>> s = duplicate_summary([[10000, -30], [12, 8]])   # a game won by the first player
>>> s["mean_margin"], s["deals_with_events"], s["pairs_without_events"], s["game_wins_first"]
(10.0, 1, 1, 1)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solver.analysis.executors import as_executor
from solver.errors import ArgumentError
from solver.formats.records import MatchRecord
from solver.model.moves import Move
from solver.model.position import Position
from solver.model.ranges import MAX_DEALS, MAX_SEED, MAX_WORKERS, seed_in_range, whole_argument
from solver.model.rules import Rules
from solver.model.value import Value
from solver.play.dealing import deal, play_deal
from solver.play.players import Player, make_player

if TYPE_CHECKING:
    from solver.analysis.pool import InOrder

Z95 = 1.959963984540054

# Student's t quantile t(0.975, df) for df = 1..30 (the base stack has numpy, not scipy)
_T975 = (
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
)


def t95(df: int) -> float:
    """Student's t quantile for a two-sided 95% interval with ``df`` degrees of freedom:
    a table to 30, then the Cornish-Fisher expansion around the normal quantile (its error
    is below 1e-5 beyond 30); ``Z95`` as df grows without bound.

    >>> round(t95(2), 4), round(t95(30), 4), round(t95(60), 4), round(t95(1000), 4)
    (4.3027, 2.0423, 2.0003, 1.9623)
    """
    if df < 1:
        raise ArgumentError(f"df={df}: a t interval needs at least 1 degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z, n = Z95, float(df)
    return (
        z
        + (z**3 + z) / (4 * n)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * n**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * n**3)
    )


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def duplicate_summary(pairs: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Statistics of a duplicate match from each pair's two deal values, for the first player
    (``Value`` objects, or the answers' numbers, where +-10000 is a game won or lost)."""
    values = [[m if isinstance(m, Value) else Value.from_number(int(m), 0) for m in pair] for pair in pairs]
    margins = [int(v) for pair in values for v in pair]
    n_deals = len(margins)
    plain = [int(v) for pair in values for v in pair if not v.is_game_win]
    pair_means = [
        sum(int(v) for v in pair) / len(pair) for pair in values if not any(v.is_game_win for v in pair)
    ]
    mean = sum(pair_means) / len(pair_means) if pair_means else None
    if len(pair_means) >= 2:
        pm = sum(pair_means) / len(pair_means)
        sd = math.sqrt(sum((x - pm) ** 2 for x in pair_means) / (len(pair_means) - 1))
        # Student's t, not 1.96: with few pairs the standard deviation is itself uncertain
        half = t95(len(pair_means) - 1) * sd / math.sqrt(len(pair_means))
    else:
        half = float("inf")
    # the interval is about the mean of the pairs without an event
    won = sum(1 for m in margins if m > 0)
    lost = sum(1 for m in margins if m < 0)
    lo, hi = wilson(won, n_deals)
    # fewer than two pairs without an event: no interval
    ci = [mean - half, mean + half] if math.isfinite(half) and mean is not None else [None, None]
    return {
        "deals": n_deals,
        "pairs": len(pairs),
        "mean_margin": mean,
        "ci95": ci,
        "deals_with_events": n_deals - len(plain),
        "pairs_without_events": len(pair_means),
        "game_wins_first": sum(v.won for pair in values for v in pair),
        "game_wins_second": sum(v.lost for pair in values for v in pair),
        "won": won,
        "lost": lost,
        "drawn": n_deals - won - lost,
        "won_share_ci95": [lo, hi],
    }


DEAL_SEED_STEP = 100003  # a match's deal seeds: seed * DEAL_SEED_STEP + pair (deal_seed)


def deal_seed(seed: int, pair: int) -> int:
    """The seed of deal pair ``pair`` of a match of seed ``seed``: ``seed * DEAL_SEED_STEP +
    pair`` modulo ``MAX_SEED + 1`` (2**63), so that every match seed gives seeds that
    :func:`deal` takes; the seeds matches always had wherever the sum is in range (every
    match seed up to about 9.2e13).

    >>> deal_seed(5, 2), deal_seed(MAX_SEED, 0) <= MAX_SEED
    (500017, True)
    """
    return seed_in_range(seed * DEAL_SEED_STEP + pair)


_PairTask = tuple[str, str, str, int, int]
"""(first spec, second spec, rules, deal seed, pair index)"""


def _play_pair(task: _PairTask) -> list[tuple[MatchRecord, list[float]]]:
    """Worker: one deal played twice, seats swapped; returns the two records as dicts, each
    with the CPU seconds its players at a and b spent choosing (kept apart: the records of
    a seed are the same at every run, the times are not)."""
    spec_a, spec_b, rules_text, seed, pair_index = task
    return play_pair_from(deal(seed, Rules.parse(rules_text)), spec_a, spec_b, seed, pair_index)


def play_pair_from(
    start: Position, spec_a: str, spec_b: str, seed: int, pair_index: int
) -> list[tuple[MatchRecord, list[float]]]:
    """``start`` played to its end twice, seats swapped, by the players ``spec_a`` (the
    match's first) and ``spec_b``, seeded by the deal's ``seed``: the two records, each with
    the CPU seconds its players at a and b spent choosing.  A match plays its deals from
    their start; the lab's late-deal matches (benchmarks/bench_late_match.py) from later."""
    out: list[tuple[MatchRecord, list[float]]] = []
    for swap in (False, True):
        first = _Timed(make_player(spec_a, seed=seed * 2 + 1))
        second = _Timed(make_player(spec_b, seed=seed * 2 + 2))
        seats = [second, first] if swap else [first, second]
        record = play_deal(start, seats)
        final = record.final()
        seat_of_first = 1 if swap else 0
        rec: MatchRecord = {
            "pair": pair_index,
            "deal_seed": seed,
            "first_at": "ab"[seat_of_first],
            "players": [spec_b, spec_a] if swap else [spec_a, spec_b],
            "start": record.start,
            "moves": record.moves,
            "score": list(final.score),
            "tricks": list(final.tricks),
            "win": None if final.win < 0 else "ab"[final.win],
            "margin_first": final.value(seat_of_first),
        }
        out.append((rec, [seats[0].seconds, seats[1].seconds]))
    return out


def _play_pairs(tasks: list[_PairTask]) -> list[list[tuple[MatchRecord, list[float]]]]:
    """Worker: several deal pairs (one task, so that a task's overhead, a cluster's
    milliseconds, is spread over them)."""
    return [_play_pair(t) for t in tasks]


def pairs_per_task(deals: int) -> int:
    """How many deal pairs a task plays: one for short matches, up to 64 for long ones
    (at least 32 tasks, so that every worker keeps busy to the end; on a two-worker Dask
    cluster, 16 pairs a task cost 19% more time than two local processes, BENCHMARKS.md).

    >>> pairs_per_task(20), pairs_per_task(2000)
    (1, 62)
    """
    return max(1, min(64, deals // 32))


class _Timed:
    """A player whose thinking time (CPU seconds of this process) is added up: matches at
    equal time compare players by it."""

    def __init__(self, player: Player):
        self.player = player
        self.name = player.name
        self.seconds = 0.0

    def choose(self, position: Position) -> Move:
        t = time.process_time()
        try:
            return self.player.choose(position)
        finally:
            self.seconds += time.process_time() - t


@dataclass(kw_only=True)
class MatchResult:
    """A duplicate match: its summary (:func:`duplicate_summary` and the match's settings) and
    every deal's record, two per pair."""

    summary: dict[str, Any]
    records: list[MatchRecord]
    # each player's thinking time, CPU seconds per deal (apart: it differs from run to run)
    timing: dict[str, float] = field(default_factory=dict)
    interrupted: bool = False  # Ctrl-C: the deal pairs played before it


class _Tally:
    """The pairs of a match played so far: their records, each player's thinking time,
    and the hooks told of each pair as it ends."""

    def __init__(
        self,
        deals: int,
        on_pair: Callable[[list[MatchRecord]], object] | None,
        progress: Callable[[int, int], object] | None,
    ):
        self.deals, self.on_pair, self.progress = deals, on_pair, progress
        self.records: list[MatchRecord] = []
        self.spent = [0.0, 0.0]  # thinking time of the first and the second player
        self.done = 0

    def take(self, pair: list[tuple[MatchRecord, list[float]]]) -> None:
        for rec, seconds in pair:
            self.records.append(rec)
            first = "ab".index(rec["first_at"])
            self.spent[0] += seconds[first]
            self.spent[1] += seconds[1 - first]
        self.done += 1
        if self.on_pair is not None:
            self.on_pair([rec for rec, _ in pair])
        if self.progress is not None:
            self.progress(self.done, self.deals)


def run_match(
    spec_a: str,
    spec_b: str,
    deals: int,
    seed: int = 0,
    rules: Rules | str = "brisque",
    workers: int = 1,
    executor: Executor | Any = None,
    progress: Callable[[int, int], object] | None = None,
    on_pair: Callable[[list[MatchRecord]], object] | None = None,
    first_pair: int = 0,
) -> MatchResult:
    """Play ``deals`` duplicate pairs; the same seed gives the same records.

    ``on_pair`` gets each pair's two records as it finishes (to write them at once).  Ctrl-C
    returns the pairs played so far, ``interrupted`` set.  The pairs are played here, by
    ``workers`` processes, or by an ``executor`` (any ``concurrent.futures`` executor, or a
    ``dask.distributed`` client: docs/cluster.md), the records the same and in order.
    ``first_pair`` starts at that pair of the seed's sequence (each pair's deal depends only
    on the seed and its number): a match cut short goes on where it stopped.

    >>> m = run_match("greedy", "random", 2, seed=1)
    >>> m.summary["pairs"], len(m.records)
    (2, 4)
    """
    deals = whole_argument(deals, "deals", 1, MAX_DEALS, "duplicate pairs")
    workers = whole_argument(workers, "workers", 1, MAX_WORKERS, "worker processes")
    seed = whole_argument(seed, "seed", 0, MAX_SEED)  # (the range of the CLI and .bpd)
    make_player(spec_a)  # validate the specs before any work
    make_player(spec_b)
    r = Rules.parse(rules) if isinstance(rules, str) else rules
    executor = as_executor(executor)  # (a dask.distributed client too)
    first_pair = whole_argument(first_pair, "first_pair", 0, MAX_DEALS, "duplicate pairs")
    tasks: list[_PairTask] = [
        (spec_a, spec_b, str(r), deal_seed(seed, i), i) for i in range(first_pair, first_pair + deals)
    ]
    tally = _Tally(deals, on_pair, progress)
    interrupted = _play_tasks(tasks, tally, executor, workers)
    records, spent = tally.records, tally.spent
    pairs = [[rec["margin_first"] for rec in records[i : i + 2]] for i in range(0, len(records), 2)]
    summary = duplicate_summary(pairs)
    n = max(len(records), 1)
    timing = {"seconds_per_deal_first": spent[0] / n, "seconds_per_deal_second": spent[1] / n}
    summary.update(
        first=spec_a,
        second=spec_b,
        rules=str(r),
        seed=seed,
    )
    return MatchResult(summary=summary, records=records, timing=timing, interrupted=interrupted)


def _play_tasks(tasks: list[_PairTask], tally: _Tally, executor: Executor | None, workers: int) -> bool:
    """Play the pairs of ``tasks`` into ``tally``: here, by a pool of ``workers`` processes
    of our own, or by ``executor``, in order.  True when Ctrl-C stopped the match after at
    least one pair (the pairs played stand); Ctrl-C before any pair is raised."""
    own = None
    if executor is None and workers > 1:
        from solver.processes import worker_pool  # (its import costs 20 ms: only when used)

        own = executor = worker_pool(workers)
    interrupted = False
    in_order: InOrder[list[list[tuple[MatchRecord, list[float]]]]] | None = None
    try:
        if executor is None:
            for pair in map(_play_pair, tasks):
                tally.take(pair)
        else:
            # a passed executor (a cluster) gets pairs in chunks; our own pool one pair a
            # task, so that Ctrl-C keeps every pair played
            size = pairs_per_task(len(tasks)) if own is None else 1
            chunks = [tasks[k : k + size] for k in range(0, len(tasks), size)]
            from solver.analysis.pool import InOrder  # (its import costs 20 ms: only when used)

            in_order = InOrder(executor, _play_pairs, chunks)
            for part in in_order:
                for pair in part:
                    tally.take(pair)
    except KeyboardInterrupt:
        if in_order is not None and executor is not None:
            # at once: the workers ignore Ctrl-C, and the orderly shutdown of ``finally``
            # would wait for every pair queued; the pairs finished meanwhile count too
            in_order.stop(executor, own=own is not None)
            own = None
            try:
                for part in in_order.finished():
                    for pair in part:
                        tally.take(pair)
            except KeyboardInterrupt:  # (a second Ctrl-C: what is taken stands)
                pass
        if not tally.records:
            raise
        interrupted = True  # the deal pairs played so far
    except Exception:
        # an error (a records file that cannot be written, in ``on_pair``): the pairs queued
        # are not wanted, and the orderly shutdown of ``finally`` would wait for all of them
        if in_order is not None and executor is not None:
            in_order.stop(executor, own=own is not None)
            own = None
        raise
    finally:
        if own is not None:
            own.shutdown()
    return interrupted


__all__ = ["DEAL_SEED_STEP", "MatchResult", "deal_seed", "duplicate_summary", "run_match", "t95", "wilson"]
