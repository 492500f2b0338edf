"""The one rule for numbers in JSON answers: a float that is a value (a mean value, its
standard error, a loss, a margin, a confidence bound) is rounded to ``JSON_DIGITS`` decimals.

Integers (exact values, counts) and ``None`` pass unchanged.  Probabilities and shares
(``p_win``, ``p_loss``, ``probability``, ``won_share_ci95``, ``exploitability``) and times
(``seconds``) keep their own ``SHARE_DIGITS`` decimals (:func:`json_share`): a share of a
thousand worlds needs more than 3.

>>> json_number(13.017857142857142), json_number(3.8499999999999996), json_number(7), json_number(None)
(13.018, 3.85, 7, None)
>>> json_share(0.5291118177871464), json_share(0.00041328137499999085), json_share(1.0)
(0.529112, 0.000413, 1.0)
"""

from __future__ import annotations

from typing import overload

JSON_DIGITS = 3
SHARE_DIGITS = 6  # shares, probabilities and seconds


@overload
def json_number(x: float) -> float: ...
@overload
def json_number(x: None) -> None: ...
def json_number(x: float | None) -> float | None:
    """``x`` as a JSON answer gives it (module docstring)."""
    if isinstance(x, float):
        return round(x, JSON_DIGITS)
    return x


@overload
def json_share(x: float) -> float: ...
@overload
def json_share(x: None) -> None: ...
def json_share(x: float | None) -> float | None:
    """``x``, a share, a probability or a time, as a JSON answer gives it (module docstring)."""
    if isinstance(x, float):
        return round(x, SHARE_DIGITS)
    return x


__all__ = ["JSON_DIGITS", "SHARE_DIGITS", "json_number", "json_share"]
