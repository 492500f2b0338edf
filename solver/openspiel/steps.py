"""The moves of a state as it records them (plain data): who moved, the move, the cards it
brought into each hand and the cards it showed; what each player saw of it follows.
The game (:mod:`solver.openspiel.game`) records them, the resampling
(:mod:`solver.openspiel.resample`) reads them.
"""

from __future__ import annotations

from solver.model.moves import DECLARE_BASE
from solver.model.position import Position

Step = tuple[int, int, tuple[int, int], int]


def play_step(p: Position, action: int) -> Step:
    """Play ``action`` in ``p``; the step: its mover, the move, the cards it brought into
    each hand, and the cards it showed (the cards of a declaration; a carte blanche's hand)."""
    before = (p.hands[0], p.hands[1])
    mover, shown = p.turn, p.shown[p.turn]
    p.push(action)
    p.clear_stack()  # (the state keeps its own history)
    received = (p.hands[0] & ~before[0], p.hands[1] & ~before[1])
    showed = p.shown[mover] & ~shown & before[mover] if action >= DECLARE_BASE else 0
    return (mover, action, received, showed)


__all__ = ["Step", "play_step"]
