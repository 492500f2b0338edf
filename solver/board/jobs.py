"""Analyses for the board, each in its own worker process: started, watched, cancelled.

The server never waits on an analysis.  Each runs in a process of its own, so that a long
one can be stopped at once (its process is ended) and two browser tabs never share one.
One process is kept for exact solves (every card known), so that stepping through a deal
finds each next position in a warm table: it answers one analysis at a time, the others
get a process of their own as before.  A position of another deal than the last one it
analysed is searched as a one-off worker does (a cleared table, all the time), which leaves
the table warm.  A later position of the same deal is searched on the warm table for
``WARM_SHARE`` of the time: an exact answer may come from there (the values are the same
from any table), an estimate never does: the rest of the time then goes to a search from a
cleared table.
A worker reports progress and its answer through a pipe; a thread of the server reads it
all the time, so that a worker never waits on a page that does not ask (only the latest
progress is kept).  The number running at once, each one's time and the number kept are
bounded (:class:`Limits`).  A worker dies with the server: workers are forked from
multiprocessing's forkserver, which exits with the server, and each asks the kernel for a
signal when its parent (the forkserver) goes; the server also ends every worker when it
stops.

>>> jobs = Jobs(Limits(max_running=1, max_seconds=5))
>>> job = jobs.start("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3")
>>> jobs.wait(job.id, timeout=30).state, job.answer["best"]
('done', ['TS', 'KC'])
>>> jobs.close()
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from solver.errors import ArgumentError

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
WARM_SHARE = 1 / 3  # of an exact analysis's time, for an exact answer from the warm table


class BusyError(ArgumentError):
    """As many analyses run as the board allows at once (HTTP 429)."""


@dataclass(frozen=True, kw_only=True)
class Limits:
    """What a page or a script may ask of the machine."""

    max_running: int = 2  # analyses at once (this machine has 2 cores)
    max_seconds: float = 30.0  # one analysis's time
    max_worlds: int = 2000  # worlds of one sampled analysis
    max_kept: int = 64  # finished analyses remembered (the oldest go first)
    max_body: int = 1_000_000  # bytes of a request (an uploaded file included)


@dataclass(kw_only=True)
class Job:
    """One analysis: its state (``running``, ``done``, ``failed``, ``cancelled``), its
    progress (worlds done and asked for, or 0 of 0 for an exact solve), the latest partial
    answer and the answer or the error."""

    id: str
    bpn: str
    state: str = "running"
    done: int = 0
    total: int = 0
    answer: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    process: Any = field(default=None, repr=False)
    conn: Connection | None = field(default=None, repr=False)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    warm: bool = field(default=False, repr=False)  # run by the kept exact-solve process

    def end(self, state: str, *, answer: dict[str, Any] | None = None, error: str | None = None) -> None:
        """Record the end (the first one counts: a cancel after the answer changes nothing)."""
        with self.lock:
            if self.state != "running":
                return
            self.state, self.finished = state, time.monotonic()
            if answer is not None:
                self.answer = answer
                if "worlds" in answer:  # (a sampled answer: its worlds, whatever was reported)
                    self.done = answer["worlds"]
                    self.total = max(self.total, self.done)
            if error is not None:
                self.error = error

    def to_dict(self) -> dict[str, Any]:
        with self.lock:
            end = self.finished if self.finished is not None else time.monotonic()
            return {
                "id": self.id,
                "bpn": self.bpn,
                "state": self.state,
                "done": self.done,
                "total": self.total,
                "seconds": round(end - self.started, 3),
                "answer": self.answer,
                "error": self.error,
            }


def _die_with_parent() -> None:
    """Ask the kernel to end this process when its parent dies (Linux; elsewhere the server
    still ends its workers when it stops)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def _exact(bpn: str) -> bool:
    """Whether the worker solves ``bpn`` exactly (every card known) rather than by sampling."""
    from solver.model.position import Position

    p = Position(bpn)
    return not any(p.unknown) and (p.talon is not None or not p.talon_count or not p.rules.draws)


