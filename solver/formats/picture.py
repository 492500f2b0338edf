"""A readable picture of a position for the terminal.

>>> from solver.model.position import Position
>>> print(picture(Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")).splitlines()[0])
Brisque - trick 11 of 16, final phase
"""

from __future__ import annotations

from solver.errors import HiddenInformationError
from solver.formats.words import plural
from solver.model.cards import DISPLAY_SYMBOLS, RANKS, SUITS, cards_by_suit
from solver.model.melds import MELDS
from solver.model.position import SEATS, Position
from solver.model.rules import GAME_NAMES


def suit_symbols(encoding: str | None) -> str:
    """The suit signs a terminal of ``encoding`` can show: the card symbols, else the BPN
    letters (a Windows console in cp1252 has no card symbols).

    >>> suit_symbols("utf-8"), suit_symbols("cp1252")
    ('♠♥♦♣', 'SHDC')
    """
    try:
        DISPLAY_SYMBOLS.encode(encoding or "ascii")
        return DISPLAY_SYMBOLS
    except (UnicodeEncodeError, LookupError):
        return SUITS


def _pretty(c: int, symbols: str) -> str:
    r = RANKS[c & 7]
    return ("10" if r == "T" else r) + symbols[c >> 3]


def _hand_lines(p: Position, i: int, symbols: str) -> list[str]:
    groups = cards_by_suit(p.hands[i])
    lines = []
    for s in range(4):
        shown_out = p.voids[i] >> s & 1  # (void=: a void known even in a hidden hand)
        notes = [n for n, on in (("trump", s == p.trump), ("shown out", shown_out)) if on]
        mark = f" ({', '.join(notes)})" if notes else ""
        ranks = " ".join(("10" if RANKS[c & 7] == "T" else RANKS[c & 7]) for c in groups[s])
        if ranks or shown_out or not p.unknown[i]:  # (with hidden cards an empty suit is not a void)
            lines.append(f"    {symbols[s]} {ranks or '-'}{mark}")
    if p.unknown[i]:
        noun = "more hidden card" if p.hands[i] else "hidden card"
        lines.append(f"    + {plural(p.unknown[i], noun)}")
    return lines


def _phase(p: Position) -> str:
    r = p.rules
    if p.is_over():
        return "deal over"
    if p.in_window:
        return "last-pickup window"
    if not r.draws:
        return "no drawing"
    return "final phase" if p.in_final_phase else "talon phase"


def picture(p: Position, symbols: str = DISPLAY_SYMBOLS) -> str:
    """A multi-line description: hands by suit, trump, talon, score, turn, legal moves;
    ``symbols`` are the four suits' signs (:func:`suit_symbols` picks them for a terminal).

    >>> bpn = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    >>> print(picture(Position(bpn)).splitlines()[0])
    Brisque - trick 11 of 16, final phase
    """
    r = p.rules
    total = r.tricks_per_deal
    num = min(p.trick_number, total)
    lines = [f"{GAME_NAMES[r.game]} - trick {num} of {total}, {_phase(p)}"]
    if str(r) != r.game:
        lines.append(f"Rules: {r}")
    trump = SUITS[p.trump] if symbols == SUITS else f"{symbols[p.trump]} ({SUITS[p.trump]})"
    if p.turnup >= 0:
        trump += f", turnup {_pretty(p.turnup, symbols)} on the table"
    lines.append(f"Trump: {trump}")
    if r.draws:
        if p.talon:
            talon = f"{plural(p.talon_count, 'card')}, top first: " + " ".join(
                _pretty(c, symbols) for c in p.talon
            )
        else:
            talon = plural(p.talon_count, "card") + (" (order hidden)" if p.talon_count else "")
    else:
        talon = plural(p.talon_count, "dead card")
    lines.append(f"Talon: {talon}")
    for i in (0, 1):
        role = "non-dealer" if i == 0 else "dealer"
        arrow = "  <- to act" if p.turn == i and not p.is_over() else ""
        melds = " ".join("+" + MELDS[m].code for m in p.melds[i])
        extra = f", declared {melds}" if melds else ""
        tricks = f"tricks {p.tricks[i]}" if p.tricks_recorded else "tricks not recorded"
        lines.append(f"  {SEATS[i]} ({role}): score {p.score[i]}, {tricks}{extra}{arrow}")
        lines.extend(_hand_lines(p, i, symbols))
    if p.trick >= 0:
        lines.append(f"Trick: {SEATS[p.leader]} led {_pretty(p.trick, symbols)}")
    if p.exchanged >= 0:
        taken = f" (took {_pretty(p.taken, symbols)})" if p.taken >= 0 else ""
        lines.append(f"Exchange: {SEATS[p.exchanged]} exchanged the 7 of trumps{taken}")
    if p.game != [0, 0]:
        lines.append(f"Game totals before this deal: a {p.game[0]}, b {p.game[1]}")
    out = p.outcome()
    if out is not None:
        if out.win is not None:
            lines.append(f"Result: {SEATS[out.win]} wins the game outright")
        else:
            w = out.winner
            who = "drawn" if w is None else f"{SEATS[w]} wins the deal"
            lines.append(f"Result: {who}, margin for a {out.margin(0):+d}")
    else:
        try:
            moves = " ".join(str(m) for m in p.legal_moves())
            lines.append(f"Legal moves for {SEATS[p.turn]}: {moves}")
        except HiddenInformationError:
            lines.append(f"Legal moves for {SEATS[p.turn]}: unknown (hand hidden)")
    probs = p.problems()
    lines.append("Valid: yes" if not probs else "Valid: NO")
    lines.extend(f"  - {msg}" for msg in probs)
    lines.append(f"BPN: {p.bpn()}")
    return "\n".join(lines)


__all__ = ["picture", "suit_symbols"]
