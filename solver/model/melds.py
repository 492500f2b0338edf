"""Declarations: the table of every meld of Brisque and Briscan.

Each meld has a fixed index (used in move numbers and by the engine), a code
as written after ``+`` in move notation, its cards and its points.

>>> from solver.model.cards import format_hand
>>> m = MELD_BY_CODE["3KS"]
>>> format_hand(m.cards), m.points(trump=1)
('KQJ...', 50)
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import NotationError
from solver.model.cards import (
    ACE,
    JACK,
    KING,
    NATURAL,
    QUEEN,
    RANKS,
    SUITS,
    TEN,
    card,
)
from solver.model.ranges import short
from solver.native.constants import (
    K_ACE_TRUMPS,
    K_BLANK_COURTS,
    K_BLANK_PLAIN,
    K_MARRIAGE,
    K_QUARTET,
    K_SEQUENCE,
    N_MELDS,
)

# meld kinds: the engine's numbers
MARRIAGE = K_MARRIAGE
QUARTET = K_QUARTET
SEQUENCE = K_SEQUENCE
ACE_OF_TRUMPS = K_ACE_TRUMPS
BLANK_COURTS = K_BLANK_COURTS
BLANK_PLAIN = K_BLANK_PLAIN

SEQUENCE_POINTS = {  # (length, top rank letter) -> points outside trumps
    (5, "A"): 300,
    (5, "K"): 150,
    (5, "Q"): 100,
    (5, "J"): 50,
    (4, "A"): 100,
    (4, "K"): 80,
    (4, "Q"): 60,
    (4, "J"): 40,
    (4, "T"): 30,
    (3, "A"): 60,
    (3, "K"): 50,
    (3, "Q"): 40,
    (3, "J"): 30,
    (3, "T"): 20,
    (3, "9"): 20,
}
QUARTET_POINTS = {"A": 150, "T": 100, "K": 80, "Q": 60, "J": 40}
COURTS = (JACK, QUEEN, KING)


@dataclass(frozen=True)
class Meld:
    index: int
    kind: int
    code: str
    cards: int  # the meld's cards; 0 for ace of trumps and carte blanche (hand-dependent)
    suit: int = -1  # marriages and sequences
    rank: int = -1  # quartets

    def points(self, trump: int, game: str = "briscan") -> int:
        """Points this meld scores when declared with ``trump`` as the trump suit."""
        if self.kind == MARRIAGE:
            return 40 if self.suit == trump else 20
        if self.kind == QUARTET:
            return 0 if game == "brisque" else QUARTET_POINTS[RANKS[self.rank]]
        if self.kind == SEQUENCE:
            base = SEQUENCE_POINTS[(int(self.code[0]), self.code[1])]
            return 2 * base if self.suit == trump else base
        if self.kind == ACE_OF_TRUMPS:
            return 30
        return 20 if self.kind == BLANK_COURTS else 10

    def cards_for(self, trump: int) -> int:
        """The cards shown by this meld (the ace of trumps depends on the trump suit)."""
        if self.kind == ACE_OF_TRUMPS:
            return 1 << card(trump, ACE)
        return self.cards


def _build() -> list[Meld]:
    melds: list[Meld] = []

    def add(kind: int, code: str, cards: int, suit: int = -1, rank: int = -1) -> None:
        melds.append(Meld(len(melds), kind, code, cards, suit, rank))

    for s in range(4):
        add(MARRIAGE, "m" + SUITS[s], (1 << card(s, KING)) | (1 << card(s, QUEEN)), suit=s)
    for r in (ACE, TEN, KING, QUEEN, JACK):
        add(QUARTET, "k" + RANKS[r], sum(1 << card(s, r) for s in range(4)), rank=r)
    for s in range(4):
        for (length, top), _ in SEQUENCE_POINTS.items():
            hi = NATURAL.index(top)
            mask = sum(1 << card(s, RANKS.index(NATURAL[i])) for i in range(hi - length + 1, hi + 1))
            add(SEQUENCE, f"{length}{top}{SUITS[s]}", mask, suit=s)
    add(ACE_OF_TRUMPS, "at", 0)
    add(BLANK_COURTS, "bc", 0)
    add(BLANK_PLAIN, "bp", 0)
    return melds


MELDS: tuple[Meld, ...] = tuple(_build())
MELD_BY_CODE: dict[str, Meld] = {m.code: m for m in MELDS}
MARRIAGES = MELDS[0:4]
QUARTETS = MELDS[4:9]
SEQUENCES = tuple(m for m in MELDS if m.kind == SEQUENCE)
COURT_MASK = sum(1 << card(s, r) for s in range(4) for r in COURTS)
if len(MELDS) != N_MELDS:  # the engine's meld arrays have N_MELDS slots
    raise ImportError(f"the meld table has {len(MELDS)} melds, the engine expects {N_MELDS}")

# The melds each game knows: Brisque has marriages and four kings or queens, Briscan every
# meld, Petite Brisque none.
_GAME_MELDS: dict[str, tuple[Meld, ...]] = {
    "brisque": tuple(m for m in MELDS if m.kind == MARRIAGE or m.code in ("kK", "kQ")),
    "briscan": MELDS,
    "petite": (),
}


def game_melds(game: str) -> tuple[Meld, ...]:
    """The melds that can be declared in ``game``.

    >>> [m.code for m in game_melds("brisque")]
    ['mS', 'mH', 'mD', 'mC', 'kK', 'kQ']
    """
    return _GAME_MELDS[game]


def parse_meld_code(text: str) -> Meld:
    """``mH``, ``kK``, ``3KS``, ``at``, ``bc`` (case-insensitive, ``10`` for ``T``)."""
    t = text.strip().replace("10", "T")
    if t.lower() in ("at", "bc", "bp"):
        code = t.lower()
    elif len(t) == 2 and t[0].lower() in "mk":
        code = t[0].lower() + t[1].upper()
    else:
        code = t.upper()
    meld = MELD_BY_CODE.get(code)
    if meld is None:
        raise NotationError(
            f"bad declaration {short(text)}: expected mS..mC (marriage), kA/kT/kK/kQ/kJ (four of a kind), "
            f"3KS-style sequence (length 3-5, top rank, suit), at, bc or bp"
        )
    return meld


__all__ = [
    "ACE_OF_TRUMPS",
    "BLANK_COURTS",
    "BLANK_PLAIN",
    "COURT_MASK",
    "MARRIAGE",
    "MARRIAGES",
    "MELDS",
    "MELD_BY_CODE",
    "Meld",
    "QUARTET",
    "QUARTETS",
    "SEQUENCE",
    "SEQUENCES",
    "game_melds",
    "parse_meld_code",
]
