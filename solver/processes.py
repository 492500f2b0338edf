"""Worker processes that never outlive their parent: started, tied to it, and stopped.

The one place that starts and ends the package's worker processes: the process pools of
``--workers`` (:func:`worker_pool`), the board's analyses, one process each, forked from
multiprocessing's forkserver (:func:`forkserver_context`, :func:`start_worker`), and the
workers of a local Dask cluster (which Dask starts: they call :func:`end_with`).

A worker ends when its parent does, even when the parent is killed with ``kill -9`` and
has no chance to end it: without that, it is reparented to init, runs on and keeps the
parent's standard output open, so that a caller waiting for the output hangs.  On Linux the
kernel kills it (``prctl(PR_SET_PDEATHSIG)``); elsewhere a thread of the worker watches its
parent.  A worker ignores Ctrl-C (the terminal sends it to the whole process group: the
parent alone decides what an interrupt ends), and :func:`stop_process` or
:func:`stop_pool` end workers when the parent says so.

>>> pool = worker_pool(2)
>>> sorted(pool.map(abs, [-1, 2]))
[1, 2]
>>> stop_pool(pool)
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from typing import Any

PR_SET_PDEATHSIG = 1  # linux/prctl.h: the signal a process gets when its parent dies
STOP_GRACE = 2.0  # seconds a worker has to end once asked (SIGTERM), then it is killed
WATCH_SECONDS = 0.2  # how often a worker without the kernel's signal looks at its parent


def tie_to_parent(parent: int) -> None:
    """In a worker: end this process (SIGKILL) when its parent, the process ``parent``,
    ends; at once if it has ended already.

    The kernel sends the signal when the *thread* that started this process ends, so
    start workers from a thread that lives as long as they do (the main thread, or one
    that ends only after them, as Dask's does)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # (the parent died before the call)
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="brisque-parent-watch", daemon=True).start()


def end_with(starter: int) -> None:
    """In a worker: end this process when ``starter``, the process that asked for it,
    ends.  Its parent is ``starter`` itself, or the forkserver that forked it for
    ``starter``; the forkserver exits when ``starter``'s end of its "alive" pipe closes,
    but multiprocessing hands each forked worker a copy of that end too, so that while a
    worker lives the forkserver never sees ``starter`` go, and each waits on the other.
    So the worker closes its copy, is tied to its parent, then looks whether ``starter``
    went before it could see it go."""
    tie_to_parent(os.getppid())
    _release_forkserver()
    if not _alive(starter):
        os._exit(1)


def become_worker(starter: int) -> None:
    """In a worker, first of all: Ctrl-C ignored (the terminal's is for ``starter``),
    SIGTERM's default action back (not ``starter``'s handler, inherited by fork), and the
    process ended with ``starter`` (:func:`end_with`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    end_with(starter)


def _release_forkserver() -> None:
    """Close this process's copy of the forkserver's "alive" pipe (:func:`end_with`); a
    process not forked by a forkserver has none."""
    from multiprocessing import forkserver

    server: Any = forkserver._forkserver
    alive = getattr(server, "_forkserver_alive_fd", None)
    if alive is not None:  # (a worker that started a forkserver of its own would open another)
        server._forkserver_alive_fd = None
        with contextlib.suppress(OSError):
            os.close(alive)


def _alive(pid: int) -> bool:
    """Whether the process ``pid`` runs (or has ended and waits to be reaped)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # (PermissionError: another user's process took its number)
        return False
    return True


# ---------------------------------------------------------------- pools
def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes that end with this process."""
    return ProcessPoolExecutor(max_workers=workers, initializer=become_worker, initargs=(os.getpid(),))


def stop_pool(pool: ProcessPoolExecutor, wait: bool = True) -> None:
    """Shut ``pool`` down; with ``wait=False`` (an interrupt) end its workers at once,
    the results they sent kept (the pool's own thread settles every future)."""
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
    if manager is not None:
        manager.join(timeout=1)


# ---------------------------------------------------------------- single processes
def forkserver_context(preload: Sequence[str] = ()) -> ForkServerContext:
    """Multiprocessing's forkserver, with the modules ``preload`` imported in it: each
    worker is then a fork of a small clean process with those modules loaded, not of this
    one with its threads and sockets.  (One forkserver a process: the preload is that of
    the last call before it starts.)"""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))
    return context


def start_worker(
    context: multiprocessing.context.BaseContext, target: Callable[..., object], args: Sequence[Any] = ()
) -> BaseProcess:
    """``target(*args)`` in a new process of ``context``, a worker (:func:`become_worker`)
    of this process; :func:`stop_process` ends it.

    >>> worker = start_worker(multiprocessing.get_context("fork"), time.sleep, (60,))
    >>> stop_process(worker); worker.is_alive(), worker.exitcode < 0
    (False, True)
    """
    # (BaseContext declares no Process: every concrete context has one, and the three users
    # pass a fork, spawn or forkserver context; typeshed types its Process as Any, hence the cast)
    process = context.Process(  # type: ignore[attr-defined]
        target=_run_worker, args=(os.getpid(), target, tuple(args)), daemon=True
    )
    process.start()
    return process  # type: ignore[no-any-return]


def _run_worker(starter: int, target: Callable[..., object], args: tuple[Any, ...]) -> None:
    """A worker of :func:`start_worker`."""
    become_worker(starter)
    target(*args)


def stop_process(process: BaseProcess, grace: float = STOP_GRACE) -> None:
    """End a worker process and reap it: asked (SIGTERM), then killed (SIGKILL) if it has
    not ended within ``grace`` seconds.  A process that has ended is only reaped."""
    if process.is_alive():
        process.terminate()
        process.join(grace)
        if process.is_alive():
            process.kill()
    process.join()  # (a killed process always ends: wait for it, or it stays a zombie)


__all__ = [
    "STOP_GRACE",
    "become_worker",
    "end_with",
    "forkserver_context",
    "start_worker",
    "stop_pool",
    "stop_process",
    "tie_to_parent",
    "worker_pool",
]
