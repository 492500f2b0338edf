"""The compiled modules: ``constants``, ``bits``, ``engine`` and ``bpnline`` (sources in
src_cython/).

Import them from here, so that a source tree without a build gives an error that says
what to do instead of a bare ``ModuleNotFoundError``.

>>> from solver.native import constants
>>> constants.WIN_VALUE
10000
"""

from __future__ import annotations

from importlib.util import find_spec

from solver.errors import EngineMissingError

_COMPILED = ("constants", "bits", "engine", "bpnline")

_missing = [f"solver.native.{m}" for m in _COMPILED if find_spec(f"solver.native.{m}") is None]
if _missing:  # a source checkout without a build
    raise EngineMissingError(
        f"the compiled modules of the package 'solver' are not built (missing: "
        f"{', '.join(_missing)}): install the package with `pip install .` (or "
        f"`pip install -e .` for development), or build them in place with "
        f"`python setup.py build_ext --inplace`"
    )

from solver.native import bits, bpnline, constants, engine  # noqa: E402  (after the check above)

__all__ = ["bits", "bpnline", "constants", "engine"]
