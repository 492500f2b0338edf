"""Position: the complete state of a deal, its legal moves, push/pop, views and BPN.

>>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
>>> [str(m) for m in p.legal_moves()]
['7S', '9D', 'QD', 'KD', '7C', 'AC', '+mD']
>>> p.push("KD"); p.bpn()
'brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from solver.errors import (
    ArgumentError,
    ArgumentTypeError,
    BPNError,
    HiddenInformationError,
    IllegalMoveError,
    ImpossiblePositionError,
    NotationError,
    PositionError,
)
from solver.model.bits import follow_mask, points_of, popcount, trick_winner
from solver.model.bpn import SEATS, BPNParts, format_bpn, parse_bpn, seat
from solver.model.cards import (
    ACE,
    RANKS,
    SEVEN,
    card,
    card_str,
    cards_of,
    suit_mask,
)
from solver.model.melds import (
    ACE_OF_TRUMPS,
    BLANK_COURTS,
    BLANK_PLAIN,
    COURT_MASK,
    MARRIAGE,
    MELDS,
    QUARTET,
    SEQUENCE,
    game_melds,
)
from solver.model.moves import (
    DECLARE_BASE,
    EXCHANGE,
    EXCHANGE_CODE,
    PASS,
    PASS_CODE,
    Move,
    as_move,
    move,
)
from solver.model.outcome import Outcome
from solver.model.ranges import (
    MAX_CARDS,
    MAX_DECLARED,
    MAX_GAME_TOTAL,
    MAX_SCORE,
    MAX_TRICKS,
    short_value,
    whole_or_none,
)
from solver.model.rules import Rules, as_rules
from solver.model.value import Value
from solver.native.constants import PACK_POINTS

# the state push() saves and pop() restores: every field but rules, trump and game, in _restore's order
_Snapshot = tuple[
    list[int],
    list[int],
    int,
    int,
    int,
    int,
    int,
    list[int],
    list[int],
    list[int],
    list[list[int]],
    int,
    int,
    int,
    list[int],
    bool,
    int,
    list[int] | None,
    list[int],
    int,
]


def _copy_snapshot(s: _Snapshot) -> _Snapshot:
    """A snapshot with lists of its own (pop() makes them the position's, which then change)."""
    return cast(
        "_Snapshot",
        tuple([x[:] if isinstance(x, list) else x for x in v] if isinstance(v, list) else v for v in s),
    )


class Position:
    """A deal in progress.  Mutable: :meth:`push` plays a move, :meth:`pop` takes it back.

    Seat 0 (``a``) is the non-dealer, seat 1 (``b``) the dealer.
    """

    _FIELDS = (
        "rules",
        "hands",
        "unknown",
        "turnup",
        "trump",
        "talon",
        "talon_count",
        "out",
        "trick",
        "turn",
        "score",
        "tricks",
        "final",
        "melds",
        "exchanged",
        "taken",
        "game",
        "declared",
        "shown",
        "ended",
        "win",
        "voids",
        "drawn",
    )
    __slots__ = _FIELDS + ("_stack", "_moves")
    talon: list[int] | None
    melds: list[list[int]]

    def __init__(self, bpn: str | None = None):
        if bpn is None:
            # (an empty position is no position: nothing could be played or solved in it)
            raise ArgumentError(
                "Position() needs a BPN string, such as "
                "Position('brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35'); "
                "solver.deal(seed) deals a new one and Position.from_parts(...) builds one from fields"
            )
        if not isinstance(bpn, str):
            raise ArgumentTypeError(
                f"Position({short_value(bpn)}): expected a BPN string, such as "
                f"'brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35', "
                f"not {type(bpn).__name__}"
            )
        self._stack: list[_Snapshot] = []
        self._moves: list[Move] = []  # the moves of _stack, for move_stack
        self._assign(parse_bpn(bpn))

    @classmethod
    def empty(cls, rules: Rules) -> Position:
        """A position with no card anywhere, for code that fills in every field itself
        (such as :func:`solver.deal`); not valid until then.

        >>> Position.empty(Rules()).is_valid()
        False
        """
        p = cls.__new__(cls)
        p._stack, p._moves = [], []
        p._clear(rules)
        return p

    @classmethod
    def from_bpn(cls, bpn: str) -> Position:
        """The position a BPN string describes (the same as ``Position(bpn)``)."""
        return cls(bpn)

    @classmethod
    def from_parts(
        cls,
        rules: Rules | str | None = None,
        *,
        hands: tuple[int, int] = (0, 0),
        unknown: tuple[int, int] = (0, 0),
        trump: int = 0,
        turnup: int = -1,
        talon: list[int] | None = None,
        talon_count: int | None = None,
        out: int = 0,
        trick: int = -1,
        turn: int | str = 0,
        score: tuple[int, int] = (0, 0),
        tricks: tuple[int, int] = (0, 0),
        final: tuple[int, int] = (0, 0),
        melds: tuple[list[int], list[int]] = ([], []),
        exchanged: int | str = -1,
        taken: int = -1,
        declared: int = 0,
        game: tuple[int, int] = (0, 0),
        drawn: int = 0,
    ) -> Position:
        """A position from its parts, as card masks and seats (0 = a, 1 = b); what BPN does
        not spell out (shown cards, the end of the deal, game wins) is derived as for BPN.

        ``talon`` is the draw order, top first (``None``: hidden, ``talon_count`` cards).
        ``trump`` is taken from ``turnup`` when a turnup is given.  The result is not
        validated: call :meth:`validate` or :meth:`problems`, which name what makes it
        impossible.  Each argument must be of its kind, in the range BPN can write (card
        masks 0 to 2**32 - 1, cards 0 to 31 or -1 for none, suits 0 to 3, seats 'a'/'b' or
        0/1, counts from 0, whole-number pairs): anything else is an
        :class:`~solver.errors.ArgumentError` (an :class:`~solver.errors.ArgumentTypeError`
        for the wrong type) naming the argument.

        >>> p = Position.from_parts("petite", hands=(0b11, 0b1100), trump=2, turn="b")
        >>> p.bpn()
        'petite 87.../J9... D 0 - - b 0:0'
        >>> Position.from_parts(trump=9)
        Traceback (most recent call last):
        ...
        solver.errors.ArgumentError: from_parts: trump=9: expected a suit from 0 to 3 (S, H, D, C)
        """
        r = as_rules(rules)
        talon, count = _talon_arg(talon, talon_count, r)
        turnup = _arg(turnup, "turnup", -1, 31, _CARD_OR_NONE)
        taken = _arg(taken, "taken", -1, 31, _CARD_OR_NONE)
        exchanged = _exchanged_arg(exchanged, taken)
        parts = BPNParts(
            rules=r,
            hands=_pair_arg(hands, "hands", 0, _ALL_CARDS, _MASK),
            unknown=_pair_arg(unknown, "unknown", 0, MAX_CARDS, _COUNT),
            trump=turnup >> 3 if turnup >= 0 else _arg(trump, "trump", 0, 3, _SUIT),
            turnup=turnup,
            talon=talon if talon is not None else ([] if count == 0 else None),
            talon_count=count,
            out=_arg(out, "out", 0, _ALL_CARDS, _MASK),
            trick=_arg(trick, "trick", -1, 31, _CARD_OR_NONE),
            turn=_seat_arg(turn, "turn"),
            score=_signed_pair_arg(score, "score", MAX_SCORE),
            tricks=_signed_pair_arg(tricks, "tricks", MAX_TRICKS),
            final=_signed_pair_arg(final, "final", MAX_TRICKS),
            melds=_melds_arg(melds),
            exchanged=exchanged,
            taken=taken,
            declared=_arg(declared, "declared", 0, MAX_DECLARED, f"a count from 0 to {MAX_DECLARED}"),
            game=_signed_pair_arg(game, "game", MAX_GAME_TOTAL),
            drawn=_arg(drawn, "drawn", 0, _ALL_CARDS, _MASK),
        )
        p = cls.empty(r)
        p._assign(parts)
        return p

    def _assign(self, parts: BPNParts) -> None:
        """Take the parts a BPN states and derive the rest."""
        self._clear(parts.rules)
        self.hands, self.unknown = list(parts.hands), list(parts.unknown)
        self.trump, self.turnup = parts.trump, parts.turnup
        self.talon = list(parts.talon) if parts.talon is not None else None
        self.talon_count, self.out, self.trick, self.turn = (
            parts.talon_count,
            parts.out,
            parts.trick,
            parts.turn,
        )
        self.score, self.tricks, self.final = list(parts.score), list(parts.tricks), list(parts.final)
        self.melds = [list(parts.melds[0]), list(parts.melds[1])]
        self.exchanged, self.taken, self.declared = parts.exchanged, parts.taken, parts.declared
        self.voids = list(parts.voids)
        for i in (0, 1):
            if parts.shown[i] & ~parts.hands[i]:
                names = " ".join(card_str(c) for c in cards_of(parts.shown[i] & ~parts.hands[i]))
                raise BPNError(f"bad optional field 'shown=': {SEATS[i]} does not hold {names}")
        self.shown = list(parts.shown)  # what BPN states; _derive_state adds what it implies
        self.game = list(parts.game)
        self.drawn = parts.drawn
        _derive_state(self)

    def _clear(self, rules: Rules) -> None:
        self.rules = rules
        self.hands = [0, 0]  # known cards of each hand
        self.unknown = [0, 0]  # hidden cards of each hand (views)
        self.turnup = -1  # card on the table, -1 once taken
        self.trump = 0  # trump suit 0..3
        self.talon = None  # face-down cards top first, None when hidden
        self.talon_count = 0
        self.out = 0  # cards of completed tricks
        self.trick = -1  # card led to the trick in progress
        self.turn = 0
        self.score = [0, 0]
        self.tricks = [0, 0]
        self.final = [0, 0]  # final-phase tricks (Briscan's bonus)
        self.melds = [[], []]  # meld indices declared, in order
        self.exchanged = -1  # who took the turnup with the 7 of trumps
        self.taken = -1  # the card so taken
        self.game = [0, 0]
        self.declared = 0  # declarations at the current turn
        self.shown = [0, 0]  # cards each player has shown (declarations, exchange, turnup)
        self.ended = False
        self.win = -1  # player who won the game by an event (quartet, vole)
        # suits each player has shown out of (bit s: suit s), until he next draws a card
        self.voids = [0, 0]
        # under declare=before_draw: cards the player to act received since he won the last
        # trick (drawn, or a turnup taken), which cannot be part of his declarations
        self.drawn = 0

    # ------------------------------------------------------------------ copying
    def _snapshot(self) -> _Snapshot:
        return (
            self.hands[:],
            self.unknown[:],
            self.turnup,
            self.talon_count,
            self.out,
            self.trick,
            self.turn,
            self.score[:],
            self.tricks[:],
            self.final[:],
            [self.melds[0][:], self.melds[1][:]],
            self.exchanged,
            self.taken,
            self.declared,
            self.shown[:],
            self.ended,
            self.win,
            self.talon[:] if self.talon is not None else None,
            self.voids[:],
            self.drawn,
        )

    def _restore(self, s: _Snapshot) -> None:
        (
            self.hands,
            self.unknown,
            self.turnup,
            self.talon_count,
            self.out,
            self.trick,
            self.turn,
            self.score,
            self.tricks,
            self.final,
            self.melds,
            self.exchanged,
            self.taken,
            self.declared,
            self.shown,
            self.ended,
            self.win,
            self.talon,
            self.voids,
            self.drawn,
        ) = s

    def copy(self, stack: bool = False) -> Position:
        """An independent copy; ``stack=True`` keeps the move stack too (:meth:`pop` then
        takes back the same moves in the copy), as ``copy.copy`` and ``copy.deepcopy`` do.

        Without it (the default) the copy has no move to take back: the cheap copy a search
        or a game tree makes at every node, which would otherwise copy every earlier
        position of the line as well.

        >>> import copy
        >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
        >>> p.push("KD")
        >>> p.copy().move_stack, p.copy(stack=True).move_stack, copy.copy(p).move_stack
        ([], [Move('KD')], [Move('KD')])
        """
        p = Position.__new__(Position)
        if stack:  # (each snapshot's lists become the position's own again on pop: not shared)
            p._stack = [_copy_snapshot(s) for s in self._stack]
            p._moves = self._moves[:]
        else:
            p._stack = []
            p._moves = []
        p.rules, p.trump, p.game = self.rules, self.trump, self.game[:]
        p._restore(self._snapshot())
        return p

    def __copy__(self) -> Position:
        return self.copy(stack=True)  # (as copy.deepcopy: the same position, moves and all)

    def __eq__(self, other: object) -> bool:
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
    def tricks_recorded(self) -> bool:
        """Whether ``tricks`` counts the tricks taken: a Brisque BPN need not record them
        (``tricks=0:0`` or no key after completed tricks means *not recorded*, docs/notation.md).

        >>> Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35").tricks_recorded
        False
        """
        return not (self.rules.game == "brisque" and self.tricks == [0, 0] and self.completed > 0)

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

    def hand_size(self, player: int | str) -> int:
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
                f"the legal moves of {SEATS[me]} are unknown: {SEATS[me]}'s hand is hidden in {self.bpn()!r}"
            )
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
        return self._exchange_open() and bool(self.hands[self.turn] >> self.seven_of_trumps & 1)

    def _exchange_open(self) -> bool:
        """Whether the rules and the moment allow the talon-phase exchange, to whoever holds
        the 7 of trumps (the player to act)."""
        r = self.rules
        if not r.exchange or self.turnup < 0 or self.in_window or self.turnup == self.seven_of_trumps:
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
        # (declared before the draw: what came into the hand since the trick does not count)
        hand &= ~self.drawn
        # every meld exists once in the pack, except carte blanche: once per player
        done = set(self.melds[me]) | {
            m for m in self.melds[1 - me] if MELDS[m].kind not in (BLANK_COURTS, BLANK_PLAIN)
        }
        used_seq, used_mar = self._used_cards(me)
        out = []
        for m in game_melds(game):
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
                ok = (
                    bool(hand >> ace & 1)
                    and not (self.exchanged == me and self.taken == ace)
                    and not used_seq >> ace & 1
                )
            else:  # carte blanche needs a five-card hand, none of it counted in a sequence
                courts = hand & COURT_MASK
                ok = (
                    popcount(hand) == 5
                    and not hand & used_seq
                    and (courts == hand if m.kind == BLANK_COURTS else courts == 0)
                )
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

    def is_legal(self, m: Move | int | str) -> bool:
        """Whether move ``m`` (what :meth:`push` takes: a :class:`Move`, an int code or a move
        string) is legal here; False when the hand to play is hidden.

        >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
        >>> p.is_legal("7S"), p.is_legal("AS")
        (True, False)
        """
        m = as_move(m)
        try:
            return m in self.legal_moves()
        except HiddenInformationError:
            return False

    # ------------------------------------------------------------------ playing
    def push(self, m: Move | int | str, check: bool = True) -> None:
        """Play move ``m`` (a :class:`Move`, int or move string); :meth:`pop` takes it back.

        ``check=False`` skips the legality test, for callers that iterate over
        :meth:`legal_moves` themselves (searches).
        """
        if type(m) is not Move:  # (the moves of legal_moves pass as they are)
            m = as_move(m)
        m = int(m)
        if self.ended:
            raise IllegalMoveError(f"move {Move(m)} after the end of the deal in {self.bpn()!r}")
        if not check:
            pass
        elif not self.unknown[self.turn]:
            if m not in self.legal_moves():
                raise IllegalMoveError(
                    f"illegal move {Move(m)} in {self.bpn()!r}; legal: {' '.join(map(str, self.legal_moves()))}"
                )
        elif not self._possible_for_hidden(m):
            raise HiddenInformationError(
                f"cannot play {Move(m)} for {SEATS[self.turn]} with a hidden hand in {self.bpn()!r}"
            )
        self._stack.append(self._snapshot())
        self._moves.append(move(m))
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
            self._moves.pop()
            raise

    def pop(self) -> Move:
        """Take back the last pushed move, and return it (as python-chess's ``Board.pop``).

        >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
        >>> p.push("KD"); p.pop()
        Move('KD')
        """
        if not self._stack:
            raise PositionError("pop() with no move to take back")
        self._restore(self._stack.pop())
        return self._moves.pop()

    def clear_stack(self) -> None:
        """Forget the moves played so far: they can no longer be taken back."""
        self._stack.clear()
        self._moves.clear()

    def apply(self, m: Move | int | str) -> Position:
        """A new position after move ``m``; this one is unchanged."""
        p = self.copy()
        p.push(m)
        p.clear_stack()
        return p

    def _could_hold(self, c: int, player: int | None = None) -> bool:
        """Whether the hidden hand of ``player`` (default: the player to act) could hold card
        ``c``: it is not visible anywhere, and he has not shown out of its suit."""
        p = self.turn if player is None else player
        return not (self.visible() >> c & 1) and self.trick != c and not (self.voids[p] >> (c >> 3) & 1)

    def _possible_for_hidden(self, m: int) -> bool:
        """Whether the player to act, whose hand is partly hidden (a view), could make move ``m``:
        one of his known cards or an unseen one, or ``x`` if he may hold the 7 of trumps; at
        the last pickup only ``x`` or ``pass``."""
        hand, seven = self.hands[self.turn], self.seven_of_trumps
        may_hold_seven = bool(hand >> seven & 1 or self._could_hold(seven))
        if self.in_window:
            return m == PASS_CODE or (m == EXCHANGE_CODE and may_hold_seven)
        if m == EXCHANGE_CODE:
            return self._exchange_open() and may_hold_seven
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
        self.drawn = 0
        if self.trick < 0:
            self.trick = c
            self.turn = 1 - me
            return
        led, leader = self.trick, 1 - me
        if self.forced_follow and c >> 3 != led >> 3:
            # he would have followed suit, and failing that trumped: he has shown out
            self.voids[me] |= 1 << (led >> 3)
            if c >> 3 != self.trump:
                self.voids[me] |= 1 << self.trump
        winner = me if trick_winner(led, c, self.trump) else leader
        self.score[winner] += points_of((1 << led) | b)
        self.tricks[winner] += 1
        if self.in_final_phase:
            self.final[winner] += 1
        self.out |= (1 << led) | b
        self.trick = -1
        self.turn = winner
        hands, unknown = self.hands, self.unknown
        if (
            hands[0] == 0
            and hands[1] == 0
            and unknown[0] == 0
            and unknown[1] == 0
            and (self.talon_count == 0 or not self.rules.draws)
        ):
            self._end_of_play(winner)
        elif self.rules.draws and self.turnup >= 0:
            self._draw(winner)

    def _draw_one(self, player: int) -> None:
        # the card drawn may be of a suit he had shown out of: his voids no longer hold
        self.voids[player] = 0
        if self.talon is not None:
            c = self.talon.pop(0)
            self.hands[player] |= 1 << c
        else:
            self.unknown[player] += 1
        self.talon_count -= 1

    def _draw(self, winner: int) -> None:
        loser = 1 - winner
        if self.rules.declare == "before_draw" and self.talon:
            self.drawn = 1 << self.talon[0]  # (the winner's declarations came before it)
        self._draw_one(winner)
        if self.talon_count > 0:
            self._draw_one(loser)
            return
        seven = self.seven_of_trumps
        if (
            self.rules.last_pickup_window
            and self.turnup != seven
            and (
                self.hands[winner] >> seven & 1 or (self.unknown[winner] and self._could_hold(seven, winner))
            )
        ):
            return  # the winner may exchange (x) or pass: a decision of its own
        self._take_turnup(loser)

    def _take_turnup(self, player: int) -> None:
        c = self.turnup
        self.voids[player] &= ~(1 << (c >> 3))  # he now holds a card of that suit
        self.hands[player] |= 1 << c
        self.shown[player] |= 1 << c
        self.turnup = -1
        self._start_final_phase()

    def _start_final_phase(self) -> None:
        if self.rules.game == "briscan":  # last five cards: a hand of five trumps scores 30
            trumps = suit_mask(self.trump)
            for p in (0, 1):
                if (
                    not self.unknown[p]
                    and popcount(self.hands[p]) == 5
                    and self.hands[p] & trumps == self.hands[p]
                ):
                    self.score[p] += 30

    def _exchange(self) -> None:
        me, seven, old = self.turn, self.seven_of_trumps, self.turnup
        if not self.hands[me] >> seven & 1:  # a view: the 7 was one of the hidden cards
            self.unknown[me] -= 1
        self.hands[me] = (self.hands[me] & ~(1 << seven)) | (1 << old)
        self.shown[me] = (self.shown[me] & ~(1 << seven)) | (1 << old)
        self.exchanged, self.taken = me, old
        self.score[me] += self.rules.exchange_points
        if self.rules.declare == "before_draw" and self.trick < 0:
            # (on lead: taken after the moment of declaring; the 7 has left the hand)
            self.drawn = (self.drawn & ~(1 << seven)) | (1 << old)
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
                self.score[me] += PACK_POINTS - points_of(self.out) + self.rules.last_trick_bonus

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
    def outcome(self) -> Outcome | None:
        """The result once the deal is over, else None."""
        if not self.ended:
            return None
        return Outcome(
            score=(self.score[0], self.score[1]),
            tricks=(self.tricks[0], self.tricks[1]),
            win=None if self.win < 0 else self.win,
            rules=self.rules,
        )

    def value(self, player: int | str | None = None) -> Value:
        """The objective (margin, or tricks) of a finished deal for ``player`` (default: to
        move), or the game won outright.  A deal not over is a :class:`PositionError`: its
        value is what :func:`solver.solve` finds.

        >>> Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35").value()
        Traceback (most recent call last):
        ...
        solver.errors.PositionError: the deal is not over in 'brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35': value() is the result of a finished deal; solver.solve(position) finds the value of one in play
        """
        p = self.turn if player is None else seat(player)
        if not self.ended:
            raise PositionError(
                f"the deal is not over in {self.bpn()!r}: value() is the result of a finished deal; "
                f"solver.solve(position) finds the value of one in play"
            )
        if self.win >= 0:
            return Value.game_won(self.win, p)
        if self.rules.objective == "tricks":
            return Value.margin(self.tricks[p] - self.tricks[1 - p], p)
        return Value.margin(self.score[p] - self.score[1 - p], p)

    # ------------------------------------------------------------------ views
    def view(self, player: int | str) -> Position:
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
        v.drawn &= v.hands[v.turn]  # (a card the opponent drew unseen stays unseen)
        return v

    # ------------------------------------------------------------------ validity
    def visible(self) -> int:
        """The cards whose place this position shows: hands, cards out, turnup, trick and a
        known talon."""
        m = self.hands[0] | self.hands[1] | self.out
        if self.turnup >= 0:
            m |= 1 << self.turnup
        if self.trick >= 0:
            m |= 1 << self.trick
        if self.talon:
            for c in self.talon:
                m |= 1 << c
        return m

    def unseen(self) -> int:
        """The cards whose place this position does not show (hidden hands, a hidden talon,
        Petite Brisque's dead cards)."""
        return ~self.visible() & 0xFFFFFFFF

    def void_cards(self, player: int) -> int:
        """Every card of the suits ``player`` has shown out of: cards he cannot hold."""
        return sum(0xFF << (8 * s) for s in range(4) if self.voids[player] >> s & 1)

    def problems(self) -> list[str]:
        """Why this position is impossible; empty when it is valid."""
        from solver.model.validity import position_problems

        return position_problems(self)

    def is_valid(self) -> bool:
        return not self.problems()

    def validate(self) -> Position:
        """Raise :class:`PositionError` naming every problem; return self when valid."""
        probs = self.problems()
        if probs:
            raise ImpossiblePositionError(self.bpn(), probs)
        return self

    # ------------------------------------------------------------------ notation
    def bpn(self) -> str:
        """The canonical BPN string."""
        return format_bpn(self)

    def __str__(self) -> str:
        return self.bpn()

    def __repr__(self) -> str:
        return f"Position({self.bpn()!r})"

    def _repr_svg_(self) -> str:
        """The card diagram, for notebooks (:mod:`solver.model.svg`)."""
        from solver.model.svg import svg

        return svg(self)

    def _repr_html_(self) -> str:
        from html import escape

        from solver.model.svg import svg

        return (
            f'<div>{svg(self)}<p style="font-family:monospace;font-size:80%">{escape(self.bpn())}</p></div>'
        )

    @property
    def move_stack(self) -> list[Move]:
        """The moves that :meth:`pop` can take back, oldest first (as in python-chess).

        >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
        >>> p.push("KD"); p.move_stack
        [Move('KD')]
        """
        return list(self._moves)


