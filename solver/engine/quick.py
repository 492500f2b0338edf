"""The quick search: what each sampled world, the clairvoyant player and line analysis get.

It depends on the game.  In Briscan, with two talon tricks left, each world's draws are
chance events: the exact expectimax (``CHANCE_GAMES``).  Where a learned horizon network is
shipped (Brisque and Briscan, scored by margin), a search of ``LEARNED_DEPTH`` tricks to the
network, the whole deal long: it was proven the stronger player at equal thinking time (BENCHMARKS.md, duplicate
matches at equal thinking time).  Elsewhere (Petite Brisque, other objectives), exact while
that is affordable (at most ``EXACT_TALON_TRICKS`` talon tricks left: 100 worlds in about a
second on the machine of BENCHMARKS.md), and earlier a search of ``DEFAULT_DEPTH`` tricks
to the fitted linear evaluation.  Both keep the final phase exact and a guard that proves
forced game wins and losses (benchmarks/bench_world_search.py measures them against the
exact solve).  ``solve(p, quick=True)`` and ``brisque solve --quick`` run exactly this
search, so that it can be measured against the exact solve.

>>> from solver.model.position import Position
>>> quick_limit(Position("brisque AK.T9.J.8/.K8.J9.KJ 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"))
Limit(nodes=None, seconds=None, depth=3, guard=True)
>>> exact_late_limit(Position("brisque AK.T9.J.8/.K8.J9.KJ 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"))
Limit(nodes=None, seconds=None, depth=4, guard=True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (which evaluation a search uses is the evaluation's own choice: has_network, quick_horizon)
from solver.engine.evaluation import DEFAULT_HORIZON, HORIZONS, has_network, quick_horizon
from solver.engine.results import Limit
from solver.errors import ArgumentError, ArgumentTypeError
from solver.model.position import Position
from solver.model.ranges import MAX_DEPTH, short, short_value
from solver.model.rules import Rules

# without a network: worlds with at most this many talon tricks left are solved exactly
EXACT_TALON_TRICKS = 4
DEFAULT_DEPTH = 4  # tricks of look-ahead before that, to the fitted linear evaluation
LEARNED_DEPTH = 3  # with a network: tricks of look-ahead to it, the whole deal
# world search "chance": worlds with at most this many talon tricks left get the exact
# expectimax (a few ms a world at two; about a second at three: BENCHMARKS.md)
CHANCE_TALON_TRICKS = 2
# the games where the quick search is that expectimax late in the deal: duplicate matches at
# equal time proved it there (Briscan, 0.1 s: +0.97 [+0.26, +1.69] a deal over 2,000 pairs);
# in Brisque they did not (+0.20 [-0.14, +0.54] at 0.1 s, +0.06 [-0.65, +0.76] at 1 s): it
# sees a sixth of the worlds at equal time (BENCHMARKS.md, "The chance world search in matches")
CHANCE_GAMES = ("briscan",)
MAX_CHANCE_TALON_TRICKS = 8  # the engine's exact expectimax takes at most 15 face-down cards


def talon_tricks_left(p: Position) -> int:
    """Tricks still to be played with a draw after them (0 once the turnup is taken)."""
    if not p.rules.draws or p.turnup < 0:
        return 0
    return (p.talon_count + 1) // 2


def quick_limit(p: Position) -> Limit | None:
    """The quick search of ``p``: the expectimax late in the deal where the matches proved
    it (:func:`chance_limit`); else ``LEARNED_DEPTH`` tricks where the game has a network,
    else :func:`exact_late_limit`."""
    if p.rules.game in CHANCE_GAMES:
        chance = chance_limit(p, CHANCE_TALON_TRICKS)
        if chance is not None:
            return chance
    if has_network(p.rules):
        # (the whole deal: with at most three talon tricks left the search reaches the
        # final phase and its values are exact; an exact solve there gives the same values
        # with a third fewer nodes, docs/experiments/learned-horizon.md, but would spend a
        # budget of thinking otherwise than the player proven by the matches)
        return Limit(depth=LEARNED_DEPTH)
    return exact_late_limit(p)


def chance_limit(p: Position, most: int) -> Limit | None:
    """``Limit(chance=True)`` (each world's draws by chance, the exact expectimax) where a
    draw with a choice of cards is still to come and at most ``most`` talon tricks are
    left (and the engine's expectimax takes the cards face down), else None.

    >>> from solver.play.dealing import positions_with_talon_left
    >>> chance_limit(positions_with_talon_left(2, 1, "briscan")[0], 2)
    Limit(nodes=None, seconds=None, depth=None, guard=True)
    >>> chance_limit(positions_with_talon_left(3, 1, "briscan")[0], 2) is None
    True
    """
    if 2 <= talon_tricks_left(p) <= min(most, MAX_CHANCE_TALON_TRICKS) and p.talon_count >= 2:
        return Limit(chance=True)
    return None


def exact_late_limit(p: Position) -> Limit | None:
    """``None`` (exact) late in the deal, else ``DEFAULT_DEPTH`` tricks: the quick search
    of a game without a network, and of ``learned`` and ``linear`` in any game."""
    if talon_tricks_left(p) <= EXACT_TALON_TRICKS:
        return None
    return Limit(depth=DEFAULT_DEPTH)


def quick_summary(rules: Rules) -> str:
    """The quick search of ``rules`` in words (for messages and help).

    >>> quick_summary(Rules.parse("briscan"))
    'three tricks deep to the learned evaluation'
    """
    if has_network(rules):
        return f"{_WORDS[LEARNED_DEPTH]} tricks deep to the learned evaluation"
    return (
        f"{_WORDS[DEFAULT_DEPTH]} tricks deep to the linear evaluation, or exactly in the last talon tricks"
    )


_WORDS = {3: "three", 4: "four"}  # (the depths above, in words)


def reaches_final_phase(p: Position, limit: Limit | None) -> bool:
    """Whether a search of ``p`` within ``limit`` is exact anyway: no limit, or a depth of
    at least the talon tricks left (the horizon then falls in the final phase, which the
    engine solves exactly; tests/engine/test_quick_search.py checks it), and no budget.

    >>> from solver.play import random_position
    >>> p = random_position(0, "brisque", 9)
    >>> talon_tricks_left(p), reaches_final_phase(p, Limit(depth=2)), reaches_final_phase(p, Limit(depth=1))
    (2, True, False)
    """
    if limit is None:
        return True
    if limit.nodes is not None or limit.seconds is not None or limit.depth is None:
        return False
    return talon_tricks_left(p) <= limit.depth


def quick_description(limit: Limit | None) -> str:
    """The answers' ``world_search``: ``"exact"`` or ``"depth N"``."""
    return "exact" if limit is None else f"depth {limit.depth}"


@dataclass(frozen=True)
class WorldSearch:
    """Which search each sampled world gets, by a short spec (for comparing them):

    * ``quick``: the default above, which depends on the game (:func:`quick_limit`, to
      :func:`quick_horizon`);
    * ``exact``: every world solved exactly, however early (slow);
    * ``depth:N``: N tricks to the default evaluation of solves (the fitted linear one),
      exact only where the search ends;
    * ``learned`` and ``learned:N``: exact late and ``DEFAULT_DEPTH`` tricks before
      (:func:`exact_late_limit`), or N tricks, with the learned network at the horizon (the
      linear weights where no network is shipped for the game);
    * ``linear`` and ``linear:N``: the same with the fitted linear evaluation (``linear``
      was the quick search of every game before the network);
    * ``handmade:N``: N tricks to the hand-made heuristic without the game-win guard (the
      world search before the fitted evaluation: ``handmade:3`` was the default);
    * ``chance`` and ``chance:N``: with at most N talon tricks left (default
      ``CHANCE_TALON_TRICKS``) each world's draws are chance events, its moves valued by the
      exact expectimax (solver.analysis.chance_worlds); earlier, the quick search.

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
        if kind in ("quick", "exact", "learned", "linear", "chance") and not sep:
            return cls(kind)
        if (
            kind in ("depth", "handmade", "learned", "linear", "chance")
            and re.fullmatch("[0-9]{1,2}", arg)
            and 1 <= int(arg) <= MAX_DEPTH
        ):
            return cls(kind, int(arg))
        raise ArgumentError(
            f"world search {short(text)}: expected quick, exact, depth:N, learned, learned:N, linear, "
            f"linear:N, handmade:N, chance or chance:N (N from 1 to {MAX_DEPTH} tricks)"
        )

    def __str__(self) -> str:
        return self.kind if self.depth is None else f"{self.kind}:{self.depth}"

    def horizon(self, rules: Rules) -> str:
        """The evaluation its horizon is scored with under ``rules`` (one of
        solver.engine.evaluation.HORIZONS).

        >>> WorldSearch().horizon(Rules.parse("brisque")), WorldSearch().horizon(Rules.parse("petite(draw=yes)"))
        ('learned', 'linear')
        """
        if self.kind in ("quick", "chance"):
            return quick_horizon(rules)
        return self.kind if self.kind in HORIZONS else DEFAULT_HORIZON

    def limit(self, p: Position) -> Limit | None:
        """The limit of this search on ``p``."""
        if self.kind == "exact":
            return None
        if self.kind == "chance":
            most = CHANCE_TALON_TRICKS if self.depth is None else self.depth
            return chance_limit(p, most) or quick_limit(p)
        if self.kind == "quick":
            return quick_limit(p)
        if self.kind in ("learned", "linear") and self.depth is None:
            return exact_late_limit(p)
        return Limit(depth=self.depth, guard=self.kind != "handmade")

    def describe(self, limit: Limit | None, p: Position) -> str:
        """The answers' ``world_search`` for a search of ``p``'s worlds run with ``limit``:
        ``"exact"`` where the search is exact anyway (:func:`reaches_final_phase`: the worlds'
        values are then proven, and line analysis judges mistakes on them); else the depth,
        with the horizon named unless it is the default of solves (``DEFAULT_HORIZON``)."""
        if limit is not None and limit.chance:
            return "expectimax"
        if reaches_final_phase(p, limit):
            return "exact"
        text = quick_description(limit)
        horizon = self.horizon(p.rules)
        if horizon == DEFAULT_HORIZON:
            return text
        return text + {"handmade": " hand-made", "linear": " linear", "learned": " learned"}[horizon]


__all__ = [
    "CHANCE_GAMES",
    "CHANCE_TALON_TRICKS",
    "chance_limit",
    "DEFAULT_DEPTH",
    "EXACT_TALON_TRICKS",
    "LEARNED_DEPTH",
    "WorldSearch",
    "exact_late_limit",
    "has_network",
    "quick_description",
    "quick_horizon",
    "quick_limit",
    "quick_summary",
    "reaches_final_phase",
    "talon_tricks_left",
]
