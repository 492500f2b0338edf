"""Position: the complete state of a deal, its legal moves, push/pop, views and BPN.

>>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
>>> [str(m) for m in p.legal_moves()]
['7S', '9D', 'QD', 'KD', '7C', 'AC', '+mD']
>>> p.push("KD"); p.bpn()
'brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35'
"""
from __future__ import annotations

from solver.bits import follow_mask, points_of, popcount, trick_winner
from solver.cards import (ACE, RANKS, SEVEN, SUITS, NotationError, bit, card, card_str, cards_of,
                          cards_str, format_hand, parse_card, parse_cards, parse_hand, parse_suit,
                          suit_mask)
from solver.melds import (ACE_OF_TRUMPS, BLANK_COURTS, BLANK_PLAIN, COURT_MASK, MARRIAGE, MELDS,
                          QUARTET, SEQUENCE, parse_meld_code)
from solver.moves import DECLARE_BASE, EXCHANGE, EXCHANGE_CODE, PASS, PASS_CODE, Move, move
from solver.rules import Rules

SEATS = "ab"
WIN_VALUE = 10000
OPTIONAL_KEYS = ("tricks", "final", "melds", "exchanged", "game", "taken", "declared")


class BPNError(NotationError):
    """A malformed BPN string; the message names the field and what was expected."""


class PositionError(ValueError):
    """A well-formed but impossible position, or a move that is not legal here."""


class HiddenInformationError(PositionError):
    """The operation needs cards the position does not show (a view with ``?N``)."""


def seat(text) -> int:
    """``'a'``/``'b'`` (or 0/1) to 0/1."""
    if text in (0, 1):
        return int(text)
    t = str(text).strip().lower()
    if t not in ("a", "b"):
        raise NotationError(f"bad player {text!r}: expected a or b")
    return SEATS.index(t)


