"""Inference from the opponent's play: how likely his moves so far are in each world.

A sampled world says where the unseen cards lie *now*.  The opponent's earlier decisions
were made with the hand he held *then*: the cards he still holds, the cards he has played
since, less the cards he drew since.  :func:`world_history` rebuilds, for a world, one
history of the deal consistent with everything the viewer saw (which of the opponent's
cards he drew at which trick, chosen at random among those the play allows, from a seed);
:func:`log_likelihood` then replays the moves and scores each decision of the opponent that
had a choice with a model of his play: a softmax over the values that a short search gives
his legal moves in that world (declarations made or not, the exchange made or not, every
lead and discard), mixed with a small uniform share so that no move is ever impossible:

    P(move) = (1 - FLOOR) * exp(BETA * v(move)) / sum exp(BETA * v) + FLOOR / moves

The sum of the logarithms is the world's log-likelihood; the sampling analysis weighs each
world by its exponential (``analyse(history=...)``; docs/solver.md, "Inference").  BETA and
FLOOR were fitted for each game by ``benchmarks/training/fit_inference.py`` on self-play records, and
are shipped with the evaluation (``solver.engine.evaluation.inference_settings``).

>>> from solver.play.dealing import deal
>>> start = deal(3)
>>> h = History.from_play(start, ["8S", "KS"], "a")
>>> h.seat, len(h.moves), h.view.turn   # (b won the trick and leads)
(0, 2, 1)
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from solver.engine.evaluation import inference_settings
from solver.engine.results import current_margin
from solver.engine.solving import Solver, shared_solver
from solver.errors import ArgumentError
from solver.model.moves import EXCHANGE, Move, as_move
from solver.model.position import Position, seat
from solver.model.pure_bits import cards_of
from solver.model.rules import Rules
from solver.native.constants import WIN_THRESHOLD

DEPTH = 1  # tricks of the search that values his moves
VALUE_CAP = 100  # points: a game won counts this much in the model (not +-10000)
TABLE_BITS = 12  # a small table: the searches are one trick deep, and it is cleared for each


@dataclass(frozen=True)
class History:
    """The play of a deal as one player saw it: his view before each move and after the last
    (BPN), and the moves (which are public).  The full deal it was made from is not kept.

    >>> from solver.play.dealing import deal
    >>> h = History.from_play(deal(3), ["8S"], "b")
    >>> Position(h.views[0]).unknown
    [6, 0]
    """

    seat: int
    views: tuple[str, ...]
    moves: tuple[Move, ...]

    @classmethod
    def from_play(cls, start: Position | str, moves: Sequence[Move | str], player: int | str) -> History:
        """The history of ``moves`` played from the full position ``start``, as ``player``
        saw it (an illegal move is a clear error)."""
        p = Position(start) if isinstance(start, str) else start.copy()
        if p.has_hidden:
            raise ArgumentError(f"history: the start {p.bpn()!r} hides cards: give the whole deal")
        me = seat(player)
        views = [p.view(me).bpn()]
        played = []
        for m in moves:
            mv = as_move(m)
            p.push(mv)
            played.append(mv)
            views.append(p.view(me).bpn())
        return cls(me, tuple(views), tuple(played))

    @classmethod
    def of(cls, position: Position, player: int | str | None = None) -> History:
        """The history of ``position``'s move stack (as a match hands its players), seen by
        ``player`` (default: the player to move)."""
        start = position.copy(stack=True)
        moves = []
        while start.move_stack:
            moves.append(start.pop())
        return cls.from_play(start, moves[::-1], position.turn if player is None else player)

    @property
    def view(self) -> Position:
        """The player's view now, after the last move."""
        return Position(self.views[-1])

    @property
    def opponent_decisions(self) -> int:
        """How many moves the opponent made (each a decision the model scores where it had a
        choice)."""
        return sum(Position(v).turn != self.seat for v in self.views[:-1])


@dataclass(frozen=True)
class _Step:
    """What the viewer saw of one move, for rebuilding histories: the cards the opponent
    received face up (``gains``) and gave up (``losses``), the face-down draws in order
    (``None`` for the opponent's, else the viewer's card), and the cards he first used (played,
    showed in a declaration, exchanged)."""

    gains: int
    losses: int
    draws: tuple[int | None, ...]
    used: int


