"""Card-set bit operations: the compiled module when built, else plain Python.

Set ``BRISQUE_PURE=1`` in the environment to force the pure Python path.

>>> from solver.bits import popcount
>>> popcount(0b111)
3
"""
from __future__ import annotations

import os

if os.environ.get("BRISQUE_PURE"):
    from solver._bits_py import cards_of, follow_mask, points_of, popcount, trick_winner
    COMPILED = False
else:
    try:
        from solver._bits import cards_of, follow_mask, points_of, popcount, trick_winner
        COMPILED = True
    except ImportError:  # source checkout without a build
        from solver._bits_py import cards_of, follow_mask, points_of, popcount, trick_winner
        COMPILED = False

__all__ = ["COMPILED", "cards_of", "follow_mask", "points_of", "popcount", "trick_winner"]
