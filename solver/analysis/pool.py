"""Worker processes that never outlive their parent and stop at once when told.

``ProcessPoolExecutor`` alone leaves its workers running when the parent is killed
(SIGTERM, SIGKILL: they are reparented to init and keep stdout open, so a caller waiting for
the output hangs), and on Ctrl-C it waits for the tasks in progress.  The pools made here:

* ask the kernel to kill each worker when its parent dies (Linux ``PR_SET_PDEATHSIG``), and
  watch the parent from a thread elsewhere;
* ignore Ctrl-C in the workers (the terminal sends it to the whole process group: the
  parent alone decides), and :func:`stop_pool` ends them at once.

>>> pool = worker_pool(2)
>>> sorted(pool.map(abs, [-1, 2]))
[1, 2]
>>> stop_pool(pool)
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, Generic, TypeVar

T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _die_with_parent(parent: int) -> None:
    """In a worker: end when ``parent`` does (the kernel's signal, else a watching thread)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (not the parent's handler, inherited by fork)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent died before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes that end with this process."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent, initargs=(os.getpid(),))


def stop_pool(pool: ProcessPoolExecutor, wait: bool = True) -> None:
    """Shut ``pool`` down; with ``wait=False`` (an interrupt) end its workers at once."""
    if wait:
        pool.shutdown()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())  # (no public way to end them)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.kill()  # (SIGKILL: a worker that has not yet reset its handlers prints nothing)
    for proc in processes:
        proc.join(timeout=1)
    if manager is not None:  # (its thread settles every future: the results sent are kept)
        manager.join(timeout=1)


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


__all__ = ["InOrder", "stop_pool", "worker_pool"]
