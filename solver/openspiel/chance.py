"""Chance for the OpenSpiel games: the cards a BPN does not show, dealt one at a time so
that every deal consistent with it is equally likely.

A start position (a BPN, possibly a view) leaves some cards unplaced: a hidden hand
(``?N``), both hands (a spectator's ``?6/?6``), the talon order (a talon given by its
count), or everything (no position: the game deals from the start).  The chance nodes deal,
in this order: a's hidden cards, b's hidden cards, the turnup (from the start only), then
the talon top first.  A hidden hand is dealt in ascending card order, so that each set of
cards is one history (not one per order), with the weights that make each set equally
likely among those its player's voids allow; the talon is dealt in its order, uniformly.

>>> from solver.model.position import Position
>>> plan = DealPlan.of(Position("petite AT9.K..8/?5 9C 21 - - a 0:0 void=b:D"))
>>> plan.slots, len(plan.outcomes([]))  # b's lowest card: any of the 18 but the 4 highest
([('hand', 1, 5)], 14)
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from solver.errors import PositionError
from solver.model.bits import cards_of, popcount
from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import deal_cards

Slot = tuple[str, int, int]  # ("hand", seat, cards) | ("turnup", -1, 1) | ("talon", -1, cards)


@dataclass(frozen=True)
class DealPlan:
    """What chance deals from a start position (``start`` is None: from the start)."""

    rules: Rules
    start: Position | None
    slots: list[Slot]
    unseen: int  # the cards chance places
    allowed: tuple[int, int]  # the cards each seat's hidden hand may get (its voids)

    @classmethod
    def of(cls, start: Position | None, rules: Rules | None = None) -> DealPlan:
        """The plan for ``start`` (refused with the reason when no uniform deal is possible)."""
        if start is None:
            r = rules or Rules()
            h = r.hand_size
            talon = r.talon_size if r.draws else 0
            slots: list[Slot] = [("hand", 0, h), ("hand", 1, h), ("turnup", -1, 1)]
            if talon:
                slots.append(("talon", -1, talon))
            return cls(r, None, slots, 0xFFFFFFFF, (0xFFFFFFFF, 0xFFFFFFFF))
        probs = start.problems()
        if probs:
            raise PositionError(f"impossible start position {start.bpn()!r}: " + "; ".join(probs))
        unseen = start.unseen()
        allowed = (unseen & ~start.void_cards(0), unseen & ~start.void_cards(1))
        slots = [("hand", i, start.unknown[i]) for i in (0, 1) if start.unknown[i]]
        if start.rules.draws and start.talon is None and start.talon_count:
            slots.append(("talon", -1, start.talon_count))
        plan = cls(start.rules, start, slots, unseen, allowed)
        if slots and not plan.outcomes([]):
            raise PositionError(
                f"no deal is consistent with {start.bpn()!r}: too few cards a hidden hand may hold"
            )
        return plan

    @property
    def size(self) -> int:
        """The number of chance nodes before the first decision."""
        return sum(k for _, _, k in self.slots)

    def _slot_at(self, dealt: list[int]) -> tuple[Slot, list[int]]:
        """The slot of the next card, and the cards already dealt to it."""
        n = len(dealt)
        for slot in self.slots:
            if n < slot[2]:
                return slot, dealt[len(dealt) - n :] if n else []
            n -= slot[2]
        raise PositionError("every card is dealt")

    def outcomes(self, dealt: list[int]) -> list[tuple[int, float]]:
        """The next card's (card, probability) pairs after ``dealt``, ascending."""
        (kind, seat, k), mine = self._slot_at(dealt)
        left = self.unseen & ~_mask(dealt)
        if kind != "hand":
            cards = cards_of(left)
            return [(c, 1.0 / len(cards)) for c in cards]
        pool = left & self.allowed[seat]
        if mine:  # ascending: above the last card dealt to this hand
            pool &= ~((2 << mine[-1]) - 1)
        need = k - len(mine) - 1
        # b's hidden hand still to deal after a's: it may hold only the cards b's voids allow
        later = next((n for kind2, s2, n in self.slots if kind2 == "hand" and s2 == 1), 0) if seat == 0 else 0
        other = self.allowed[1]
        room = popcount(other & left)  # the cards b could still get
        weights = []
        for c in cards_of(pool):
            above = pool & ~((2 << c) - 1)
            both, only = popcount(above & other), popcount(above & ~other)
            rest_b = room - (other >> c & 1)
            # the ways to complete this hand from the cards above c (t of them b could hold
            # too), times the ways to deal b's hand from what is left for him
            w = sum(comb(both, t) * comb(only, need - t) * comb(rest_b - t, later) for t in range(need + 1))
            weights.append((c, w))
        total = sum(w for _, w in weights)
        return [(c, w / total) for c, w in weights if w] if total else []

    def slot_name(self, dealt: list[int]) -> str:
        """What the next chance card is for: ``"a's hand"``, ``"the turnup"``, ``"the talon"``."""
        (kind, seat, _), _ = self._slot_at(dealt)
        return f"{'ab'[seat]}'s hand" if kind == "hand" else f"the {kind}"

    def world(self, dealt: list[int]) -> Position:
        """The full-information position once every chance card is dealt."""
        if self.start is None:
            rest = [c for c in range(32) if c not in dealt]  # (Petite's dead cards)
            return deal_cards(dealt + rest, self.rules)
        w = self.start.copy()
        i = 0
        for kind, seat, k in self.slots:
            part = dealt[i : i + k]
            i += k
            if kind == "hand":
                w.hands[seat] |= _mask(part)
                w.unknown[seat] = 0
            else:
                w.talon = list(part)
        return w


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


__all__ = ["DealPlan", "Slot"]
