"""Every player: random, greedy, PIMC with N worlds, a human-like one, and the clairvoyant
player.

A player spec is a short string: ``random``, ``greedy``, ``humanlike:N:BETA`` (PIMC over N
worlds, then a weighted-random choice among the near-best moves), ``pimc`` (100 worlds) or
``pimc:N``, or ``pimc:0.5s`` (half a second of thinking a decision, counted in work so that
the same seed plays the same moves: solver.analysis.thinking), ``clairvoyant``; PIMC and the
clairvoyant player take ``@SEARCH``, the search each world gets (``pimc:100@handmade:3``),
and PIMC takes ``+infer``: its worlds weighed by the opponent's play so far
(solver.analysis.inference; ``pimc:0.5s@learned:3+infer``).

>>> make_player("pimc:20").name, make_player("pimc:250ms@learned:3").name
('pimc:20', 'pimc:0.25s@learned:3')
"""

from __future__ import annotations

import math
import random
import zlib
from typing import Protocol

from solver.analysis.analyse_options import DEFAULT_WORLDS, AnalyseOptions
from solver.analysis.inference import History
from solver.analysis.thinking import Think
from solver.engine.quick import WorldSearch
from solver.engine.solving import shared_solver
from solver.errors import ArgumentError
from solver.model.bits import points_of, trick_winner
from solver.model.cards import rank_of, suit_of
from solver.model.moves import EXCHANGE, PASS, Move
from solver.model.position import Position
from solver.model.ranges import MAX_WORLDS, short, whole_number


class Player(Protocol):
    """What a match needs of a player: a name, and a move for any position it is to play."""

    name: str

    def choose(self, position: Position) -> Move: ...


class RandomPlayer:
    """Plays a uniformly random legal move (seeded)."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        self.name = "random"

    def choose(self, position: Position) -> Move:
        return self.rng.choice(position.legal_moves())


class GreedyPlayer:
    """A simple heuristic: declare whatever scores, exchange the 7, win valuable tricks cheaply,
    otherwise throw the cheapest card."""

    name = "greedy"

    def choose(self, position: Position) -> Move:
        moves = position.legal_moves()
        decls = [m for m in moves if m.is_declaration]
        if decls:

            def points(m: Move) -> int:
                meld = m.meld
                return 0 if meld is None else meld.points(position.trump, position.rules.game)

            return max(decls, key=lambda m: (points(m), -int(m)))
        if EXCHANGE in moves:
            return EXCHANGE
        if PASS in moves:
            return PASS
        cards = [m for m in moves if m.is_card]
        trump = position.trump

        def cost(c: int) -> tuple[bool, int, int]:
            # a trump costs more than any plain card; then by points and rank
            return (suit_of(c) == trump, points_of(1 << c), rank_of(c))

        if position.trick < 0:
            return min(cards, key=cost)
        led = position.trick
        winners = [c for c in cards if trick_winner(led, c, trump) == 1]
        at_stake = points_of(1 << led)
        if winners and (at_stake >= 10 or any(suit_of(c) == suit_of(led) for c in winners)):
            return min(winners, key=cost)
        return min(cards, key=cost)


def _decision_seed(position: Position, salt: int) -> int:
    """A seed fixed by the position and the player's seed: same game, same decisions."""
    return zlib.crc32(position.bpn().encode()) ^ (salt * 0x9E3779B1 & 0xFFFFFFFF)


class PimcPlayer:
    """Samples worlds consistent with what it sees and plays the best mean move: ``worlds``
    of them, or as many as ``think`` seconds of work allow (then ``worlds`` is None)."""

    def __init__(
        self,
        worlds: int | None = DEFAULT_WORLDS,
        seed: int = 0,
        search: WorldSearch | None = None,
        think: Think | None = None,
        inference: bool = False,
    ):
        if (worlds is None) == (think is None):
            raise ArgumentError(
                "PimcPlayer: give either a number of worlds or a budget of thinking (one of them)"
            )
        self.worlds = worlds
        self.think = think
        self.seed = seed
        self.search = search or WorldSearch()
        self.inference = inference
        self.name = (
            f"pimc:{worlds if think is None else think}"
            + _search_suffix(self.search)
            + ("+infer" if inference else "")
        )

    def choose(self, position: Position) -> Move:
        from solver.analysis.sampling import analyse

        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        view = position.view(position.turn)
        # (the play so far as this player saw it: his views and the moves, no hidden card)
        history = History.of(position) if self.inference and position.move_stack else None
        options = AnalyseOptions(
            worlds=self.worlds,
            think=self.think,
            seed=_decision_seed(view, self.seed),
            world_search=self.search,
            history=history,
        )
        a = analyse(view, options)
        if getattr(a, "stopped", None) == "interrupted":
            # Ctrl-C ends a match, not this decision: the answer so far would be another
            # move than the seed's, and the match would go on
            raise KeyboardInterrupt
        return a.best[0]


