"""The learned network in plain Python: the twin of the compiled one.

The inputs that are on (:mod:`solver.engine.evaluation.features`) feed two hidden layers of
rectified units and three outputs: the future margin in points of the player to move (of
the deals that no game-winning event ends) and the logits of his winning the game outright
and of his opponent's.  The compiled engine computes the same numbers
(``Engine.network_outputs``, ``src_cython/network.pxd``); this class is the plain reference
that tests hold it to, and what the training script (``benchmarks/training/train.py``) builds.

>>> net = Network.from_dict({"key": "zero", "w1": [[0.0] * NET_H1] * NET_INPUTS, "b1": [1.0] * NET_H1,
...     "w2": [[0.0] * NET_H2] * NET_H1, "b2": [1.0] * NET_H2, "w3": [[0.5, 0.0, 0.0]] * NET_H2, "b3": [0.0] * 3})
>>> net.outputs([0, 415 - 1])
(16.0, 0.0, 0.0)
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass
from operator import add
from typing import Any

from solver.engine.evaluation.features import network_inputs
from solver.errors import NetworkFileError
from solver.model.position import Position
from solver.model.rules import Rules, as_rules
from solver.native.constants import NET_H1, NET_H2, NET_INPUTS, NET_OUTPUTS


@dataclass(frozen=True)
class Network:
    """The weights of one learned evaluation: ``w1`` is ``NET_INPUTS`` rows of ``NET_H1``
    numbers, ``w2`` ``NET_H1`` rows of ``NET_H2``, ``w3`` ``NET_H2`` rows of 3 (margin,
    win, loss); ``levels``, the talon tricks left of its labels (any other level's row keeps
    its random start, or with ``benchmarks/training/train.py --tie`` the nearest labelled level's)."""

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

    def checked(self) -> Network:
        """This network, if its shapes are the engine's (else :class:`NetworkFileError`)."""
        net, h1, h2 = self, NET_H1, NET_H2
        if (
            (len(net.b1), len(net.b2)) != (h1, h2)
            or (len(net.w1), len(net.w2), len(net.w3), len(net.b3)) != (NET_INPUTS, h1, h2, NET_OUTPUTS)
            or any(len(r) != h1 for r in net.w1)
            or any(len(r) != h2 for r in net.w2)
            or any(len(r) != NET_OUTPUTS for r in net.w3)
        ):
            raise NetworkFileError(
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
    """The logistic function, without overflow for large ``-x``.

    >>> sigmoid(0.0), sigmoid(-1000.0)
    (0.5, 0.0)
    """
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def network_key(rules: Rules | str) -> str:
    """What a game's network is shipped under: the game and its objective.

    >>> network_key("brisque")
    'brisque-margin'
    """
    r = as_rules(rules)
    return f"{r.game}-{r.objective}"


__all__ = ["Network", "network_key", "sigmoid"]
