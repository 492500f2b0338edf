"""The quick search: what each sampled world, the clairvoyant player and line analysis get.

Exact while that is affordable (at most ``EXACT_TALON_TRICKS`` talon tricks left: 100 worlds
in about a second on the machine of BENCHMARKS.md), and earlier a search of
``DEFAULT_DEPTH`` tricks to the learned horizon evaluation of docs/solver.md, with the
final phase exact and a guard that proves forced game wins and losses
(benchmarks/bench_world_search.py measures it against the exact solve).  ``solve(p, quick=True)``
and ``brisque solve --quick`` run exactly this search, so that it can be measured against the
exact solve.

>>> from solver.model.position import Position
>>> quick_limit(Position("brisque AK.T9.J.8/.K8.J9.KJ 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"))
Limit(nodes=None, seconds=None, depth=4, guard=True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from solver.engine.results import Limit
from solver.engine.seam import DEFAULT_HORIZON, HORIZONS
from solver.errors import ArgumentError, ArgumentTypeError
from solver.model.limits import MAX_DEPTH, short, short_value
from solver.model.position import Position

EXACT_TALON_TRICKS = 4  # worlds with at most this many talon tricks left are solved exactly
DEFAULT_DEPTH = 4  # tricks of look-ahead before that, to the learned horizon evaluation


def talon_tricks_left(p: Position) -> int:
    """Tricks still to be played with a draw after them (0 once the turnup is taken)."""
    if not p.rules.draws or p.turnup < 0:
        return 0
    return (p.talon_count + 1) // 2


def quick_limit(p: Position, depth: int | None = None) -> Limit | None:
    """The quick search of ``p``: ``None`` (exact) late in the deal, else a depth limit
    (``depth`` tricks, when given, whatever the talon)."""
    if depth is None and talon_tricks_left(p) <= EXACT_TALON_TRICKS:
        return None
    return Limit(depth=depth or DEFAULT_DEPTH)


def quick_description(limit: Limit | None) -> str:
    """The answers' ``world_search``: ``"exact"`` or ``"depth N"``."""
    return "exact" if limit is None else f"depth {limit.depth}"


@dataclass(frozen=True)
class WorldSearch:
    """Which search each sampled world gets, by a short spec (for comparing them):

    * ``quick``: the default above (exact late, ``DEFAULT_DEPTH`` tricks before to the
      default horizon evaluation, ``solver.engine.seam.DEFAULT_HORIZON``);
    * ``exact``: every world solved exactly, however early (slow);
    * ``depth:N``: N tricks to the default evaluation, exact only where the search ends;
    * ``learned`` and ``learned:N``: ``quick`` and ``depth:N`` with the learned network at
      the horizon (the linear weights where no network is shipped for the game);
    * ``linear`` and ``linear:N``: the same with the fitted linear evaluation;
    * ``handmade:N``: N tricks to the hand-made heuristic without the game-win guard (the
      world search before the fitted evaluation: ``handmade:3`` was the default).

    >>> WorldSearch.parse("handmade:3"), str(WorldSearch.parse("quick"))
    (WorldSearch(kind='handmade', depth=3), 'quick')
    """

    kind: str = "quick"
    depth: int | None = None

    @classmethod
    def parse(cls, text: WorldSearch | str) -> WorldSearch:
        """A spec (``"depth:3"``), or a WorldSearch as it is; anything else is an
        ArgumentTypeError that quotes it."""
        if isinstance(text, WorldSearch):
            return text
        if not isinstance(text, str):
            raise ArgumentTypeError(
                f"world_search={short_value(text)}: expected a WorldSearch or a spec string: "
                f"quick, exact, depth:N or handmade:N, not {type(text).__name__}"
            )
        kind, sep, arg = text.strip().lower().partition(":")
        if kind in ("quick", "exact", "learned", "linear") and not sep:
            return cls(kind)
        if (
            kind in ("depth", "handmade", "learned", "linear")
            and re.fullmatch("[0-9]{1,2}", arg)
            and 1 <= int(arg) <= MAX_DEPTH
        ):
            return cls(kind, int(arg))
        raise ArgumentError(
            f"world search {short(text)}: expected quick, exact, depth:N, learned, learned:N, linear, "
            f"linear:N or handmade:N (N from 1 to {MAX_DEPTH} tricks)"
        )

    def __str__(self) -> str:
        return self.kind if self.depth is None else f"{self.kind}:{self.depth}"

    @property
    def horizon(self) -> str:
        """The evaluation its horizon is scored with (solver.engine.seam.HORIZONS)."""
        return self.kind if self.kind in HORIZONS else DEFAULT_HORIZON

    def limit(self, p: Position) -> Limit | None:
        """The limit of this search on ``p``."""
        if self.kind == "exact":
            return None
        if self.kind == "quick" or (self.kind in ("learned", "linear") and self.depth is None):
            return quick_limit(p)
        return Limit(depth=self.depth, guard=self.kind != "handmade")

    def describe(self, limit: Limit | None) -> str:
        """The answers' ``world_search`` for a search run with ``limit``."""
        text = quick_description(limit)
        if limit is None or self.horizon == DEFAULT_HORIZON:
            return text
        return text + {"handmade": " hand-made", "linear": " linear", "learned": " learned"}[self.horizon]


__all__ = [
    "DEFAULT_DEPTH",
    "EXACT_TALON_TRICKS",
    "WorldSearch",
    "quick_description",
    "quick_limit",
    "talon_tricks_left",
]
