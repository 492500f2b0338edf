"""Seeded random positions for tests and benchmarks.

Positions reached by play (``solver.play.random_position``) rarely hold four kings
or several marriages; :func:`random_final_phase` deals the final phase directly
and can stack the hands with melds so that those rules are exercised.

>>> p = random_final_phase(1, "brisque", cards=6)
>>> p.hand_size("a"), p.hand_size("b"), p.is_valid()
(6, 6, True)
"""

from __future__ import annotations

import random

from solver.model.bits import points_of
from solver.model.cards import KING, QUEEN, card
from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import random_position


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def random_final_phase(
    seed: int,
    rules: Rules | str = "brisque",
    cards: int | None = None,
    stack: str | None = None,
    lead_card: bool = False,
    stack_opponent: bool = False,
) -> Position:
    """A valid final-phase position with ``cards`` cards in each hand (Petite: any trick).

    ``stack``: ``"marriages"`` gives the player on lead kings and queens of two suits,
    ``"quartet"`` gives him four kings or four queens (Brisque) or four of a kind (Briscan);
    with ``stack_opponent`` the other player gets them instead (a threat to meet).
    With ``lead_card`` the leader has already led a card.
    """
    r = Rules.parse(rules) if isinstance(rules, str) else rules
    rng = random.Random(seed)
    full = r.hand_size if r.draws else r.hand_size
    n = cards if cards is not None else rng.randint(1, full)
    n = max(1, min(n, full))
    deck = list(range(32))
    rng.shuffle(deck)
    trump = rng.randrange(4)
    leader = rng.randrange(2)
    stacked = 1 - leader if stack_opponent else leader
    p = Position.empty(r)
    p.trump = trump
    hands = [[], []]
    if stack == "quartet":
        rank = rng.choice([KING, QUEEN] if r.game == "brisque" else [KING, QUEEN, 7, 6, 3])
        hands[stacked] = [card(s, rank) for s in range(4)][:n]
    elif stack == "marriages":
        suits = rng.sample(range(4), 2)
        hands[stacked] = [card(s, rk) for s in suits for rk in (KING, QUEEN)][:n]
    for c in hands[stacked]:
        deck.remove(c)
    while len(hands[stacked]) < n:
        hands[stacked].append(deck.pop())
    while len(hands[1 - stacked]) < n:
        hands[1 - stacked].append(deck.pop())
    if not r.draws:
        # Petite Brisque: a turnup on the table and 21 dead cards
        p.turnup = deck.pop()
        p.trump = p.turnup >> 3
        dead_and_out = deck
        out_n = 2 * (r.hand_size - n)
        out = dead_and_out[:out_n]
        p.talon_count = r.talon_size
    else:
        out = deck
        p.talon_count = 0
        p.talon = []
    p.hands = [_mask(hands[0]), _mask(hands[1])]
    p.out = _mask(out)
    p.turn = leader
    done = len(out) // 2
    # scores: the card points out, split at random; tricks likewise
    pts = points_of(p.out)
    a_pts = rng.randint(0, pts)
    p.score = [a_pts, pts - a_pts]
    a_tricks = rng.randint(0, done)
    p.tricks = [a_tricks, done - a_tricks]
    if r.game == "briscan":
        fin = done - r.talon_tricks if r.draws else 0
        a_fin = rng.randint(0, max(0, min(fin, a_tricks)))
        p.final = [a_fin, fin - a_fin] if fin - a_fin <= p.tricks[1] else [fin - p.tricks[1], p.tricks[1]]
    elif r.game == "brisque":
        p.tricks = [0, 0]  # Brisque does not need trick counts
    if lead_card and n > 0:
        c = rng.choice([x for x in range(32) if p.hands[leader] >> x & 1])
        p.hands[leader] &= ~(1 << c)
        p.trick = c
        p.turn = 1 - leader
    # built field by field above; from_parts derives what BPN leaves implicit
    return Position.from_parts(
        r,
        hands=(p.hands[0], p.hands[1]),
        trump=p.trump,
        turnup=p.turnup,
        talon=p.talon,
        talon_count=p.talon_count,
        out=p.out,
        trick=p.trick,
        turn=p.turn,
        score=(p.score[0], p.score[1]),
        tricks=(p.tricks[0], p.tricks[1]),
        final=(p.final[0], p.final[1]),
    )


def mixed_final_phase(seed: int, rules: Rules | str = "brisque") -> Position:
    """One position of a test mix: start of the phase, mid-phase, trick in progress,
    stacked melds, or a position reached by random play."""
    r = Rules.parse(rules) if isinstance(rules, str) else rules
    rng = random.Random(seed * 7919 + 1)
    kind = rng.randrange(6)
    full = r.hand_size
    if kind == 0:
        return random_final_phase(seed, r, cards=full)
    if kind == 1:
        return random_final_phase(seed, r, cards=rng.randint(2, full - 1))
    if kind == 2:
        return random_final_phase(seed, r, cards=rng.randint(2, full), lead_card=True)
    if kind == 3 and r.game != "petite":
        return random_final_phase(seed, r, cards=rng.randint(3, full), stack="marriages")
    if kind == 4 and r.game != "petite":
        return random_final_phase(seed, r, cards=rng.randint(4, full), stack="quartet")
    start = r.talon_tricks + 1 if r.draws else 1
    for extra in range(50):
        p = random_position(seed * 31 + extra, r, start + rng.randrange(3))
        if not p.is_over() and not p.in_window:
            return p
    return random_final_phase(seed, r)


__all__ = ["mixed_final_phase", "random_final_phase"]