def _steps(h: History) -> list[_Step]:
    me, opp = h.seat, 1 - h.seat
    steps = []
    for i, m in enumerate(h.moves):
        before, after = Position(h.views[i]), Position(h.views[i + 1])
        mover = before.turn
        seven = before.seven_of_trumps
        gains = after.hands[opp] & ~before.hands[opp] & (before.visible() & ~before.hands[opp])
        losses = used = 0
        if mover == opp:
            if m.is_card:
                losses = used = 1 << int(m)
            elif m == EXCHANGE:
                losses = used = 1 << seven
            elif m.is_declaration:
                used = after.shown[opp] & ~before.shown[opp] & ~gains
        fresh = after.hands[me] & ~before.hands[me] & ~before.visible()
        if mover == opp and m == EXCHANGE:
            fresh &= ~(1 << seven)  # (given by the exchange in the last pickup window)
        face_down = before.talon_count - after.talon_count
        order = [after.turn, 1 - after.turn][:face_down]  # the winner draws first
        mine = [c for c in range(32) if fresh >> c & 1]
        if len(mine) != order.count(me):
            raise ArgumentError(f"history: the view after {m} does not follow from the one before")
        draws = tuple(mine[0] if who == me else None for who in order)
        steps.append(_Step(gains, losses, draws, used))
    return steps


@lru_cache(maxsize=4)
def _prepared(h: History) -> tuple[Position, list[_Step], list[int]]:
    """The history's first view, its steps, and for each step the cards the opponent had
    not used by then (a mask: those he may have drawn before it), once for all the worlds
    of an analysis."""
    first = Position(h.views[0])
    steps = _steps(h)
    # cards he held face up at the start, or received face up (the turnup, the 7 of an
    # exchange), were never drawn face down: as if used before the first draw
    public = first.hands[1 - h.seat]
    for s in steps:
        public |= s.gains
    first_use: dict[int, int] = {c: -1 for c in range(32) if public >> c & 1}
    # declaring before the draw, the card the winner just drew cannot be declared: a card
    # declared was in his hand before the draw of the trick that gave him the turn
    before_draw = first.rules.declare == "before_draw"
    last_card = -1  # the index of the last card played, whose trick's draws came before
    for i, (s, m) in enumerate(zip(steps, h.moves)):
        at = last_card if before_draw and m.is_declaration else i
        for c in range(32):
            if s.used >> c & 1 and c not in first_use:
                first_use[c] = at
        if m.is_card:
            last_card = i
    unused = [sum(1 << c for c in range(32) if first_use.get(c, len(steps)) > i) for i in range(len(steps))]
    return first, steps, unused


def world_history(h: History, world: Position, rng: random.Random) -> Position:
    """The full position at the history's start for one history of ``world`` (a full position
    consistent with the history's last view): the opponent's draws chosen at random among
    the cards the play allows, going back from now.  Replaying the moves from it gives
    ``world``.
    """
    opp = 1 - h.seat
    first, steps, unused = _prepared(h)
    held = world.hands[opp]  # (a mask of cards, going back in time)
    drawn: list[list[int | None]] = [list(s.draws) for s in steps]
    for i in range(len(steps) - 1, -1, -1):
        s = steps[i]
        for k in range(len(s.draws) - 1, -1, -1):
            if s.draws[k] is not None:
                continue
            # a card he used at this move or before was in his hand before this draw
            free = cards_of(held & unused[i])
            if not free:
                raise ArgumentError(
                    f"history: no card of {world.bpn()!r} fits the opponent's draw at move {i + 1}"
                )
            c = rng.choice(free)
            held &= ~(1 << c)
            drawn[i][k] = c
        held = (held & ~s.gains) | s.losses
    start = first.copy()
    start.hands[opp] = held
    start.unknown[opp] = 0
    if start.rules.draws and start.talon_count:
        start.talon = [c for d in drawn for c in d if c is not None] + list(world.talon or [])
    if start.problems():
        raise ArgumentError(f"history: the rebuilt start {start.bpn()!r} is impossible: {start.problems()}")
    return start


@dataclass(frozen=True)
class Model:
    """The opponent model's settings (module text): BETA, how sharply he prefers better
    moves (per point), and FLOOR, the share of his moves left to chance."""

    beta: float = 0.1
    floor: float = 0.05
    depth: int = DEPTH
    horizon: str = "linear"
    scope: str = "all"  # "all" decisions, or "melds": those where he could declare or exchange
    histories: int = 2  # histories drawn for each world, their likelihoods averaged
    temper: float = 0.5  # the weight of a world is its likelihood to this power


# fitted by benchmarks/training/fit_inference.py on self-play records (docs/solver.md, "Inference"),
# shipped with the evaluation (solver/engine/evaluation/data/inference.json)
MODELS: dict[str, Model] = {
    game: Model(beta=fitted["beta"], floor=fitted["floor"], temper=fitted["temper"])
    for game, fitted in inference_settings().items()
}


def model_for(game: str) -> Model:
    """The shipped model of ``game`` (Petite Brisque has none: :func:`infers`)."""
    return MODELS.get(game, Model())


def infers(rules: Rules) -> bool:
    """Whether the inference weighs worlds under ``rules``: the games with a fitted model.
    Petite Brisque has none: without a talon every world of a view is equally likely, and
    with one (``draw=yes``) the follower must follow suit while drawing, which the rebuilt
    histories do not follow."""
    return rules.game in MODELS