# what from_parts expects of its arguments (for its messages)
_ALL_CARDS = (1 << 32) - 1
_MASK = "a card mask, a whole number from 0 to 2**32 - 1 (bit c: card c)"
_CARD = "a card code from 0 to 31"
_CARD_OR_NONE = "-1 (none) or a card code from 0 to 31"
_SUIT = "a suit from 0 to 3 (S, H, D, C)"
_COUNT = f"a count of cards from 0 to {MAX_CARDS}"


def _same(value: object, n: int) -> bool:
    return whole_or_none(value) == n


def _arg(value: object, name: str, low: int, high: int, expected: str) -> int:
    """Argument ``name`` of :meth:`Position.from_parts` as a whole number in ``low..high``."""
    n = whole_or_none(value)
    if n is None:
        raise ArgumentTypeError(
            f"from_parts: {name}={short_value(value)}: expected {expected}, not {type(value).__name__}"
        )
    if not low <= n <= high:
        raise ArgumentError(f"from_parts: {name}={short_value(value)}: expected {expected}")
    return n


def _pair_arg(value: object, name: str, low: int, high: int, expected: str) -> list[int]:
    """Argument ``name`` of :meth:`Position.from_parts`: a pair (a's, b's) of whole numbers."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ArgumentTypeError(
            f"from_parts: {name}={short_value(value)}: expected a pair (a's, b's) of {expected}"
        )
    return [_arg(v, f"{name}[{i}]", low, high, expected) for i, v in enumerate(value)]


def _signed_pair_arg(value: object, name: str, limit: int) -> list[int]:
    """Argument ``name`` of :meth:`Position.from_parts`: a pair of whole numbers from
    ``-limit`` to ``limit``.

    >>> _signed_pair_arg((3, -2), "score", 10)
    [3, -2]
    """
    return _pair_arg(value, name, -limit, limit, f"whole numbers from {-limit} to {limit}")


def _talon_arg(talon: list[int] | None, talon_count: int | None, r: Rules) -> tuple[list[int] | None, int]:
    """Arguments ``talon`` and ``talon_count`` of :meth:`Position.from_parts`: the talon's
    cards top first (``None``: hidden) and how many there are.

    >>> _talon_arg([3, 4], None, Rules())
    ([3, 4], 2)
    """
    if talon is not None:
        if not isinstance(talon, (list, tuple)):
            raise ArgumentTypeError(
                f"from_parts: talon={short_value(talon)}: expected None or a list of card codes "
                f"(0 to 31), top first, not {type(talon).__name__}"
            )
        if len(talon) > MAX_CARDS:
            raise ArgumentError(f"from_parts: talon={short_value(talon)}: expected at most {MAX_CARDS} cards")
        if talon and not r.draws:
            raise ArgumentError(
                f"from_parts: talon={short_value(talon)}: in {r.game} without drawing the talon is "
                f"dead and given by talon_count"
            )
        talon = [_arg(c, f"talon[{i}]", 0, 31, _CARD) for i, c in enumerate(talon)]
        count = len(talon)
    else:
        count = 0 if talon_count is None else _arg(talon_count, "talon_count", 0, MAX_CARDS, _COUNT)
    return talon, count


def _exchanged_arg(exchanged: int | str, taken: int) -> int:
    """Argument ``exchanged`` of :meth:`Position.from_parts`: the seat that exchanged (-1:
    none), which a card ``taken`` by the exchange needs.

    >>> _exchanged_arg("b", 5)
    1
    """
    exchanged = -1 if _same(exchanged, -1) else _seat_arg(exchanged, "exchanged", "-1 (no exchange) or ")
    if taken >= 0 and exchanged < 0:
        raise ArgumentError(
            f"from_parts: taken={taken}: a card taken by the exchange needs exchanged (a or b)"
        )
    return exchanged


def _seat_arg(value: object, name: str, other: str = "") -> int:
    """Argument ``name`` of :meth:`Position.from_parts`: a seat, as :func:`seat` reads one."""
    try:
        return seat(value)
    except NotationError:
        error = (
            ArgumentError
            if isinstance(value, (str, int)) and not isinstance(value, bool)
            else ArgumentTypeError
        )
        raise error(
            f"from_parts: {name}={short_value(value)}: expected {other}a seat: 'a' or 'b' (or 0 or 1)"
        ) from None


def _melds_arg(value: object) -> list[list[int]]:
    """Argument ``melds`` of :meth:`Position.from_parts`: a pair of lists of meld indices."""
    expected = f"a pair (a's, b's) of lists of meld indices (0 to {len(MELDS) - 1})"
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ArgumentTypeError(f"from_parts: melds={short_value(value)}: expected {expected}")
    out: list[list[int]] = []
    for i, half in enumerate(value):
        if not isinstance(half, (tuple, list)):
            raise ArgumentTypeError(f"from_parts: melds[{i}]={short_value(half)}: expected {expected}")
        out.append(
            [
                _arg(m, f"melds[{i}]", 0, len(MELDS) - 1, f"meld indices from 0 to {len(MELDS) - 1}")
                for m in half
            ]
        )
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


def as_position(position: Position | str, name: str = "position") -> Position:
    """``position`` itself, or the position its BPN string describes: what every function
    that takes a position accepts.  Anything else is an :class:`ArgumentTypeError` that
    quotes it (``name`` is the argument's name in the message).

    >>> as_position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35").turn
    0
    >>> as_position(42)
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: position=42: expected a Position or a BPN string, not int
    """
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position(position)
    raise ArgumentTypeError(
        f"{name}={short_value(position)}: expected a Position or a BPN string, not {type(position).__name__}"
    )


def as_positions(positions: Iterable[Position | str], name: str = "positions") -> list[Position]:
    """The positions of a list (or any iterable) of Positions and BPN strings, each as
    :func:`as_position` reads it.  One position or one string instead of a list (a string
    would be read one character at a time) is an :class:`ArgumentTypeError`, as is a value
    that is not iterable.

    >>> as_positions("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: positions='brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35': expected a list of Positions or BPN strings, not one str (give [position])
    """
    if isinstance(positions, (str, Position)):
        raise ArgumentTypeError(
            f"{name}={short_value(positions, 100)}: expected a list of Positions or BPN strings, "
            f"not one {type(positions).__name__} (give [position])"
        )
    try:
        items = list(positions)
    except TypeError:
        raise ArgumentTypeError(
            f"{name}={short_value(positions)}: expected a list of Positions or BPN strings, "
            f"not {type(positions).__name__}"
        ) from None
    return [as_position(x, name[:-1] if name.endswith("s") else name) for x in items]


__all__ = ["Outcome", "Position", "SEATS", "as_position", "as_positions", "seat"]
