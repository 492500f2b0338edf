"""What runs the tasks of a parallel job: a ``concurrent.futures`` executor, or a
``dask.distributed`` client (:mod:`solver.cluster` starts and connects them), taken alike.

>>> from concurrent.futures import ThreadPoolExecutor
>>> as_executor(None) is None, isinstance(as_executor(ThreadPoolExecutor(1)), ThreadPoolExecutor)
(True, True)
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

from solver.errors import ArgumentError


def as_executor(runner: Any) -> Executor | None:
    """The executor that runs tasks for ``runner``: a ``concurrent.futures`` executor as it
    is, a ``dask.distributed`` client by its executor (tasks not taken as pure: the same
    arguments may mean a new run), ``None`` for none."""
    if runner is None or isinstance(runner, Executor):
        return runner
    get = getattr(runner, "get_executor", None)
    if callable(get):
        ex = get(pure=False)
        if isinstance(ex, Executor):
            return ex
    raise ArgumentError(
        f"executor={runner!r}: expected a concurrent.futures Executor or a dask.distributed Client"
    )


__all__ = ["as_executor"]
