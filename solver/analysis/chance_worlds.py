"""Sampled worlds without draw clairvoyance: a world's moves valued with the talon as chance.

A sampled world fixes the opponent's hand and the talon's order, and a double-dummy solve of
it plans with the draws known.  Here the world's talon is a set: every move gets the exact
expectimax value (each ordered pair of face-down cards equally likely at every draw, the
trick's winner's card first: ``src_cython/chance.pxd``), the deal's expected final margin.
Worlds that differ only in the talon's order then have the same values.

Where a game may still be won outright the expectimax would weigh a game won at the
engine's ``WIN_RAW`` points, not by the analysis's ranking rule: such a world keeps its
double-dummy values (:func:`world_chance_values` answers None).

>>> from solver.engine.seam import new_engine
>>> from solver.model.moves import move
>>> from solver.model.position import Position
>>> p = Position("brisque AJ.KQ.7.8/T87.A87.. JC QCAC7C KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1")
>>> values = world_chance_values(new_engine(p.rules), p)
>>> {str(move(m)): round(v, 2) for m, v in values.items() if str(move(m)) in ("7H", "7S")}
{'7S': -86.67, '7H': -74.0}
"""

from __future__ import annotations

from solver.engine.results import current_margin
from solver.engine.seam import engine_root
from solver.model.position import Position
from solver.model.value import ExpectedMargin
from solver.native.engine import Engine


def draws_are_chance(p: Position) -> bool:
    """Whether a draw is still to come with a choice of cards in it (two face-down cards or
    more): else the world's double-dummy values are already its expectimax values."""
    return p.rules.draws and p.turnup >= 0 and p.talon_count >= 2


def world_chance_values(engine: Engine, world: Position) -> dict[int, ExpectedMargin] | None:
    """Every legal move of ``world`` (every card known, the talon in any order) with its
    exact expectimax value for the player to move; None when a game may still be won
    outright (see the module), or when the engine's budget stopped the search."""
    # the talon in a fixed order: the values do not depend on it, but the search's order of
    # the draws, and so its node count (the work an analysis counts), would
    canonical = world.copy()
    canonical.talon = sorted(world.talon or ())
    engine.load(engine_root(canonical))
    if engine.chance_game_win_possible:
        return None
    past, scale = current_margin(world), engine.chance_scale
    values: dict[int, ExpectedMargin] = {}
    for m in world.legal_moves():
        v = engine.chance_move(int(m), past)
        if engine.aborted:
            return None
        values[int(m)] = ExpectedMargin(v / scale, world.turn)
    return values


__all__ = ["draws_are_chance", "world_chance_values"]