def _work(conn: Connection, bpn: str, worlds: int, seconds: float) -> None:
    """The worker: the exact solve when every card is known (bounded by ``seconds``, then
    the best estimate), else a sampled analysis with progress; the answer's JSON object."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (Ctrl-C in the server's terminal is the server's)
    from solver.analysis.sampling import analyse
    from solver.engine.api import solve
    from solver.engine.results import Limit
    from solver.errors import BrisqueError
    from solver.model.position import Position

    try:
        p = Position(bpn)
        if _exact(bpn):
            answer = solve(p, limit=Limit(seconds=seconds)).to_dict()
        else:

            def update(partial: Any) -> None:
                conn.send(("progress", partial.worlds, worlds, partial.to_dict()))

            answer = analyse(
                p, worlds=worlds, time_limit=seconds, on_update=update, update_every=0.25
            ).to_dict()
        conn.send(("done", answer))
    except BrisqueError as exc:
        conn.send(("failed", str(exc)))
    except Exception as exc:  # noqa: BLE001 - the page must hear of any failure
        conn.send(("failed", f"the analysis failed: {type(exc).__name__}: {exc}"))
    finally:
        conn.close()


Deal = tuple[int, int, list[int]]  # what ties positions of one deal (_remaining)


def _remaining(p: Any) -> Deal:
    """What ties positions of one deal: trump, the cards still in play, the talon."""
    cards: int = p.hands[0] | p.hands[1] | sum(1 << c for c in (p.talon or []))
    if p.turnup >= 0:
        cards |= 1 << p.turnup
    return int(p.trump), cards, list(p.talon or [])


def _same_deal(a: Deal, b: Deal) -> bool:
    """Whether ``b`` is a position of the deal of ``a`` (before or after it): then the warm
    table may hold it."""
    (ta, ca, la), (tb, cb, lb) = a, b
    if ta != tb or (ca & cb) not in (ca, cb):
        return False
    short, long_ = (la, lb) if len(la) <= len(lb) else (lb, la)
    return long_[len(long_) - len(short) :] == short


def _solve_exact(bpn: str, seconds: float, tables: dict[str, Any]) -> dict[str, Any]:
    """The answer of a position with every card known.  A position of the deal last
    analysed here: from the warm table when its search finishes within ``WARM_SHARE`` of
    ``seconds`` (then exact), else from a cleared table with the time left (bounded: the
    best estimate).  A position of another deal: from the warm table cleared, with all the
    time, as in a one-off worker (the table then warm for the next position).  ``tables``:
    this process's two solvers for the rules of the last analysis, and its deal."""
    from solver.engine.api import BOUNDED_TABLE_BITS, Solver
    from solver.engine.results import Limit
    from solver.engine.seam import engine_key
    from solver.model.position import Position

    t0 = time.monotonic()
    p = Position(bpn)
    key = engine_key(p.rules)
    if tables.get("key") != key:  # (one rule set at a time: two tables, not up to five)
        tables.clear()
        tables.update(key=key, warm=Solver(p.rules, BOUNDED_TABLE_BITS))
    deal, tables["deal"] = tables.get("deal"), _remaining(p)
    warm = tables["warm"]
    answer: dict[str, Any]
    if deal is None or not _same_deal(deal, tables["deal"]):
        warm.engine.clear()
        left = max(seconds - (time.monotonic() - t0), 0.05)
        answer = warm.solve(p, limit=Limit(seconds=left)).to_dict()
        return answer
    first = warm.solve(p, limit=Limit(seconds=seconds * WARM_SHARE))
    if first.exact:
        answer = first.to_dict()
        return answer
    if "cold" not in tables:
        tables["cold"] = Solver(p.rules, BOUNDED_TABLE_BITS)
    cold = tables["cold"]
    cold.engine.clear()
    left = max(seconds - (time.monotonic() - t0), 0.05)
    answer = cold.solve(p, limit=Limit(seconds=left)).to_dict()
    return answer


