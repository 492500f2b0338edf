"""What the board's pages are told of a position: the checks, the legal moves and the
table to draw (:func:`describe`), and the positions of a loaded puzzle file or of match
records (:func:`load_items`).

The pages draw the table themselves, every card by one function of ``static/common.js``;
:func:`table` gives them what is on it, as the BPN shows it (a hidden card stays a count).

>>> from solver.model.position import Position
>>> p = Position("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3")
>>> info = describe(p)
>>> info["legal"], info["table"]["hands"]["b"]["cards"], info["table"]["trick"]
(['TS', 'KC'], ['TS', 'KC'], None)
"""

from __future__ import annotations

from typing import Any

from solver.errors import BoardError, BrisqueError, HiddenInformationError
from solver.formats.bpd import parse_record
from solver.formats.records import DealRecord
from solver.model.bpn import SEATS
from solver.model.cards import DISPLAY_SYMBOLS, RANKS, SUITS, card_str, cards_by_suit
from solver.model.melds import MELDS
from solver.model.position import Position
from solver.model.rules import GAME_NAMES
from solver.model.svg import svg

MAX_BPN = 2000  # characters: a BPN is far shorter
MAX_LOADED = 5000  # positions of one loaded file: the rest are reported, not sent


def parse_bpn(text: Any) -> Position:
    """The position a request gives in BPN (400 if it is none, 413 if it is too long).

    >>> parse_bpn(" petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ").turn
    1
    """
    if not isinstance(text, str) or not text.strip():
        raise BoardError("expected a position in BPN, such as: brisque AK9.97..9/7..Q9.A7 D 0 ... a 52:35")
    if len(text) > MAX_BPN:
        raise BoardError(f"a BPN of {len(text)} characters: expected at most {MAX_BPN}", 413)
    return Position(text.strip())


def _rank(c: int) -> str:
    r = RANKS[c & 7]
    return "10" if r == "T" else r


def _result(p: Position) -> str | None:
    """The end of the deal in words, or None while it goes on."""
    result = p.outcome()
    if result is None:
        return None
    if result.win is not None:
        return f"{SEATS[result.win]} wins the game"
    return "drawn" if result.winner is None else f"{SEATS[result.winner]} wins the deal"


def table(p: Position, bottom: int, legal: list[str] | None) -> dict[str, Any]:
    """What lies on the table of ``p``, for a page to draw with the seat ``bottom`` at the
    bottom: each hand (its known cards by suit, a count of hidden ones, points, tricks and
    melds), the talon, the turnup, the card led, the cards out and the result."""
    hands = {}
    for seat in (0, 1):
        hands[SEATS[seat]] = {
            "cards": [card_str(c) for group in cards_by_suit(p.hands[seat]) for c in group],
            "hidden": p.unknown[seat],
            "points": p.score[seat],
            "tricks": p.tricks[seat],
            "melds": ["+" + MELDS[m].code for m in p.melds[seat]],
        }
    out = cards_by_suit(p.out)
    return {
        "game": GAME_NAMES[p.rules.game],
        "trump": SUITS[p.trump],
        "bottom": SEATS[bottom],
        "turn": None if p.is_over() else SEATS[p.turn],
        "hands": hands,
        "draws": p.rules.draws,
        "talon": p.talon_count,
        "turnup": card_str(p.turnup) if p.turnup >= 0 else None,
        "trick": card_str(p.trick) if p.trick >= 0 else None,
        "leader": SEATS[p.leader],
        "playable": [m for m in legal or () if len(m) == 2 and m[1] in SUITS],
        "out": [f"{DISPLAY_SYMBOLS[s]} " + " ".join(_rank(c) for c in out[s]) for s in range(4) if out[s]],
        "result": _result(p),
    }


def describe(p: Position, pov: str | None = None) -> dict[str, Any]:
    """What a page shows of a position seen with ``pov`` at the bottom (default the player
    to move): ``bpn``, ``valid``, ``problems``, ``turn``, ``over``, ``legal`` (None when the
    hand to play is hidden), ``hidden``, ``table`` (:func:`table`) and ``svg`` (the diagram
    ``brisque show --svg`` draws, for scripts)."""
    problems = p.problems()
    try:
        legal: list[str] | None = [str(m) for m in p.legal_moves()]
    except HiddenInformationError:
        legal = None
    bottom = p.turn if pov is None else SEATS.index(pov)
    return {
        "bpn": p.bpn(),
        "valid": not problems,
        "problems": problems,
        "turn": "ab"[p.turn],
        "over": p.is_over(),
        "legal": legal,
        "hidden": bool(any(p.unknown) or (p.rules.draws and p.talon is None and p.talon_count)),
        "table": table(p, bottom, legal if not problems else None),
        "svg": svg(p, pov=pov),
    }


def _record_item(line: str, no: int) -> tuple[dict[str, Any] | None, int]:
    """The item of one line (a deal record or a puzzle record) and its count of positions."""
    if line.lstrip().startswith("{"):
        rec = DealRecord.from_json(line)
        bpns = rec.bpns()
        return {"name": f"deal {no}: {' v '.join(rec.players)}", "bpns": bpns}, len(bpns)
    puzzle = parse_record(line, f"line {no}")
    if puzzle is None:
        return None, 0
    item: dict[str, Any] = {"name": puzzle.id, "bpns": [puzzle.position.bpn()]}
    # the record's answer, for the page's puzzle view (pass or fail, or hidden)
    for op in ("bm", "am"):
        if puzzle.moves(op):
            item[op] = [str(m) for m in puzzle.moves(op)]
    if puzzle.int_op("v") is not None:
        item["v"] = puzzle.int_op("v")
    return item, 1


def load_items(text: str | bytes) -> tuple[list[dict[str, Any]], list[str]]:
    """The positions of a puzzle file or of match records (one JSON object a line), and
    an error for each bad line: a bad record never stops the others.  Given bytes (a file
    as uploaded), each line is decoded alone, so that a bad byte costs its line only, as
    in ``brisque puzzles``.

    >>> items, errors = load_items('petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ; id "one"\\nnonsense\\n')
    >>> [i["name"] for i in items], len(errors)
    (['one'], 1)
    >>> items, errors = load_items(b'caf\\xe9\\npetite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ; id "two"\\n')
    >>> [i["name"] for i in items], errors
    (['two'], ['line 1: the line is not UTF-8 text (unexpected end of data at byte 3)'])
    """
    items: list[dict[str, Any]] = []
    errors: list[str] = []
    count = 0
    raw_lines: list[str | bytes] = [*text.splitlines()]
    for no, raw in enumerate(raw_lines, 1):
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                errors.append(f"line {no}: the line is not UTF-8 text ({exc.reason} at byte {exc.start})")
                continue
        else:
            line = raw
        if no == 1:
            line = line.lstrip("\ufeff")  # (a byte-order mark is no text)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if count >= MAX_LOADED:
            errors.append(f"line {no} and after: not loaded, the board takes {MAX_LOADED} positions a file")
            break
        try:
            item, n = _record_item(line, no)
        except BrisqueError as exc:
            errors.append(str(exc) if str(exc).startswith(f"line {no}:") else f"line {no}: {exc}")
            continue
        if item is not None:
            items.append(item)
            count += n
    return items, errors


__all__ = ["MAX_BPN", "MAX_LOADED", "describe", "load_items", "parse_bpn", "table"]
