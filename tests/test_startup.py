"""The start of the command line stays cheap: ``import solver`` and ``import solver.cli``
load no layer they do not use, and ``brisque solve -`` loads the model, the engine and the
batch solver but not the analyses, formats, players, multiprocessing or networkx; the public
names, imported on first use (PEP 562), are all there."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# what the start of the command line must not import (each costs milliseconds: the
# analyses, formats and players import more of their own, multiprocessing 20 ms)
HEAVY = (
    "solver.analysis.sampling",
    "solver.analysis.line",
    "solver.analysis.puzzles",
    "solver.analysis.tree",
    "solver.analysis.equilibrium",
    "solver.analysis.report",
    "solver.formats",
    "solver.play",
    "networkx",
    "multiprocessing",
    "concurrent.futures.process",
)

SOLVE_STDIN = """\
import sys
sys.argv[1:] = ["solve", "-"]
from solver.cli import main
try:
    main()
except SystemExit as stop:
    assert not stop.code, stop.code
"""


def modules_after(code: str, cwd: Path) -> set[str]:
    """The modules loaded in a fresh interpreter after ``code`` (empty standard input)."""
    code += "\nimport json, sys\nsys.stdout.write('\\n' + json.dumps(sorted(sys.modules)))\n"
    # (run away from the checkout, whose unbuilt source tree would shadow the installed package)
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )
    return set(json.loads(res.stdout.splitlines()[-1]))


STARTS = {
    "import solver": "import solver",
    "import solver.cli": "import solver.cli",
    "brisque solve -": SOLVE_STDIN,
}


@pytest.mark.parametrize("start", sorted(STARTS))
def test_the_start_loads_only_what_it_uses(start: str, tmp_path: Path):
    loaded = modules_after(STARTS[start], tmp_path)
    heavy = sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert not heavy, f"{start} imports {heavy}"
    if start == "brisque solve -":
        assert {"solver.analysis.batch", "solver.engine.api", "solver.model.position"} <= loaded


def test_every_lazy_name_is_there_in_a_fresh_interpreter(tmp_path: Path):
    code = """
import solver, solver.analysis, solver.model
for pkg in (solver, solver.analysis, solver.model):
    for name in pkg.__all__:
        assert name in dir(pkg), (pkg.__name__, name)
        getattr(pkg, name)
from solver import *  # noqa: F403
from solver.analysis import *  # noqa: F403
from solver.model import *  # noqa: F403
assert solver.Position is solver.model.Position is solver.model.position.Position
assert solver.analyse is solver.analysis.analyse is solver.analysis.sampling.analyse
"""
    modules_after(code, tmp_path)


def test_the_submodules_are_still_attributes(tmp_path: Path):
    # (importing everything used to make these attributes: scripts may rely on it)
    code = """
import solver
assert solver.engine.solve is solver.solve
assert solver.analysis.worlds.world_count is solver.analysis.world_count
assert solver.model.rules.GAMES is solver.model.GAMES
for name in ("errors", "formats", "native", "play"):
    getattr(solver, name)
"""
    modules_after(code, tmp_path)


def test_an_unknown_name_is_an_attribute_error():
    import solver
    import solver.analysis
    import solver.model

    for pkg in (solver, solver.analysis, solver.model):
        with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
            pkg.nothing_here  # noqa: B018
        assert not hasattr(pkg, "nothing_here")


def test_a_worker_pool_that_broke_is_still_said(monkeypatch: pytest.MonkeyPatch):
    # (the CLI looks BrokenProcessPool up only once a pool has imported its module)
    from concurrent.futures.process import BrokenProcessPool

    from click.testing import CliRunner

    import solver.analysis.batch as batch
    from solver.cli import main

    def broken(*args: object, **kwargs: object):
        raise BrokenProcessPool("a worker died")
        yield  # (a generator, as solve_lines is)

    monkeypatch.setattr(batch, "solve_lines", broken)
    res = CliRunner().invoke(main, ["solve", "-", "--workers", "2"], input="x\n")
    assert res.exit_code == 2
    assert "a worker process died (killed from outside?)" in res.output

    def failing(*args: object, **kwargs: object):
        raise ValueError("not a pool's")
        yield

    monkeypatch.setattr(batch, "solve_lines", failing)
    res = CliRunner().invoke(main, ["solve", "-"], input="x\n")
    assert isinstance(res.exception, ValueError)