class HumanlikePlayer:
    """Plays as a person might: values the moves over ``worlds`` sampled worlds (PIMC), then
    picks at random among the moves at most ``NEAR`` points worse than the best, a move
    ``d`` points worse with weight ``exp(-beta * d)``.  A low ``beta`` makes many small
    mistakes and few large ones; the choice is seeded by the position and the player's
    seed, so the same game gives the same choices.

    >>> HumanlikePlayer(8, 0.15).name
    'humanlike:8:0.15'
    """

    NEAR = 25  # points: a move worse than this is not one a player would pick on purpose

    def __init__(self, worlds: int, beta: float, seed: int = 0):
        self.worlds, self.beta, self.seed = worlds, beta, seed
        self.name = f"humanlike:{worlds}:{beta:g}"

    def choose(self, position: Position) -> Move:
        from solver.analysis.sampling import analyse

        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        view = position.view(position.turn)
        seed = _decision_seed(view, self.seed)
        a = analyse(view, AnalyseOptions(worlds=self.worlds, seed=seed))
        best = max(m.value for m in a.moves)
        near = [m for m in a.moves if best - m.value <= self.NEAR]
        weights = [math.exp(-self.beta * (best - m.value)) for m in near]
        return random.Random(seed ^ 0x4855).choices([m.move for m in near], weights)[0]


class ClairvoyantPlayer:
    """Sees every card (the opponent's hand and the talon order) and plays the double-dummy
    best move with the quick search of PIMC's worlds (:mod:`solver.engine.quick`)."""

    def __init__(self, search: WorldSearch | None = None):
        self.search = search or WorldSearch()
        self.name = "clairvoyant" + _search_suffix(self.search)

    def choose(self, position: Position) -> Move:
        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        solver = shared_solver(
            position.rules, horizon=self.search.horizon(position.rules)
        )  # (a table is costly to allocate)
        solver.engine.clear()  # (estimates depend on the table: the same choices every run)
        a = solver.solve(position, pv=False, limit=self.search.limit(position))
        # an unfinished answer's line starts with the best proven of its best estimates
        return a.pv[0] if a.method == "bounded" and a.pv else a.best[0]


def _search_suffix(search: WorldSearch) -> str:
    """``@SEARCH`` in a player's name, unless it is the default quick search (``@linear``
    names the quick search of Brisque and Briscan before the learned network)."""
    return "" if search.kind == "quick" else f"@{search}"


PLAYER_KINDS = (
    "random",
    "greedy",
    "humanlike:N:BETA",
    "pimc",
    "pimc:N",
    "pimc:SECONDSs",
    "clairvoyant",
    "pimc:N@SEARCH",
    "pimc...+infer",
    "clairvoyant@SEARCH",
)


def make_player(spec: str, seed: int = 0) -> Player:
    """A player from its spec; raises ArgumentError listing the valid ones.

    ``@SEARCH`` gives PIMC's worlds or the clairvoyant player another search
    (:class:`~solver.engine.quick.WorldSearch`): ``pimc:100@handmade:3`` is PIMC as it was
    before the fitted horizon evaluation.

    >>> make_player("pimc:50@handmade:3").name
    'pimc:50@handmade:3'
    """
    text = spec.strip().lower()
    inference = text.endswith("+infer")
    text = text.removesuffix("+infer")
    s, at, search_spec = text.partition("@")
    if inference and not s.startswith("pimc"):
        raise ArgumentError(f"player {short(spec)}: only pimc takes +infer")
    search = None
    if at:
        if s not in ("clairvoyant", "pimc") and not s.startswith("pimc:"):
            raise ArgumentError(f"player {short(spec)}: only pimc and clairvoyant take @SEARCH")
        try:
            search = WorldSearch.parse(search_spec)
        except ArgumentError as exc:
            raise ArgumentError(f"player {short(spec)}: {exc}") from None
    if s == "random":
        return RandomPlayer(seed)
    if s == "greedy":
        return GreedyPlayer()
    if s == "clairvoyant":
        return ClairvoyantPlayer(search)
    if s.startswith("humanlike:") and not at:
        return _humanlike(spec, s, seed)
    if s.startswith("pimc:") and s.endswith("s"):  # (pimc:0.5s, pimc:500ms: a budget of thinking)
        try:
            return PimcPlayer(None, seed, search, think=Think.parse(s[5:]), inference=inference)
        except ArgumentError as exc:
            raise ArgumentError(f"player {short(spec)}: {exc}") from None
    if s == "pimc" or s.startswith("pimc:"):
        try:
            worlds = DEFAULT_WORLDS if s == "pimc" else whole_number(s[5:], 1, MAX_WORLDS)
        except ValueError:
            raise ArgumentError(
                f"player {short(spec)}: expected pimc:N with N a number of worlds from 1 to {MAX_WORLDS}, "
                f"or pimc:0.5s (seconds of thinking a decision)"
            ) from None
        return PimcPlayer(worlds, seed, search, inference=inference)
    raise ArgumentError(f"unknown player {short(spec)}: expected one of {', '.join(PLAYER_KINDS)}")


def _humanlike(spec: str, s: str, seed: int) -> HumanlikePlayer:
    _, worlds_text, beta_text = (s.split(":") + ["", ""])[:3]
    try:
        worlds = whole_number(worlds_text, 1, MAX_WORLDS)
        beta = float(beta_text)
    except ValueError:
        worlds, beta = 0, -1.0
    if not worlds or not 0 <= beta <= 10 or s.count(":") != 2:
        raise ArgumentError(
            f"player {short(spec)}: expected humanlike:N:BETA, N worlds from 1 to {MAX_WORLDS} and BETA "
            f"from 0 (any near-best move alike) to 10 (nearly always the best), such as humanlike:8:0.15"
        )
    return HumanlikePlayer(worlds, beta, seed)


__all__ = [
    "ClairvoyantPlayer",
    "GreedyPlayer",
    "HumanlikePlayer",
    "PLAYER_KINDS",
    "PimcPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
]