class Position:
    """A deal in progress.  Mutable: :meth:`push` plays a move, :meth:`pop` takes it back.

    Seat 0 (``a``) is the non-dealer, seat 1 (``b``) the dealer.
    """

    _FIELDS = ("rules", "hands", "unknown", "turnup", "trump", "talon", "talon_count", "out",
               "trick", "turn", "score", "tricks", "final", "melds", "exchanged", "taken", "game",
               "declared", "shown", "ended", "win")
    __slots__ = _FIELDS + ("_stack",)

    def __init__(self, bpn: str | None = None, rules: Rules | None = None):
        self._stack: list[tuple] = []
        if bpn is None:
            self._clear(rules or Rules())
        else:
            _parse_bpn(self, bpn)

    def _clear(self, rules: Rules) -> None:
        self.rules = rules
        self.hands = [0, 0]            # known cards of each hand
        self.unknown = [0, 0]          # hidden cards of each hand (views)
        self.turnup = -1               # card on the table, -1 once taken
        self.trump = 0                 # trump suit 0..3
        self.talon: list[int] | None = None   # face-down cards top first, None when hidden
        self.talon_count = 0
        self.out = 0                   # cards of completed tricks
        self.trick = -1                # card led to the trick in progress
        self.turn = 0
        self.score = [0, 0]
        self.tricks = [0, 0]
        self.final = [0, 0]            # final-phase tricks (Briscan's bonus)
        self.melds: list[list[int]] = [[], []]   # meld indices declared, in order
        self.exchanged = -1            # who took the turnup with the 7 of trumps
        self.taken = -1                # the card so taken
        self.game = [0, 0]
        self.declared = 0              # declarations at the current turn
        self.shown = [0, 0]            # cards each player has shown (declarations, exchange, turnup)
        self.ended = False
        self.win = -1                  # player who won the game by an event (quartet, vole)

    # ------------------------------------------------------------------ copying
    def _snapshot(self) -> tuple:
        return (self.hands[:], self.unknown[:], self.turnup, self.talon_count, self.out, self.trick,
                self.turn, self.score[:], self.tricks[:], self.final[:],
                [self.melds[0][:], self.melds[1][:]], self.exchanged, self.taken, self.declared,
                self.shown[:], self.ended, self.win,
                self.talon[:] if self.talon is not None else None)

    def _restore(self, s: tuple) -> None:
        (self.hands, self.unknown, self.turnup, self.talon_count, self.out, self.trick, self.turn,
         self.score, self.tricks, self.final, self.melds, self.exchanged, self.taken, self.declared,
         self.shown, self.ended, self.win, self.talon) = s

    def copy(self) -> "Position":
        """An independent copy (without the move stack)."""
        p = Position.__new__(Position)
        p._stack = []
        p.rules, p.trump, p.game = self.rules, self.trump, self.game[:]
        p._restore(self._snapshot())
        return p

    __copy__ = copy

    def __eq__(self, other) -> bool:
        return isinstance(other, Position) and self.bpn() == other.bpn()

    def __hash__(self) -> int:
        return hash(self.bpn())

    # ------------------------------------------------------------------ derived facts
    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (17 after the last one in a 16-trick deal)."""
        return 1 + popcount(self.out) // 2

    @property
    def completed(self) -> int:
        return popcount(self.out) // 2

    @property
    def leader(self) -> int:
        """The player who leads (or led) the current trick."""
        return self.turn if self.trick < 0 else 1 - self.turn

    @property
    def in_window(self) -> bool:
        """Brisque's last-pickup window: talon drawn, turnup still on the table."""
        return self.rules.draws and self.talon_count == 0 and self.turnup >= 0 and not self.ended

    @property
    def in_final_phase(self) -> bool:
        """No talon and no turnup: the forced-follow final phase."""
        return self.rules.draws and self.turnup < 0

    @property
    def forced_follow(self) -> bool:
        return self.in_final_phase or self.rules.forced_follow_from_start

    @property
    def seven_of_trumps(self) -> int:
        return card(self.trump, SEVEN)

    @property
    def has_hidden(self) -> bool:
        """True when some card's place is unknown (hidden hands or an unordered talon)."""
        return bool(self.unknown[0] or self.unknown[1] or self._talon_hidden)

    @property
    def _talon_hidden(self) -> bool:
        return self.rules.draws and self.talon_count > 0 and self.talon is None

    def hand_size(self, player) -> int:
        p = seat(player)
        return popcount(self.hands[p]) + self.unknown[p]

    def is_over(self) -> bool:
        return self.ended

    # ------------------------------------------------------------------ legal moves
    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to act: cards, then ``x``/``pass``, then declarations."""
        if self.ended:
            return []
        me = self.turn
        if self.unknown[me]:
            raise HiddenInformationError(
                f"the legal moves of {SEATS[me]} are unknown: {SEATS[me]}'s hand is hidden in {self.bpn()!r}")
        hand = self.hands[me]
        if self.in_window:
            moves = [PASS]
            if hand >> self.seven_of_trumps & 1:
                moves.insert(0, EXCHANGE)
            return moves
        if self.trick >= 0 and self.forced_follow:
            playable = follow_mask(hand, self.trick, self.trump, self.rules.must_beat)
        else:
            playable = hand
        moves = [move(c) for c in cards_of(playable)]
        if self._can_exchange():
            moves.append(EXCHANGE)
        if self._may_declare():
            moves.extend(move(DECLARE_BASE + i) for i in self._declarable())
        return moves

    def _can_exchange(self) -> bool:
        r = self.rules
        if not r.exchange or self.turnup < 0 or self.in_window:
            return False
        if self.turnup == self.seven_of_trumps or not self.hands[self.turn] >> self.seven_of_trumps & 1:
            return False
        return not (r.exchange_on_lead_only and self.trick >= 0)

    def _may_declare(self) -> bool:
        r = self.rules
        if not r.has_declarations or self.trick >= 0 or self.trick_number < 2:
            return False
        if self.in_final_phase and not r.final_declarations:
            return False
        return not (r.one_declaration_per_turn and self.declared)

    def _declarable(self) -> list[int]:
        """Indices of the melds the player to move may declare now."""
        me, hand, game = self.turn, self.hands[self.turn], self.rules.game
        # every meld exists once in the pack, except carte blanche: once per player
        done = set(self.melds[me]) | {m for m in self.melds[1 - me]
                                      if MELDS[m].kind not in (BLANK_COURTS, BLANK_PLAIN)}
        used_seq, used_mar = self._used_cards(me)
        out = []
        for m in _GAME_MELDS[game]:
            if m.index in done or m.cards & hand != m.cards:
                continue
            if m.kind == MARRIAGE:
                ok = hand & m.cards == m.cards and not (m.cards & (used_seq | used_mar))
            elif m.kind == QUARTET:
                ok = hand & m.cards == m.cards and (game == "briscan" or RANKS[m.rank] in "KQ")
            elif game != "briscan":
                ok = False
            elif m.kind == SEQUENCE:
                ok = hand & m.cards == m.cards and not (m.cards & (used_seq | used_mar))
            elif m.kind == ACE_OF_TRUMPS:
                # not obtained by the exchange, and not already counted in a sequence
                # (a sequence's cards may later count only in a quartet)
                ace = card(self.trump, ACE)
                ok = (bool(hand >> ace & 1) and not (self.exchanged == me and self.taken == ace)
                      and not used_seq >> ace & 1)
            else:  # carte blanche needs a five-card hand, none of it counted in a sequence
                courts = hand & COURT_MASK
                ok = (popcount(hand) == 5 and not hand & used_seq
                      and (courts == hand if m.kind == BLANK_COURTS else courts == 0))
            if ok:
                out.append(m.index)
        return out

    def _used_cards(self, player: int) -> tuple[int, int]:
        """Cards of ``player``'s declared sequences and marriages (Briscan's reuse rules)."""
        seq = mar = 0
        for i in self.melds[player]:
            m = MELDS[i]
            if m.kind == SEQUENCE:
                seq |= m.cards
            elif m.kind == MARRIAGE:
                mar |= m.cards
        return seq, mar

    def is_legal(self, m) -> bool:
        try:
            return int(m) in self.legal_moves()
        except HiddenInformationError:
            return False

    # ------------------------------------------------------------------ playing
    def push(self, m, check: bool = True) -> None:
        """Play move ``m`` (a :class:`Move`, int or move string); :meth:`pop` takes it back.

        ``check=False`` skips the legality test, for callers that iterate over
        :meth:`legal_moves` themselves (searches).
        """
        if isinstance(m, str):
            from solver.moves import parse_move
            m = parse_move(m)
        m = int(m)
        if self.ended:
            raise PositionError(f"move {Move(m)} after the end of the deal in {self.bpn()!r}")
        if not check:
            pass
        elif not self.unknown[self.turn]:
            if m not in self.legal_moves():
                raise PositionError(
                    f"illegal move {Move(m)} in {self.bpn()!r}; legal: {' '.join(map(str, self.legal_moves()))}")
        elif not self._possible_for_hidden(m):
            raise HiddenInformationError(
                f"cannot play {Move(m)} for {SEATS[self.turn]} with a hidden hand in {self.bpn()!r}")
        self._stack.append(self._snapshot())
        try:
            if m < 32:
                self._play_card(m)
            elif m == EXCHANGE_CODE:
                self._exchange()
            elif m == PASS_CODE:
                self._take_turnup(1 - self.turn)
            else:
                self._declare(m - DECLARE_BASE)
        except BaseException:
            self._restore(self._stack.pop())
            raise

    def pop(self) -> None:
        """Take back the last pushed move."""
        if not self._stack:
            raise PositionError("pop() with no move to take back")
        self._restore(self._stack.pop())

    def apply(self, m) -> "Position":
        """A new position after move ``m``; this one is unchanged."""
        p = self.copy()
        p.push(m)
        p._stack.clear()
        return p

    def _could_hold(self, c: int) -> bool:
        """Whether a hidden hand could hold card ``c`` (it is not visible anywhere)."""
        return not (self._visible() >> c & 1) and self.trick != c

    def _possible_for_hidden(self, m: int) -> bool:
        """Whether the player to act, whose hand is partly hidden (a view), could make move ``m``:
        one of his known cards or an unseen one; at the last pickup only ``x`` or ``pass``."""
        hand = self.hands[self.turn]
        if self.in_window:
            seven = self.seven_of_trumps
            return m == PASS_CODE or (m == EXCHANGE_CODE and bool(hand >> seven & 1 or self._could_hold(seven)))
        return m < 32 and bool(hand >> m & 1 or self._could_hold(m))

    def _play_card(self, c: int) -> None:
        me = self.turn
        b = 1 << c
        if self.hands[me] & b:
            self.hands[me] &= ~b
        else:
            self.unknown[me] -= 1
        self.shown[me] &= ~b
        self.declared = 0
        if self.trick < 0:
            self.trick = c
            self.turn = 1 - me
            return
        led, leader = self.trick, 1 - me
        winner = me if trick_winner(led, c, self.trump) else leader
        self.score[winner] += points_of((1 << led) | b)
        self.tricks[winner] += 1
        if self.in_final_phase:
            self.final[winner] += 1
        self.out |= (1 << led) | b
        self.trick = -1
        self.turn = winner
        if self.hand_size(0) == 0 and self.hand_size(1) == 0 and (self.talon_count == 0 or not self.rules.draws):
            self._end_of_play(winner)
        elif self.rules.draws and self.turnup >= 0:
            self._draw(winner)

    def _draw_one(self, player: int) -> None:
        if self.talon is not None:
            c = self.talon.pop(0)
            self.hands[player] |= 1 << c
        else:
            self.unknown[player] += 1
        self.talon_count -= 1

    def _draw(self, winner: int) -> None:
        loser = 1 - winner
        self._draw_one(winner)
        if self.talon_count > 0:
            self._draw_one(loser)
            return
        seven = self.seven_of_trumps
        if (self.rules.last_pickup_window and self.turnup != seven
                and (self.hands[winner] >> seven & 1 or (self.unknown[winner] and self._could_hold(seven)))):
            return  # the winner may exchange (x) or pass: a decision of its own
        self._take_turnup(loser)

    def _take_turnup(self, player: int) -> None:
        c = self.turnup
        self.hands[player] |= 1 << c
        self.shown[player] |= 1 << c
        self.turnup = -1
        self._start_final_phase()

    def _start_final_phase(self) -> None:
        if self.rules.game == "briscan":  # last five cards: a hand of five trumps scores 30
            trumps = suit_mask(self.trump)
            for p in (0, 1):
                if not self.unknown[p] and popcount(self.hands[p]) == 5 and self.hands[p] & trumps == self.hands[p]:
                    self.score[p] += 30

    def _exchange(self) -> None:
        me, seven, old = self.turn, self.seven_of_trumps, self.turnup
        if not self.hands[me] >> seven & 1:  # a view: the 7 was one of the hidden cards
            self.unknown[me] -= 1
        self.hands[me] = (self.hands[me] & ~(1 << seven)) | (1 << old)
        self.shown[me] = (self.shown[me] & ~(1 << seven)) | (1 << old)
        self.exchanged, self.taken = me, old
        self.score[me] += self.rules.exchange_points
        if self.in_window:  # the loser receives the 7 and the final phase starts
            self.hands[1 - me] |= 1 << seven
            self.shown[1 - me] |= 1 << seven
            self.turnup = -1
            self._start_final_phase()
        else:
            self.turnup = seven

    def _declare(self, index: int) -> None:
        me, m = self.turn, MELDS[index]
        self.melds[me].append(index)
        self.declared += 1
        self.score[me] += m.points(self.trump, self.rules.game)
        self.shown[me] |= self.hands[me] if m.kind in (BLANK_COURTS, BLANK_PLAIN) else m.cards_for(self.trump)
        if m.kind == QUARTET and self.rules.game == "brisque":
            self.ended = True
            if self.rules.quartet_win == "game":
                self.win = me
            else:  # every card point not yet taken, and the last trick
                self.score[me] += 120 - points_of(self.out) + self.rules.last_trick_bonus

    def _end_of_play(self, last_winner: int) -> None:
        r = self.rules
        self.ended = True
        self.score[last_winner] += r.last_trick_bonus
        if r.game == "briscan":
            for p in (0, 1):
                if self.final[p] == 5:
                    self.score[p] += 20
                if self.tricks[p] >= 9:
                    self.score[p] += 10
                if self.tricks[p] == 16:
                    self.win = p

    # ------------------------------------------------------------------ outcome
    def outcome(self) -> "Outcome | None":
        """The result once the deal is over, else None."""
        if not self.ended:
            return None
        return Outcome(tuple(self.score), tuple(self.tricks), None if self.win < 0 else self.win,
                       self.rules)

    def value(self, player=None) -> int:
        """The objective (margin, or tricks) of a finished deal for ``player`` (default: to move)."""
        p = self.turn if player is None else seat(player)
        if self.win >= 0:
            return WIN_VALUE if self.win == p else -WIN_VALUE
        if self.rules.objective == "tricks":
            return self.tricks[p] - self.tricks[1 - p]
        return self.score[p] - self.score[1 - p]

    # ------------------------------------------------------------------ views
    def view(self, player) -> "Position":
        """What ``player`` knows: the opponent's unseen cards and the talon order hidden.

        When the talon is empty every card's place follows from the cards out, so the view
        is the whole position.
        """
        p = seat(player)
        v = self.copy()
        v.talon = None if v.rules.draws and v.talon_count > 0 else v.talon
        if v.rules.draws and v.talon_count == 0:
            return v
        o = 1 - p
        hidden = v.hands[o] & ~v.shown[o]
        v.hands[o] &= v.shown[o]
        v.unknown[o] += popcount(hidden)
        return v

    # ------------------------------------------------------------------ validity
    def _visible(self) -> int:
        m = self.hands[0] | self.hands[1] | self.out
        if self.turnup >= 0:
            m |= 1 << self.turnup
        if self.trick >= 0:
            m |= 1 << self.trick
        if self.talon:
            for c in self.talon:
                m |= 1 << c
        return m

    def problems(self) -> list[str]:
        """Why this position is impossible; empty when it is valid."""
        from solver.validity import position_problems
        return position_problems(self)

    def is_valid(self) -> bool:
        return not self.problems()

    def validate(self) -> "Position":
        """Raise :class:`PositionError` naming every problem; return self when valid."""
        probs = self.problems()
        if probs:
            raise PositionError(f"impossible position {self.bpn()!r}: " + "; ".join(probs))
        return self

    # ------------------------------------------------------------------ notation
    def bpn(self) -> str:
        """The canonical BPN string."""
        return _format_bpn(self)

    def __str__(self) -> str:
        return self.bpn()

    def __repr__(self) -> str:
        return f"Position({self.bpn()!r})"

    @property
    def move_stack(self) -> list:
        return list(self._stack)


# The melds each game knows; ace of trumps and carte blanche have no fixed cards (0).
_GAME_MELDS = {
    "brisque": tuple(m for m in MELDS if m.kind == MARRIAGE or m.code in ("kK", "kQ")),
    "briscan": MELDS,
    "petite": (),
}


class Outcome:
    """The result of a finished deal."""
    __slots__ = ("score", "tricks", "win", "rules")

    def __init__(self, score, tricks, win, rules):
        self.score, self.tricks, self.win, self.rules = score, tricks, win, rules

    @property
    def winner(self) -> int | None:
        """Who won the deal: by a game-winning event, most tricks (Petite) or most points."""
        if self.win is not None:
            return self.win
        key = self.tricks if self.rules.objective == "tricks" else self.score
        if key[0] == key[1]:
            return None
        return 0 if key[0] > key[1] else 1

    def margin(self, player=0) -> int:
        p = seat(player)
        if self.win is not None:
            return WIN_VALUE if self.win == p else -WIN_VALUE
        key = self.tricks if self.rules.objective == "tricks" else self.score
        return key[p] - key[1 - p]

    def __repr__(self) -> str:
        w = "" if self.win is None else f", win={SEATS[self.win]!r}"
        return f"Outcome(score={self.score[0]}:{self.score[1]}, tricks={self.tricks[0]}:{self.tricks[1]}{w})"


# ====================================================================== BPN
def _pair(field: str, text: str, signed: bool = True) -> list[int]:
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        return [int(parts[0]), int(parts[1])]
    except ValueError:
        raise BPNError(f"bad {field} field {text!r}: expected two whole numbers A:B, e.g. 52:35") from None


def _parse_hand_field(text: str, who: str) -> tuple[int, int]:
    t = text.strip()
    try:
        if t.startswith("?"):
            return 0, _count(t[1:])
        known, plus, hidden = t.partition("+?")
        return parse_hand(known), (_count(hidden) if plus else 0)
    except (NotationError, ValueError) as exc:
        raise BPNError(
            f"bad hand of {who} {text!r}: expected S.H.D.C suit groups (e.g. 'AT.KQ.7.8'), "
            f"optionally '+?N' for N hidden cards, or '?N' for a fully hidden hand ({exc})") from None


def _count(text: str) -> int:
    """A whole number written in ASCII digits (ValueError otherwise, or when absurdly long)."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{text!r} is not a card count")
    return int(text)


