"""Card-set bit operations: the compiled module, or its plain Python twin.

The compiled ``solver.native.bits`` shares the follow rule and the trick winner with the
engine.  Set ``BRISQUE_PURE=1`` (or ``yes``, ``true``, ``on``, in any case) in the
environment to use the pure Python twin (:mod:`solver.model.pure_bits`) instead; ``0``,
``no``, ``false``, ``off`` or empty keep the compiled module, and any other value is a
warning (the compiled module is kept).  The tests run both.

>>> from solver.model.bits import popcount
>>> popcount(0b111)
3
"""

from __future__ import annotations

import os
import warnings

_ON = ("1", "yes", "true", "on")
_OFF = ("", "0", "no", "false", "off")


def wants_pure(value: str | None) -> bool:
    """Whether ``BRISQUE_PURE``'s value (None: not set) asks for the pure Python twin.

    A value that is neither on nor off is a warning quoting it, not an error: the variable
    is read on import, where an error would stop every command with a traceback.

    >>> wants_pure("1"), wants_pure(" Yes "), wants_pure("0"), wants_pure("OFF"), wants_pure(None)
    (True, True, False, False, False)
    """
    text = (value or "").strip().lower()
    if text in _ON:
        return True
    if text not in _OFF:
        warnings.warn(
            f"BRISQUE_PURE={value!r} is not understood: expected 1, yes, true or on (the pure "
            f"Python bit operations) or 0, no, false, off or empty (the compiled ones); the "
            f"compiled ones are used",
            RuntimeWarning,
            stacklevel=2,
        )
    return False


if wants_pure(os.environ.get("BRISQUE_PURE")):
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

__all__ = ["COMPILED", "cards_of", "follow_mask", "points_of", "popcount", "trick_winner", "wants_pure"]
