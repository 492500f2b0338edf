"""Analyses built on the exact solver: hidden-card worlds and sampling (PIMC), the mistakes
of a played line, solution trees, puzzle verdicts and the text reports of analyses.

>>> from solver.analysis import analyse
>>> analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=4).worlds
4
"""

from solver.analysis.line import Step, analyse_line, losses_by_player
from solver.analysis.puzzles import Verdict, check_record
from solver.analysis.sampling import SampledAnalysis, SampledMove, analyse
from solver.analysis.tree import solution_tree, write_tree
from solver.analysis.worlds import all_worlds, sample_worlds, world_count

__all__ = [
    "SampledAnalysis",
    "SampledMove",
    "Step",
    "Verdict",
    "all_worlds",
    "analyse",
    "analyse_line",
    "check_record",
    "losses_by_player",
    "sample_worlds",
    "solution_tree",
    "world_count",
    "write_tree",
]
