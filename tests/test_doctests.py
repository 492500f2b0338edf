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


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name.startswith("solver.openspiel"):
        pytest.importorskip("pyspiel")  # (the optional extra openspiel)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
