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

import math
import numbers
import operator
import re

from solver.errors import ArgumentError, ArgumentTypeError
from solver.native.constants import MAX_TABLE_BITS

MAX_SCORE = 5000  # points of one player in one deal (real deals stay under a few hundred)
MAX_GAME_TOTAL = 1_000_000  # match totals before the deal (game=)
MAX_TARGET = 1_000_000  # the target option
MAX_EXCHANGE_POINTS = 1000  # the exchange_points option
MAX_TRICKS = 16  # tricks of one player (tricks=, final=)
# the tricks of a deal (Rules.tricks_per_deal; deal --at): 16 in Brisque and Briscan, 5 in
# Petite Brisque (tests/cli/test_cli_arguments.py checks them against the rules)
MAX_TRICKS_PER_DEAL = 16
PETITE_TRICKS = 5
MAX_DECLARED = 16  # declarations made at the current turn (declared=)
MAX_CARDS = 32  # any count of cards
MAX_BUDGET = 10**15  # nodes of a search budget
MAX_WORLDS = 10**9  # worlds of one sampled analysis (pimc:N, --worlds)
MIN_OWN_WORLDS = 10  # worlds a move for brisque line --view own (fewer say nothing of the noise)
MAX_DEPTH = 20  # tricks of look-ahead of a depth-limited search (a deal has at most 16)
MAX_WORKERS = 256  # worker processes of one analysis (the command line's --workers too)
MAX_DEALS = 10**7  # duplicate pairs of one match (run_match, brisque match --deals)
# a transposition table of 2**N entries: from MIN_TABLE_BITS (smaller is only slower) to the
# engine's largest (MAX_TABLE_BITS, defined in src_cython/constants.pxd), in the API and the
# command line alike (the memory each takes, and the check that it fits the machine:
# solver/model/table_memory.py)
MIN_TABLE_BITS = 8
MAX_PLIES = 1000  # moves below a position in a solution tree (a deal has far fewer)
MAX_TREE_NODES = 10**7  # nodes of a solution tree (brisque tree --max-nodes)
MAX_SECONDS = 10**9  # seconds of a search budget (31 years; the engine's clock overflows near 9e12)
MAX_SEED = 2**63 - 1  # seeds of deals and samples: 0 to 2**63 - 1 in the API, the CLI and .bpd files
# what a game won outright may be worth (win_worth=N, --win-worth N): as much as 'match'
# gives at most, the whole target (a larger number would overflow the means that rank moves)
MAX_WIN_WORTH = MAX_TARGET
# bytes of one line of standard input (brisque solve -, analyse -): far above any BPN (some
# 70 bytes, a few hundred with every option); a longer line is not kept whole, only counted
MAX_LINE_BYTES = 64 * 1024


def seed_in_range(n: int) -> int:
    """A seed derived by arithmetic (a match's deal seeds) brought into ``0..MAX_SEED``:
    ``n`` itself when it is in range, else ``n`` modulo ``MAX_SEED + 1``.

    >>> seed_in_range(12), seed_in_range(MAX_SEED + 5)
    (12, 4)
    """
    return n % (MAX_SEED + 1)


def whole_number(text: str | int, low: int, high: int, signed: bool = False, plus: bool = False) -> int:
    """``text`` as an int in ``low..high``: ASCII digits only (a leading ``-`` when
    ``signed``, a leading ``+`` when ``plus``); raises ValueError saying what was expected.

    >>> whole_number("+44", -100, 100, signed=True, plus=True)
    44
    >>> whole_number("+44", 0, 100)
    Traceback (most recent call last):
    ValueError: '+44': expected a whole number from 0 to 100 without a '+' sign
    """
    t = text.strip() if isinstance(text, str) else str(text)
    digits = t[1:] if t[:1] in ("-", "+") else t
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{short(t)} is not a whole number: expected a whole number from {low} to {high}")
    if t.startswith("+") and not plus:  # (a whole number all the same: say what is wrong with it)
        raise ValueError(f"{short(t)}: expected a whole number from {low} to {high} without a '+' sign")
    if t.startswith("-") and not signed:  # (a whole number all the same: below the range)
        raise ValueError(f"{short(t)} is out of range: expected a whole number from {low} to {high}")
    # (the length first, before int(): no 4300-digit trap; the message only when it fails,
    # since every BPN's numbers come through here)
    if len(digits) > 40 or not low <= (n := int(t)) <= high:
        raise ValueError(f"{short(t)} is out of range: expected a whole number from {low} to {high}")
    return n


