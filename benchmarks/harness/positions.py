"""Seeded positions and views for the lab, from the package's dealing (the same on every
machine: :mod:`solver.play.dealing`).

>>> [p.trick_number for p in positions_with_talon_left(5, 2, "brisque")]
[6, 6]
>>> [v.trick_number for v in views_at(5, 2)]
[5, 5]
"""

from __future__ import annotations

from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import (
    deal,
    mixed_final_phase,
    positions_with_talon_left,
    random_final_phase,
    random_position,
)


def views_at(
    trick: int, count: int, rules: Rules | str = "brisque", first_seed: int = 1000
) -> list[Position]:
    """The views of the player to move in ``count`` seeded deals played on by random moves to
    the start of ``trick`` (seeds from ``first_seed``; deals that ended or stand in Brisque's
    last-pickup window are skipped)."""
    out: list[Position] = []
    seed = first_seed
    while len(out) < count:
        p = random_position(seed, rules, trick)
        seed += 1
        if not p.is_over() and p.trick_number == trick and not p.in_window:
            out.append(p.view(p.turn))
    return out


def start_of_final_phase(count: int, rules: Rules | str = "brisque") -> list[Position]:
    """``count`` positions at the first lead of the final phase, seeds 0, 1, 2, ..."""
    return positions_with_talon_left(0, count, rules)


__all__ = [
    "deal",
    "mixed_final_phase",
    "positions_with_talon_left",
    "random_final_phase",
    "random_position",
    "start_of_final_phase",
    "views_at",
]
