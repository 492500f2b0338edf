"""BPN, the position notation of NOTATION.md: parsing into parts and canonical formatting.

Parsing is liberal (case, ``10`` for ``T``, suit symbols) and strict about structure; every
error names the field and what was expected.  :class:`~solver.model.position.Position`
builds itself from the parts and derives what BPN leaves implicit.

>>> p = parse_bpn("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
>>> p.turn, p.talon_count, format_bpn(p)
(1, 0, 'brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35')
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Protocol

from solver.errors import BPNError, NotationError, RulesError
from solver.model.cards import (
    SUITS,
    card_str,
    cards_of,
    cards_str,
    format_hand,
    parse_card,
    parse_cards,
    parse_hand,
    parse_suit,
)
from solver.model.melds import BLANK_COURTS, BLANK_PLAIN, MELDS, parse_meld_code
from solver.model.ranges import (
    MAX_CARDS,
    MAX_DECLARED,
    MAX_GAME_TOTAL,
    MAX_SCORE,
    MAX_TRICKS,
    short,
    short_value,
    whole_number,
)
from solver.model.rules import Rules

SEATS = "ab"
OPTIONAL_KEYS = (
    "tricks",
    "final",
    "melds",
    "exchanged",
    "game",
    "void",
    "shown",
    "taken",
    "declared",
    "drawn",
)


def seat(text: object) -> int:
    """``'a'``/``'b'`` (or 0/1) to 0/1.

    >>> seat("B"), seat(0)
    (1, 0)
    """
    if type(text) is int and (text == 0 or text == 1):
        return text  # (the engine's and the searches' hot path: a plain 0 or 1)
    # whole numbers only: 1.0 and True compare equal to 1 but are no seat
    if not isinstance(text, bool) and isinstance(text, numbers.Integral) and text in (0, 1):
        return int(text)
    t = text.strip().lower() if isinstance(text, str) else None
    if t not in ("a", "b"):
        shown = text if isinstance(text, str) else repr(text)
        raise NotationError(f"bad player {short(shown)}: expected a or b (or 0 or 1)")
    return SEATS.index(t)


class BPNFields(Protocol):
    """What a BPN states: the fields :func:`format_bpn` reads (a Position has them all)."""

    rules: Rules
    hands: list[int]
    unknown: list[int]
    trump: int
    turnup: int
    talon: list[int] | None
    talon_count: int
    out: int
    trick: int
    turn: int
    score: list[int]
    tricks: list[int]
    final: list[int]
    melds: list[list[int]]
    exchanged: int
    taken: int
    declared: int
    game: list[int]
    voids: list[int]
    shown: list[int]
    drawn: int


@dataclass(kw_only=True)
class BPNParts:
    """The parts of a position a BPN states, as card masks and seats (0 = a, 1 = b)."""

    rules: Rules
    hands: list[int] = field(default_factory=lambda: [0, 0])  # known cards of each hand
    unknown: list[int] = field(default_factory=lambda: [0, 0])  # hidden cards of each hand
    trump: int = 0
    turnup: int = -1  # -1 once taken
    talon: list[int] | None = None  # draw order, top first; None when hidden
    talon_count: int = 0
    out: int = 0
    trick: int = -1  # the card led, -1 when no trick is in progress
    turn: int = 0
    score: list[int] = field(default_factory=lambda: [0, 0])
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    final: list[int] = field(default_factory=lambda: [0, 0])  # final-phase tricks
    melds: list[list[int]] = field(default_factory=lambda: [[], []])
    exchanged: int = -1
    taken: int = -1
    declared: int = 0
    game: list[int] = field(default_factory=lambda: [0, 0])
    voids: list[int] = field(default_factory=lambda: [0, 0])  # suits shown out of, bit per suit
    # cards each seat has shown that its melds and exchange do not imply (a carte blanche
    # shows the whole hand; the turnup taken at the last pickup is seen by both)
    shown: list[int] = field(default_factory=lambda: [0, 0])
    # under declare=before_draw: the cards the player to act received since he won the last
    # trick (the card drawn, a turnup taken), which his declarations cannot use
    drawn: int = 0


_PAIR_LIMITS = {"score": MAX_SCORE, "tricks": MAX_TRICKS, "final": MAX_TRICKS, "game": MAX_GAME_TOTAL}


def _pair(field: str, text: str) -> list[int]:
    """Two whole numbers A:B, each within the field's range (solver/model/ranges.py)."""
    parts = text.split(":")
    high = _PAIR_LIMITS[field]
    if len(parts) != 2:
        raise BPNError(f"bad {field} field {short(text)}: expected two whole numbers A:B, e.g. 52:35")
    try:  # (a negative number parses: the validity check names it as a problem)
        return [
            whole_number(parts[0], -high, high, signed=True),
            whole_number(parts[1], -high, high, signed=True),
        ]
    except ValueError as exc:
        raise BPNError(f"bad {field} field {short(text)}: {exc} (two numbers A:B)") from None


