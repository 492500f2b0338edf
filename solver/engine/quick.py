"""The quick search: what each sampled world, the clairvoyant player and line analysis get.

Exact while that is affordable (at most ``EXACT_TALON_TRICKS`` talon tricks left: 100 worlds
in about a second on the machine of BENCHMARKS.md), and earlier a search of
``DEFAULT_DEPTH`` tricks to the horizon heuristic of docs/solver.md.  ``solve(p, quick=True)``
and ``brisque solve --quick`` run exactly this search, so that it can be measured against the
exact solve.

>>> from solver.model.position import Position
>>> quick_limit(Position("brisque AK.T9.J.8/.K8.J9.KJ 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"))
Limit(nodes=None, seconds=None, depth=3)
"""

from __future__ import annotations

from solver.engine.results import Limit
from solver.model.position import Position

EXACT_TALON_TRICKS = 4  # worlds with at most this many talon tricks left are solved exactly
DEFAULT_DEPTH = 3  # tricks of look-ahead before that


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


__all__ = ["DEFAULT_DEPTH", "EXACT_TALON_TRICKS", "quick_description", "quick_limit", "talon_tricks_left"]
