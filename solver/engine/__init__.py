"""The exact solver: ``solve``, ``solve_batch``, ``can_reach``, ``Solver`` (a warm table),
``Limit`` (budgets with proven bounds), ``solve_chance`` (the expectimax of a face-down
talon), the reference solver and the result types.

>>> from solver.engine import solve
>>> solve("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35").value
Value.margin(-4, pov='a')
"""

from solver.engine.chance_solving import ChanceAnalysis, ChanceInterrupted, ChanceMove, solve_chance
from solver.engine.reference import reference_solve, reference_values
from solver.engine.results import Analysis, Limit, MoveValue, SolveInterrupted
from solver.engine.solving import Solver, can_reach, shared_solver, solve, solve_batch

__all__ = [
    "Analysis",
    "ChanceAnalysis",
    "ChanceInterrupted",
    "ChanceMove",
    "Limit",
    "MoveValue",
    "SolveInterrupted",
    "Solver",
    "can_reach",
    "reference_solve",
    "reference_values",
    "shared_solver",
    "solve",
    "solve_batch",
    "solve_chance",
]
