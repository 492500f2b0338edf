"""Card diagrams in SVG, as python-chess draws boards: a position as one ``<svg>`` string.

The diagram shows both hands as cards with suit symbols (a hidden card face down), the
trump suit and the turnup, the talon's count, the card led to the trick in progress, the
cards out folded by suit, the scores, the tricks, and the melds declared.  The seat
``pov`` sits at the bottom.  ``highlight`` rings the cards of chosen moves; ``arrows``
draws each chosen card move from the hand to the trick.

Every card is a ``<g class="card">`` with ``data-card`` (its BPN, such as ``TH``) and,
in a hand, ``data-seat``; a playable card of the player to move also has ``data-move``, so
that a page can make the cards clickable.

It lives with the model (it needs nothing else) so that :class:`Position` and the answers
of the engine can show themselves in a notebook (``_repr_svg_``, ``_repr_html_``), as
python-chess's boards do; ``solver.svg`` is the public name.

>>> from solver.model.position import Position
>>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
>>> text = svg(p, highlight=["9S"])
>>> text.startswith("<svg") and text.count('class="card"') == 12 and 'data-move="9S"' not in text
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from solver.errors import ArgumentError, ArgumentTypeError, HiddenInformationError, NotationError
from solver.model.bits import cards_of
from solver.model.bpn import SEATS
from solver.model.cards import DISPLAY_SYMBOLS, RANKS, card_str, cards_by_suit
from solver.model.deal_state import DealState
from solver.model.melds import MELDS
from solver.model.moves import DECLARE_BASE, EXCHANGE, Move, as_move
from solver.model.ranges import short_value
from solver.model.rules import GAME_NAMES

RED = "#c0262d"  # hearts and diamonds
BLACK = "#1b1b1b"
FELT = "#2f6b45"
BACK = "#23477a"  # the back of a card
HIGHLIGHT = "#f2b705"
ARROW = "#f2b705"
MAX_SIZE = 4000  # pixels: a diagram larger than this is an input error, not a drawing

# the diagram's own units: a 100-wide grid scaled to ``size`` pixels (cards 11 x 16)
CARD_W, CARD_H = 11.0, 16.0
WIDTH, HEIGHT = 100.0, 75.0


def _rank_text(c: int) -> str:
    r = RANKS[c & 7]
    return "10" if r == "T" else r


def _card(
    x: float, y: float, c: int, *, seat: int | None = None, playable: bool = False, ring: bool = False
) -> str:
    suit = c >> 3
    colour = RED if suit in (1, 2) else BLACK
    attrs = f'class="card" data-card="{card_str(c)}"'
    if seat is not None:
        attrs += f' data-seat="{SEATS[seat]}"'
    if playable:
        attrs += f' data-move="{card_str(c)}" style="cursor:pointer"'
    stroke = f'stroke="{HIGHLIGHT}" stroke-width="0.9"' if ring else 'stroke="#777" stroke-width="0.25"'
    sym = DISPLAY_SYMBOLS[suit]
    return (
        f'<g {attrs} transform="translate({x:.2f},{y:.2f})">'
        f"<title>{card_str(c)}</title>"
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="1.2" fill="#fff" {stroke}/>'
        f'<text x="1.2" y="4.6" font-size="4.2" font-weight="bold" fill="{colour}">{_rank_text(c)}</text>'
        f'<text x="{CARD_W / 2:.2f}" y="12.6" font-size="7" text-anchor="middle" fill="{colour}">{sym}</text>'
        "</g>"
    )


def _back(x: float, y: float, label: str = "") -> str:
    text = (
        f'<text x="{CARD_W / 2:.2f}" y="{CARD_H / 2 + 1.5:.2f}" font-size="4" text-anchor="middle" '
        f'fill="#fff">{escape(label)}</text>'
        if label
        else ""
    )
    return (
        f'<g class="back" transform="translate({x:.2f},{y:.2f})">'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="1.2" fill="{BACK}" stroke="#fff" stroke-width="0.5"/>'
        f'<rect x="1.5" y="1.5" width="{CARD_W - 3}" height="{CARD_H - 3}" rx="0.8" fill="none" '
        f'stroke="#8fb0e0" stroke-width="0.3"/>{text}</g>'
    )


def _text(
    x: float, y: float, text: str, *, size: float = 3.2, anchor: str = "start", colour: str = "#fff"
) -> str:
    return (
        f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}" text-anchor="{anchor}" fill="{colour}">'
        f"{escape(text)}</text>"
    )


class MarkError(ArgumentError):
    """A move of ``highlight`` or ``arrows`` that cannot be drawn: ``option`` names the
    argument (``"highlight"`` or ``"arrow"``), ``given`` the move as given, ``reason`` why and
    what was expected.  The message reads ``svg: highlight 8S: ...`` (``svg: highlight 'QQ' is
    not a move ...``); ``brisque show`` names its option (``--highlight 8S: ...``)."""

    def __init__(self, option: str, given: str, reason: str):
        self.option, self.given, self.reason = option, given, reason
        super().__init__(f"svg: {self.detail}")

    @property
    def detail(self) -> str:
        """The message after ``svg: ``: the argument, the move and the reason."""
        sep = " " if self.reason.startswith("is ") else ": "
        return f"{self.option} {self.given}{sep}{self.reason}"


def _moves(moves: Iterable[Move | str | int] | str | None, option: str = "highlight") -> list[Move]:
    """The moves of ``highlight`` or ``arrows``: a list of moves, or one string of moves
    separated by spaces (as :func:`solver.analyse_line` reads one), not one letter a move."""
    if isinstance(moves, str):
        moves = moves.split()
    out = []
    for m in moves or ():
        try:
            out.append(as_move(m))
        except (ArgumentError, NotationError) as exc:
            expected = "a card such as TH" if option == "arrow" else "a card such as TH, x or a declaration"
            raise MarkError(option, repr(m), f"is not a move (expected {expected})") from exc
    return out


def _drawn_cards(p: DealState) -> int:
    """The cards the diagram shows face up: the known cards of the hands, the turnup and the
    card led to the trick (a mask)."""
    drawn = p.hands[0] | p.hands[1]
    for c in (p.turnup, p.trick):
        if c >= 0:
            drawn |= 1 << c
    return drawn


def _rings(p: DealState, marks: list[Move]) -> set[int]:
    """The cards ringed for the moves ``marks``; a move with no card on the diagram to ring
    (a card already played, ``x`` without an exchange to make, ``pass``) is an error."""
    drawn = _drawn_cards(p)
    rings = set()
    for m in marks:
        code = int(m)
        if code < 32:
            if not drawn >> code & 1:
                where = "already played" if p.out >> code & 1 else "not shown on the diagram"
                raise MarkError(
                    "highlight",
                    str(m),
                    f"the card is {where} (expected a card in a hand, the turnup or the trick)",
                )
            rings.add(code)
        elif m == EXCHANGE:
            seven = p.seven_of_trumps
            held = (p.hands[0] | p.hands[1]) >> seven & 1
            if not (p.rules.exchange and p.turnup >= 0 and p.turnup != seven and held):
                raise MarkError(
                    "highlight",
                    str(m),
                    f"no exchange to ring (expected the 7 of trumps, {card_str(seven)}, in a hand "
                    f"and a turnup to take with it)",
                )
            rings.add(seven)
        elif code >= DECLARE_BASE and MELDS[code - DECLARE_BASE].cards:
            cards = cards_of(MELDS[code - DECLARE_BASE].cards)
            missing = [card_str(c) for c in cards if not drawn >> c & 1]
            if missing:
                raise MarkError(
                    "highlight",
                    str(m),
                    f"{' '.join(missing)} not shown on the diagram (expected the declaration's cards in a hand)",
                )
            rings.update(cards)
        else:
            raise MarkError("highlight", str(m), "the move has no card to ring")
    return rings


def _playable(p: DealState) -> set[int]:
    if p.is_over() or p.unknown[p.turn]:
        return set()
    try:
        return {int(m) for m in p.legal_moves() if int(m) < 32}
    except HiddenInformationError:
        return set()


def _hand_row(
    p: DealState, seat: int, y: float, rings: set[int], playable: set[int]
) -> tuple[list[str], dict[int, tuple[float, float]]]:
    cards = [c for group in cards_by_suit(p.hands[seat]) for c in group]
    hidden = p.unknown[seat]
    n = len(cards) + hidden
    step = CARD_W + 1.5
    x0 = (WIDTH - (n * step - 1.5)) / 2
    parts, where = [], {}
    for k, c in enumerate(cards):
        x = x0 + k * step
        where[c] = (x, y)
        parts.append(_card(x, y, c, seat=seat, playable=seat == p.turn and c in playable, ring=c in rings))
    for k in range(hidden):
        parts.append(_back(x0 + (len(cards) + k) * step, y))
    return parts, where


def _out_lines(p: DealState) -> list[str]:
    groups = cards_by_suit(p.out)
    return [
        f"{DISPLAY_SYMBOLS[s]} " + " ".join(_rank_text(c) for c in groups[s]) for s in range(4) if groups[s]
    ]


def _bottom_seat(p: DealState, pov: int | str | None) -> int:
    """The seat ``pov`` names for the bottom of the diagram (default the player to move).

    >>> from solver.model.position import Position
    >>> _bottom_seat(Position("petite K...9/?2 TH 21 .K97.TQJ. - b 0:19"), "A")
    0
    """
    if pov is None:
        return p.turn
    if pov in (0, 1):
        return int(pov)
    if isinstance(pov, str) and pov.lower() in SEATS:
        return SEATS.index(pov.lower())
    raise ArgumentError(f"svg: pov={pov!r}: expected the seat a or b (or 0 or 1)")


def _check_arrows(p: DealState, shots: Sequence[Move], rings: set[int]) -> None:
    """Refuse an arrow that does not start from a card in a hand; ring each arrow's card."""
    for m in shots:
        held = p.hands[0] | p.hands[1]
        if int(m) >= 32 or not held >> int(m) & 1:
            raise MarkError(
                "arrow", str(m), "expected a card in a hand (an arrow goes from a hand to the trick)"
            )
        rings.add(int(m))


