"""The batch path's native lane: a BPN line to its JSON answer in C, when the line is one the
lane is sure of (``solver.native.bpnline``); ``None`` sends the line to the Python path.

The lane reads the rules from here, once per rules text: the numbers of the rules, the meld
table and the ranges of solver/model/ranges.py, so that it holds no rule of its own.

>>> line = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
>>> import json; json.loads(fast_answer(line))["value"]
44
>>> fast_answer("brisque x") is None
True
"""

from __future__ import annotations

import threading
from typing import Any

from solver.engine.seam import DEFAULT_TABLE_BITS
from solver.engine.solving import shared_solver
from solver.errors import NotationError
from solver.model.melds import MELDS
from solver.model.ranges import MAX_CARDS, MAX_DECLARED, MAX_SCORE, MAX_TRICKS
from solver.model.rules import GAMES, Rules
from solver.native.bpnline import LineLane

_MAX_LANES = 64  # rules texts kept (a batch rarely has more than a few)


class _Lanes(threading.local):
    """The lanes kept for one thread: a lane writes its answer into a buffer of its own,
    without the GIL, so two threads must not share one (the solvers are kept per thread
    for the same reason: solver.engine.solving._Kept)."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple[Rules, LineLane] | None] = {}


_LANES = _Lanes()


def lane_spec(rules: Rules) -> dict[str, Any]:
    """What :class:`~solver.native.bpnline.LineLane` needs of ``rules``."""
    return {
        "rules_text": str(rules),
        "game": GAMES.index(rules.game),
        "draws": int(rules.draws),
        "hand_size": rules.hand_size,
        "talon_size": rules.talon_size,
        "talon_tricks": rules.talon_tricks,
        "tricks_per_deal": rules.tricks_per_deal,
        "has_declarations": int(rules.has_declarations),
        "exchange": int(rules.exchange),
        "exchange_points": rules.exchange_points,
        "tricks_obj": int(rules.objective == "tricks"),
        "last_pickup_window": int(rules.last_pickup_window),
        "max_score": MAX_SCORE,
        "max_tricks": MAX_TRICKS,
        "max_cards": MAX_CARDS,
        "max_declared": MAX_DECLARED,
        "meld_code": [m.code for m in MELDS],
        "meld_kind": [m.kind for m in MELDS],
        "meld_cards": [[m.cards_for(t) for m in MELDS] for t in range(4)],
        "meld_points": [[m.points(t, rules.game) for m in MELDS] for t in range(4)],
    }


def lane_for(rules_text: str) -> tuple[Rules, LineLane] | None:
    """The rules and the lane of a BPN's rules field, or None when its lines take the
    Python path: a rules text that is not canonical (the lane compares it byte for byte) or
    does not parse, and rules whose declarations exclude the cards just drawn (``drawn=``)."""
    kept = _LANES.kept
    if rules_text in kept:
        return kept[rules_text]
    lane: tuple[Rules, LineLane] | None = None
    try:
        rules = Rules.parse(rules_text)
    except NotationError:
        rules = None
    if rules is not None and str(rules) == rules_text and rules.declare != "before_draw":
        try:
            lane = (rules, LineLane(lane_spec(rules)))
        except ValueError:  # (a rules text longer than the lane holds: the Python path)
            lane = None
    if len(kept) >= _MAX_LANES:
        kept.clear()
    kept[rules_text] = lane
    return lane


def fast_answer(line: str, table_bits: int = DEFAULT_TABLE_BITS) -> str | None:
    """The JSON answer of a stripped BPN ``line``, exactly as :func:`solver.engine.solve`
    would give it (``seconds`` aside), from the shared solver of its rules; or None when the
    line takes the Python path (any doubt, any error)."""
    if not line.isascii():  # (the lane reads ASCII; a lone surrogate would not even encode)
        return None
    rules_text, _, rest = line.partition(" ")
    if not rest:
        return None
    lane = lane_for(rules_text)
    if lane is None:
        return None
    rules, native = lane
    try:
        engine = shared_solver(rules, table_bits).engine
    except MemoryError:  # (no table of that size here: the Python path says what it can)
        return None
    answer: str | None = native.answer(engine, line)
    return answer


__all__ = ["fast_answer", "lane_for", "lane_spec"]
