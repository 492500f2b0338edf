"""Worlds consistent with a player's view: every way to place the cards he has not seen.

A view (a BPN with ``?N``) hides some of the opponent's cards and the talon order.  The
unseen cards are every card not in the viewer's hand, not out, not on the table and not
shown by the opponent (declarations, the card taken by an exchange).  Nothing in the rules
restricts where they are (the talon phase has no obligation to follow, and declaring is
never compulsory), so every assignment of them to the opponent's hidden cards and to the
talon order is consistent, and all are equally likely.

>>> from solver.model.position import Position
>>> v = Position("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1")
>>> world_count(v)   # choose b's 6 cards among 19, then order the other 13
168951528345600
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Iterator

from solver.errors import PositionError
from solver.model.cards import cards_of
from solver.model.position import Position


def unseen(view: Position) -> list[int]:
    """The cards whose place the view does not show, in ascending order."""
    return cards_of(~view.visible() & 0xFFFFFFFF & ~((1 << view.trick) if view.trick >= 0 else 0))


def _shape(view: Position) -> tuple[int, int, bool]:
    """(hidden cards of the opponent, face-down talon cards to order, talon is dead)."""
    if view.unknown[view.turn]:
        raise PositionError(f"the player to act ({'ab'[view.turn]}) must see his own hand: {view.bpn()!r}")
    opp = 1 - view.turn
    dead = not view.rules.draws
    talon = 0 if (view.talon is not None or dead) else view.talon_count
    return view.unknown[opp], talon, dead


def world_count(view: Position) -> int:
    """How many worlds are consistent with ``view`` (talon orders count as different)."""
    hidden, talon, dead = _shape(view)
    u = len(unseen(view))
    if dead:
        return math.comb(u, hidden)
    return math.comb(u, hidden) * math.factorial(talon)


def _world(view: Position, opp_cards: Iterable[int], talon_cards: Iterable[int] | None) -> Position:
    w = view.copy()
    opp = 1 - view.turn
    for c in opp_cards:
        w.hands[opp] |= 1 << c
    w.unknown[opp] = 0
    if talon_cards is not None:
        w.talon = list(talon_cards)
    return w


def sample_worlds(view: Position, n: int, seed: int) -> list[Position]:
    """``n`` worlds drawn uniformly (with replacement) from a seeded generator."""
    hidden, talon, dead = _shape(view)
    cards = unseen(view)
    if len(cards) != hidden + (0 if dead else talon) and not dead:
        raise PositionError(
            f"the view does not add up: {len(cards)} unseen cards for {hidden} hidden "
            f"and {talon} in the talon in {view.bpn()!r}"
        )
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = cards[:]
        rng.shuffle(deck)
        out.append(_world(view, deck[:hidden], None if dead or view.talon is not None else deck[hidden:]))
    return out


def all_worlds(view: Position) -> Iterator[Position]:
    """Every consistent world, in a fixed order."""
    hidden, talon, dead = _shape(view)
    cards = unseen(view)
    for opp in itertools.combinations(cards, hidden):
        rest = [c for c in cards if c not in opp]
        if dead or view.talon is not None:
            yield _world(view, opp, None)
        else:
            for order in itertools.permutations(rest):
                yield _world(view, opp, order)


__all__ = ["all_worlds", "sample_worlds", "unseen", "world_count"]