def _parse_bpn(p: Position, bpn: str) -> None:
    if not isinstance(bpn, str):
        raise BPNError(f"bad BPN {bpn!r}: expected a string")
    fields = bpn.split()
    if len(fields) < 8:
        raise BPNError(
            f"bad BPN {bpn!r}: expected 8 fields 'rules hands trump talon out trick turn score' "
            f"and optional key=value fields, got {len(fields)}")
    rules_f, hands_f, trump_f, talon_f, out_f, trick_f, turn_f, score_f = fields[:8]
    try:
        rules = Rules.parse(rules_f)
    except NotationError as exc:
        raise BPNError(f"bad rules field in {bpn!r}: {exc}") from None
    p._clear(rules)
    halves = hands_f.split("/")
    if len(halves) != 2:
        raise BPNError(f"bad hands field {hands_f!r}: expected two hands A/B separated by '/'")
    for i in (0, 1):
        p.hands[i], p.unknown[i] = _parse_hand_field(halves[i], SEATS[i])
    try:
        if len(trump_f.strip()) == 1:
            p.trump = parse_suit(trump_f)
        else:
            p.turnup = parse_card(trump_f)
            p.trump = p.turnup >> 3
    except NotationError:
        raise BPNError(f"bad trump field {trump_f!r}: expected the turnup card (e.g. '9C') "
                       f"or, once it is taken, the trump suit alone (e.g. 'C')") from None
    if talon_f.isdigit():
        try:
            p.talon_count = _count(talon_f)
        except ValueError:
            raise BPNError(f"bad talon field {talon_f!r}: expected the number of face-down cards "
                           f"(e.g. '13') or the cards in draw order (e.g. 'KH9S8C')") from None
        p.talon = [] if p.talon_count == 0 else None
    else:
        try:
            p.talon = parse_cards(talon_f)
        except NotationError:
            raise BPNError(f"bad talon field {talon_f!r}: expected the number of face-down cards "
                           f"(e.g. '13') or the cards in draw order (e.g. 'KH9S8C')") from None
        p.talon_count = len(p.talon)
        if not rules.draws:
            raise BPNError(f"bad talon field {talon_f!r}: in {rules.game} without drawing the talon "
                           f"is dead and given by its number (21)")
    if out_f != "-":
        try:
            p.out = parse_hand(out_f)
        except NotationError as exc:
            raise BPNError(f"bad out field {out_f!r}: expected '-' or cards in hand form S.H.D.C ({exc})") from None
    if trick_f != "-":
        try:
            p.trick = parse_card(trick_f)
        except NotationError:
            raise BPNError(f"bad trick field {trick_f!r}: expected '-' or the card led, e.g. 'KD'") from None
    try:
        p.turn = seat(turn_f)
    except NotationError:
        raise BPNError(f"bad turn field {turn_f!r}: expected a or b") from None
    p.score = _pair("score", score_f)
    seen = set()
    for extra in fields[8:]:
        key, eq, value = extra.partition("=")
        key = key.lower()
        if not eq or key not in OPTIONAL_KEYS:
            raise BPNError(f"bad optional field {extra!r}: expected key=value with key one of "
                           f"{', '.join(OPTIONAL_KEYS)}")
        if key in seen:
            raise BPNError(f"bad optional field {extra!r}: {key} given twice")
        seen.add(key)
        if key in ("tricks", "final", "game"):
            setattr(p, key, _pair(key, value))
        elif key == "melds":
            p.melds = _parse_melds(value)
        elif key == "exchanged":
            try:
                p.exchanged = seat(value)
            except NotationError:
                raise BPNError(f"bad optional field {extra!r}: expected exchanged=a or exchanged=b") from None
        elif key == "taken":
            try:
                p.taken = parse_card(value)
            except NotationError:
                raise BPNError(f"bad optional field {extra!r}: expected taken=CARD, e.g. taken=AH") from None
        else:
            try:
                p.declared = _count(value)
            except ValueError:
                raise BPNError(f"bad optional field {extra!r}: expected declared=N, a whole number") from None
    if p.taken >= 0 and p.exchanged < 0:
        raise BPNError(f"bad optional field 'taken={card_str(p.taken)}': it needs exchanged=a or exchanged=b")
    _derive_state(p)


