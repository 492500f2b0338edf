"""A game at the table: a person against the engine, one deal or a whole game to the target.

The table holds the whole deal (the engine's cards and the talon's order: it deals them) and
shows the person only what he may see (:meth:`Table.view`: his hand, the turnup and trump,
the talon's count, the scores, the melds declared, the cards out and whose turn it is).  A
table is its settings and the moves played: :meth:`Table.to_dict` is all there is to keep,
and :meth:`Table.from_dict` replays it, so a game survives a reload or a restart.

The seats alternate: the person sits at ``seat`` (a, the elder hand, or b, the dealer) in
the first deal and at the other seat in the next, as the deal passes.  The deals of a
seed are those of a match of that seed (:func:`solver.play.match.deal_seed`), each dealt
with the game totals so far.

>>> t = Table.new("brisque", seat="a", level=1, seed=7)
>>> v = t.view()
>>> v["you"], v["turn"], len(v["hand"]), v["talon"]
('a', 'you', 6, 19)
>>> t.play(v["legal"][0]["move"])
>>> t.view()["turn"]
'engine'
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from solver.errors import ArgumentError, IllegalMoveError, PositionError, RecordError
from solver.formats.records import DealRecord
from solver.model.bits import trick_winner
from solver.model.cards import DISPLAY_SYMBOLS, card_str, cards_by_suit
from solver.model.melds import ACE_OF_TRUMPS, BLANK_COURTS, MARRIAGE, QUARTET, SEQUENCE
from solver.model.moves import EXCHANGE, PASS, Move, parse_move
from solver.model.position import SEATS, Position
from solver.model.pure_bits import cards_of
from solver.model.ranges import MAX_SEED, short_value, whole_or_none
from solver.model.rules import Rules, as_rules
from solver.play.dealing import deal
from solver.play.levels import DEFAULT_LEVEL, Level
from solver.play.levels import level as level_of
from solver.play.match import deal_seed
from solver.play.players import make_player

GAMES = ("brisque", "briscan", "petite")
SUIT_LETTERS = "SHDC"


def pretty_card(c: int) -> str:
    """A card with its suit symbol: ``A♠``, ``10♥``.

    >>> pretty_card(7), pretty_card(14)
    ('A♠', '10♥')
    """
    text = card_str(c)
    rank = "10" if text[0] == "T" else text[0]
    return rank + DISPLAY_SYMBOLS[SUIT_LETTERS.index(text[1])]


def move_label(p: Position, m: Move) -> dict[str, Any]:
    """A move as the page shows it: ``move`` (notation), ``kind`` (card, declare, exchange,
    pass), ``label`` with suit symbols and ``points`` (what a declaration or the exchange
    scores at once).

    >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
    >>> move_label(p, parse_move("+mD"))["label"]
    'Declare the marriage in trumps: K♦ Q♦'
    """
    if m.is_card:
        return {"move": str(m), "kind": "card", "label": pretty_card(int(m)), "points": 0}
    if m == EXCHANGE:
        seven = p.seven_of_trumps
        return {
            "move": str(m),
            "kind": "exchange",
            "label": f"Exchange the {pretty_card(seven)} for the turnup",
            "points": p.rules.exchange_points,
        }
    if m == PASS:
        return {"move": str(m), "kind": "pass", "label": "Leave the turnup", "points": 0}
    meld = m.meld
    assert meld is not None
    cards = " ".join(pretty_card(c) for c in sorted(cards_of(meld.cards_for(p.trump)), reverse=True))
    name = meld_name(meld.kind, meld.code, meld.suit == p.trump)
    return {
        "move": str(m),
        "kind": "declare",
        "label": f"Declare {name}" + (f": {cards}" if cards else ""),
        "points": meld.points(p.trump, p.rules.game),
    }


_QUARTETS = {"A": "aces", "T": "tens", "K": "kings", "Q": "queens", "J": "jacks"}
_TOPS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine"}


def meld_name(kind: int, code: str, in_trumps: bool = False) -> str:
    """A meld in words.

    >>> meld_name(MARRIAGE, "mH", True), meld_name(QUARTET, "kK"), meld_name(SEQUENCE, "4AS")
    ('the marriage in trumps', 'four kings', 'a sequence of 4 to the ace')
    """
    if kind == MARRIAGE:
        return "the marriage in trumps" if in_trumps else "the marriage"
    if kind == QUARTET:
        return f"four {_QUARTETS[code[1]]}"
    if kind == SEQUENCE:
        return f"a sequence of {code[0]} to the {_TOPS[code[1]]}"
    if kind == ACE_OF_TRUMPS:
        return "the ace of trumps"
    if kind == BLANK_COURTS:
        return "carte blanche (no court card)"
    return "carte blanche"


def _declared(p: Position, m: Move) -> dict[str, Any]:
    """A meld declared, as the page lists it: its move, its name and cards, its points."""
    label = move_label(p, m)
    return {
        "move": label["move"],
        "label": label["label"].removeprefix("Declare "),
        "points": label["points"],
    }


@dataclass
class Table:
    """A game against the engine: its settings and the moves of every deal so far (the
    last deal is the one in progress, or the one just finished)."""

    rules: Rules
    seat: int  # the person's seat in the first deal (0: a, 1: b)
    level: Level
    seed: int
    whole_game: bool = False
    deals: list[list[Move]] = field(default_factory=lambda: [[]])
    # moves taken back (each take-back that undid at least one move): the result of a game
    # played with take-backs says so
    take_backs: int = 0
    # the start of each deal, once made: it depends only on the deals before it, which are
    # over and never change (a take-back changes the last deal only)
    _starts: dict[int, str] = field(default_factory=dict, repr=False, compare=False)

    # ---------------------------------------------------------------- making one
    @classmethod
    def new(
        cls,
        game: str = "brisque",
        seat: str = "a",
        level: int = DEFAULT_LEVEL,
        seed: int | None = None,
        whole_game: bool = False,
    ) -> Table:
        """A new table; ``seed`` None draws one (the seed gives the same cards again)."""
        if game not in GAMES:
            raise ArgumentError(f"game={short_value(game)}: expected one of {', '.join(GAMES)}")
        if seat not in ("a", "b"):
            raise ArgumentError(
                f"seat={short_value(seat)}: expected a (the elder hand, who leads) or b (the dealer)"
            )
        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        s = whole_or_none(seed)
        if s is None or not 0 <= s <= MAX_SEED:
            raise ArgumentError(f"seed={short_value(seed)}: expected a whole number from 0 to {MAX_SEED}")
        return cls(as_rules(game), SEATS.index(seat), level_of(level), s, bool(whole_game))

    # ---------------------------------------------------------------- the deals
    def person_seat(self, deal_index: int | None = None) -> int:
        """The person's seat in a deal (the last one by default): the seats alternate."""
        i = len(self.deals) - 1 if deal_index is None else deal_index
        return self.seat if i % 2 == 0 else 1 - self.seat

    def start(self, deal_index: int) -> Position:
        """The start of a deal, dealt with the game totals before it."""
        known = self._starts.get(deal_index)
        if known is not None:
            return Position(known)
        a, b = self.totals(deal_index)
        p = deal(deal_seed(self.seed, deal_index), self.rules, game=(a, b))
        self._starts[deal_index] = p.bpn()
        return p

    def totals(self, deal_index: int | None = None) -> list[int]:
        """The game totals of a and b, the seats of that deal, before a deal (by default,
        after every finished deal: at the seats of the last one): the points of each deal
        (the deals won, in Petite Brisque), which follow the players as the seats change."""
        end = len(self.deals) if deal_index is None else deal_index
        person_engine = [0, 0]
        for i in range(end):
            p = self.position(i)
            if not p.is_over():
                break
            out = p.outcome()
            assert out is not None
            me = self.person_seat(i)
            if self.rules.objective == "tricks":
                if out.winner is not None:
                    person_engine[0 if out.winner == me else 1] += 1
            else:
                person_engine[0] += out.score[me]
                person_engine[1] += out.score[1 - me]
        seat = self.person_seat(min(end, len(self.deals) - 1) if deal_index is None else deal_index)
        return person_engine if seat == 0 else person_engine[::-1]

    def _person_engine_totals(self) -> list[int]:
        """The game totals of the person and the engine, after the last deal once it is over."""
        t = self.totals()
        me = self.person_seat()
        return [t[me], t[1 - me]]

    def position(self, deal_index: int | None = None) -> Position:
        """The whole position of a deal now (every card: the table's own, never the page's),
        with its moves on the stack."""
        i = len(self.deals) - 1 if deal_index is None else deal_index
        p = self.start(i)
        for m in self.deals[i]:
            p.push(m)
        return p

    def game_winner(self) -> int | None:
        """The seat letter's index of the winner of the game, or None while it goes on (a
        single deal: its winner, once it is over)."""
        p = self.position()
        if not p.is_over():
            return None
        out = p.outcome()
        assert out is not None
        if not self.whole_game or out.win is not None:
            return out.winner
        totals = self.totals()
        if max(totals) >= self.rules.target and totals[0] != totals[1]:
            return 0 if totals[0] > totals[1] else 1
        return None

    def game_over(self) -> bool:
        p = self.position()
        if not p.is_over():
            return False
        return not self.whole_game or self.game_winner() is not None or p.outcome().win is not None  # type: ignore[union-attr]

    # ---------------------------------------------------------------- playing
    def persons_turn(self) -> bool:
        p = self.position()
        return not p.is_over() and p.turn == self.person_seat()

    def play(self, move: str | Move) -> None:
        """The person's move; an error quoting it unless it is his turn and the move legal."""
        p = self.position()
        if p.is_over():
            raise IllegalMoveError(f"move {short_value(move)}: the deal is over")
        if p.turn != self.person_seat():
            raise IllegalMoveError(f"move {short_value(move)}: it is the engine's turn")
        m = parse_move(move) if isinstance(move, str) else move
        legal = p.legal_moves()
        if m not in legal:
            raise IllegalMoveError(
                f"move {short_value(move)} is not legal here: expected one of {' '.join(map(str, legal))}"
            )
        self.deals[-1].append(Move(int(m)))

    def engine_choose(self) -> Move:
        """The engine's move now (it thinks: call it off the page's thread)."""
        p = self.position()
        if p.is_over() or p.turn == self.person_seat():
            raise IllegalMoveError("it is not the engine's turn")
        player = make_player(self.level.spec, seed=self.seed)
        return Move(int(player.choose(p)))

    def engine_play(self, m: Move) -> None:
        """Play the engine's move ``m`` (from :meth:`engine_choose`)."""
        p = self.position()
        if p.is_over() or p.turn == self.person_seat() or m not in p.legal_moves():
            raise IllegalMoveError(f"the engine's move {m} does not fit the table")
        self.deals[-1].append(Move(int(m)))

    def next_deal(self) -> None:
        """Deal the next deal of a whole game (the last one over, the game not)."""
        if not self.position().is_over():
            raise IllegalMoveError("the deal is not over yet")
        if self.game_over():
            raise IllegalMoveError("the game is over")
        self.deals.append([])

    def take_back(self, moves_kept: int) -> None:
        """Take the deal back to its first ``moves_kept`` moves, to play on from there."""
        n = whole_or_none(moves_kept)
        if n is None or not 0 <= n <= len(self.deals[-1]):
            raise ArgumentError(
                f"moves_kept={short_value(moves_kept)}: expected a whole number from 0 to {len(self.deals[-1])}"
            )
        if n < len(self.deals[-1]):
            self.take_backs += 1
        del self.deals[-1][n:]

    # ---------------------------------------------------------------- what the person sees
    def view(self) -> dict[str, Any]:
        """Everything the page may show now, from the person's seat: nothing of the
        engine's hand but the cards it showed, nothing of the talon but its count."""
        p = self.position()
        me = self.person_seat()
        opp = 1 - me
        who = {me: "you", opp: "engine"}
        mine = p.view(me)
        over = p.is_over()
        tricks, on_table = self._tricks(me)
        out: dict[str, Any] = {
            "game": self.rules.game,
            "rules": str(self.rules),
            "level": {"number": self.level.number, "name": self.level.name},
            # the seed deals every card: shown once the game is over, never while it is played
            "seed": self.seed if over and self.game_over() else None,
            "whole_game": self.whole_game,
            "deal": len(self.deals),
            "moves_played": len(self.deals[-1]),  # (of this deal: a take-back keeps fewer)
            "take_backs": self.take_backs,
            "you": SEATS[me],
            "turn": None if over else who[p.turn],
            "hand": [card_str(c) for suit in cards_by_suit(mine.hands[me]) for c in suit],
            "engine_cards": bin(p.hands[opp]).count("1"),
            "engine_shown": [card_str(c) for c in cards_of(p.shown[opp] & p.hands[opp])],
            "trump": SUIT_LETTERS[p.trump],
            "turnup": None if p.turnup < 0 else card_str(p.turnup),
            "talon": p.talon_count,
            "score": {"you": p.score[me], "engine": p.score[opp]},
            "tricks": {"you": p.tricks[me], "engine": p.tricks[opp]},
            "totals": dict(zip(("you", "engine"), self._person_engine_totals())),
            "target": self.rules.target,
            "melds": {who[s]: [_declared(p, Move(40 + i)) for i in p.melds[s]] for s in (0, 1)},
            "trick": on_table,
            "played": tricks,
            "legal": [move_label(p, m) for m in p.legal_moves()] if not over and p.turn == me else [],
            "over": over,
        }
        if over:
            o = p.outcome()
            assert o is not None
            out["result"] = {
                "score": {"you": o.score[me], "engine": o.score[opp]},
                "winner": None if o.winner is None else who[o.winner],
                "game_won": None if o.win is None else who[o.win],
            }
            out["game_over"] = self.game_over()
            winner = self.game_winner()
            out["game_winner"] = None if winner is None else who[winner]
        return out

    def _tricks(self, me: int) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        """The tricks played (each card and who played it, and who won) and the cards on
        the table now: public, from the moves."""
        p = self.start(len(self.deals) - 1)
        who = {me: "you", 1 - me: "engine"}
        done: list[dict[str, Any]] = []
        current: list[dict[str, str]] = []
        for m in self.deals[-1]:
            mover = p.turn
            p.push(m)
            if m.is_card:
                current.append({"by": who[mover], "card": card_str(int(m))})
                if len(current) == 2:
                    led, follow = (parse_move(c["card"]) for c in current)
                    follower = mover
                    winner = follower if trick_winner(int(led), int(follow), p.trump) else 1 - follower
                    done.append({"cards": current, "winner": who[winner]})
                    current = []
        return done, current

    # ---------------------------------------------------------------- keeping it
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": str(self.rules),
            "seat": SEATS[self.seat],
            "level": self.level.number,
            "seed": self.seed,
            "whole_game": self.whole_game,
            "deals": [[str(m) for m in d] for d in self.deals],
            "take_backs": self.take_backs,
        }

    @classmethod
    def from_dict(cls, d: object) -> Table:
        """The table of :meth:`to_dict`'s object, replayed: a RecordError quoting what does not
        fit."""
        shown = short_value(d)
        if not isinstance(d, dict):
            raise RecordError(f"table {shown}: expected a JSON object as Table.to_dict writes it")
        try:
            t = cls.new(
                str(d["game"]).split("(")[0], d["seat"], d["level"], d["seed"], d.get("whole_game", False)
            )
            t.rules = as_rules(d["game"])
            backs = d.get("take_backs", 0)
            if isinstance(backs, bool) or not isinstance(backs, int) or backs < 0:
                raise ValueError(f"take_backs={short_value(backs)}: expected a whole number")
            t.take_backs = backs
            t.deals = []
            for i, moves in enumerate(d["deals"]):
                t.deals.append([])
                p = t.start(i)
                for text in moves:
                    m = parse_move(text)
                    p.push(m)
                    t.deals[-1].append(m)
        except (KeyError, TypeError, ValueError, ArgumentError, PositionError) as exc:
            raise RecordError(f"table {shown}: {exc}") from None
        if not t.deals:
            raise RecordError(f"table {shown}: no deal")
        return t

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def records(self, finished_only: bool = True) -> list[DealRecord]:
        """Each deal as a deal record (``brisque line --record`` reads them)."""
        out = []
        for i, moves in enumerate(self.deals):
            if finished_only and not self.position(i).is_over():
                continue
            players = ["you", self.level.spec]
            if self.person_seat(i) == 1:
                players.reverse()
            out.append(
                DealRecord(
                    start=self.start(i).bpn(),
                    moves=[str(m) for m in moves],
                    players=(players[0], players[1]),
                    whole_game=self.whole_game,
                )
            )
        return out


__all__ = ["GAMES", "Table", "meld_name", "move_label", "pretty_card"]
