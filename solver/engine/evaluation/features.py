"""The learned evaluation's inputs: their layout, its fingerprint, and the encoder.

A depth-limited search scores the positions at its horizon (the start of a turn, talon cards
still to draw, every card known) with a small network whose inputs are on or off.  The
inputs come in the blocks of :data:`LAYOUT`, in that order; their offsets and sizes are the
compiled engine's (``src_cython/constants.pxd``, through ``solver.native.constants``), and
``tests/engine/test_constants.py`` checks that the blocks follow one another and fill
``NET_INPUTS``:

* ``places``, ``place * 32 + card``: where each card lies, for the player to move (0 his
  hand, 1 his opponent's, 2 the next talon card (his if he wins the trick), 3 the one after
  (his opponent's), 4 the later talon cards he draws if he keeps winning, 5 those his
  opponent draws, 6 the turnup; a card out of play has no input).  Suits are renumbered from
  the trump (trump 0, then the suits after it in S H D C order), so that one network serves
  every trump;
* ``melds_me``, ``melds_opp``: meld ``i`` (its suit renumbered so) declared by him, by his
  opponent;
* ``exchange``: the 7 of trumps may still be exchanged for the turnup;
* ``level``: ``k`` talon tricks left (the last input for ``k`` and more);
* ``tricks_me``, ``tricks_opp`` (Briscan only, whose bonuses count them): the tricks each
  has taken.

:data:`FINGERPRINT` is a short hash of that description (names, offsets, sizes, meanings,
and the hidden and output widths).  Every network file carries the fingerprint of the layout
it was trained for, and the engine refuses a file whose fingerprint is not its own
(:mod:`solver.engine.evaluation.files`): change the layout, and the shipped networks must be
trained again.

>>> from solver.model.position import Position
>>> p = Position("brisque AJ.KQ..A8/T87.87..Q JC 7C KQ9.ATJ9.ATKQJ987.TK9 - b 53:21 tricks=7:2")
>>> on = network_inputs(p)   # b to move; clubs are trump, so the 7C is card 0
>>> len(on), on[-4:]   # 12 cards in hand, 7C to draw next, JC turned up, exchange, 1 trick left
(16, [64, 195, 368, 370])
>>> len(FINGERPRINT)
16
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

from solver.model.cards import SUITS
from solver.model.melds import MELD_BY_CODE, MELDS
from solver.model.position import Position
from solver.model.rules import GAMES
from solver.native.constants import (
    G_BRISCAN,
    N_MELDS,
    NET_EXCHANGE,
    NET_H1,
    NET_H2,
    NET_INPUTS,
    NET_LEVEL,
    NET_LEVELS,
    NET_MELDS_ME,
    NET_MELDS_OPP,
    NET_PLACES,
    NET_TRICKS,
    NET_TRICKS_ME,
    NET_TRICKS_OPP,
)

# where a card lies, for the player to move (the first index of its inputs / 32)
HAND, OPP_HAND, NEXT_MINE, NEXT_OPP, LATER_MINE, LATER_OPP, TURNUP = range(NET_PLACES)


@dataclass(frozen=True)
class InputBlock:
    """One block of the network's inputs: ``size`` inputs from ``offset`` on."""

    name: str
    offset: int
    size: int
    meaning: str


LAYOUT: tuple[InputBlock, ...] = (
    InputBlock(
        "places", 0, NET_PLACES * 32,
        "place * 32 + card for the player to move: his hand, his opponent's, the next talon card, "
        "the one after, his later talon cards, his opponent's, the turnup; suits renumbered from the trump",
    ),
    InputBlock("melds_me", NET_MELDS_ME, N_MELDS, "the melds he declared, suits renumbered from the trump"),
    InputBlock("melds_opp", NET_MELDS_OPP, N_MELDS, "the melds his opponent declared, suits renumbered so"),
    InputBlock("exchange", NET_EXCHANGE, 1, "the 7 of trumps may still be exchanged for the turnup"),
    InputBlock("level", NET_LEVEL, NET_LEVELS, "talon tricks left, the turnup counted, the last for more"),
    InputBlock("tricks_me", NET_TRICKS_ME, NET_TRICKS, "Briscan: the tricks he has taken"),
    InputBlock("tricks_opp", NET_TRICKS_OPP, NET_TRICKS, "Briscan: the tricks his opponent has taken"),
)  # fmt: skip
HIDDEN = (NET_H1, NET_H2)  # the widths of the two hidden layers of rectified units
OUTPUTS = ("margin", "win logit", "loss logit")  # (NET_OUTPUTS of them: tests/engine/test_constants.py)


