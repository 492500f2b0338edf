"""The compiled modules: ``constants``, ``bits``, ``engine`` and ``bpnline`` (sources in
src_cython/).

Import them from here, so that a source tree without a build gives an error that says
what to do instead of a bare ``ModuleNotFoundError``.

>>> from solver.native import constants
>>> constants.WIN_VALUE
10000
"""

from __future__ import annotations

import os
import sys
from importlib.util import find_spec

from solver.errors import EngineMissingError

_COMPILED = ("constants", "bits", "engine", "bpnline")


def _built_elsewhere() -> str | None:
    """The folder of another copy of the package with its compiled modules, on the path after
    this one (an installed package that a source tree shadows: the checkout run from its own
    root after ``pip install .``), or None."""
    from importlib.machinery import EXTENSION_SUFFIXES, PathFinder

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    packages = [os.path.join(entry or os.curdir, "solver") for entry in sys.path]
    for finder in sys.meta_path:  # (an editable install's finder, which maps the name to its tree)
        if finder is not PathFinder and hasattr(finder, "find_spec"):
            try:
                spec = finder.find_spec("solver", None)
            except Exception:  # (another finder's failure is no answer here)
                continue
            packages += list(getattr(spec, "submodule_search_locations", None) or [])
    for package in map(os.path.abspath, packages):
        native = os.path.join(package, "native")
        if package != here and all(
            any(os.path.isfile(os.path.join(native, m + suffix)) for suffix in EXTENSION_SUFFIXES)
            for m in _COMPILED
        ):
            return package
    return None


def _missing_engine(missing: list[str]) -> EngineMissingError:
    """The error of a package without its compiled modules: how to build them, or, when an
    installed copy is shadowed by this source tree, how to reach that one."""
    tree = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    installed = _built_elsewhere()
    if installed is not None:
        where = "the current directory" if os.path.dirname(tree) == os.getcwd() else os.path.dirname(tree)
        return EngineMissingError(
            f"the package 'solver' was imported from the source tree {tree}, whose compiled "
            f"modules are not built (missing: {', '.join(missing)}), and not from the package "
            f"installed in {installed}, which it shadows: Python looks in {where} first. Run "
            f"from another directory to use the installed package, or install this checkout "
            f"with `pip install -e .` to use it (its compiled modules are then built in place)"
        )
    return EngineMissingError(
        f"the compiled modules of the package 'solver' are not built (missing: "
        f"{', '.join(missing)}): install the package with `pip install .` (or "
        f"`pip install -e .` for development), or build them in place with "
        f"`python setup.py build_ext --inplace`"
    )


_missing = [f"solver.native.{m}" for m in _COMPILED if find_spec(f"solver.native.{m}") is None]
if _missing:  # a source checkout without a build
    raise _missing_engine(_missing)

from solver.native import bits, bpnline, constants, engine  # noqa: E402  (after the check above)

__all__ = ["bits", "bpnline", "constants", "engine"]