def _parse_hand_field(text: str, who: str) -> tuple[int, int]:
    t = text.strip()
    try:
        if t.startswith("?"):
            return 0, _count(t[1:])
        known, plus, hidden = t.partition("+?")
        return parse_hand(known), (_count(hidden) if plus else 0)
    except (NotationError, ValueError) as exc:
        raise BPNError(
            f"bad hand of {who} {short(text)}: expected S.H.D.C suit groups (e.g. 'AT.KQ.7.8'), "
            f"optionally '+?N' for N hidden cards, or '?N' for a fully hidden hand ({exc})"
        ) from None


def _count(text: str, high: int = MAX_CARDS) -> int:
    """A whole number written in ASCII digits, at most ``high`` (ValueError otherwise)."""
    return whole_number(text, 0, high)


def parse_bpn(bpn: str) -> BPNParts:
    """The parts a BPN string states; raises :class:`BPNError` naming the bad field.

    >>> parse_bpn("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35").score
    [52, 35]
    """
    if not isinstance(bpn, str):
        raise BPNError(f"bad BPN {short_value(bpn)}: expected a string, not {type(bpn).__name__}")
    fields = bpn.split()
    if len(fields) < 8:
        raise BPNError(
            f"bad BPN {short(bpn)}: expected 8 fields 'rules hands trump talon out trick turn score' "
            f"and optional key=value fields, got {len(fields)}"
        )
    rules_f, hands_f, trump_f, talon_f, out_f, trick_f, turn_f, score_f = fields[:8]
    try:
        rules = Rules.parse(rules_f)
    except NotationError as exc:  # (the field quoted once, then what is wrong with it)
        reason = exc.reason if isinstance(exc, RulesError) and exc.reason else str(exc)
        raise BPNError(f"bad rules field {short(rules_f)}: {reason}") from None
    p = BPNParts(rules=rules)
    halves = hands_f.split("/")
    if len(halves) != 2:
        raise BPNError(f"bad hands field {short(hands_f)}: expected two hands A/B separated by '/'")
    for i in (0, 1):
        p.hands[i], p.unknown[i] = _parse_hand_field(halves[i], SEATS[i])
    _parse_trump(p, trump_f)
    _parse_talon(p, talon_f)
    if out_f != "-":
        try:
            p.out = parse_hand(out_f)
        except NotationError as exc:
            raise BPNError(
                f"bad out field {short(out_f)}: expected '-' or cards in hand form S.H.D.C ({exc})"
            ) from None
    if trick_f != "-":
        try:
            p.trick = parse_card(trick_f)
        except NotationError:
            raise BPNError(
                f"bad trick field {short(trick_f)}: expected '-' or the card led, e.g. 'KD'"
            ) from None
    try:
        p.turn = seat(turn_f)
    except NotationError:
        raise BPNError(f"bad turn field {short(turn_f)}: expected a or b") from None
    p.score = _pair("score", score_f)
    seen: set[str] = set()
    for extra in fields[8:]:
        key, eq, value = extra.partition("=")
        key = key.lower()
        if not eq or key not in OPTIONAL_KEYS:
            raise BPNError(
                f"bad optional field {short(extra)}: expected key=value with key one of {', '.join(OPTIONAL_KEYS)}"
            )
        if key in seen:
            raise BPNError(f"bad optional field {short(extra)}: {key} given twice")
        seen.add(key)
        _parse_optional(p, extra, key, value)
    if p.taken >= 0 and p.exchanged < 0:
        raise BPNError(f"bad optional field 'taken={card_str(p.taken)}': it needs exchanged=a or exchanged=b")
    return p


def _parse_trump(p: BPNParts, trump_f: str) -> None:
    """The trump field: the turnup card, or the trump suit alone once it is taken."""
    try:
        if len(trump_f.strip()) == 1:
            p.trump = parse_suit(trump_f)
        else:
            p.turnup = parse_card(trump_f)
            p.trump = p.turnup >> 3
    except NotationError:
        raise BPNError(
            f"bad trump field {short(trump_f)}: expected the turnup card (e.g. '9C') "
            f"or, once it is taken, the trump suit alone (e.g. 'C')"
        ) from None