def _parse_melds(value: str) -> list[list[int]]:
    halves = value.split("/")
    if len(halves) != 2:
        raise BPNError(f"bad optional field 'melds={value}': expected CODES/CODES for a and b, "
                       f"'+'-joined codes or '-', e.g. melds=mH+3KS/-")
    out: list[list[int]] = [[], []]
    for i, half in enumerate(halves):
        if half in ("-", ""):
            continue
        for code in half.split("+"):
            try:
                out[i].append(parse_meld_code(code).index)
            except NotationError as exc:
                raise BPNError(f"bad optional field 'melds={value}': {exc}") from None
    return out


def _derive_state(p: Position) -> None:
    """Fill in what BPN does not spell out: shown cards, end of deal, game-winning events."""
    for i in (0, 1):
        for m in p.melds[i]:
            meld = MELDS[m]
            if meld.kind not in (BLANK_COURTS, BLANK_PLAIN):
                p.shown[i] |= meld.cards_for(p.trump)
    if p.exchanged >= 0 and p.taken >= 0:
        p.shown[p.exchanged] |= 1 << p.taken
    for i in (0, 1):
        p.shown[i] &= p.hands[i]
    r = p.rules
    if r.game == "brisque":
        for i in (0, 1):
            if any(MELDS[m].kind == QUARTET for m in p.melds[i]):
                p.ended = True
                if r.quartet_win == "game":
                    p.win = i
    if r.game == "briscan":
        for i in (0, 1):
            if p.tricks[i] == r.tricks_per_deal:
                p.win = i
    if p.completed >= r.tricks_per_deal and p.trick < 0 and not p.hand_size(0) and not p.hand_size(1):
        p.ended = True


