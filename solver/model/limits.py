"""The ranges of the numbers that positions and rules carry, and one parser for them.

Every number read from outside (BPN fields, rules options) is checked here, so that a huge
or odd number gets a clear error at parse time instead of an overflow deep in the engine.
The limits leave room for any real deal: a deal's margin must stay far inside +-10000, the
number that marks a game won outright (solver/model/value.py).

>>> whole_number("52", 0, MAX_SCORE)
52
>>> whole_number("9" * 40, 0, MAX_SCORE)
Traceback (most recent call last):
...
ValueError: '9999999999999999999999999999999999999999' is out of range: expected a whole number from 0 to 5000
"""

from __future__ import annotations

MAX_SCORE = 5000  # points of one player in one deal (real deals stay under a few hundred)
MAX_GAME_TOTAL = 1_000_000  # match totals before the deal (game=)
MAX_TARGET = 1_000_000  # the target option
MAX_EXCHANGE_POINTS = 1000  # the exchange_points option
MAX_TRICKS = 16  # tricks of one player (tricks=, final=)
MAX_DECLARED = 16  # declarations made at the current turn (declared=)
MAX_CARDS = 32  # any count of cards
MAX_BUDGET = 10**15  # nodes of a search budget
MAX_WORLDS = 10**9  # worlds of one sampled analysis (pimc:N, --worlds)
MAX_DEPTH = 20  # tricks of look-ahead of a depth-limited search (a deal has at most 16)


def whole_number(text: str | int, low: int, high: int, signed: bool = False) -> int:
    """``text`` as an int in ``low..high``: ASCII digits only (a leading ``-`` when
    ``signed``); raises ValueError saying what was expected."""
    t = text.strip() if isinstance(text, str) else str(text)
    digits = t[1:] if signed and t.startswith("-") else t
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{short(t)} is not a whole number: expected a whole number from {low} to {high}")
    # (the length first, before int(): no 4300-digit trap; the message only when it fails,
    # since every BPN's numbers come through here)
    if len(digits) > 40 or not low <= (n := int(t)) <= high:
        raise ValueError(f"{short(t)} is out of range: expected a whole number from {low} to {high}")
    return n


def short(text: str, width: int = 40) -> str:
    """``repr(text)``, cut in the middle when longer than ``width`` (for error messages).

    >>> short("9" * 100, 12)
    "'99999...99999' (100 characters)"
    """
    if len(text) <= width:
        return repr(text)
    half = (width - 2) // 2
    return f"{text[:half]!r}"[:-1] + "..." + f"{text[-half:]!r}"[1:] + f" ({len(text)} characters)"


__all__ = [
    "MAX_BUDGET",
    "MAX_CARDS",
    "MAX_DECLARED",
    "MAX_EXCHANGE_POINTS",
    "MAX_GAME_TOTAL",
    "MAX_SCORE",
    "MAX_TARGET",
    "MAX_TRICKS",
    "short",
    "whole_number",
]