def _seat_rows(
    p: DealState, bottom: int, rings: set[int], playable: set[int]
) -> tuple[list[str], dict[int, tuple[float, float]]]:
    """Both hands, the other seat's at the top, each with its label (points, tricks, melds,
    whose turn), and where each shown card stands (for the arrows)."""
    top = 1 - bottom
    out: list[str] = []
    where: dict[int, tuple[float, float]] = {}
    for seat, y in ((top, 5.5), (bottom, HEIGHT - CARD_H - 5.5)):
        parts, spots = _hand_row(p, seat, y, rings, playable)
        out.extend(parts)
        where.update(spots)
        melds = " ".join("+" + MELDS[m].code for m in p.melds[seat])
        arrow = " ◀ to play" if p.turn == seat and not p.is_over() else ""
        points, tricks = p.score[seat], p.tricks[seat]
        counts = f"{points} point{'' if points == 1 else 's'}, {tricks} trick{'' if tricks == 1 else 's'}"
        label = f"{SEATS[seat]}: {counts}{'  ' + melds if melds else ''}{arrow}"
        out.append(_text(2, y - 1.3 if seat == top else y + CARD_H + 4, label))
    return out, where


def _middle(p: DealState, rings: set[int], mid: float) -> list[str]:
    """The middle row: the talon and the turnup on the left, the trick in the centre, the
    outcome of a deal that is over, and the cards out on the right."""
    r = p.rules
    out = []
    trump = f"trump {DISPLAY_SYMBOLS[p.trump]}"
    out.append(_text(2, mid - 1.3, f"{GAME_NAMES[r.game]}, {trump}", size=3))
    if r.draws:
        if p.talon_count:
            out.append(_back(2, mid, str(p.talon_count)))
        if p.turnup >= 0:
            out.append(_card(2 + CARD_W + 1.5, mid, p.turnup, ring=p.turnup in rings))
        talon = f"talon {p.talon_count}" + (" + turnup" if p.turnup >= 0 else "")
    else:
        talon = f"{p.talon_count} dead cards"
    out.append(_text(2, mid + CARD_H + 3.5, talon, size=2.8))
    centre = (WIDTH - CARD_W) / 2
    if p.trick >= 0:
        out.append(_card(centre, mid, p.trick, ring=p.trick in rings))
        out.append(_text(WIDTH / 2, mid + CARD_H + 3.5, f"{SEATS[p.leader]} led", size=2.8, anchor="middle"))
    result = p.outcome()
    if result is not None:
        if result.win is not None:
            words = f"{SEATS[result.win]} wins the game"
        else:
            words = "drawn" if result.winner is None else f"{SEATS[result.winner]} wins the deal"
        out.append(_text(WIDTH / 2, mid + CARD_H / 2, words, size=4, anchor="middle"))
    lines = _out_lines(p)
    if lines:
        out.append(_text(70, mid + 0.5, "out:", size=2.8))
        out.extend(_text(70, mid + 4 + 3.4 * k, line, size=2.8) for k, line in enumerate(lines))
    return out


