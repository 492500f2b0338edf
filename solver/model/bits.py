"""Card-set bit operations: the compiled module, or its plain Python twin.

The compiled ``solver.native.bits`` shares the follow rule and the trick winner with the
engine.  Set ``BRISQUE_PURE=1`` in the environment to use the pure Python twin
(:mod:`solver.model.pure_bits`) instead; the tests run both.

>>> from solver.model.bits import popcount
>>> popcount(0b111)
3
"""

from __future__ import annotations

import os

if os.environ.get("BRISQUE_PURE"):
    from solver.model.pure_bits import (
        cards_of,
        follow_mask,
        points_of,
        popcount,
        trick_winner,
    )

    COMPILED = False
else:
    from solver.native.bits import (
        cards_of,
        follow_mask,
        points_of,
        popcount,
        trick_winner,
    )

    COMPILED = True

__all__ = ["COMPILED", "cards_of", "follow_mask", "points_of", "popcount", "trick_winner"]
