"""Cards and card sets.

A card is an int 0..31, ``suit * 8 + rank`` with suits S H D C (0..3) and
ranks 7 8 9 J Q K T A (0..7, the trick order).  A card set is an int bit mask.

>>> card_str(parse_card("10h"))
'TH'
>>> format_hand(parse_hand("AT.KQ.7.8"))
'AT.KQ.7.8'
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.errors import NotationError
from solver.model.bits import cards_of, points_of, popcount
from solver.model.ranges import short, text_argument
from solver.native.constants import RANK_POINTS

SUITS = "SHDC"
RANKS = "789JQKTA"  # index = trick strength
NATURAL = "789TJQKA"  # sequence order used by Briscan's melds
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
DISPLAY_SYMBOLS = "♠♥♦♣"
FULL_DECK = 0xFFFFFFFF

SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(8)


def card(suit: int, rank: int) -> int:
    """The card of ``suit`` (0..3) and ``rank`` (0..7)."""
    return suit * 8 + rank


def suit_of(c: int) -> int:
    return c >> 3


def rank_of(c: int) -> int:
    return c & 7


def suit_mask(suit: int) -> int:
    """All eight cards of ``suit``."""
    return 0xFF << (suit * 8)


def bit(c: int) -> int:
    return 1 << c


def card_str(c: int) -> str:
    """Canonical name: ``'AS'``, ``'TH'``, ``'7C'``."""
    return RANKS[c & 7] + SUITS[c >> 3]


def parse_suit(text: str) -> int:
    """A suit letter or symbol (any case) to 0..3."""
    s = SUIT_SYMBOLS.get(text, text.upper())
    if len(s) != 1 or s not in SUITS:
        raise NotationError(f"bad suit {short(text)}: expected one of S H D C or ♠ ♥ ♦ ♣")
    return SUITS.index(s)


def parse_rank(text: str) -> int:
    r = text.upper()
    if r == "10":
        r = "T"
    if len(r) != 1 or r not in RANKS:
        raise NotationError(f"bad rank {short(text)}: expected one of A T K Q J 9 8 7 (or 10)")
    return RANKS.index(r)


def parse_card(text: str) -> int:
    """Parse ``'AS'``, ``'10h'``, ``'Q♥'`` into a card number."""
    t = text_argument(text, "card", "rank then suit, e.g. 'AS'").strip()
    if len(t) < 2 or len(t) > 3:
        raise NotationError(f"bad card {short(text)}: expected rank then suit, e.g. 'AS', 'TH', '10H'")
    try:
        return card(parse_suit(t[-1]), parse_rank(t[:-1]))
    except NotationError as exc:
        raise NotationError(f"bad card {short(text)}: {exc}") from None


def parse_cards(text: str) -> list[int]:
    """A run of cards with no separator, top first: ``'KH9S8C'`` or ``'10H9S'``."""
    out: list[int] = []
    i, t = 0, text.strip()
    while i < len(t):
        n = 3 if t[i : i + 2] == "10" else 2
        out.append(parse_card(t[i : i + n]))
        i += n
    return out


def cards_str(cards: Iterable[int]) -> str:
    """Canonical names run together, in the given order: ``'KH9S'``.

    >>> cards_str(parse_cards("KH10S"))
    'KHTS'
    """
    return "".join(card_str(c) for c in cards)


# a suit's eight cards as 8 bits (rank r at bit r) and its canonical group, ranks high to
# low: the hand form's groups are looked up, not built, on the batch path
_GROUP = tuple("".join(RANKS[r] for r in range(7, -1, -1) if bits >> r & 1) for bits in range(256))
_BITS = {group: bits for bits, group in enumerate(_GROUP)}


def parse_hand(text: str) -> int:
    """Hand form ``S.H.D.C`` (ranks in any order, any case) to a card set.

    >>> popcount(parse_hand("AK..T9.7")), parse_hand("KA..9t.7") == parse_hand("AK..T9.7")
    (5, True)
    """
    groups = text_argument(text, "hand", "four suits S.H.D.C, e.g. 'AK..T9.7'").split(".")
    if len(groups) == 4:  # (canonical groups, the common case: looked up)
        b0, b1, b2, b3 = (_BITS.get(g, -1) for g in groups)
        if b0 >= 0 and b1 >= 0 and b2 >= 0 and b3 >= 0:
            return b0 | b1 << 8 | b2 << 16 | b3 << 24
    if len(groups) != 4:
        raise NotationError(
            f"bad hand {short(text)}: expected four suit groups S.H.D.C separated by dots, e.g. 'AT.KQ.7.8'"
        )
    mask = 0
    for suit, group in enumerate(groups):
        g = group.upper().replace("10", "T")
        for ch in g:
            if ch not in RANKS:
                raise NotationError(
                    f"bad hand {short(text)}: {ch!r} in the {SUITS[suit]} group is not a rank (A T K Q J 9 8 7)"
                )
            b = 1 << card(suit, RANKS.index(ch))
            if mask & b:
                raise NotationError(f"bad hand {short(text)}: {ch}{SUITS[suit]} is listed twice")
            mask |= b
    return mask


def format_hand(mask: int) -> str:
    """Canonical hand form, ranks high to low in each suit: ``'AT.KQ.7.8'``."""
    return f"{_GROUP[mask & 0xFF]}.{_GROUP[mask >> 8 & 0xFF]}.{_GROUP[mask >> 16 & 0xFF]}.{_GROUP[mask >> 24 & 0xFF]}"


def cards_by_suit(mask: int) -> list[list[int]]:
    """Cards of ``mask`` grouped by suit, each group high to low."""
    return [[card(s, r) for r in range(7, -1, -1) if mask >> card(s, r) & 1] for s in range(4)]


__all__ = [
    "ACE",
    "DISPLAY_SYMBOLS",
    "EIGHT",
    "FULL_DECK",
    "JACK",
    "KING",
    "NATURAL",
    "NINE",
    "NotationError",
    "QUEEN",
    "RANKS",
    "RANK_POINTS",
    "SEVEN",
    "SUITS",
    "TEN",
    "bit",
    "card",
    "card_str",
    "cards_by_suit",
    "cards_of",
    "cards_str",
    "format_hand",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_rank",
    "parse_suit",
    "points_of",
    "popcount",
    "rank_of",
    "suit_mask",
    "suit_of",
]
