"""Paired duplicate matches: the deal pairs of a match's records (as ``brisque match
--records`` and :func:`solver.play.match.run_match` write them), a match's summary from its
records, and two matches on the same deals compared pair by pair.

Two matches played from the same seed deal the same pairs; when the first players differ,
the difference of their pair means, pair by pair, leaves the deals' luck out: its interval is
far tighter than the two matches' intervals side by side.

>>> rec = lambda pair, at, m: {"pair": pair, "first_at": at, "deal_seed": pair, "margin_first": m}
>>> a = [rec(0, "a", 10), rec(0, "b", 6), rec(1, "a", 0), rec(1, "b", 4)]
>>> b = [rec(0, "a", 4), rec(0, "b", 4), rec(1, "a", 2), rec(1, "b", -2)]
>>> r = paired(a, b); r["pairs"], r["mean"]
(2, 3.0)
>>> mean_ci95([1.0, 2.0, 3.0])[0], mean_ci95([5.0])
(2.0, (5.0, [None, None]))
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from solver.analysis.ranking import RankingRule
from solver.model.position import Position
from solver.model.value import Value
from solver.play.match import duplicate_summary, t95

Record = dict[str, Any]
"""A deal record: ``pair``, ``first_at`` (the seat of the match's first player, ``"a"`` or
``"b"``), ``deal_seed``, ``start``, ``players``, ``margin_first`` and ``win``."""


def complete_pairs(records: list[Record]) -> dict[int, dict[str, Record]]:
    """The records by deal pair and by the seat of the match's first player, the pairs with
    both deals played only (an interrupted match may end on half a pair).

    >>> sorted(complete_pairs([{"pair": 0, "first_at": "a"}, {"pair": 0, "first_at": "b"}, {"pair": 1, "first_at": "a"}]))
    [0]
    """
    out: dict[int, dict[str, Record]] = {}
    for r in records:
        out.setdefault(r["pair"], {})[r["first_at"]] = r
    return {k: v for k, v in out.items() if len(v) == 2}


def deal_value(rec: Record) -> Value:
    """The deal's result for the first player of the match."""
    first = "ab".index(rec["first_at"])
    if rec.get("win") is not None:
        return Value.game_won("ab".index(rec["win"]), first)
    return Value.margin(rec["margin_first"], first)


def mean_ci95(xs: Sequence[float]) -> tuple[float, list[float | None]]:
    """The mean of ``xs`` and its 95% interval (Student's t; ``[None, None]`` with one value)."""
    mean = statistics.fmean(xs)
    if len(xs) < 2:
        return mean, [None, None]
    half = t95(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return mean, [mean - half, mean + half]


def combined(records: list[Record], win_worth: str = "match") -> dict[str, Any]:
    """The mean a deal over the complete pairs with a game won counted for what it is worth
    (the ranking rule ``win_worth``: ``match``, the points the winner still needed, the target
    from a new game), and its 95% interval over the pair means."""
    rank = RankingRule.parse(win_worth)
    means = [
        statistics.fmean(rank.number(deal_value(r), Position(r["start"])) for r in pair.values())
        for pair in complete_pairs(records).values()
    ]
    mean, ci = mean_ci95(means)
    return {"win_worth": win_worth, "mean": mean, "ci95": ci}


def summary(records: list[Record]) -> dict[str, Any]:
    """A match's summary from its records (:func:`solver.play.match.duplicate_summary` of
    the complete pairs), with its players, its game and the :func:`combined` figure."""
    pairs = complete_pairs(records)
    s = duplicate_summary([[int(deal_value(pair[at])) for at in "ab"] for _, pair in sorted(pairs.items())])
    first = 0 if records[0]["first_at"] == "a" else 1
    s["first"], s["second"] = records[0]["players"][first], records[0]["players"][1 - first]
    s["rules"] = Position(records[0]["start"]).rules.game
    s["combined"] = combined(records)
    return s


def paired(a: list[Record], b: list[Record]) -> dict[str, Any]:
    """Match ``a``'s first player against match ``b``'s, pair by pair over the same deals: the
    mean difference of their pair means over the complete pairs that neither match ended with
    a game-winning event, its 95% interval, and how many pairs.  A ValueError when a pair was
    dealt from two seeds (not the same deals) or fewer than two pairs are left."""
    pa, pb = complete_pairs(a), complete_pairs(b)
    diffs = []
    for k in sorted(set(pa) & set(pb)):
        if pa[k]["a"]["deal_seed"] != pb[k]["a"]["deal_seed"]:
            raise ValueError(
                f"pair {k} was dealt from seed {pa[k]['a']['deal_seed']} in one match and "
                f"{pb[k]['a']['deal_seed']} in the other: expected the same deals"
            )
        if any(m[k][at].get("win") is not None for m in (pa, pb) for at in "ab"):
            continue
        diffs.append(
            statistics.fmean(int(deal_value(pa[k][at])) for at in "ab")
            - statistics.fmean(int(deal_value(pb[k][at])) for at in "ab")
        )
    if len(diffs) < 2:
        raise ValueError(f"{len(diffs)} pairs without events in both matches; expected 2 or more")
    mean, ci = mean_ci95(diffs)
    return {"pairs": len(diffs), "mean": mean, "ci95": ci}
