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


def executor_width(ex: Executor | None) -> int | None:
    """How many tasks ``ex`` runs at once, when it says (a process pool's workers, a Dask
    cluster's worker threads), else None."""
    if ex is None:
        return None
    width = getattr(ex, "workers", None)  # (solver.cluster's executor)
    if width is None:
        width = getattr(ex, "_max_workers", None)  # (the standard pools)
    if width is None and hasattr(ex, "_client"):  # (Dask's own executor of a client)
        try:
            client: Any = getattr(ex, "_client")  # noqa: B009  (a private attribute of Dask's)
            width = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
        except Exception:  # (a client that cannot say)
            width = None
    return int(width) if isinstance(width, int) and width > 0 else None


__all__ = ["as_executor", "executor_width"]