def _format_hand_field(known: int, unknown: int) -> str:
    if unknown and not known:
        return f"?{unknown}"
    return format_hand(known) + (f"+?{unknown}" if unknown else "")


def _format_bpn(p: Position) -> str:
    fields = [
        str(p.rules),
        _format_hand_field(p.hands[0], p.unknown[0]) + "/" + _format_hand_field(p.hands[1], p.unknown[1]),
        card_str(p.turnup) if p.turnup >= 0 else SUITS[p.trump],
        cards_str(p.talon) if p.talon else str(p.talon_count),
        format_hand(p.out) if p.out else "-",
        card_str(p.trick) if p.trick >= 0 else "-",
        SEATS[p.turn],
        f"{p.score[0]}:{p.score[1]}",
    ]
    if p.tricks != [0, 0]:
        fields.append(f"tricks={p.tricks[0]}:{p.tricks[1]}")
    if p.final != [0, 0]:
        fields.append(f"final={p.final[0]}:{p.final[1]}")
    if p.melds[0] or p.melds[1]:
        # canonical: in meld-table order, so that declaring in either order is one position
        codes = ["+".join(MELDS[m].code for m in sorted(ms)) or "-" for ms in p.melds]
        fields.append(f"melds={codes[0]}/{codes[1]}")
    if p.exchanged >= 0:
        fields.append(f"exchanged={SEATS[p.exchanged]}")
    if p.game != [0, 0]:
        fields.append(f"game={p.game[0]}:{p.game[1]}")
    if p.exchanged >= 0 and p.taken >= 0:
        fields.append(f"taken={card_str(p.taken)}")
    if p.declared:
        fields.append(f"declared={p.declared}")
    return " ".join(fields)


__all__ = ["BPNError", "HiddenInformationError", "Outcome", "Position", "PositionError", "SEATS",
           "WIN_VALUE", "seat"]
