"""The structs of the compiled engine (src_cython/context.pxd), as TypedDicts for Python and mypy.

Each has exactly the fields of its C struct (tests/engine/test_constants.py checks them against
context.pxd).  ``EngineRules`` crosses into the engine as such a dict, which Cython converts
and refuses with a field missing.  ``Root`` is the shape in which the engine gives a root
back (``RootPosition.to_dict()``, and ``Engine.after()`` with ``gain``, ``ended`` and
``win``); a root crosses in as a ``RootPosition``, filled in C from named fields.

>>> sorted(Root.__annotations__)[:3]
['declared', 'exchanged', 'final']
"""

from __future__ import annotations

from typing import TypedDict


class EngineRules(TypedDict):
    """The EngineRules struct of src_cython/context.pxd (built by engine_rules)."""

    game: int
    draws: int
    exchange: int
    exchange_points: int
    quartet_game: int
    final_decl: int
    one_decl: int
    tricks_obj: int
    must_beat: int
    forced_start: int
    window: int
    exch_lead_only: int
    last_bonus: int
    before_draw: int
    meld_cards: list[int]
    meld_kind: list[int]
    meld_points: list[list[int]]
    meld_allowed: list[int]


class Root(TypedDict):
    """The Root struct of src_cython/context.pxd (``RootPosition.to_dict()``)."""

    hand: list[int]
    out: int
    turnup: int
    trump: int
    talon: list[int]
    talon_len: int
    trick: int
    turn: int
    tricks: list[int]
    final: list[int]
    melds_lo: list[int]
    melds_hi: list[int]
    exchanged: int
    taken: int
    declared: int
    fresh: int


class AfterMove(Root):
    """What ``Engine.after(move)`` gives: the Root fields after the move (the talon as the
    cards still to draw), the mover's gain minus his opponent's, and the end of the deal."""

    gain: int
    ended: bool
    win: int


__all__ = ["AfterMove", "EngineRules", "Root"]
