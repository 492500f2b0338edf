"""Every error the package raises on purpose, under one base class.

Catch :class:`BrisqueError` for all of them, or a precise class for one kind.  Each
message quotes the input and says what was expected.  The classes keep the builtin base
they always had (``ValueError`` for bad input, ``RuntimeError`` for the engine), so code
that caught those still works.

>>> from solver import Position
>>> try:
...     Position("brisque nonsense")
... except NotationError as exc:
...     print(type(exc).__name__, isinstance(exc, BrisqueError))
BPNError True
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class BrisqueError(Exception):
    """Base class of every error of this package."""


# ---------------------------------------------------------------- notation
class NotationError(BrisqueError, ValueError):
    """Malformed text: a card, hand, move, meld code, seat or number that does not parse."""


class BPNError(NotationError):
    """A malformed BPN string; the message names the field and what was expected."""


class RulesError(NotationError):
    """An unknown game or option, or a bad option value, in a rules string.  ``reason``, when
    the error came from a rules string, says what is wrong without quoting the string, for a
    message that quotes it as its own: a BPN's rules field, the ``--rules`` option."""

    reason: str | None = None


class PuzzleError(NotationError):
    """A malformed ``.bpd`` puzzle record; the message names the file and line, and
    ``source`` gives them apart (``file:line``) when the record was read from a file, and
    ``id`` the record's id when its ``id`` operation could be read."""

    source: str | None = None
    id: str | None = None


class RecordError(NotationError):
    """A deal record (a line of JSON) that is not one: bad JSON, or a field missing or of
    the wrong type."""


class ArgumentError(BrisqueError, ValueError):
    """A bad argument to a function or command: an unknown choice, a number out of range."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type, such as ``Position(42)`` or ``solve(None)``: both an
    :class:`ArgumentError` and a ``TypeError``, so that either ``except`` catches it.

    >>> issubclass(ArgumentTypeError, TypeError), issubclass(ArgumentTypeError, BrisqueError)
    (True, True)
    """


# ---------------------------------------------------------------- positions and moves
class PositionError(BrisqueError, ValueError):
    """A well-formed position that cannot be used as asked: impossible, over, or the wrong rules."""


class ImpossiblePositionError(PositionError):
    """A position that cannot arise in play; ``problems`` lists every reason.

    >>> ImpossiblePositionError("brisque ...", ["a holds 7 cards"]).problems
    ['a holds 7 cards']
    """

    def __init__(self, bpn: str, problems: list[str]):
        self.bpn = bpn
        self.problems = list(problems)
        super().__init__(f"impossible position {bpn!r}: " + "; ".join(self.problems))


class IllegalMoveError(PositionError):
    """A move that is not legal in the position (the message lists the legal ones)."""


class HiddenInformationError(PositionError):
    """The operation needs cards the position does not show (a view with ``?N``)."""


class TreeLimitError(PositionError):
    """A solution tree would exceed its node limit."""


# ---------------------------------------------------------------- the engine
class EngineError(BrisqueError, RuntimeError):
    """The compiled engine and the rules model disagree, or the engine failed."""


class NetworkFileError(BrisqueError, ValueError):
    """A weights file of the learned evaluation that the engine cannot use: not a network
    file, weights of the wrong shape, or trained for another input layout (the message
    quotes the file, its layout's fingerprint and the engine's)."""


class EngineMissingError(EngineError, ImportError):
    """The compiled engine is not built (a source tree without ``pip install .``)."""


# ---------------------------------------------------------------- optional extras
PROJECT = "brisque-solver"  # the name pip knows the project by (pyproject.toml)


def install_hint(extra: str) -> str:
    """How to install an optional extra of the package, in the one wording every message
    uses: from the package index, or from a checkout.  (Here, the bottom layer, so that every
    layer's message for a missing extra can say it; not in ``__all__``, which lists the
    error classes.)

    >>> install_hint("cluster")
    "pip install 'brisque-solver[cluster]' (or pip install '.[cluster]' from a checkout)"
    """
    return f"pip install '{PROJECT}[{extra}]' (or pip install '.[{extra}]' from a checkout)"


# ---------------------------------------------------------------- play
class PlayError(BrisqueError, RuntimeError):
    """A deal or a game that does not end within its bound of moves or deals."""


# ---------------------------------------------------------------- Ctrl-C
class Interrupted(KeyboardInterrupt, Generic[T]):
    """Ctrl-C during a long computation, with the answer so far (``partial``): what a
    solve proved, the moves of a line judged, the tree built.  A KeyboardInterrupt, not a
    :class:`BrisqueError`, so that code that does not look for it stops as before; each
    computation raises its own subclass, whose attribute names the partial answer.  (Not
    in ``__all__``, which lists the :class:`BrisqueError` classes.)

    >>> try:
    ...     raise Interrupted("interrupted after 2 moves", ["7H", "KH"])
    ... except KeyboardInterrupt as stop:
    ...     print(stop, stop.partial)
    interrupted after 2 moves ['7H', 'KH']
    """

    def __init__(self, message: str, partial: T):
        super().__init__(message)
        self.partial = partial


# ---------------------------------------------------------------- the board
class BoardError(ArgumentError):
    """A request the board (``brisque serve``) refuses: its message, and in ``status`` the
    HTTP status it answers with (400 unless told: 404 for nothing there, 413 for too large,
    429 for too busy).

    >>> exc = BoardError("a request of 9999999 bytes", 413)
    >>> exc.status, isinstance(exc, BrisqueError)
    (413, True)
    """

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


__all__ = [
    "ArgumentError",
    "ArgumentTypeError",
    "BPNError",
    "BoardError",
    "BrisqueError",
    "EngineError",
    "EngineMissingError",
    "HiddenInformationError",
    "IllegalMoveError",
    "ImpossiblePositionError",
    "NetworkFileError",
    "NotationError",
    "PlayError",
    "PositionError",
    "PuzzleError",
    "RecordError",
    "RulesError",
    "TreeLimitError",
]
