"""``resample_from_infostate``: a state a player cannot tell from the real one, drawn
uniformly among the deals consistent with everything he has seen (what IS-MCTS needs).

What the player saw fixes his own cards and every public move. The cards he could not see
(the opponent's hidden cards at the start and the talon cards he did not draw himself) form
a pool known to him as a set. Each pool card the opponent has since played, declared or
exchanged away must have reached him before that move: it goes to one of his receipt slots
(a start card, or a talon card he drew) received in time. Those cards are placed first, in
the order of their deadlines, each in a free slot in time chosen uniformly: every deadline
allows a prefix of the slots, so each valid placement is equally likely. The other pool
cards fill the remaining slots (his slots and the talon still to draw) uniformly. The moves
are then replayed from the new start; a deal that the follow rules or the voids refute is
drawn again (rejection keeps the draw uniform over the consistent deals).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from solver.errors import PlayError
from solver.model.bits import cards_of
from solver.model.moves import EXCHANGE_CODE
from solver.model.position import Position
from solver.openspiel.chance import DealPlan
from solver.openspiel.steps import Step

MAX_TRIES = 5000
T = TypeVar("T")


def resample(
    plan: DealPlan,
    dealt: list[int],
    steps: Sequence[Step],
    position: Position,
    player: int,
    rng: random.Random,
    build: Callable[[list[int]], T | None],
) -> T:
    """The deal ``dealt`` (of ``plan``, played on by ``steps`` to ``position``) with the
    cards ``player`` could not see redrawn, given to ``build`` (a state made from a deal, or
    None if it refuses it); what ``build`` made of the first deal it took."""
    opp = 1 - player
    # who received each dealt card, and when (the step that drew it; -1: at the start)
    where: list[tuple[str, int]] = []  # per dealt index: ("hand", seat), ("turnup", -1) or ("talon", j)
    for kind, seat, k in plan.slots:
        where += [(kind, seat if kind == "hand" else j) for j in range(k)]
    drawn_at: dict[int, tuple[int, int]] = {}  # card -> (drawer, step)
    for t, (_, _, received, _) in enumerate(steps):
        for i in (0, 1):
            c = received[i]
            while c:
                low = c & -c
                drawn_at.setdefault(low.bit_length() - 1, (i, t))
                c ^= low
    opp_slots: list[tuple[int, int]] = []  # (time, dealt index) of the opponent's hidden receipts
    future: list[int] = []  # dealt indices of talon cards not drawn yet
    for index, (kind, which) in enumerate(where):
        card = dealt[index]
        if kind == "hand" and which == opp:
            opp_slots.append((-1, index))
        elif kind == "talon":
            if card in drawn_at:
                drawer, t = drawn_at[card]
                if drawer == opp:
                    opp_slots.append((t, index))
            else:
                future.append(index)
    hidden = [i for _, i in opp_slots] + future
    pool = [dealt[i] for i in hidden]
    # Petite Brisque's dead cards are unseen too: any of them may be in the opponent's hand
    # (they take pseudo-slots, below 0, that no dealt card fills)
    dead = cards_of(position.unseen())
    future += [-1 - k for k in range(len(dead))]
    pool += dead
    deadline = _deadlines(steps, opp, set(pool), position.seven_of_trumps)
    opp_slots.sort()
    start_ok = plan.allowed[opp]  # (the start's voids: what his hidden start cards may be)
    for _ in range(MAX_TRIES):
        fill = _place(pool, deadline, opp_slots, future, rng)
        if fill is None or any(not start_ok >> fill[i] & 1 for t, i in opp_slots if t < 0):
            continue  # (a refused draw is drawn again: the draw stays uniform)
        new_dealt = list(dealt)
        for index, card in fill.items():
            if index >= 0:
                new_dealt[index] = card
        _sort_hands(plan.slots, new_dealt)
        if _replays(plan, steps, new_dealt) and (made := build(new_dealt)) is not None:
            return made
    raise PlayError(f"no deal consistent with what {'ab'[player]} saw was found in {MAX_TRIES} draws")


def _deadlines(steps: Sequence[Step], opp: int, pool: set[int], seven: int) -> dict[int, int]:
    """For each pool card the opponent was seen to hold: the first step that showed it."""
    out: dict[int, int] = {}
    for t, (mover, move, _, showed) in enumerate(steps):
        if mover != opp:
            continue
        cards = cards_of(showed)  # a declaration's cards, a carte blanche's hand
        if move < 32:
            cards.append(move)
        elif move == EXCHANGE_CODE:
            cards.append(seven)
        for c in cards:
            if c in pool:
                out.setdefault(c, t)
    return out


def _place(
    pool: list[int],
    deadline: dict[int, int],
    opp_slots: list[tuple[int, int]],
    future: list[int],
    rng: random.Random,
) -> dict[int, int] | None:
    """Dealt index -> card: the cards with a deadline first, each in a free slot in time."""
    free = list(opp_slots)
    fill: dict[int, int] = {}
    for card in sorted((c for c in pool if c in deadline), key=lambda c: deadline[c]):
        ok = [k for k, (t, _) in enumerate(free) if t < deadline[card]]
        if not ok:
            return None
        _, index = free.pop(rng.choice(ok))
        fill[index] = card
    rest = [c for c in pool if c not in deadline]
    rng.shuffle(rest)
    for index, card in zip([i for _, i in free] + future, rest, strict=True):
        fill[index] = card
    return fill


def _sort_hands(slots: list[tuple[str, int, int]], dealt: list[int]) -> None:
    """Hands are dealt in ascending order (one history per set of cards)."""
    i = 0
    for kind, _, k in slots:
        if kind == "hand":
            dealt[i : i + k] = sorted(dealt[i : i + k])
        i += k


def _replays(plan: DealPlan, steps: Sequence[Step], dealt: list[int]) -> bool:
    """Whether ``steps``' moves are legal from the deal ``dealt`` (checked on a position
    first: cheaper than building the state)."""
    p = plan.world(dealt)
    for mover, move, *_ in steps:
        if p.turn != mover or not p.is_legal(move):
            return False
        p.push(move)
    return True


__all__ = ["resample"]
