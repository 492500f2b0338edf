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
from concurrent.futures import ProcessPoolExecutor

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
    processes = list(getattr(pool, "_processes", {}).values())  # (no public way to end them)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.kill()  # (SIGKILL: a worker that has not yet reset its handlers prints nothing)
    for proc in processes:
        proc.join(timeout=1)


__all__ = ["stop_pool", "worker_pool"]