def log_likelihood(
    h: History, world: Position, seed: int, model: Model | None = None
) -> tuple[float, int, int]:
    """(log-likelihood of the opponent's moves, nodes, network evaluations) in ``world``, over
    one history of it drawn from ``seed`` and the world (the same world and seed: the same
    figure, on any worker).

    >>> from solver.play.dealing import deal
    >>> start = deal(3)
    >>> h = History.from_play(start, ["8S", "KS"], "a")
    >>> p = start.copy(); p.push("8S"); p.push("KS")
    >>> ll, nodes, _ = log_likelihood(h, p, 1)
    >>> ll <= 0 and nodes > 0
    True
    """
    rng = random.Random(zlib.crc32(world.bpn().encode()) ^ seed)
    model = model or model_for(world.rules.game)
    solver = shared_solver(world.rules, TABLE_BITS, model.horizon)
    e0 = solver.engine.network_evaluations
    nodes, logs = 0, []
    # the likelihood of the world is the mean over its histories: a few drawn, averaged as
    # likelihoods (the mean of logarithms would punish the truth for a history it did not have)
    for _ in range(model.histories):
        total, n = _history_log_likelihood(h, world, world_history(h, world, rng), solver, model)
        logs.append(total)
        nodes += n
    top = max(logs)
    return (
        top + math.log(math.fsum(math.exp(x - top) for x in logs) / len(logs)),
        nodes,
        solver.engine.network_evaluations - e0,
    )


def _history_log_likelihood(
    h: History, world: Position, p: Position, solver: Solver, model: Model
) -> tuple[float, int]:
    """(log-likelihood of the opponent's moves replayed from ``p``, nodes)."""
    opp = 1 - h.seat
    total, nodes = 0.0, 0
    for m in h.moves:
        if p.turn == opp:
            legal = p.legal_moves()
            if int(m) not in legal:
                raise ArgumentError(
                    f"inference: the move {Move(int(m))} played is not legal in the rebuilt history"
                )
            if scored_decision(legal, model):
                solver.engine.clear()
                # (``p`` is replayed from a checked start by legal moves: no check again)
                found, n = solver.look_ahead_raw(p, model.depth)
                nodes += n
                current = current_margin(p)
                values = {mv: _capped(v, current) for mv, v in found.items()}
                total += math.log(move_probability(values, int(m), model))
        # (his moves were just found legal; ours are legal in every world: our hand, the
        # trick and the talon's count are the same in all of them, and the end is checked)
        p.push(m, check=False)
    if p.hands != world.hands or (p.talon or []) != (world.talon or []):
        raise ArgumentError(f"history: replaying the moves did not give {world.bpn()!r} but {p.bpn()!r}")
    return total, nodes


def _capped(raw: int, current: int) -> int:
    """A move's final value in points for the model, a game won or lost at +-VALUE_CAP.

    >>> _capped(12, 30), _capped(WIN_THRESHOLD, 0), _capped(-90, -40)
    (42, 100, -100)
    """
    if raw >= WIN_THRESHOLD:
        return VALUE_CAP
    if raw <= -WIN_THRESHOLD:
        return -VALUE_CAP
    return max(-VALUE_CAP, min(VALUE_CAP, current + raw))


def scored_decision(legal: list[Move], model: Model) -> bool:
    """Whether the model scores a decision among ``legal`` moves."""
    if len(legal) < 2:
        return False
    return model.scope == "all" or any(not m.is_card for m in legal)


def move_probability(values: dict[int, int], chosen: int, model: Model) -> float:
    """The model's probability of ``chosen`` among moves of these ``values`` (module text).

    >>> round(move_probability({1: 10, 2: 0}, 1, Model(beta=0.1, floor=0.0)), 4)
    0.7311
    """
    if chosen not in values:
        raise ArgumentError(f"inference: the move {Move(chosen)} played is not legal in the rebuilt history")
    top = max(values.values())
    weights = {m: math.exp(model.beta * (v - top)) for m, v in values.items()}
    return (1 - model.floor) * weights[chosen] / math.fsum(weights.values()) + model.floor / len(values)


def effective_worlds(log_likelihoods: Sequence[float]) -> float:
    """The effective sample size of worlds weighted by these log-likelihoods: (sum w)^2 / sum w^2.

    >>> effective_worlds([0.0, 0.0, 0.0]), round(effective_worlds([0.0, -50.0]), 6)
    (3.0, 1.0)
    """
    if not log_likelihoods:
        return 0.0
    top = max(log_likelihoods)
    w = [math.exp(x - top) for x in log_likelihoods]
    return math.fsum(w) ** 2 / math.fsum(x * x for x in w)


__all__ = [
    "MODELS",
    "History",
    "Model",
    "effective_worlds",
    "infers",
    "log_likelihood",
    "model_for",
    "move_probability",
    "scored_decision",
    "world_history",
]
