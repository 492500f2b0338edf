"""Analyses built on the exact solver: hidden-card worlds and sampling (PIMC), the mistakes
of a played line, solution trees, puzzle verdicts and the text reports of analyses.

>>> from solver.analysis import analyse
>>> analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=4).worlds
4
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.model.lazy import lazy_names

if TYPE_CHECKING:  # (for type checkers: at run time, __getattr__ below imports each name)
    from solver.analysis.line import Step, analyse_line, losses_by_player
    from solver.analysis.options import AnalyseOptions
    from solver.analysis.puzzles import Verdict, check_record
    from solver.analysis.sampling import SampledAnalysis, SampledMove, analyse
    from solver.analysis.tree import solution_tree, write_tree
    from solver.analysis.worlds import all_worlds, sample_worlds, world_count

__all__ = [
    "AnalyseOptions",
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

# Where each name comes from, imported on first use (PEP 562): a module of the package
# (such as solver.analysis.batch_solve, the path of `brisque solve -`) is imported without the
# sampling, the line analysis, the puzzles and the trees.
_SOURCES: dict[str, str] = {
    "AnalyseOptions": "solver.analysis.options",
    "Step": "solver.analysis.line",
    "analyse_line": "solver.analysis.line",
    "losses_by_player": "solver.analysis.line",
    "Verdict": "solver.analysis.puzzles",
    "check_record": "solver.analysis.puzzles",
    "SampledAnalysis": "solver.analysis.sampling",
    "SampledMove": "solver.analysis.sampling",
    "analyse": "solver.analysis.sampling",
    "solution_tree": "solver.analysis.tree",
    "write_tree": "solver.analysis.tree",
    "all_worlds": "solver.analysis.worlds",
    "sample_worlds": "solver.analysis.worlds",
    "world_count": "solver.analysis.worlds",
}

# the submodules that importing this package made attributes when it imported everything
_SUBMODULES = frozenset(
    {
        "equilibrium",
        "executors",
        "line",
        "options",
        "public",
        "puzzles",
        "ranking",
        "sampling",
        "tree",
        "worlds",
    }
)


if not TYPE_CHECKING:  # (type checkers see the names imported above, and no others)
    __getattr__, __dir__ = lazy_names(globals(), _SOURCES, _SUBMODULES)
