"""Card diagrams in SVG (the public name of :mod:`solver.model.svg`).

>>> from solver.model.position import Position
>>> svg(Position("petite 7.../8... D 0 - - a 0:0")).startswith("<svg")
True
"""

from solver.model.svg import MAX_SIZE, MarkError, svg

__all__ = ["MAX_SIZE", "MarkError", "svg"]
