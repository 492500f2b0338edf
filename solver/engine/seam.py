"""The seam to the compiled engine: the rules and a root position as the typed structs it loads.

Everything that crosses into ``solver.native.engine`` is built here, once:

* :func:`engine_rules`: the ``EngineRules`` struct, as a dict with exactly the struct's
  fields (the TypedDict of ``solver/native/structs.py``), converted by Cython once per engine;
* :func:`engine_root`: a ``RootPosition``, the compiled record that holds the ``Root`` struct,
  filled from named fields in C (a dict would be converted field by field at every load,
  which costs the batch path of the final phase).

>>> from solver import Position
>>> root = engine_root(Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"))
>>> root.to_dict()["turn"], root.to_dict()["talon_len"]
(1, 0)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from typing import Any

from solver.engine.evaluation import DEFAULT_HORIZON, HORIZONS, horizon_weights, set_evaluation
from solver.model.melds import MELDS, game_melds
from solver.model.position import Position
from solver.model.rules import GAMES, Rules
from solver.model.table_memory import DEFAULT_TABLE_BITS
from solver.native.engine import Engine, RootPosition
from solver.native.structs import EngineRules


def engine_rules(r: Rules) -> EngineRules:
    """The ``EngineRules`` struct of ``r``: the options the search needs and the meld table."""
    allowed = {m.index for m in game_melds(r.game)}
    return EngineRules(
        game=GAMES.index(r.game),
        draws=int(r.draws),
        exchange=int(r.exchange),
        exchange_points=r.exchange_points,
        quartet_game=int(r.quartet_win == "game"),
        final_decl=int(r.final_declarations),
        one_decl=int(r.one_declaration_per_turn),
        tricks_obj=int(r.objective == "tricks"),
        must_beat=int(r.must_beat),
        forced_start=int(r.forced_follow_from_start),
        window=int(r.last_pickup_window),
        exch_lead_only=int(r.exchange_on_lead_only),
        last_bonus=r.last_trick_bonus,
        before_draw=int(r.declare == "before_draw"),
        meld_cards=[m.cards for m in MELDS],
        meld_kind=[m.kind for m in MELDS],
        meld_points=[[m.points(t, r.game) for m in MELDS] for t in range(4)],
        meld_allowed=[int(m.index in allowed) for m in MELDS],
    )


@functools.lru_cache(maxsize=256)
def engine_key(r: Rules) -> str:
    """What two rule sets must share for one engine to solve both: the options the search
    reads (``engine_rules``) and the horizon weights.  Options of the match only (the
    target, the next dealer) are not part of it.

    >>> engine_key(Rules.parse("brisque(target=1000)")) == engine_key(Rules.parse("brisque"))
    True
    """
    # (the learned network is chosen by the game and objective, which engine_rules holds:
    # no need to load it here, on the way to every solver)
    return json.dumps([engine_rules(r), horizon_weights(r)], sort_keys=True)


def new_engine(rules: Rules, table_bits: int = DEFAULT_TABLE_BITS, horizon: str = DEFAULT_HORIZON) -> Engine:
    """A compiled engine for ``rules`` with a table of ``2**table_bits`` entries, and the
    ``horizon`` evaluation of its game for depth-limited searches (one of ``HORIZONS``,
    chosen, checked and set by ``solver.engine.evaluation``)."""
    eng = Engine(engine_rules(rules), table_bits)
    set_evaluation(eng, rules, horizon)
    return eng


def engine_root(p: Position) -> RootPosition:
    """The root struct of a perfect-information position (talon order known)."""
    return RootPosition(hand=p.hands, talon=p.talon or (), **_public_fields(p))


def engine_roots(
    p: Position, hands: Iterable[tuple[int, int]], talons: Iterable[Sequence[int]]
) -> list[RootPosition]:
    """The root structs of ``p`` with other cards in the hands and the talon: one for each
    pair of hands (seat a's, seat b's card masks) and talon order, the rest of ``p`` kept.
    The equilibrium solver builds a node's deals this way instead of playing each.

    >>> p = Position("petite 7.../8... D 0 - - a 0:0")
    >>> [r.to_dict()["hand"] for r in engine_roots(p, [(1, 2), (2, 1)], [(), ()])]
    [[1, 2], [2, 1]]
    """
    fields = _public_fields(p)
    return [RootPosition(hand=h, talon=t, **fields) for h, t in zip(hands, talons, strict=True)]


def _public_fields(p: Position) -> dict[str, Any]:
    """Everything of the root struct but the hands and the talon."""
    return {
        "out": p.out,
        "turnup": p.turnup,
        "trump": p.trump,
        "trick": p.trick,
        "turn": p.turn,
        "tricks": p.tricks,
        "final": p.final,
        "melds": p.melds,
        "exchanged": p.exchanged,
        "taken": p.taken,
        "declared": p.declared,
        "fresh": p.drawn,
    }


__all__ = [
    "DEFAULT_TABLE_BITS",
    "engine_root",
    "engine_roots",
    "engine_rules",
    "new_engine",
    # (the evaluation's names new_engine takes, from solver.engine.evaluation)
    "DEFAULT_HORIZON",
    "HORIZONS",
]
