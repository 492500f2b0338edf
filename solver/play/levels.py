"""The engine's strength levels for play: from a beginner who makes human-like mistakes to
the strongest player the engine has.  Each level is a player spec
(:func:`solver.play.players.make_player`); the same seed and level give the same play.

>>> [(lv.number, lv.name) for lv in LEVELS]
[(1, 'beginner'), (2, 'casual'), (3, 'club'), (4, 'strong'), (5, 'master')]
>>> level(4).spec
'pimc:0.5s@learned:3'
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import ArgumentError
from solver.model.ranges import short_value, whole_or_none


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    spec: str  # the engine's player
    about: str  # one line for the page and --help


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", "humanlike:6:0.1", "looks at a few deals and often plays a move a few points worse"),
    Level(2, "casual", "humanlike:20:0.3", "sees more and slips less, but still gives points away"),
    Level(3, "club", "pimc:0.1s", "the classic sampling player, a tenth of a second a move"),
    Level(4, "strong", "pimc:0.5s@learned:3", "half a second a move, with the learned evaluation"),
    Level(5, "master", "pimc:3s@learned:3", "the strongest: three seconds a move"),
)
DEFAULT_LEVEL = 2


def level(number: object) -> Level:
    """The level numbered ``number`` (1 to 5); an ArgumentError quoting anything else."""
    n = whole_or_none(number)
    for lv in LEVELS:
        if lv.number == n:
            return lv
    raise ArgumentError(
        f"level={short_value(number)}: expected a level from 1 to {len(LEVELS)} "
        f"({', '.join(f'{lv.number} {lv.name}' for lv in LEVELS)})"
    )


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "level"]
