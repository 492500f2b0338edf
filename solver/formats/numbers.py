"""The rule for numbers in JSON answers, as the formats and the analyses import it: it lives
in :mod:`solver.model.numbers`, below the engine, whose answers round by it too.

>>> json_number(13.017857142857142)
13.018
"""

from solver.model.numbers import JSON_DIGITS, SHARE_DIGITS, json_number, json_share

__all__ = ["JSON_DIGITS", "SHARE_DIGITS", "json_number", "json_share"]
