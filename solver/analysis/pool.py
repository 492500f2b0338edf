"""The tasks of a parallel run, taken in order and kept on Ctrl-C (:class:`InOrder`); the
process pool that runs them comes from :mod:`solver.processes`, where every worker process
of the package is started, tied to its parent and stopped.

>>> from solver.processes import stop_pool, worker_pool
>>> pool = worker_pool(2)
>>> list(InOrder(pool, abs, [-1, 2]))
[1, 2]
>>> stop_pool(pool)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, Generic, TypeVar

from solver.processes import stop_pool

T = TypeVar("T")


class InOrder(Generic[T]):
    """The results of ``fn`` on each task, submitted to ``executor`` at once and taken in
    order; :meth:`stop` on an interrupt, then :meth:`finished` for the tasks that ended.

    ``Executor.map`` alone loses, on Ctrl-C, every result finished after one still running,
    and its generator, closed later, cancels futures from this thread while the pool's own
    thread may be setting them (``InvalidStateError`` printed by that thread).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as ex:
    ...     tasks = InOrder(ex, abs, [-1, -2, 3])
    ...     first = next(iter(tasks))
    ...     tasks.stop(ex, own=False)
    ...     first, sorted(tasks.finished())
    (1, [2, 3])
    """

    def __init__(self, executor: Executor, fn: Callable[..., T], tasks: Iterable[Any]) -> None:
        self.futures: list[Future[T]] = [executor.submit(fn, t) for t in tasks]
        self.taken = 0  # the results given out, in order

    def __iter__(self) -> Iterator[T]:
        while self.taken < len(self.futures):
            result = self.futures[self.taken].result()
            self.taken += 1
            yield result

    def stop(self, executor: Executor, own: bool) -> None:
        """End the work: our own pool's workers at once (:func:`stop_pool`: its futures
        are left to its thread), another executor's tasks not yet started cancelled."""
        if own and isinstance(executor, ProcessPoolExecutor):
            stop_pool(executor, wait=False)
        else:
            for f in self.futures[self.taken :]:
                f.cancel()

    def finished(self) -> list[T]:
        """After :meth:`stop`: the results of the tasks that ended, not yet given out, in
        the order of the tasks (those that failed or were cut short left out)."""
        out = [
            f.result()
            for f in self.futures[self.taken :]
            if f.done() and not f.cancelled() and f.exception() is None
        ]
        self.taken = len(self.futures)
        return out


__all__ = ["InOrder"]
