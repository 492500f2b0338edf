"""The examples in the modules' docstrings run and give what they show."""

import doctest
import importlib
import pkgutil

import pytest

import solver

# the package itself and every module of it, subpackages included (their __init__ and
# their modules)
MODULES = ["solver"] + sorted(
    m.name
    for m in pkgutil.walk_packages(solver.__path__, "solver.")
    if not any(part.startswith("_") for part in m.name.split("."))
)


# the modules that need an optional extra, and what they import from it: without it they skip
EXTRAS = {
    "solver.openspiel": ["pyspiel"],  # openspiel
    "solver.analysis.equilibrium": ["numpy", "scipy"],  # openspiel
    "solver.analysis.subgame": ["numpy"],  # openspiel
    "solver.board": ["starlette", "uvicorn"],  # board
}


# the examples that take seconds (they solve or train): in the whole run only
SLOW = {"solver.openspiel.policy"}


@pytest.mark.parametrize(
    "name", [pytest.param(m, marks=pytest.mark.slow) if m in SLOW else m for m in MODULES]
)
def test_docstring_examples(name):
    for prefix, needed in EXTRAS.items():
        if name == prefix or name.startswith(prefix + "."):
            for extra_module in needed:
                pytest.importorskip(extra_module)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
