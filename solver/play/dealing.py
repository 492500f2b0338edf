"""Full deals and matches: dealing from a seed, players, records that replay.

>>> p = deal(seed=1)
>>> p.trick_number, p.hand_size("a"), p.talon_count
(1, 6, 19)
>>> from solver.play.players import GreedyPlayer, RandomPlayer
>>> record = play_deal(p, [RandomPlayer(1), GreedyPlayer()])
>>> record.replay()[-1].is_over()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.errors import ArgumentError, PlayError
from solver.formats.records import DealRecord
from solver.model.bits import points_of
from solver.model.cards import ACE, JACK, KING, QUEEN, TEN, card, rank_of, suit_of
from solver.model.position import Position
from solver.model.ranges import (
    MAX_GAME_TOTAL,
    MAX_SEED,
    seed_in_range,
    short_value,
    whole_argument,
    whole_or_none,
)
from solver.model.rules import Rules, as_rules
from solver.play.players import Player


def deal(seed: int, rules: Rules | str | None = None, game: tuple[int, int] = (0, 0)) -> Position:
    """The position at the start of a deal shuffled from ``seed`` (talon order known).

    Seat a receives the first cards, b the next, then the turnup; the rest is the talon,
    top first.  In Briscan the dealer (b) scores 10 for an honour turned up.  ``seed`` is a
    whole number (an ArgumentError otherwise: a float or a string would shuffle too), ``game``
    the match totals of a and b before the deal (:func:`game_totals`).
    """
    seed = whole_argument(seed, "seed", 0, MAX_SEED)  # (the range of the CLI and .bpd)
    cards = list(range(32))
    random.Random(seed).shuffle(cards)
    return deal_cards(cards, rules, game)


def deal_cards(
    cards: Sequence[int], rules: Rules | str | None = None, game: tuple[int, int] = (0, 0)
) -> Position:
    """The position at the start of a deal whose pack, from the top, is ``cards`` (all 32):
    a's hand, b's hand, the turnup, then the talon top first (dead in Petite Brisque).

    >>> deal_cards(range(32), "petite").bpn()
    'petite QJ987.../ATK.87.. 9H 21 - - a 0:0'
    """
    r = as_rules(rules)
    cards = list(cards)
    if sorted(cards) != list(range(32)):
        raise PlayError(f"a pack of {len(cards)} cards that is not the 32 cards once each: {cards}")
    h = r.hand_size
    p = Position.empty(r)
    p.hands = [_mask(cards[:h]), _mask(cards[h : 2 * h])]
    p.turnup = cards[2 * h]
    p.trump = suit_of(p.turnup)
    rest = cards[2 * h + 1 :]
    if r.draws:
        p.talon, p.talon_count = rest, len(rest)
    else:  # Petite Brisque: the rest of the pack is dead
        p.talon, p.talon_count = None, len(rest)
    p.game = game_totals(game)
    if r.game == "briscan" and rank_of(p.turnup) in (ACE, TEN, KING, QUEEN, JACK):
        p.score[1] += 10
    return p


def game_totals(game: object) -> list[int]:
    """``game``, the match totals of a and b before the deal, as BPN's ``game=`` takes them:
    two whole numbers from 0 to ``MAX_GAME_TOTAL``; an ArgumentError quoting anything else.

    >>> game_totals((380, 120))
    [380, 120]
    >>> game_totals((1.5, 0))
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentError: game=(1.5, 0): expected two whole numbers from 0 to 1000000, the match totals of a and b
    """
    pair = list(game) if isinstance(game, (tuple, list)) else []
    totals = [whole_or_none(x) for x in pair]
    if len(totals) != 2 or not all(t is not None and 0 <= t <= MAX_GAME_TOTAL for t in totals):
        raise ArgumentError(
            f"game={short_value(game)}: expected two whole numbers from 0 to {MAX_GAME_TOTAL}, "
            "the match totals of a and b"
        )
    return [t for t in totals if t is not None]


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def play_deal(position: Position, players: Sequence[Player], max_moves: int = 1000) -> DealRecord:
    """Play ``position`` to the end; ``players[0]`` sits at a, ``players[1]`` at b."""
    p = position.copy()
    record = DealRecord(start=p.bpn(), moves=[], players=(players[0].name, players[1].name))
    while not p.is_over():
        if len(record.moves) >= max_moves:
            raise PlayError(f"deal did not end within {max_moves} moves: {p.bpn()}")
        m = players[p.turn].choose(p.copy(stack=True))  # (with the play so far: the inference reads it)
        p.push(m)
        record.moves.append(str(m))
    return record


@dataclass(kw_only=True)
class GameResult:
    """A match to the target: the deals, game totals per player and the winner (0 or 1)."""

    deals: list[DealRecord]
    seats: list[int]  # for each deal, which player (0/1) sat at a
    totals: list[int]
    winner: int
    by_event: bool


def play_match(
    players: Sequence[Player], seed: int = 0, rules: Rules | str | None = None, max_deals: int = 200
) -> GameResult:
    """Play deals until one player wins the game; the dealer alternates (or the winner deals
    next with ``next_dealer=winner``).  Player 0 deals first (sits at b)."""
    r = as_rules(rules)
    rng = random.Random(seed)
    totals = [0, 0]
    deals, seats = [], []
    dealer = 0
    for _ in range(max_deals):
        at_a = 1 - dealer
        seat_players = [players[at_a], players[dealer]]
        start = deal(rng.randrange(2**32), r, game=(totals[at_a], totals[dealer]))
        record = play_deal(start, seat_players)
        deals.append(record)
        seats.append(at_a)
        out = record.final().outcome()
        if out is None:  # play_deal plays every deal to its end
            raise PlayError(f"deal {len(deals)} of the match did not end")
        seat_to_player = (at_a, dealer)
        if out.win is not None:
            return GameResult(
                deals=deals, seats=seats, totals=totals, winner=seat_to_player[out.win], by_event=True
            )
        if r.game == "petite":
            if out.winner is not None:
                totals[seat_to_player[out.winner]] += 1
        else:
            for s in (0, 1):
                totals[seat_to_player[s]] += out.score[s]
        best = max(totals)
        if best >= r.target and totals[0] != totals[1]:
            return GameResult(
                deals=deals, seats=seats, totals=totals, winner=totals.index(best), by_event=False
            )
        if r.next_dealer == "winner" and out.winner is not None:
            dealer = seat_to_player[out.winner]
        else:
            dealer = 1 - dealer
    raise PlayError(f"match did not end within {max_deals} deals")


def random_position(seed: int, rules: Rules | str | None = None, trick: int = 1) -> Position:
    """A dealt position played on by random moves until ``trick`` (or the end of the deal)."""
    p = deal(seed, rules)
    rng = random.Random(seed ^ 0x5EED)
    while not p.is_over() and p.trick_number < trick:
        p.push(rng.choice(p.legal_moves()))
    p.clear_stack()
    return p


def positions_with_talon_left(
    tricks_left: int, count: int, rules: Rules | str | None = None, first_seed: int = 0
) -> list[Position]:
    """``count`` seeded positions at the start of a trick with ``tricks_left`` talon tricks
    to play (0: the start of the final phase), from ``random_position`` with the seeds
    ``first_seed`` on, skipping those that ended or stand in Brisque's last-pickup window.

    >>> [p.trick_number for p in positions_with_talon_left(5, 2, "brisque")]
    [6, 6]
    """
    rules = Rules.parse(rules) if isinstance(rules, str) else rules or Rules()
    trick = rules.talon_tricks + 1 - tricks_left
    out: list[Position] = []
    seed = first_seed
    while len(out) < count:
        p = random_position(seed, rules, trick)
        seed = seed_in_range(seed + 1)  # (from MAX_SEED on to 0, not out of deal's range)
        if not p.is_over() and p.trick_number == trick and p.trick < 0 and not p.in_window:
            out.append(p)
    return out


def _final_phase_hands(
    rng: random.Random, r: Rules, deck: list[int], n: int, stacked: int, stack: str | None
) -> list[list[int]]:
    """Two hands of ``n`` cards dealt from ``deck`` (the cards left stay in it), seat
    ``stacked`` first with the ``stack`` of :func:`random_final_phase`.

    >>> deck = list(range(32))
    >>> _final_phase_hands(random.Random(1), Rules(), deck, 2, 0, "marriages"), len(deck)
    ([[13, 12], [31, 30]], 28)
    """
    hands: list[list[int]] = [[], []]
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
    return hands


def _taken_split(
    rng: random.Random, r: Rules, out_mask: int, done: int
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """The card points, tricks and final-phase tricks (Briscan) of the ``done`` tricks of
    ``out_mask`` split between the players at random: (score, tricks, final)."""
    pts = points_of(out_mask)
    a_pts = rng.randint(0, pts)
    a_tricks = rng.randint(0, done)
    tricks = (a_tricks, done - a_tricks)
    final = (0, 0)
    if r.game == "briscan":
        fin = done - r.talon_tricks if r.draws else 0
        a_fin = rng.randint(0, max(0, min(fin, a_tricks)))
        final = (a_fin, fin - a_fin) if fin - a_fin <= tricks[1] else (fin - tricks[1], tricks[1])
    elif r.game == "brisque":
        tricks = (0, 0)  # (Brisque does not count tricks)
    return (a_pts, pts - a_pts), tricks, final


def random_final_phase(
    seed: int,
    rules: Rules | str = "brisque",
    cards: int | None = None,
    stack: str | None = None,
    lead_card: bool = False,
    stack_opponent: bool = False,
) -> Position:
    """A valid final-phase position dealt directly from ``seed``, with ``cards`` cards in
    each hand (at random when None; Petite Brisque: any trick).

    Positions reached by play (:func:`random_position`) rarely hold four kings or several
    marriages; these can stack the hands so that such rules are exercised.  ``stack``:
    ``"marriages"`` gives the player on lead kings and queens of two suits, ``"quartet"``
    four kings or four queens (Brisque) or four of a kind (Briscan); with
    ``stack_opponent`` the other player gets them instead (a threat to meet).  With
    ``lead_card`` the leader has already led a card.  The card points out are split
    between the players at random, and so are the tricks.

    >>> p = random_final_phase(1, "brisque", cards=6)
    >>> p.hand_size("a"), p.hand_size("b"), p.is_valid()
    (6, 6, True)
    >>> q = random_final_phase(2, "brisque", cards=6, stack="quartet")
    >>> q.is_valid(), q.talon_count
    (True, 0)
    """
    r = Rules.parse(rules) if isinstance(rules, str) else rules
    rng = random.Random(seed)
    full = r.hand_size
    n = cards if cards is not None else rng.randint(1, full)
    n = max(1, min(n, full))
    deck = list(range(32))
    rng.shuffle(deck)
    trump = rng.randrange(4)
    leader = rng.randrange(2)
    stacked = 1 - leader if stack_opponent else leader
    hands = _final_phase_hands(rng, r, deck, n, stacked, stack)
    turnup, talon_count = -1, 0
    talon: list[int] | None = None
    out = deck
    if not r.draws:
        # Petite Brisque: a turnup on the table, the talon unknown, the cards played out
        turnup = deck.pop()
        trump = turnup >> 3
        out = deck[: 2 * (r.hand_size - n)]
        talon_count = r.talon_size
    else:
        talon = []
    held = [_mask(hands[0]), _mask(hands[1])]
    out_mask = _mask(out)
    done = len(out) // 2
    score, tricks, final = _taken_split(rng, r, out_mask, done)
    turn, trick = leader, -1
    if lead_card and n > 0:
        trick = rng.choice([x for x in range(32) if held[leader] >> x & 1])
        held[leader] &= ~(1 << trick)
        turn = 1 - leader
    return Position.from_parts(
        r,
        hands=(held[0], held[1]),
        trump=trump,
        turnup=turnup,
        talon=talon,
        talon_count=talon_count,
        out=out_mask,
        trick=trick,
        turn=turn,
        score=score,
        tricks=tricks,
        final=final,
    )


def mixed_final_phase(seed: int, rules: Rules | str = "brisque") -> Position:
    """One position of a seeded mix for tests that compare solvers: the start of the final
    phase, mid-phase, a trick in progress, stacked melds, or a position reached by random
    play (:func:`random_final_phase`, :func:`random_position`).

    >>> [mixed_final_phase(s).is_valid() for s in range(3)]
    [True, True, True]
    """
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


__all__ = [
    "GameResult",
    "deal",
    "deal_cards",
    "game_totals",
    "mixed_final_phase",
    "play_deal",
    "play_match",
    "positions_with_talon_left",
    "random_final_phase",
    "random_position",
]
