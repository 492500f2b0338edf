"""The learned horizon evaluation in plain Python: the twin of the compiled one.

A depth-limited search scores the positions at its horizon (the start of a turn, talon cards
still to draw, every card known) with a small neural network: which inputs are on (where
each card lies, the melds declared, the exchange, the talon tricks left, Briscan's tricks),
two hidden layers of rectified units, and three outputs: the future margin in points of the
player to move (of the deals that no game-winning event ends) and the logits of his winning
the game outright and of his opponent's.  The compiled engine computes the same numbers
(``Engine.horizon_network``); this module is the plain reference that tests hold it to, and
the encoder the training script (``training/train.py``) uses.

The input layout (its sizes are the engine's, ``solver.native.constants``):

* ``loc * 32 + card``: where each card lies, for the player to move (``loc``: 0 his hand, 1
  his opponent's, 2 the next talon card (his if he wins the trick), 3 the one after (his
  opponent's), 4 the later talon cards he draws if he keeps winning, 5 those his opponent
  draws, 6 the turnup; a card out of play has no input).  Suits are renumbered from the
  trump (trump 0, then the suits after it in S H D C order), so that one network serves
  every trump;
* ``NET_MELDS_ME + i``, ``NET_MELDS_OPP + i``: meld ``i`` (its suit renumbered so) declared by
  him, by his opponent;
* ``NET_EXCHANGE``: the 7 of trumps may still be exchanged for the turnup;
* ``NET_LEVEL + k``: ``k`` talon tricks left (the last row for ``k`` and more);
* ``NET_TRICKS_ME + t``, ``NET_TRICKS_OPP + t`` (Briscan only, whose bonuses count them):
  the tricks each has taken.

>>> from solver.model.position import Position
>>> p = Position("brisque AJ.KQ..A8/T87.87..Q JC 7C KQ9.ATJ9.ATKQJ987.TK9 - b 53:21 tricks=7:2")
>>> on = network_inputs(p)   # b to move; clubs are trump, so the 7C is card 0
>>> len(on), on[-4:]   # 12 cards in hand, 7C to draw next, JC turned up, exchange, 1 trick left
(16, [64, 195, 368, 370])
"""

from __future__ import annotations

import base64
import json
import math
import sys
from array import array
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from operator import add
from typing import Any

from solver.model.cards import SUITS
from solver.model.melds import MELD_BY_CODE, MELDS
from solver.model.position import Position
from solver.model.rules import GAMES, Rules
from solver.native.constants import (
    G_BRISCAN,
    NET_EXCHANGE,
    NET_H1,
    NET_H2,
    NET_INPUTS,
    NET_LEVEL,
    NET_LEVELS,
    NET_MELDS_ME,
    NET_MELDS_OPP,
    NET_OUTPUTS,
    NET_TRICKS_ME,
    NET_TRICKS_OPP,
)

# where a card lies, for the player to move (the first index of its inputs / 32)
HAND, OPP_HAND, NEXT_MINE, NEXT_OPP, LATER_MINE, LATER_OPP, TURNUP = range(7)


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


