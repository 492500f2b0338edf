"""Full deals and matches: dealing from a seed, players, records that replay.

>>> p = deal(seed=1)
>>> p.trick_number, p.hand_size("a"), p.talon_count
(1, 6, 19)
>>> record = play_deal(p, [RandomPlayer(1), GreedyPlayer()])
>>> record.replay()[-1].is_over()
True
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Protocol

from solver.bits import points_of
from solver.cards import ACE, JACK, KING, QUEEN, TEN, card_str, rank_of, suit_of
from solver.melds import MELDS
from solver.moves import EXCHANGE, PASS, Move, parse_move
from solver.position import Position, PositionError
from solver.rules import Rules


def deal(seed: int, rules: Rules | str | None = None, game: tuple[int, int] = (0, 0)) -> Position:
    """The position at the start of a deal shuffled from ``seed`` (talon order known).

    Seat a receives the first cards, b the next, then the turnup; the rest is the talon,
    top first.  In Briscan the dealer (b) scores 10 for an honour turned up.
    """
    r = Rules.parse(rules) if isinstance(rules, str) else (rules or Rules())
    cards = list(range(32))
    random.Random(seed).shuffle(cards)
    h = r.hand_size
    p = Position(rules=r)
    p.hands = [_mask(cards[:h]), _mask(cards[h:2 * h])]
    p.turnup = cards[2 * h]
    p.trump = suit_of(p.turnup)
    rest = cards[2 * h + 1:]
    if r.draws:
        p.talon, p.talon_count = rest, len(rest)
    else:  # Petite Brisque: the rest of the pack is dead
        p.talon, p.talon_count = None, len(rest)
    p.game = list(game)
    if r.game == "briscan" and rank_of(p.turnup) in (ACE, TEN, KING, QUEEN, JACK):
        p.score[1] += 10
    return p


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class Player(Protocol):
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
            return max(decls, key=lambda m: (MELDS[m.meld.index].points(position.trump, position.rules.game),
                                             -int(m)))
        if EXCHANGE in moves:
            return EXCHANGE
        if PASS in moves:
            return PASS
        cards = [m for m in moves if m.is_card]
        trump = position.trump

        def cost(c: int) -> tuple:
            # a trump costs more than any plain card; then by points and rank
            return (suit_of(c) == trump, points_of(1 << c), rank_of(c))

        if position.trick < 0:
            return min(cards, key=cost)
        led = position.trick
        winners = [c for c in cards if _beats(c, led, trump)]
        at_stake = points_of(1 << led)
        if winners and (at_stake >= 10 or any(suit_of(c) == suit_of(led) for c in winners)):
            return min(winners, key=cost)
        return min(cards, key=cost)


def _beats(c: int, led: int, trump: int) -> bool:
    if suit_of(c) == suit_of(led):
        return c > led
    return suit_of(c) == trump


@dataclass
class DealRecord:
    """A played deal: the starting position and the moves, enough to replay every position."""
    start: str
    moves: list[str] = field(default_factory=list)
    players: tuple[str, str] = ("?", "?")

    def replay(self) -> list[Position]:
        """Every position of the deal, from the start to the end."""
        p = Position(self.start)
        out = [p.copy()]
        for i, text in enumerate(self.moves):
            try:
                p.push(parse_move(text))
            except (PositionError, ValueError) as exc:
                raise PositionError(f"move {i + 1} ({text!r}) of the record does not replay: {exc}") from None
            out.append(p.copy())
        return out

    def bpns(self) -> list[str]:
        return [p.bpn() for p in self.replay()]

    def final(self) -> Position:
        return self.replay()[-1]

    def to_json(self) -> str:
        return json.dumps({"start": self.start, "moves": self.moves, "players": list(self.players)})

    @classmethod
    def from_json(cls, text: str) -> "DealRecord":
        d = json.loads(text)
        return cls(d["start"], list(d["moves"]), tuple(d.get("players", ("?", "?"))))


def play_deal(position: Position, players, max_moves: int = 1000) -> DealRecord:
    """Play ``position`` to the end; ``players[0]`` sits at a, ``players[1]`` at b."""
    p = position.copy()
    record = DealRecord(p.bpn(), [], (players[0].name, players[1].name))
    while not p.is_over():
        if len(record.moves) >= max_moves:
            raise RuntimeError(f"deal did not end within {max_moves} moves: {p.bpn()}")
        m = players[p.turn].choose(p.copy())
        p.push(m)
        record.moves.append(str(m))
    return record


@dataclass
class MatchResult:
    """A match to the target: the deals, game totals per player and the winner (0 or 1)."""
    deals: list[DealRecord]
    seats: list[int]           # for each deal, which player (0/1) sat at a
    totals: list[int]
    winner: int
    by_event: bool


def play_match(players, seed: int = 0, rules: Rules | str | None = None, max_deals: int = 200) -> MatchResult:
    """Play deals until one player wins the game; the dealer alternates (or the winner deals
    next with ``next_dealer=winner``).  Player 0 deals first (sits at b)."""
    r = Rules.parse(rules) if isinstance(rules, str) else (rules or Rules())
    rng = random.Random(seed)
    totals = [0, 0]
    deals, seats = [], []
    dealer = 0
    for _ in range(max_deals):
        at_a = 1 - dealer
        seat_players = [players[at_a], players[dealer]]
        start = deal(rng.randrange(2 ** 32), r, game=(totals[at_a], totals[dealer]))
        record = play_deal(start, seat_players)
        deals.append(record)
        seats.append(at_a)
        out = record.final().outcome()
        seat_to_player = (at_a, dealer)
        if out.win is not None:
            return MatchResult(deals, seats, totals, seat_to_player[out.win], True)
        if r.game == "petite":
            if out.winner is not None:
                totals[seat_to_player[out.winner]] += 1
        else:
            for s in (0, 1):
                totals[seat_to_player[s]] += out.score[s]
        best = max(totals)
        if best >= r.target and totals[0] != totals[1]:
            return MatchResult(deals, seats, totals, totals.index(best), False)
        if r.next_dealer == "winner" and out.winner is not None:
            dealer = seat_to_player[out.winner]
        else:
            dealer = 1 - dealer
    raise RuntimeError(f"match did not end within {max_deals} deals")


def random_position(seed: int, rules: Rules | str | None = None, trick: int = 1) -> Position:
    """A dealt position played on by random moves until ``trick`` (or the end of the deal)."""
    p = deal(seed, rules)
    rng = random.Random(seed ^ 0x5EED)
    while not p.is_over() and p.trick_number < trick:
        p.push(rng.choice(p.legal_moves()))
    p._stack.clear()
    return p


__all__ = ["DealRecord", "GreedyPlayer", "MatchResult", "Player", "RandomPlayer", "deal",
           "play_deal", "play_match", "random_position"]