def layout_description() -> str:
    """The canonical text of the input layout and the network's widths: what
    :data:`FINGERPRINT` hashes (sorted keys, no spaces)."""
    blocks = [[b.name, b.offset, b.size, b.meaning] for b in LAYOUT]
    spec = {"inputs": blocks, "total": NET_INPUTS, "hidden": list(HIDDEN), "outputs": list(OUTPUTS)}
    return json.dumps(spec, sort_keys=True, separators=(",", ":"))


# the fingerprint of the input layout: the first 16 hex digits of its description's SHA-256
FINGERPRINT = hashlib.sha256(layout_description().encode()).hexdigest()[:16]


def canonical_card(card: int, trump: int) -> int:
    """The card with its suit renumbered from the trump (trump 0, then the suits after it).

    >>> canonical_card(2 * 8 + 7, 2), canonical_card(0 * 8 + 7, 2)   # AD, AS under diamonds
    (7, 23)
    """
    return ((card // 8 - trump) % 4) * 8 + card % 8


@lru_cache(maxsize=4)
def canonical_melds(trump: int) -> tuple[int, ...]:
    """Meld index -> the index of the same meld with its suit renumbered from ``trump``
    (marriages and sequences; the other melds have no suit).

    >>> canonical_melds(2)[MELD_BY_CODE["mD"].index] == MELD_BY_CODE["mS"].index
    True
    """
    out = []
    for m in MELDS:
        if m.suit < 0:
            out.append(m.index)
            continue
        out.append(MELD_BY_CODE[m.code[:-1] + SUITS[(m.suit - trump) % 4]].index)
    return tuple(out)


def network_level(p: Position) -> int:
    """Talon tricks still to play at the start of a trick, as the engine counts them for
    the network (network.pxd's talon_tricks_left: the turnup counts while it lies)."""
    cards = len(p.talon or []) + (1 if p.turnup >= 0 else 0)
    return (cards + 1) // 2


def network_inputs(p: Position) -> list[int]:
    """The inputs that are on for ``p`` (every card known, at the start of a trick), in
    increasing order: the network's sparse first layer adds their weight rows."""
    if p.talon is None or p.unknown[0] or p.unknown[1]:
        raise ValueError("network_inputs: the position has hidden cards")
    me = p.turn
    trump = p.trump
    on: list[int] = []
    for player, loc in ((me, HAND), (1 - me, OPP_HAND)):
        on.extend(loc * 32 + canonical_card(c, trump) for c in range(32) if p.hands[player] >> c & 1)
    seq = list(p.talon)
    for i, c in enumerate(seq):
        loc = NEXT_MINE if i == 0 else NEXT_OPP if i == 1 else LATER_MINE if i % 2 == 0 else LATER_OPP
        on.append(loc * 32 + canonical_card(c, trump))
    if p.turnup >= 0:
        on.append(TURNUP * 32 + canonical_card(p.turnup, trump))
    canon = canonical_melds(trump)
    for player, base in ((me, NET_MELDS_ME), (1 - me, NET_MELDS_OPP)):
        on.extend(base + canon[i] for i in p.melds[player])
    seven = trump * 8  # the 7 of trumps
    rules = p.rules
    if rules.exchange and p.turnup >= 0 and p.turnup != seven and p.exchanged < 0:
        on.append(NET_EXCHANGE)
    on.append(NET_LEVEL + min(network_level(p), NET_LEVELS - 1))
    if GAMES.index(rules.game) == G_BRISCAN:
        on.append(NET_TRICKS_ME + p.tricks[me])
        on.append(NET_TRICKS_OPP + p.tricks[1 - me])
    return sorted(on)


__all__ = [
    "FINGERPRINT",
    "HIDDEN",
    "LAYOUT",
    "OUTPUTS",
    "InputBlock",
    "canonical_card",
    "canonical_melds",
    "layout_description",
    "network_inputs",
    "network_level",
]