def _warm_work(conn: Connection) -> None:
    """The kept exact-solve process: (bpn, seconds) in, ("done", answer) or ("failed",
    error) out, one analysis after the other, its tables warm from one to the next."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from solver.errors import BrisqueError

    tables: dict[str, Any] = {}
    while True:
        try:
            bpn, seconds = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("done", _solve_exact(bpn, seconds, tables)))
        except BrisqueError as exc:
            conn.send(("failed", str(exc)))
        except Exception as exc:  # noqa: BLE001 - the page must hear of any failure
            conn.send(("failed", f"the analysis failed: {type(exc).__name__}: {exc}"))


class Jobs:
    """The analyses of one server (module docstring)."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.jobs: dict[str, Job] = {}
        # forkserver: each worker is a fork of a small clean process with the solver
        # imported, not of the server with its threads and sockets
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["solver.analysis.sampling", "solver.engine.api"])
        # the kept exact-solve process and its end of the pipe, and whether a job uses it
        self._warm: tuple[Any, Connection] | None = None
        self._warm_busy = False
        self._warm_lock = threading.Lock()

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if self.poll(j).state == "running")

    def start(self, bpn: str, worlds: int = 200, seconds: float | None = None) -> Job:
        """Start an analysis of ``bpn``; ArgumentError when too many run or the request
        asks too much (checked here, before any process starts)."""
        lim = self.limits
        secs = lim.max_seconds if seconds is None else seconds
        if not 0 < secs <= lim.max_seconds:
            raise ArgumentError(f"seconds={seconds!r}: expected more than 0 and at most {lim.max_seconds:g}")
        if not 1 <= worlds <= lim.max_worlds:
            raise ArgumentError(f"worlds={worlds!r}: expected a whole number from 1 to {lim.max_worlds}")
        from solver.model.position import Position

        p = Position(bpn)
        if p.unknown[p.turn] and not p.is_over():
            raise ArgumentError(
                f"the hand of {'ab'[p.turn]}, to play, is hidden in {bpn!r}: "
                "no move to value (show it, or see the position from his seat)"
            )
        if self.running() >= lim.max_running:
            raise BusyError(
                f"{lim.max_running} analyses are running, the most this board runs at once: "
                "cancel one or wait for it"
            )
        self._forget_old()
        exact = _exact(bpn)
        warm = self._take_warm() if exact else None
        process: Any
        parent: Connection
        if warm is not None:
            process, parent = warm
            try:
                parent.send((bpn, secs))
            except OSError:  # (it died since is_alive said otherwise: the job gets a one-off)
                self._drop_warm(process)
                warm = None
        if warm is None:
            parent, child = self._ctx.Pipe(duplex=False)
            process = self._ctx.Process(target=_work, args=(child, bpn, worlds, secs), daemon=True)
            process.start()
            child.close()
        # (total: the worlds asked for; an exact solve has no count)
        job = Job(
            id=uuid.uuid4().hex[:12],
            bpn=bpn,
            total=0 if exact else worlds,
            process=process,
            conn=parent,
            warm=warm is not None,
        )
        self.jobs[job.id] = job
        threading.Thread(target=self._read, args=(job, parent), daemon=True).start()
        return job

    def _take_warm(self) -> tuple[Any, Connection] | None:
        """The kept exact-solve process, started if need be, now this job's; None when
        another job has it."""
        with self._warm_lock:
            if self._warm_busy:
                return None
            if self._warm is None or not self._warm[0].is_alive():
                parent, child = self._ctx.Pipe(duplex=True)
                process = self._ctx.Process(target=_warm_work, args=(child,), daemon=True)
                process.start()
                child.close()
                self._warm = (process, parent)
            self._warm_busy = True
            return self._warm

    def _release_warm(self, process: Any, alive: bool) -> None:
        """The job is done with the kept process: free for the next (``alive``), or gone."""
        with self._warm_lock:
            if self._warm is not None and self._warm[0] is process:
                self._warm_busy = False
                if not alive:
                    self._warm = None

    def _drop_warm(self, process: Any) -> None:
        """The kept process ``process`` is gone (ended or found dead): the next exact
        analysis starts another at once."""
        with self._warm_lock:
            if self._warm is not None and self._warm[0] is process:
                self._warm, self._warm_busy = None, False

    def _read(self, job: Job, conn: Connection) -> None:
        """The reader thread of one job: everything the worker sends, as it comes (the
        kept exact-solve process's pipe stays open for its next job)."""
        ended = False
        try:
            while True:
                msg = conn.recv()
                if msg[0] == "progress":
                    with job.lock:
                        if job.state == "running":
                            _, job.done, job.total, job.answer = msg
                    continue
                if job.warm:  # (free for the next job before this one is seen to end; a
                    # cancel from now on has nothing to end: the answer is read)
                    with job.lock:
                        process, job.process = job.process, None
                    self._release_warm(process, alive=True)
                if msg[0] == "done":
                    job.end("done", answer=msg[1])
                else:
                    job.end("failed", error=msg[1])
                return
        except (EOFError, OSError):
            ended = True
            job.end("failed", error="the analysis process ended without an answer")
        finally:
            if not job.warm:
                conn.close()
            elif ended:
                with job.lock:
                    process, job.process = job.process, None
                if process is not None:
                    self._drop_warm(process)

    def poll(self, job: Job) -> Job:
        """The job as its reader thread left it; a worker past its time (plus a grace) is
        ended, and a finished one's process reaped."""
        if job.state == "running" and time.monotonic() - job.started > self.limits.max_seconds + 10:
            # (the state first: the reader thread then sees the pipe close on an ended job)
            job.end("failed", error=f"the analysis ran past {self.limits.max_seconds:g} s and was stopped")
            self._end(job)
        if job.state != "running":
            self._reap(job)
        return job

    def get(self, job_id: str) -> Job | None:
        job = self.jobs.get(job_id)
        return None if job is None else self.poll(job)

    def cancel(self, job_id: str) -> Job | None:
        """End a running analysis (one that has ended keeps its state and answer)."""
        job = self.get(job_id)
        if job is not None and job.state == "running":
            job.end("cancelled")
            self._end(job)
            self._reap(job)
        return job

    def wait(self, job_id: str, timeout: float = 60.0) -> Job:
        """Poll until the job ends (for scripts and tests)."""
        end = time.monotonic() + timeout
        while True:
            job = self.get(job_id)
            if job is None:
                raise ArgumentError(f"no analysis {job_id!r}")
            if job.state != "running" or time.monotonic() > end:
                return job
            time.sleep(0.05)

    def close(self) -> None:
        """End every worker (the server stops), the kept exact-solve process too."""
        for job in self.jobs.values():
            if job.state == "running":
                job.end("cancelled")
                self._end(job)
            self._reap(job)
        with self._warm_lock:
            warm, self._warm = self._warm, None
        if warm is not None:
            _stop(warm[0])
            warm[1].close()

    def _end(self, job: Job) -> None:
        with job.lock:
            process = job.process  # (None once the kept process has answered)
        if process is not None:
            _stop(process)  # (the kept process too: it is started again for the next job)
            if job.warm:
                self._drop_warm(process)

    def _reap(self, job: Job) -> None:
        with job.lock:
            process = job.process
        if process is not None and not job.warm:
            process.join(2)
            job.process = None
        job.conn = None  # (its reader thread closes it)

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.state != "running"]
        for job in finished[: max(0, len(self.jobs) - self.limits.max_kept + 1)]:
            del self.jobs[job.id]


def _stop(process: Any) -> None:
    """End a worker process: asked, then killed."""
    if process.is_alive():
        process.terminate()
        process.join(2)
        if process.is_alive():
            os.kill(process.pid, signal.SIGKILL)
            process.join(2)


__all__ = ["BusyError", "Job", "Jobs", "Limits"]