def _parse_talon(p: BPNParts, talon_f: str) -> None:
    """The talon field: the number of face-down cards, or the cards in draw order."""
    if talon_f.isdigit():
        try:
            p.talon_count = _count(talon_f)
        except ValueError as exc:
            raise BPNError(
                f"bad talon field {short(talon_f)}: expected the number of face-down cards "
                f"(e.g. '13') or the cards in draw order (e.g. 'KH9S8C'): {exc}"
            ) from None
        p.talon = [] if p.talon_count == 0 else None
        return
    try:
        p.talon = parse_cards(talon_f)
    except NotationError:
        raise BPNError(
            f"bad talon field {short(talon_f)}: expected the number of face-down cards "
            f"(e.g. '13') or the cards in draw order (e.g. 'KH9S8C')"
        ) from None
    p.talon_count = len(p.talon)
    if not p.rules.draws:
        raise BPNError(
            f"bad talon field {short(talon_f)}: in {p.rules.game} without drawing the talon "
            f"is dead and given by its number (21)"
        )


def _parse_optional(p: BPNParts, extra: str, key: str, value: str) -> None:
    """One optional field ``extra`` (``key=value``, the key known and not given before)."""
    if key == "tricks":
        p.tricks = _pair(key, value)
    elif key == "final":
        final = _pair(key, value)
        # (Briscan's alone, for its bonus for the last five tricks; read in every game, as
        # files written when every game printed it carry it, but elsewhere no part of the
        # position, which prints without it: what was read is what is printed back)
        if p.rules.game == "briscan":
            p.final = final
    elif key == "game":
        p.game = _pair(key, value)
    elif key == "void":
        p.voids = _parse_voids(extra, value)
    elif key == "shown":
        p.shown = _parse_shown(extra, value)
    elif key == "melds":
        p.melds = _parse_melds(value)
    elif key == "exchanged":
        try:
            p.exchanged = seat(value)
        except NotationError:
            raise BPNError(
                f"bad optional field {short(extra)}: expected exchanged=a or exchanged=b"
            ) from None
    elif key == "taken":
        try:
            p.taken = parse_card(value)
        except NotationError:
            raise BPNError(f"bad optional field {short(extra)}: expected taken=CARD, e.g. taken=AH") from None
    elif key == "drawn":
        p.drawn = _parse_drawn(extra, value)
    else:
        try:
            p.declared = _count(value, MAX_DECLARED)
        except ValueError as exc:
            raise BPNError(f"bad optional field {short(extra)}: {exc} (declared=N)") from None


def _parse_drawn(extra: str, value: str) -> int:
    """``drawn=CARDS``: the cards drawn since the last trick, as a mask (each card once)."""
    try:
        listed = parse_cards(value)
    except NotationError:
        raise BPNError(
            f"bad optional field {short(extra)}: expected drawn=CARDS, the cards drawn since the "
            f"last trick, e.g. drawn=KH"
        ) from None
    drawn = 0
    for c in listed:
        if drawn >> c & 1:  # (as shown=: a card is drawn once)
            raise BPNError(
                f"bad optional field {short(extra)}: {card_str(c)} is given twice: expected each card once"
            )
        drawn |= 1 << c
    return drawn


def _parse_melds(value: str) -> list[list[int]]:
    halves = value.split("/")
    if len(halves) != 2:
        raise BPNError(
            f"bad optional field 'melds={value}': expected CODES/CODES for a and b, "
            f"'+'-joined codes or '-', e.g. melds=mH+3KS/-"
        )
    out: list[list[int]] = [[], []]
    for i, half in enumerate(halves):
        if half in ("-", ""):
            continue
        for code in half.split("+"):
            try:  # (a declaration given twice is read: the validity check names it, "declared twice")
                out[i].append(parse_meld_code(code).index)
            except NotationError as exc:
                raise BPNError(f"bad optional field 'melds={value}': {exc}") from None
    return out


def _format_hand_field(known: int, unknown: int) -> str:
    if unknown and not known:
        return f"?{unknown}"
    return format_hand(known) + (f"+?{unknown}" if unknown else "")


