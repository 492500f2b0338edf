"""The games in OpenSpiel (the optional extra ``pip install '.[openspiel]'``).

Importing this package registers ``python_brisque``, ``python_briscan`` and
``python_petite_brisque`` with ``pyspiel`` (:mod:`solver.openspiel.game`); chance deals what
a start position does not show (:mod:`solver.openspiel.chance`).

>>> import pyspiel, solver.openspiel
>>> pyspiel.load_game("python_brisque").num_distinct_actions()
112
"""

try:
    import pyspiel  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the install
    from solver.errors import install_hint

    raise ImportError(f"solver.openspiel needs OpenSpiel: {install_hint('openspiel')}") from exc

from solver.openspiel.chance import DealPlan
from solver.openspiel.game import (
    NUM_ACTIONS,
    SHORT_NAMES,
    BriscanGame,
    BrisqueGame,
    BrisqueState,
    PetiteBrisqueGame,
)

__all__ = [
    "NUM_ACTIONS",
    "SHORT_NAMES",
    "BriscanGame",
    "BrisqueGame",
    "BrisqueState",
    "DealPlan",
    "PetiteBrisqueGame",
]