# A byte that was no UTF-8, as Python's surrogateescape smuggles it into a str (sys.argv,
# file names): U+DC80..U+DCFF, raw or as repr writes it (an even run of backslashes before
# the escape is escaped backslashes, not the escape's own).
_SMUGGLED_BYTE = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])|([\udc80-\udcff])")


def readable_bytes(text: str) -> str:
    r"""``text`` (a message, a repr) with each undecodable input byte written as the byte
    (``\xff``) instead of Python's surrogate escape (``\udcff``).

    >>> readable_bytes(repr("K\udcffD"))
    "'K\\xffD'"
    """

    def byte(m: re.Match[str]) -> str:
        if m.group(3) is not None:
            return f"\\x{ord(m.group(3)) - 0xDC00:02x}"
        return f"{m.group(1)}\\x{m.group(2)}"

    return _SMUGGLED_BYTE.sub(byte, text)


def unicode_text(text: str) -> str:
    r"""``text`` as valid Unicode, for JSON that any strict parser reads: each undecodable
    input byte that Python's surrogate escape smuggled in (``\udcff``: a lone surrogate,
    which UTF-8 cannot encode) written as the four characters ``\xff``, as error messages
    quote it (:func:`readable_bytes`); any other lone surrogate as its escape (``\ud800``).

    >>> unicode_text("brisque a\udcff"), unicode_text("\ud800"), unicode_text("K\u2660")
    ('brisque a\\xff', '\\ud800', 'K♠')
    """
    return _LONE_SURROGATE.sub(_escaped_surrogate, text)


_LONE_SURROGATE = re.compile("[\\ud800-\\udfff]")


def _escaped_surrogate(m: re.Match[str]) -> str:
    code = ord(m.group(0))
    return f"\\x{code - 0xDC00:02x}" if code >= 0xDC80 else f"\\u{code:04x}"


def short(text: str, width: int = 40, length: str | None = None) -> str:
    r"""``repr(text)``, cut in the middle when longer than ``width`` (for error messages);
    an undecodable input byte is shown as the byte (:func:`readable_bytes`).  ``length``:
    the length to say, when ``text`` is only the beginning and the end of a longer input.

    >>> short("9" * 100, 12)
    "'99999...99999' (100 characters)"
    >>> short("\udcff")
    "'\\xff'"
    >>> short("9" * 40, 12, length="5000000 bytes")
    "'99999...99999' (5000000 bytes)"
    """
    if len(text) <= width and length is None:
        return readable_bytes(repr(text))
    half = (width - 2) // 2
    cut = f"{text[:half]!r}"[:-1] + "..." + f"{text[-half:]!r}"[1:]
    return readable_bytes(cut) + f" ({length or f'{len(text)} characters'})"


def short_value(value: object, width: int = 40) -> str:
    """An argument for an error message: a string as :func:`short` quotes it, anything else
    as its ``repr``, cut the same way when long.

    >>> short_value(42), short_value("a")
    ('42', "'a'")
    >>> short_value(list(range(30)), 20)
    '[0, 1, 2, 3, 4, 5...'
    """
    if isinstance(value, str):
        return short(value, width)
    try:
        text = repr(value)
    except Exception:  # (a repr that fails must not hide the error being reported)
        text = f"<{type(value).__name__} object>"
    if len(text) <= width:
        return text
    return text[: width - 3] + "..."


