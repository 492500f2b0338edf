"""Card diagrams in SVG (the public name of :mod:`solver.model.svg`), of a Position or a BPN
string, as every function that takes a position accepts.

>>> from solver.model.position import Position
>>> svg(Position("petite 7.../8... D 0 - - a 0:0")).startswith("<svg")
True
>>> p = Position("petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H")
>>> svg("petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H", pov="a") == svg(p, pov="a")
True
"""

from collections.abc import Sequence

from solver.model import svg as diagrams
from solver.model.moves import Move
from solver.model.position import Position, as_position
from solver.model.svg import MAX_SIZE, MarkError


def svg(
    p: Position | str,
    *,
    pov: int | str | None = None,
    size: int = 480,
    highlight: Sequence[Move | str | int] | str | None = None,
    arrows: Sequence[Move | str | int] | str | None = None,
) -> str:
    """The diagram of ``p``, a Position or a BPN string (anything else is an
    :class:`~solver.errors.ArgumentTypeError` quoting it); the options as in
    :func:`solver.model.svg.svg`.  (The model's module cannot read a BPN itself: the
    position module imports it.)"""
    return diagrams.svg(as_position(p, "p"), pov=pov, size=size, highlight=highlight, arrows=arrows)


__all__ = ["MAX_SIZE", "MarkError", "svg"]
