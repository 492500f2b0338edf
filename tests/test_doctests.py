"""The examples in the modules' docstrings run and give what they show."""
import doctest
import importlib
import pkgutil

import pytest

import solver

MODULES = sorted(m.name for m in pkgutil.iter_modules(solver.__path__, "solver.")
                 if not m.name.startswith("solver._"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
