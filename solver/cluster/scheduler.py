"""A Dask cluster as a ``concurrent.futures`` executor: a scheduler's address, or a local
cluster started here for the run.

>>> parse_scheduler("local:2"), parse_scheduler("tcp://10.0.0.5:8786"), parse_scheduler("node7:8786")
(('local', 2), ('address', 'tcp://10.0.0.5:8786'), ('address', 'tcp://node7:8786'))

Dask itself makes a worker's death lose nothing: the scheduler gives the tasks that worker
held to the others (``distributed.scheduler.allowed-failures``: a task that three workers
died running is given up, and the run says so).  Results come back in the order of the
tasks, so records stay in order.  A scheduler without workers holds the tasks, silently,
until one joins: the executor says so on standard error (:meth:`ClusterExecutor.watch_workers`).
The worker processes of a local cluster end with the command, even one killed with
``kill -9`` (:func:`dask_setup`).
"""

from __future__ import annotations

import logging
import multiprocessing
import re
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor
from types import TracebackType
from typing import Any

from solver.errors import ArgumentError, BrisqueError, install_hint
from solver.processes import end_with

MAX_LOCAL_WORKERS = 256
CONNECT_SECONDS = 10.0
NO_WORKER_SECONDS = 5.0  # a scheduler without a worker this long is said to be (the work waits)
WATCH_SECONDS = 1.0  # how often the scheduler's workers are counted
EXTRA = install_hint("cluster")

_ADDRESS = re.compile(
    r"^(?:(tcp|tls)://)?([A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$"
)  # (a missing port: its own error)


class ClusterError(BrisqueError):
    """The cluster cannot be reached or started, or it lost a task."""


def parse_scheduler(text: str) -> tuple[str, Any]:
    """``local:N`` (a local cluster of N worker processes) or a scheduler's address
    (``tcp://host:port``, ``tls://host:port``, ``host:port``; the scheme defaults to tcp, the
    port is needed)."""
    t = text.strip()
    if t == "local" or t.startswith("local:"):
        m = re.fullmatch(r"local:(\d{1,6})", t)
        if not m or not 1 <= int(m.group(1)) <= MAX_LOCAL_WORKERS:
            raise ArgumentError(
                f"scheduler {text!r}: expected local:N with N from 1 to {MAX_LOCAL_WORKERS} workers, "
                f"or a scheduler address such as tcp://10.0.0.5:8786"
            )
        return ("local", int(m.group(1)))
    m = _ADDRESS.fullmatch(t)
    if m and m.group(3) is None:
        # (Dask needs the port: without it, it refused the address in its handshake, and the
        # error said something there answered that was not a scheduler)
        raise ArgumentError(
            f"scheduler {text!r} has no port: expected HOST:PORT (e.g. node7:8786), tcp://HOST:PORT, "
            f"or local:N for a local cluster of N workers"
        )
    if not t or not m or not 1 <= int(m.group(3)) <= 65535:
        raise ArgumentError(
            f"scheduler {text!r}: expected HOST:PORT (e.g. node7:8786), tcp://HOST:PORT, "
            f"or local:N for a local cluster of N workers"
        )
    return ("address", t if m.group(1) else f"tcp://{t}")


class ClusterExecutor(Executor):
    """The executor of a Dask client, with the client (and a local cluster started for it)
    closed when it shuts down.  Tasks are not taken as pure (the same arguments may mean a
    new run: a deadline, a new sampling), and their results come back in order."""

    def __init__(self, client: Any, cluster: Any = None):
        self.client = client
        self.cluster = cluster
        self._inner = client.get_executor(pure=False)
        self._closing = threading.Event()

    def watch_workers(self, address: str, warn: Callable[[str], object] | None = None) -> None:
        """Say (by ``warn``; standard error by default) when the scheduler at ``address`` has
        had no worker for ``NO_WORKER_SECONDS``: Dask holds the tasks without a word until
        one joins, and a run looked hung.  The run keeps waiting (a worker may come); the
        warning comes again if the workers all leave later.  A thread of its own counts the
        workers until the executor shuts down."""
        say = warn if warn is not None else _to_stderr
        threading.Thread(target=self._watch, args=(address, say), name="brisque-workers", daemon=True).start()

    def _watch(self, address: str, say: Callable[[str], object]) -> None:
        alone_since: float | None = time.monotonic()  # (since when there is no worker)
        warned = False
        while not self._closing.wait(WATCH_SECONDS):
            try:
                workers = self.client.scheduler_info(n_workers=1).get("workers")
            except Exception:  # (the client closing, the scheduler gone: the run says that)
                return
            if workers:
                alone_since, warned = None, False
                continue
            now = time.monotonic()
            alone_since = now if alone_since is None else alone_since
            if not warned and now - alone_since >= NO_WORKER_SECONDS and not self._closing.is_set():
                warned = True
                say(
                    f"the Dask scheduler at {address} has had no worker for {now - alone_since:.0f} s: "
                    f"the work waits until one joins (still waiting); start one with "
                    f"'dask worker {address}'"
                )

    @property
    def workers(self) -> int:
        """The tasks the cluster runs at once now: its workers' threads."""
        return sum(w.get("nthreads", 1) for w in self.client.scheduler_info().get("workers", {}).values())

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        return self._inner.submit(fn, *args, **kwargs)

    def map(self, fn: Any, *iterables: Any, timeout: float | None = None, chunksize: int = 1) -> Any:
        return self._inner.map(fn, *iterables, timeout=timeout)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._closing.set()  # (no word on workers from a run that ends)
        try:
            self._inner.shutdown(wait=wait and not cancel_futures)
        finally:
            try:
                self.client.close()
            finally:
                if self.cluster is not None:
                    self.cluster.close()

    def __enter__(self) -> ClusterExecutor:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.shutdown(wait=kind is None, cancel_futures=kind is not None)