@dataclass(frozen=True)
class Network:
    """The weights of one learned evaluation: ``w1`` is ``NET_INPUTS`` rows of ``NET_H1``
    numbers, ``w2`` ``NET_H1`` rows of ``NET_H2``, ``w3`` ``NET_H2`` rows of 3 (margin,
    win, loss); ``levels``, the talon tricks left of its labels (any other level's row keeps
    its random start, or with ``training/train.py --tie`` the nearest labelled level's)."""

    key: str
    w1: tuple[tuple[float, ...], ...]
    b1: tuple[float, ...]
    w2: tuple[tuple[float, ...], ...]
    b2: tuple[float, ...]
    w3: tuple[tuple[float, ...], ...]
    b3: tuple[float, ...]
    levels: tuple[int, ...] = ()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Network:
        """The network of lists of rows (``w1`` ... ``b3``), each weight rounded to single
        precision (the engine's)."""

        def vec(x: Any) -> tuple[float, ...]:
            return tuple(array("f", x))

        def rows(x: Any) -> tuple[tuple[float, ...], ...]:
            return tuple(vec(r) for r in x)

        net = cls(
            d["key"], rows(d["w1"]), vec(d["b1"]), rows(d["w2"]), vec(d["b2"]), rows(d["w3"]), vec(d["b3"]),
            tuple(int(k) for k in d.get("levels", ())),
        )  # fmt: skip
        return net.checked()

    @classmethod
    def from_file_text(cls, text: str) -> Network:
        """The network of a weights file (``solver/engine/networks/``): JSON whose ``w1`` ...
        ``b3`` are little-endian single-precision numbers in base64, row after row."""
        d = json.loads(text)
        shapes = {"w1": (NET_INPUTS, NET_H1), "b1": (1, NET_H1), "w2": (NET_H1, NET_H2), "b2": (1, NET_H2),
                  "w3": (NET_H2, NET_OUTPUTS), "b3": (1, NET_OUTPUTS)}  # fmt: skip
        parts: dict[str, Any] = {"key": d["key"], "levels": d.get("levels", [])}
        for name, (n, m) in shapes.items():
            flat = array("f")
            try:
                flat.frombytes(base64.b64decode(d[name], validate=True))
            except (ValueError, TypeError) as exc:  # (binascii.Error is a ValueError)
                raise ValueError(
                    f"network {d['key']}: {name} is not base64 of single-precision numbers ({exc})"
                ) from None
            if sys.byteorder == "big":
                flat.byteswap()
            if len(flat) != n * m:
                raise ValueError(f"network {d['key']}: {name} holds {len(flat)} numbers, expected {n * m}")
            rows = [tuple(flat[i * m : (i + 1) * m]) for i in range(n)]
            parts[name] = rows[0] if n == 1 else rows
        return cls.from_dict(parts)

    def file_text(self) -> str:
        """The weights file of this network (what :meth:`from_file_text` reads)."""

        def b64(rows: Any) -> str:
            flat = array("f", [v for r in rows for v in r] if rows and isinstance(rows[0], tuple) else rows)
            if sys.byteorder == "big":
                flat.byteswap()
            return base64.b64encode(flat.tobytes()).decode("ascii")

        parts = {name: b64(getattr(self, name)) for name in ("w1", "b1", "w2", "b2", "w3", "b3")}
        head: dict[str, Any] = {"key": self.key, "inputs": NET_INPUTS, "hidden": [NET_H1, NET_H2]}
        if self.levels:
            head["levels"] = list(self.levels)
        return json.dumps({**head, **parts}) + "\n"

    def checked(self) -> Network:
        """This network, if its shapes are the engine's (else ValueError)."""
        net, h1, h2 = self, NET_H1, NET_H2
        if (
            (len(net.b1), len(net.b2)) != (h1, h2)
            or (len(net.w1), len(net.w2), len(net.w3), len(net.b3)) != (NET_INPUTS, h1, h2, NET_OUTPUTS)
            or any(len(r) != h1 for r in net.w1)
            or any(len(r) != h2 for r in net.w2)
            or any(len(r) != NET_OUTPUTS for r in net.w3)
        ):
            raise ValueError(
                f"network {net.key}: expected weights of {NET_INPUTS} inputs, {h1} and {h2} hidden units"
            )
        return net

    def outputs(self, on: list[int]) -> tuple[float, float, float]:
        """(margin, win logit, loss logit) for the inputs ``on``, computed as the engine does:
        in single precision (``array("f")`` rounds each sum and product as a float operation
        does), in the same order."""
        h = array("f", self.b1)
        for i in on:
            h = array("f", map(add, h, self.w1[i]))
        g = array("f", self.b2)
        for j, v in enumerate(h):
            if v > 0.0:  # (a rectified unit at 0 adds nothing)
                g = array("f", map(add, g, array("f", [v * w for w in self.w2[j]])))
        out = array("f", self.b3)
        for k, v in enumerate(g):
            if v > 0.0:
                out = array("f", map(add, out, array("f", [v * w for w in self.w3[k]])))
        return out[0], out[1], out[2]

    def evaluate(self, p: Position) -> tuple[float, float, float]:
        """(margin, chance of his game win, chance of his opponent's) for the player to move."""
        margin, win, loss = self.outputs(network_inputs(p))
        return margin, sigmoid(win), sigmoid(loss)


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def network_key(rules: Rules) -> str:
    """The file a game's network is shipped under (the game and its objective)."""
    return f"{rules.game}-{rules.objective}"


@lru_cache(maxsize=8)
def shipped_network(key: str) -> Network | None:
    """The network shipped for ``key`` (``solver/engine/networks/<key>.json``), or None.
    Read once a process: the quick search asks for it at every decision (``has_network``)."""
    path = resources.files("solver.engine").joinpath("networks", f"{key}.json")
    if not path.is_file():
        return None
    return Network.from_file_text(path.read_text())


__all__ = ["Network", "canonical_card", "canonical_melds", "network_inputs", "network_key", "shipped_network"]
