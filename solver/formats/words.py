"""Numbers in human-readable output: a count with its noun in the right number, and shares
that never round to "all" or "none" when they are not.

>>> plural(1, "trick"), plural(2, "trick"), plural(0, "deal pair"), plural(1, "match", "matches")
('1 trick', '2 tricks', '0 deal pairs', '1 match')
>>> percent(0.25), percent(0.004), percent(0.996), percent(1.0), percent(0.0)
('25%', '<1%', '>99%', '100%', '0%')
>>> proportion(0.9996), proportion(0.5)
('>0.999', '0.500')
>>> mixed_number(Fraction(-260, 3)), mixed_number(Fraction(-74))
('-86 2/3', '-74')
"""

from __future__ import annotations

from fractions import Fraction


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and ``noun``, in the plural (``nouns``, by default ``noun`` + "s") unless n is 1."""
    return f"{n} {noun if n == 1 else (nouns or noun + 's')}"


def _share(x: float, decimals: int, scale: int, sign: str) -> str:
    shown = f"{scale * x:.{decimals}f}"
    step = f"{1 / 10**decimals:.{decimals}f}"  # the smallest step shown: '1', '0.1', '0.001'
    if x > 0 and float(shown) == 0:  # some, shown as none
        return f"<{step}{sign}"
    if x < 1 and float(shown) >= scale:  # not all, shown as all
        return f">{scale - float(step):.{decimals}f}{sign}"
    return shown + sign


def percent(share: float, decimals: int = 0) -> str:
    """A share from 0 to 1 as a percentage with ``decimals`` decimals: ``'12%'``; a share above
    0 that would round to 0% is ``'<1%'``, one below 1 that would round to 100% is ``'>99%'``
    (``'<0.1%'`` and ``'>99.9%'`` with one decimal)."""
    return _share(share, decimals, 100, "%")


def proportion(share: float, decimals: int = 3) -> str:
    """A share from 0 to 1 as a decimal fraction, ``'0.250'``, with the same care as
    :func:`percent`: ``'<0.001'``, ``'>0.999'``."""
    return _share(share, decimals, 1, "")


def mixed_number(x: Fraction) -> str:
    """An exact value, signed as the reports' values: its whole part and the proper fraction
    left, ``'+3 1/2'``, ``'-86 2/3'``, ``'-2/3'``, ``'+12'``.

    >>> mixed_number(Fraction(7, 2)), mixed_number(Fraction(-2, 3)), mixed_number(Fraction(0))
    ('+3 1/2', '-2/3', '+0')
    """
    sign = "-" if x < 0 else "+"
    whole, rest = divmod(abs(x.numerator), x.denominator)
    if not rest:
        return f"{sign}{whole}"
    part = f"{rest}/{x.denominator}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


__all__ = ["mixed_number", "percent", "plural", "proportion"]