def _to_stderr(message: str) -> None:
    """A warning on standard error, a line of its own."""
    print(f"warning: {message}", file=sys.stderr, flush=True)


def probe_scheduler(address: str, seconds: float) -> None:
    """Raise unless a Dask scheduler at ``address`` answers Dask's handshake within ``seconds``.

    Dask's own ``Client(address, timeout=...)`` bounds only the TCP connection: a port that
    accepts it but does not answer as Dask does (an HTTP server, the dashboard's 8787 given
    for the scheduler's 8786) left it waiting for the handshake forever, and a port that
    answered bytes of another protocol left a half-made client whose ``__del__`` printed a
    traceback.  The probe runs the same handshake on a loop of its own, in a thread of its
    own (the caller may be inside an event loop, as in a notebook), under one deadline."""
    import asyncio

    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.core import connect
    from distributed.security import Security

    try:  # (an address Dask cannot read is the address's fault, not what answered there)
        parse_host_port(parse_address(address)[1])
    except ValueError as exc:
        raise ArgumentError(f"scheduler {address!r}: {exc}; expected HOST:PORT such as node7:8786") from None

    async def handshake() -> None:
        security = Security().get_connection_args("client")  # type: ignore[no-untyped-call]
        comm = await connect(address, timeout=seconds, **security)  # type: ignore[no-untyped-call]
        await comm.close()

    async def bounded() -> None:
        try:
            await asyncio.wait_for(handshake(), seconds)
        except TimeoutError:  # (asyncio's, raised by wait_for)
            raise TimeoutError(
                f"no Dask handshake within {seconds:g} s: is that the scheduler's port (8786 by default)?"
            ) from None
        except OSError:  # (refused, unreachable, Dask's own connection timeout: its words)
            raise
        except Exception as exc:  # (Dask read another protocol's bytes as a frame: its words mislead)
            raise OSError(
                f"what answered there is not a Dask scheduler ({type(exc).__name__} in the handshake)"
            ) from None

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="brisque-probe") as pool:
        pool.submit(asyncio.run, bounded()).result()


def dask_setup(worker: Any) -> None:
    """Dask's hook in each worker process of a local cluster started here (the cluster's
    ``preload`` names this module): the process ends with the command that started it,
    even when the command is killed with ``kill -9`` (:func:`solver.processes.end_with`:
    the kernel's signal, besides Dask's own watch, a thread reading a pipe from the parent).
    A worker that is not a process of its own (``processes=False``) is left as it is."""
    starter = multiprocessing.parent_process()
    if starter is not None and starter.pid is not None:
        end_with(starter.pid)


def open_executor(scheduler: str) -> ClusterExecutor:
    """Connect to the scheduler ``scheduler`` names (:func:`parse_scheduler`), or start a
    local cluster; the executor closes them when it shuts down (use it as a context)."""
    kind, where = parse_scheduler(scheduler)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask distributed: {EXTRA}") from None
    if kind == "local":
        try:
            # worker processes of one thread each (the engine is one thread), on this host
            # only, no dashboards (each would take a port), and Dask's own log quiet but
            # for errors (the command's output is the answers)
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=where,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",  # (its HTTP server: any free port)
                scheduler_kwargs={"dashboard": False},
                worker_dashboard_address="127.0.0.1:0",  # (its HTTP server: any free port)
                silence_logs=logging.ERROR,
                preload=[__name__],  # (dask_setup: each worker ends with this process)
            )
        except Exception as exc:
            raise ClusterError(f"cannot start a local cluster of {where} workers: {exc}") from None
        try:
            return ClusterExecutor(Client(cluster, set_as_default=False), cluster)  # type: ignore[no-untyped-call]
        except Exception as exc:
            cluster.close()
            raise ClusterError(f"cannot connect to the local cluster just started: {exc}") from None
    try:
        probe_scheduler(where, CONNECT_SECONDS)
        client = Client(where, timeout=CONNECT_SECONDS, set_as_default=False)  # type: ignore[no-untyped-call]
    except ArgumentError:
        raise
    except Exception as exc:  # (OSError and TimeoutError mostly; Dask raises others for odd addresses)
        raise ClusterError(
            f"cannot reach the Dask scheduler at {scheduler!r} within {CONNECT_SECONDS:g} s ({exc}); "
            f"start one with 'dask scheduler' and workers with 'dask worker ADDRESS'"
        ) from None
    executor = ClusterExecutor(client)
    executor.watch_workers(where)  # (a local cluster above starts with its workers)
    return executor


__all__ = ["NO_WORKER_SECONDS", "ClusterError", "ClusterExecutor", "open_executor", "parse_scheduler"]