def whole_or_none(value: object) -> int | None:
    """``value`` as an int if it is a whole number (numpy's too), else None: not a bool
    (whatever ``int(True)`` says), not ``1.0``, not ``"1"``.

    >>> whole_or_none(3), whole_or_none(True), whole_or_none(1.0)
    (3, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def whole_argument(value: object, name: str, low: int, high: int, unit: str = "") -> int:
    """A function's argument ``name`` as an int in ``low..high`` (any whole number, numpy's
    too; not a bool, not 1.0); an :class:`~solver.errors.ArgumentError` quoting it otherwise.

    >>> whole_argument(3, "worlds", 1, MAX_WORLDS)
    3
    >>> whole_argument(0, "nodes", 1, MAX_BUDGET, "nodes")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentError: nodes=0: expected a whole number of nodes from 1 to 1000000000000000
    """
    n = whole_or_none(value)
    if n is None or not low <= n <= high:
        what = f"a whole number of {unit}" if unit else "a whole number"
        raise ArgumentError(f"{name}={short_value(value)}: expected {what} from {low} to {high}")
    return n


def seconds_argument(value: object, name: str = "seconds") -> float:
    """A function's argument ``name``, a number of seconds above 0 and at most
    ``MAX_SECONDS`` (not NaN, not infinite, not a bool), as a float; an
    :class:`~solver.errors.ArgumentError` quoting it otherwise.

    >>> seconds_argument(2)
    2.0
    >>> seconds_argument(float("nan"))
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentError: seconds=nan: expected a number of seconds above 0 and at most 1000000000
    """
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    f = float(value) if ok else math.nan  # type: ignore[arg-type]
    if not (math.isfinite(f) and 0 < f <= MAX_SECONDS):
        raise ArgumentError(
            f"{name}={short_value(value)}: expected a number of seconds above 0 and at most {MAX_SECONDS}"
        )
    return f


def text_argument(value: object, what: str, expected: str) -> str:
    """``value``, the text of a ``what`` (a card, a move), itself: anything but a str is an
    :class:`~solver.errors.ArgumentTypeError` quoting it and saying it ``expected``.

    >>> text_argument(None, "move", "a card such as 'AS'")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: bad move None: expected a card such as 'AS', as text
    """
    if not isinstance(value, str):
        raise ArgumentTypeError(f"bad {what} {short_value(value)}: expected {expected}, as text")
    return value


def flag_argument(value: object, name: str) -> bool:
    """A function's argument ``name``, True or False itself: a truthy ``"yes"`` or ``1`` is
    an :class:`~solver.errors.ArgumentTypeError` quoting it (``"no"`` would be truthy too).

    >>> flag_argument(True, "strategies")
    True
    >>> flag_argument("yes", "strategies")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentTypeError: strategies='yes': expected True or False
    """
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{name}={short_value(value)}: expected True or False")
    return value


def finite_argument(value: object, name: str, unit: str, low: float = 0.0) -> float:
    """A function's argument ``name``, a finite number (not a bool) of ``unit`` at least
    ``low``, as a float; an :class:`~solver.errors.ArgumentError` quoting it otherwise.

    >>> finite_argument(2, "separation", "standard errors")
    2.0
    >>> finite_argument(-1, "separation", "standard errors")
    Traceback (most recent call last):
    ...
    solver.errors.ArgumentError: separation=-1: expected a finite number of standard errors, 0 or more
    """
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    f = float(value) if ok else math.nan  # type: ignore[arg-type]
    if not (math.isfinite(f) and f >= low):
        raise ArgumentError(
            f"{name}={short_value(value)}: expected a finite number of {unit}, {low:g} or more"
        )
    return f


__all__ = [
    "MAX_BUDGET",
    "MAX_CARDS",
    "MAX_DECLARED",
    "MAX_DEPTH",
    "MAX_EXCHANGE_POINTS",
    "MAX_GAME_TOTAL",
    "MAX_SCORE",
    "MAX_SEED",
    "MAX_PLIES",
    "MAX_SECONDS",
    "MAX_LINE_BYTES",
    "MAX_TABLE_BITS",
    "MIN_TABLE_BITS",
    "MAX_TARGET",
    "MAX_TREE_NODES",
    "MAX_TRICKS",
    "MAX_TRICKS_PER_DEAL",
    "PETITE_TRICKS",
    "MAX_WORKERS",
    "MAX_WIN_WORTH",
    "MAX_WORLDS",
    "MIN_OWN_WORLDS",
    "finite_argument",
    "flag_argument",
    "readable_bytes",
    "seconds_argument",
    "seed_in_range",
    "short",
    "short_value",
    "text_argument",
    "unicode_text",
    "whole_argument",
    "whole_number",
    "whole_or_none",
]