def format_bpn(p: BPNFields) -> str:
    """The canonical BPN of a position (or of any object with its fields)."""
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
    if p.final != [0, 0] and p.rules.game == "briscan":
        # (only Briscan's bonus uses the final phase's tricks: elsewhere the field would say
        # nothing, and two equal positions would print differently)
        fields.append(f"final={p.final[0]}:{p.final[1]}")
    if p.melds[0] or p.melds[1]:
        # canonical: in meld-table order, so that declaring in either order is one position
        codes = ["+".join(MELDS[m].code for m in sorted(ms)) or "-" for ms in p.melds]
        fields.append(f"melds={codes[0]}/{codes[1]}")
    if p.exchanged >= 0:
        fields.append(f"exchanged={SEATS[p.exchanged]}")
    if p.game != [0, 0]:
        fields.append(f"game={p.game[0]}:{p.game[1]}")
    if p.voids[0] or p.voids[1]:
        fields.append("void=" + ",".join(f"{SEATS[i]}:{_suits(p.voids[i])}" for i in (0, 1) if p.voids[i]))
    # (once the talon is gone every card's place is known, and views hide nothing)
    everything_known = p.rules.draws and p.talon_count == 0
    extra = [p.shown[i] & p.hands[i] & ~implied_shown(p, i) for i in (0, 1)]
    if (extra[0] or extra[1]) and not everything_known:
        fields.append(
            "shown=" + ",".join(f"{SEATS[i]}:{cards_str(cards_of(extra[i]))}" for i in (0, 1) if extra[i])
        )
    if p.exchanged >= 0 and p.taken >= 0:
        fields.append(f"taken={card_str(p.taken)}")
    if p.declared:
        fields.append(f"declared={p.declared}")
    if p.drawn:
        fields.append(f"drawn={cards_str(cards_of(p.drawn))}")
    return " ".join(fields)


def _parse_voids(extra: str, value: str) -> list[int]:
    """``a:S,b:DH`` to a suit mask per seat: each seat at most once, each of its suits once
    (``b:D,b:H`` and ``b:DD`` are refused, not merged: the strict parser reads one spelling
    of the fact, and a repeat is a mistake of whoever wrote it)."""
    parts: list[tuple[int, str]] = []
    for part in value.split(","):
        who, colon, suits = part.partition(":")
        try:
            if not colon or not suits:
                raise NotationError("no suits")
            parts.append((seat(who), "".join(SUITS[parse_suit(letter)] for letter in suits)))
        except NotationError:
            raise BPNError(
                f"bad optional field {short(extra)}: expected void=SEAT:SUITS[,SEAT:SUITS], "
                f"e.g. void=b:D or void=a:S,b:DH"
            ) from None
    voids = [0, 0]
    for i, suits in parts:
        voids[i] |= sum(1 << SUITS.index(x) for x in set(suits))
    # (the value as it should have been written, for the errors below)
    merged = ",".join(f"{SEATS[i]}:{_suits(voids[i])}" for i in (0, 1) if voids[i])
    seats = [i for i, _ in parts]
    for i in (0, 1):
        if seats.count(i) > 1:
            raise BPNError(
                f"bad optional field {short(extra)}: seat {SEATS[i]} is given twice: expected each "
                f"seat once, with all its suits (void={merged})"
            )
    for i, suits in parts:
        twice = next((x for x in SUITS if suits.count(x) > 1), None)
        if twice is not None:
            raise BPNError(
                f"bad optional field {short(extra)}: suit {twice} is given twice for {SEATS[i]}: "
                f"expected each suit once (void={merged})"
            )
    return voids


def implied_shown(p: BPNFields, i: int) -> int:
    """The cards of seat ``i`` that its declarations (but a carte blanche) and its exchange
    show: what BPN implies without a ``shown=`` key."""
    m = 0
    for index in p.melds[i]:
        meld = MELDS[index]
        if meld.kind not in (BLANK_COURTS, BLANK_PLAIN):
            m |= meld.cards_for(p.trump)
    if p.exchanged == i and p.taken >= 0:
        m |= 1 << p.taken
    return m & p.hands[i]


def _parse_shown(extra: str, value: str) -> list[int]:
    """``b:KHQHJS`` (cards, no separator) to a card mask per seat."""
    shown = [0, 0]
    given = [False, False]
    for part in value.split(","):
        who, colon, cards = part.partition(":")
        try:
            if not colon or not cards:
                raise NotationError("no cards")
            i = seat(who)
            listed = parse_cards(cards)
        except NotationError:
            raise BPNError(
                f"bad optional field {short(extra)}: expected shown=SEAT:CARDS[,SEAT:CARDS], e.g. shown=b:KHQHJS"
            ) from None
        if given[i]:  # (as void=: each seat once, each card once)
            raise BPNError(
                f"bad optional field {short(extra)}: seat {SEATS[i]} is given twice: expected each "
                f"seat once, with all its cards"
            )
        given[i] = True
        for c in listed:
            if shown[i] >> c & 1:
                raise BPNError(
                    f"bad optional field {short(extra)}: {card_str(c)} is given twice for {SEATS[i]}: "
                    f"expected each card once"
                )
            shown[i] |= 1 << c
    return shown


def _suits(mask: int) -> str:
    return "".join(SUITS[s] for s in range(4) if mask >> s & 1)


__all__ = ["BPNFields", "BPNParts", "OPTIONAL_KEYS", "SEATS", "format_bpn", "parse_bpn", "seat"]
