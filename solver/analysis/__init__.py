"""Analyses built on the exact solver: hidden-card worlds and sampling (PIMC), the mistakes
of a played line, solution trees, puzzle verdicts and the text reports of analyses.

>>> from solver.analysis import analyse
>>> analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=4).worlds
4
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.model.lazy import by_module, lazy_names

if TYPE_CHECKING:  # (for type checkers, re-exported: at run time, __getattr__ below imports each name)
    from solver.analysis.analyse_options import AnalyseOptions as AnalyseOptions
    from solver.analysis.line import Step as Step
    from solver.analysis.line import analyse_line as analyse_line
    from solver.analysis.line import losses_by_player as losses_by_player
    from solver.analysis.puzzles import Verdict as Verdict
    from solver.analysis.puzzles import check_record as check_record
    from solver.analysis.sampling import SampledAnalysis as SampledAnalysis
    from solver.analysis.sampling import SampledMove as SampledMove
    from solver.analysis.sampling import analyse as analyse
    from solver.analysis.tree import solution_tree as solution_tree
    from solver.analysis.tree import write_tree as write_tree
    from solver.analysis.worlds import all_worlds as all_worlds
    from solver.analysis.worlds import sample_worlds as sample_worlds
    from solver.analysis.worlds import world_count as world_count

# Where each name comes from, imported on first use (PEP 562): a module of the package
# (such as solver.analysis.batch_solve, the path of `brisque solve -`) is imported without the
# sampling, the line analysis, the puzzles and the trees.
_SOURCES = by_module(
    {
        "solver.analysis.analyse_options": ("AnalyseOptions",),
        "solver.analysis.line": ("Step", "analyse_line", "losses_by_player"),
        "solver.analysis.puzzles": ("Verdict", "check_record"),
        "solver.analysis.sampling": ("SampledAnalysis", "SampledMove", "analyse"),
        "solver.analysis.tree": ("solution_tree", "write_tree"),
        "solver.analysis.worlds": ("all_worlds", "sample_worlds", "world_count"),
    }
)

# the submodules that importing this package made attributes when it imported everything
_SUBMODULES = frozenset(
    {
        "analyse_options",
        "equilibrium",
        "executors",
        "line",
        "public",
        "puzzles",
        "ranking",
        "sampling",
        "tree",
        "worlds",
    }
)


__all__ = sorted(_SOURCES)

if not TYPE_CHECKING:  # (type checkers see the names imported above, and no others)
    __getattr__, __dir__ = lazy_names(globals(), _SOURCES, _SUBMODULES)
