"""Worlds consistent with a player's view: every way to place the cards he has not seen.

A view (a BPN with ``?N``) hides some of the opponent's cards and the talon order.  The
unseen cards are every card not in the viewer's hand, not out, not on the table and not
shown by the opponent (declarations, the card taken by an exchange).  The one restriction
play reveals is a void: a player who did not follow suit where he had to (``void=b:D``) holds
no card of that suit (until he next draws).  Declaring is never compulsory and the talon
phase has no obligation to follow, so every other assignment of the unseen cards to the
opponent's hidden cards (outside his void suits) and to the talon order is consistent, and
all are equally likely: the sampler draws uniformly from exactly those worlds.

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
    return cards_of(view.unseen())


def _shape(view: Position) -> tuple[int, int, bool]:
    """(hidden cards of the opponent, face-down talon cards to order, talon is dead)."""
    if view.unknown[view.turn]:
        raise PositionError(f"the player to act ({'ab'[view.turn]}) must see his own hand: {view.bpn()!r}")
    opp = 1 - view.turn
    dead = not view.rules.draws
    talon = 0 if (view.talon is not None or dead) else view.talon_count
    return view.unknown[opp], talon, dead


def _candidates(view: Position) -> tuple[list[int], list[int]]:
    """(unseen cards the opponent may hold, the other unseen cards)."""
    banned = view.void_cards(1 - view.turn)
    cards = unseen(view)
    return [c for c in cards if not banned >> c & 1], [c for c in cards if banned >> c & 1]


def world_count(view: Position) -> int:
    """How many worlds are consistent with ``view`` (talon orders count as different).

    >>> world_count(Position("petite AT9.K..8/?5 9C 21 - - a 0:0 void=b:D"))  # 5 of 18 non-diamonds
    8568
    """
    hidden, talon, dead = _shape(view)
    allowed, _ = _candidates(view)
    if dead:
        return math.comb(len(allowed), hidden)
    return math.comb(len(allowed), hidden) * math.factorial(talon)


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
    return list(itertools.islice(iter_worlds(view, seed), n))


def iter_worlds(view: Position, seed: int) -> Iterator[Position]:
    """Worlds drawn uniformly (with replacement) from a seeded generator, one at a time and
    without end: the first ``n`` are :func:`sample_worlds`'s ``n`` worlds.

    >>> v = Position("petite AT9.K..8/?5 9C 21 - - a 0:0 void=b:D")
    >>> next(iter_worlds(v, 1)).bpn() == sample_worlds(v, 1, 1)[0].bpn()
    True
    """
    hidden, talon, dead = _shape(view)
    cards = unseen(view)
    if len(cards) != hidden + (0 if dead else talon) and not dead:
        raise PositionError(
            f"the view does not add up: {len(cards)} unseen cards for {hidden} hidden "
            f"and {talon} in the talon in {view.bpn()!r}"
        )
    allowed, banned = _candidates(view)
    if len(allowed) < hidden:
        raise PositionError(f"no world is consistent with {view.bpn()!r}: {view.problems()}")
    return _draw_worlds(view, random.Random(seed), cards, allowed, banned, hidden, dead)


def _draw_worlds(
    view: Position,
    rng: random.Random,
    cards: list[int],
    allowed: list[int],
    banned: list[int],
    hidden: int,
    dead: bool,
) -> Iterator[Position]:
    talon_hidden = not (dead or view.talon is not None)
    while True:
        if not banned:  # (one shuffle, as before voids were known: the same seed, the same worlds)
            deck = cards[:]
            rng.shuffle(deck)
            yield _world(view, deck[:hidden], deck[hidden:] if talon_hidden else None)
            continue
        # the opponent's cards uniformly among those he may hold; the rest, shuffled, is the talon
        mine = allowed[:]
        rng.shuffle(mine)
        rest = mine[hidden:] + banned
        rng.shuffle(rest)
        yield _world(view, mine[:hidden], rest if talon_hidden else None)


def all_worlds(view: Position) -> Iterator[Position]:
    """Every consistent world, in a fixed order (opponent's cards, then talon orders, in
    lexicographic order: :func:`shuffled_worlds` gives them in a seeded order)."""
    hidden, talon, dead = _shape(view)
    cards = unseen(view)
    allowed, _ = _candidates(view)
    for opp in itertools.combinations(allowed, hidden):
        rest = [c for c in cards if c not in opp]
        if dead or view.talon is not None:
            yield _world(view, opp, None)
        else:
            for order in itertools.permutations(rest):
                yield _world(view, opp, order)


SHUFFLE_IN_MEMORY = 100_000  # up to this many worlds, their order is one list shuffled


def shuffled_worlds(view: Position, seed: int) -> Iterator[Position]:
    """Every consistent world once, in an order drawn from ``seed``, lazily.

    An enumeration cut short (a time limit, the separation rule, Ctrl-C) is then a sample
    without replacement of the worlds, not the first ones of :func:`all_worlds`, whose
    lexicographic order deals the opponent the lowest cards first (a biased answer).

    >>> v = Position("petite AT9.K..8/?5 9C 21 - - a 0:0 void=b:D")
    >>> sorted(w.bpn() for w in shuffled_worlds(v, 3)) == sorted(w.bpn() for w in all_worlds(v))
    True
    """
    hidden, talon, dead = _shape(view)
    cards = unseen(view)
    allowed, _ = _candidates(view)
    talon_hidden = not (dead or view.talon is not None)
    orders = math.factorial(talon) if talon_hidden else 1
    for index in _shuffled_range(math.comb(len(allowed), hidden) * orders, seed):
        which, order = divmod(index, orders)
        opp = _combination(allowed, hidden, which)
        if not talon_hidden:
            yield _world(view, opp, None)
        else:
            yield _world(view, opp, _permutation([c for c in cards if c not in opp], order))


def _combination(items: list[int], k: int, rank: int) -> list[int]:
    """The ``rank``-th ``k``-combination of ``items`` in the order of itertools.combinations."""
    out: list[int] = []
    start = 0
    for slot in range(k):
        for i in range(start, len(items)):
            below = math.comb(len(items) - i - 1, k - slot - 1)  # combinations that take items[i]
            if rank < below:
                out.append(items[i])
                start = i + 1
                break
            rank -= below
    return out


def _permutation(items: list[int], rank: int) -> list[int]:
    """The ``rank``-th permutation of ``items`` in the order of itertools.permutations."""
    rest, out = items[:], []
    for n in range(len(rest), 0, -1):
        q, rank = divmod(rank, math.factorial(n - 1))
        out.append(rest.pop(q))
    return out


_MASK64 = (1 << 64) - 1


def _mix(x: int, key: int) -> int:
    """A 64-bit mix of ``x`` under ``key`` (splitmix64's finaliser): a Feistel round function."""
    z = (x + key) * 0x9E3779B97F4A7C15 & _MASK64
    z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9 & _MASK64
    z = (z ^ z >> 27) * 0x94D049BB133111EB & _MASK64
    return z ^ z >> 31


def _shuffled_range(n: int, seed: int) -> Iterator[int]:
    """Every number of ``range(n)`` once, in an order drawn from ``seed``: a list shuffled
    when small, else a keyed Feistel permutation of the next even power of two, whose values
    from ``n`` up are skipped (memory stays constant however many worlds there are)."""
    rng = random.Random(seed)
    if n <= SHUFFLE_IN_MEMORY:
        order = list(range(n))
        rng.shuffle(order)
        yield from order
        return
    half = ((n - 1).bit_length() + 1) // 2
    mask = (1 << half) - 1
    keys = [rng.getrandbits(64) for _ in range(4)]
    for i in range(1 << 2 * half):
        left, right = i >> half, i & mask
        for key in keys:
            left, right = right, left ^ _mix(right, key) & mask
        x = left << half | right
        if x < n:
            yield x


__all__ = ["all_worlds", "iter_worlds", "sample_worlds", "shuffled_worlds", "unseen", "world_count"]