def _arrow_lines(
    p: DealState, shots: Sequence[Move], where: dict[int, tuple[float, float]], mid: float
) -> list[str]:
    """An arrow from each shot card in a shown hand to the trick."""
    out = []
    for m in shots:
        c = int(m)
        if c in where:
            x, y = where[c]
            x1, y1 = x + CARD_W / 2, y + (CARD_H if y < mid else 0)
            x2, y2 = WIDTH / 2 + (CARD_W + 2 if p.trick >= 0 else 0), mid + CARD_H / 2
            out.append(
                f'<line class="arrow" data-move="{card_str(c)}" x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" '
                f'y2="{y2:.2f}" stroke="{ARROW}" stroke-width="1" stroke-linecap="round" '
                f'marker-end="url(#head)" opacity="0.85"/>'
            )
    return out


def svg(
    p: DealState,
    *,
    pov: int | str | None = None,
    size: int = 480,
    highlight: Sequence[Move | str | int] | str | None = None,
    arrows: Sequence[Move | str | int] | str | None = None,
) -> str:
    """The diagram of position ``p`` (module docstring; :func:`solver.svg.svg` also takes a
    BPN string): ``pov`` the seat
    at the bottom (default the player to move), ``size`` its width in pixels, ``highlight``
    and ``arrows`` moves to mark, each a list of moves or one string of moves separated by
    spaces (``"KD +mH"``).

    >>> from solver.model.position import Position
    >>> p = Position("petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H")
    >>> svg(p, pov="a").count('class="back"')
    2
    """
    if not hasattr(p, "hands") or isinstance(p, str):  # (a Position: this module cannot import it)
        raise ArgumentTypeError(
            f"svg: p={short_value(p)}: expected a Position (solver.svg.svg also takes a BPN string), "
            f"not {type(p).__name__}"
        )
    if type(size) is not int or not 16 <= size <= MAX_SIZE:
        raise ArgumentError(f"svg: size={size!r}: expected a whole number of pixels from 16 to {MAX_SIZE}")
    bottom = _bottom_seat(p, pov)
    marks, shots = _moves(highlight, "highlight"), _moves(arrows, "arrow")
    rings = _rings(p, marks)
    _check_arrows(p, shots, rings)
    playable = _playable(p)
    height = size * HEIGHT / WIDTH
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="brisque-diagram" width="{size}" '
        f'height="{height:.0f}" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'data-bpn="{escape(p.bpn(), quote=True)}" data-bottom="{SEATS[bottom]}">',
        f'<rect width="{WIDTH:g}" height="{HEIGHT:g}" rx="2" fill="{FELT}"/>',
    ]
    rows, where = _seat_rows(p, bottom, rings, playable)
    out.extend(rows)
    mid = (HEIGHT - CARD_H) / 2
    out.extend(_middle(p, rings, mid))
    out.extend(_arrow_lines(p, shots, where, mid))
    if shots:
        out.insert(
            2,
            '<defs><marker id="head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4" '
            f'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{ARROW}"/></marker></defs>',
        )
    out.append("</svg>")
    return "".join(out)


def answer_html(
    p: DealState,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    caption: str = "",
    best: Sequence[Move | str | int] = (),
) -> str:
    """An answer for a notebook: the diagram (the best moves drawn as arrows) beside a table
    of its moves, one row each (``header`` names the columns), under ``caption``.

    >>> from solver.model.position import Position
    >>> p = Position("petite 7.../8... D 0 - - a 0:0")
    >>> "<table" in answer_html(p, ["move", "value"], [["7S", "-1"]], best=["7S"])
    True
    """
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(cell))}</td>" for cell in row) + "</tr>" for row in rows
    )
    table = (
        '<table class="brisque-moves" style="border-collapse:collapse;font-family:monospace">'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )
    return (
        '<div class="brisque-answer" style="display:flex;gap:1em;align-items:flex-start">'
        f"<div>{svg(p, size=420, arrows=[m for m in _moves(best) if int(m) < 32])}</div>"
        f'<div><p>{escape(caption)}</p>{table}<p style="font-family:monospace;font-size:80%">'
        f"{escape(p.bpn())}</p></div></div>"
    )


__all__ = ["MAX_SIZE", "MarkError", "answer_html", "svg"]
