"""Public names of a package imported on first use (PEP 562), so that ``import solver`` and
the command line's start do not pay for every layer (the batch path).

One helper for the three packages that re-export names (``solver``, ``solver.model`` and
``solver.analysis``).  It lives in the model layer, the lowest that all three may import,
and imports nothing of the package.

>>> import types
>>> pkg = types.ModuleType("pkg")
>>> get, names = lazy_names(vars(pkg), {"sqrt": "math"}, {"json"})
>>> get("sqrt")(4.0), "sqrt" in vars(pkg), "sqrt" in names()
(2.0, True, True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from typing import Any


def lazy_names(
    namespace: dict[str, Any], sources: Mapping[str, str], submodules: Collection[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of a package whose globals are
    ``namespace``: a name of ``sources`` (name -> the module that defines it) or a submodule
    of ``submodules``, imported on first use and then kept in ``namespace`` (the next use
    finds it without the hook)."""
    package = namespace["__name__"]

    def getattr_(name: str) -> Any:
        """A public name or a submodule of the package, imported on first use (PEP 562)."""
        if name in submodules:
            return importlib.import_module(f"{package}.{name}")
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())) | set(submodules))

    return getattr_, dir_


def by_module(names: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """The table :func:`lazy_names` takes (name -> module) from one written as the imports
    are (module -> its names).

    >>> by_module({"math": ("pi", "sqrt"), "json": ("dumps",)})
    {'pi': 'math', 'sqrt': 'math', 'dumps': 'json'}
    """
    return {name: module for module, these in names.items() for name in these}


__all__ = ["by_module", "lazy_names"]
