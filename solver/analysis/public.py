"""The public subgame of a position, as the equilibrium solver and the OpenSpiel games
define it: what a spectator sees, its consistent deals, its domain, and where its
play with hidden cards ends.  No numpy here: the command line imports it on every run.

>>> p = Position("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H")
>>> public_view(p).bpn()
'petite ?2/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from solver.model.bits import cards_of, popcount
from solver.model.melds import BLANK_COURTS, BLANK_PLAIN, MELDS
from solver.model.moves import DECLARE_BASE
from solver.model.position import Position

InfoKey = tuple[int, int, tuple[int, ...]]
"""An information set: (seat, his hand at the root as a card mask, the move codes since)."""


def history_entry(move: int, showed: int) -> int:
    """A move as an information set's history records it: its code, and for a carte
    blanche, which shows the whole hand, the cards it showed (they differ from deal to deal,
    and the opponent sees them), above bit 8.

    >>> history_entry(9, 0), entry_move(history_entry(9, 0))
    (9, 9)
    """
    if move >= DECLARE_BASE and MELDS[move - DECLARE_BASE].kind in (BLANK_COURTS, BLANK_PLAIN):
        return move | (showed << 8)
    return move


def entry_move(entry: int) -> int:
    """The move code of a history entry (:func:`history_entry`)."""
    return entry & 0xFF


def domain_problem(p: Position) -> str | None:
    """Why ``p`` is outside the equilibrium solver's domain (None: inside).

    >>> domain_problem(Position("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"))
    '7 talon tricks left: the equilibrium is solved with at most one'
    """
    if p.is_over():
        return "the deal is over"
    if no_hidden_decision(p):
        return "no decision with hidden cards is left (every card's place is known to both): solve it exactly"
    if p.rules.draws:
        left = p.talon_count + (1 if p.turnup >= 0 else 0)
        if left > 2:
            return f"{(left + 1) // 2} talon tricks left: the equilibrium is solved with at most one"
        return None
    if max(p.hand_size(0), p.hand_size(1)) > 2:
        return "more than two cards a hand: in Petite Brisque the equilibrium is solved with at most two"
    return None


def public_view(p: Position) -> Position:
    """What a spectator sees of ``p``: both hands hidden but their shown cards, the talon
    order hidden (unlike a player, he cannot tell the hands apart once the talon is gone)."""
    v = p.copy()
    if v.rules.draws and v.talon_count:
        v.talon = None
    for i in (0, 1):
        v.unknown[i] += popcount(v.hands[i] & ~v.shown[i])
        v.hands[i] &= v.shown[i]
    v.drawn &= v.hands[v.turn]
    return v


def deal_cards(v: Position) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """Every deal consistent with the public view ``v``, each once (equally likely), as seat
    a's and seat b's hands (card masks) and the talon order (empty when it is not drawn)."""
    unseen = cards_of(v.unseen())
    allowed = [~v.void_cards(i) & 0xFFFFFFFF for i in (0, 1)]
    ordered = v.rules.draws and v.talon is None and v.talon_count > 0
    known = tuple(v.talon or ())
    bits = {c: 1 << c for c in unseen}
    for a in itertools.combinations([c for c in unseen if allowed[0] >> c & 1], v.unknown[0]):
        mask_a = sum(bits[c] for c in a)
        rest = [c for c in unseen if not mask_a & bits[c]]
        hand_a = v.hands[0] | mask_a
        for b in itertools.combinations([c for c in rest if allowed[1] >> c & 1], v.unknown[1]):
            mask_b = sum(bits[c] for c in b)
            if not ordered:
                yield hand_a, v.hands[1] | mask_b, known
                continue
            left = [c for c in rest if not mask_b & bits[c]]
            for order in itertools.permutations(left):
                yield hand_a, v.hands[1] | mask_b, order


def public_deals(v: Position) -> Iterator[Position]:
    """Every deal consistent with the public view ``v``, each once (equally likely).

    >>> v = public_view(Position("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H"))
    >>> sum(1 for _ in public_deals(v))
    53130
    """
    ordered = v.rules.draws and v.talon is None and v.talon_count > 0
    for hand_a, hand_b, order in deal_cards(v):
        w = v.copy()
        w.hands[0], w.hands[1] = hand_a, hand_b
        w.unknown[0] = w.unknown[1] = 0
        if ordered:
            w.talon = list(order)
        yield w


def ends_hidden_play(w: Position) -> bool:
    """Whether a card played at ``w`` ends the trick, after which no decision with hidden
    cards is left (the reply of the last talon trick, or the reply with two cards each
    without drawing): those moves' children are leaves, valued by one native call."""
    if w.trick < 0:
        return False
    if w.rules.draws:
        return w.talon_count <= 1
    return w.hand_size(0) <= 2 and w.hand_size(1) <= 2


def no_hidden_decision(w: Position) -> bool:
    """No decision with hidden cards is left: the deal over, the talon gone (every card's
    place known to both, the last pickup included), or one card each without drawing."""
    if w.is_over() or (w.rules.draws and w.talon_count == 0):
        return True
    return not w.rules.draws and w.hand_size(0) <= 1 and w.hand_size(1) <= 1


__all__ = [
    "InfoKey",
    "deal_cards",
    "domain_problem",
    "ends_hidden_play",
    "entry_move",
    "history_entry",
    "no_hidden_decision",
    "public_deals",
    "public_view",
]
