"""Analyses for the board, each in its own worker process: started, watched, cancelled.

The server never waits on an analysis.  Each runs in a process of its own, so that a long
one can be stopped at once (its process is ended) and two browser tabs never share one.
One process is kept for exact solves (every card known), so that stepping through a deal
finds each next position in a warm table: it answers one analysis at a time, the others
get a process of their own as before.  A cancel there stops the search (a signal,
``INTERRUPT``), not the process, so that it serves the next analysis with its table warm;
one that does not answer within ``INTERRUPT_GRACE`` is ended.  A position of another deal
than the last one it analysed is searched as a one-off worker does (a cleared table, all
the time), which leaves the table warm.  A later position of the same deal is searched on
the warm table for ``WARM_SHARE`` of the time: an exact answer may come from there (the
values are the same from any table), an estimate never does: the rest of the time then
goes to a search from a cleared table.
A worker reports progress and its answer through a pipe; a thread of the server reads it
all the time, so that a worker never waits on a page that does not ask (only the latest
progress is kept).  The number running at once, each one's time and the number kept are
bounded (:class:`Quotas`).  A worker dies with the server: workers are forked from
multiprocessing's forkserver, which exits with the server, and each is tied to it
(:mod:`solver.processes`, which starts and stops them); the server also ends every worker
when it stops.

>>> jobs = Jobs(Quotas(max_running=1, max_seconds=5))
>>> job = jobs.start("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3")
>>> jobs.wait(job.id, timeout=30).state, job.answer["best"]
('done', ['TS', 'KC'])
>>> jobs.close()
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from solver.errors import ArgumentError
from solver.processes import forkserver_context, start_worker, stop_process

WARM_SHARE = 1 / 3  # of an exact analysis's time, for an exact answer from the warm table
INTERRUPT = signal.SIGUSR1  # to the kept process: stop the search of the job cancelled
INTERRUPT_GRACE = 2.0  # seconds the kept process has to answer an interrupt (then it is ended)


class BusyError(ArgumentError):
    """As many analyses run as the board allows at once (HTTP 429)."""


@dataclass(frozen=True, kw_only=True)
class Quotas:
    """What a page or a script may ask of the machine."""

    max_running: int = 2  # analyses at once (this machine has 2 cores)
    max_seconds: float = 30.0  # one analysis's time
    max_worlds: int = 2000  # worlds of one sampled analysis
    max_kept: int = 64  # finished analyses remembered (the oldest go first)
    max_body: int = 1_000_000  # bytes of a request (an uploaded file included)
    # seconds a running analysis may go unasked (GET) before it is cancelled as abandoned:
    # the page asks every 0.25 s (board.js), a browser slows a hidden tab's to once a second
    abandon_seconds: float = 10.0
    header_seconds: float = 10.0  # for a request's line and headers, from their first byte
    body_seconds: float = 30.0  # for a request's body, from its headers (1 MB at 33 kB/s)


@dataclass(eq=False)
class _Kept:
    """The kept exact-solve process, its end of the pipe, the shared number of the job the
    server cancels there (``cancel``), and whether its handler of ``INTERRUPT`` is in place
    (``ready``: before, the signal's default would end it)."""

    process: Any
    conn: Connection
    cancel: Any  # a multiprocessing.Value("q")
    ready: threading.Event = field(default_factory=threading.Event)


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
    asked: float = field(default_factory=time.monotonic)  # when a client last asked for it
    finished: float | None = None
    process: Any = field(default=None, repr=False)
    conn: Connection | None = field(default=None, repr=False)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    seq: int = field(default=0, repr=False)  # its number in the messages of its worker
    kept: _Kept | None = field(default=None, repr=False)  # run by the kept exact-solve process
    # set when its reader thread is done with it (the kept process then free again)
    reader_done: threading.Event = field(default_factory=threading.Event, repr=False)

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


def _exact(bpn: str) -> bool:
    """Whether the worker solves ``bpn`` exactly (every card known) rather than by sampling."""
    from solver.model.position import Position

    return not Position(bpn).has_hidden


def _work(conn: Connection, seq: int, bpn: str, worlds: int, seconds: float, seed: int = 0) -> None:
    """The worker: the exact solve when every card is known (bounded by ``seconds``, then
    the best estimate), else a sampled analysis with progress; the answer's JSON object.
    Its messages are those of the kept process (:func:`_warm_work`), and ``("progress",
    seq, worlds done, worlds asked for, the answer so far)``."""
    from solver.analysis.analyse_options import AnalyseOptions
    from solver.analysis.sampling import analyse
    from solver.engine.results import Limit
    from solver.engine.solving import solve
    from solver.model.position import Position

    def answer() -> dict[str, Any]:
        p = Position(bpn)
        if _exact(bpn):
            return solve(p, limit=Limit(seconds=seconds)).to_dict()

        def update(partial: Any) -> None:
            conn.send(("progress", seq, partial.worlds, worlds, partial.to_dict()))

        options = AnalyseOptions(
            worlds=worlds, seed=seed, time_limit=seconds, on_update=update, update_every=0.25
        )
        return analyse(p, options).to_dict()

    _send_answer(conn, seq, "analysis", answer)


def _task_work(conn: Connection, seq: int, kind: str, payload: dict[str, Any]) -> None:
    """The worker of a task of play (:mod:`solver.board.tasks`): its answer's JSON object,
    or the error, as :func:`_work` sends them."""
    from solver.board.tasks import TASKS

    _send_answer(conn, seq, kind, lambda: TASKS[kind](payload))


def _send_answer(conn: Connection, seq: int, what: str, answer: Callable[[], dict[str, Any]]) -> None:
    """Send the worker's one message on ``conn`` and close it: ``("done", seq, answer())``,
    or ``("failed", seq, reason)``, the reason a :class:`BrisqueError`'s own message or,
    for any other failure, ``the {what} failed: ...``."""
    from solver.errors import BrisqueError

    try:
        conn.send(("done", seq, answer()))
    except BrisqueError as exc:
        conn.send(("failed", seq, str(exc)))
    except Exception as exc:  # noqa: BLE001 - the page must hear of any failure
        conn.send(("failed", seq, f"the {what} failed: {type(exc).__name__}: {exc}"))
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
    from solver.engine.results import Limit
    from solver.engine.seam import engine_key
    from solver.engine.solving import BOUNDED_TABLE_BITS, Solver
    from solver.model.position import Position

    t0 = time.monotonic()
    p = Position(bpn)
    key = engine_key(p.rules)
    if tables.get("key") != key:  # (one rule set at a time: two tables, not up to five)
        tables.clear()
        tables.update(key=key, warm=Solver(p.rules, BOUNDED_TABLE_BITS))
    deal, new = tables.get("deal"), _remaining(p)
    warm = tables["warm"]
    answer: dict[str, Any]
    if deal is None or not _same_deal(deal, new):
        warm.engine.clear()
        tables["deal"] = new  # (once cleared: an interrupt may come between the two)
        left = max(seconds - (time.monotonic() - t0), 0.05)
        answer = warm.solve(p, limit=Limit(seconds=left)).to_dict()
        return answer
    tables["deal"] = new
    first = warm.solve(p, limit=Limit(seconds=seconds * WARM_SHARE))
    if first.method == "exact":  # (every move proven, not the value alone)
        answer = first.to_dict()
        return answer
    if "cold" not in tables:
        tables["cold"] = Solver(p.rules, BOUNDED_TABLE_BITS)
    cold = tables["cold"]
    cold.engine.clear()
    left = max(seconds - (time.monotonic() - t0), 0.05)
    answer = cold.solve(p, limit=Limit(seconds=left)).to_dict()
    return answer


class _Interrupted(BaseException):
    """The server cancelled the job being solved (raised by the handler of ``INTERRUPT``;
    not an Exception, as KeyboardInterrupt is not, so that no ``except Exception`` on the
    way takes it for a failure)."""


def _warm_work(conn: Connection, cancel: Any) -> None:
    """The kept exact-solve process: ``("ready", 0)`` once it can be interrupted, then
    ``(seq, bpn, seconds)`` in, ``("done", seq, answer)``, ``("failed", seq, error)`` or
    ``("cancelled", seq)`` out, one analysis after the other, its tables warm from one to
    the next.

    The server cancels job ``seq`` by setting ``cancel.value = seq``, then sending
    ``INTERRUPT``: the handler raises in the search (the engine runs Python's signal
    handlers every few milliseconds, as for Ctrl-C), which stores nothing unfinished in
    the table (src_cython/search.pxd), and the process answers ``cancelled`` and waits for
    the next job.  A signal that comes late, once its job is answered, finds no job or
    another one and changes nothing."""
    from solver.errors import BrisqueError

    solving = [0]  # the seq of the job being solved, 0 between jobs

    def interrupt(signum: int, frame: Any) -> None:
        if solving[0] and cancel.value == solving[0]:
            solving[0] = 0  # (one raise a job, wherever the next signal finds it)
            raise _Interrupted

    signal.signal(INTERRUPT, interrupt)
    conn.send(("ready", 0))
    tables: dict[str, Any] = {}
    while True:
        try:
            seq, bpn, seconds = conn.recv()
        except (EOFError, OSError):
            return
        reply: tuple[Any, ...]
        try:  # (the outer try: an interrupt may come in the inner one's handlers too)
            try:
                solving[0] = seq
                if cancel.value == seq:  # (its signal came before: the handler let it be)
                    raise _Interrupted
                reply = ("done", seq, _solve_exact(bpn, seconds, tables))
            except BrisqueError as exc:
                reply = ("failed", seq, str(exc))
            except Exception as exc:  # noqa: BLE001 - the page must hear of any failure
                reply = ("failed", seq, f"the analysis failed: {type(exc).__name__}: {exc}")
            finally:
                solving[0] = 0
        except _Interrupted:
            reply = ("cancelled", seq)
        conn.send(reply)


class Jobs:
    """The analyses of one server (module docstring)."""

    def __init__(self, quotas: Quotas | None = None) -> None:
        self.quotas = quotas or Quotas()
        self.jobs: dict[str, Job] = {}
        # forkserver: each worker is a fork of a small clean process with the solver
        # imported, not of the server with its threads and sockets
        self._ctx = forkserver_context(["solver.analysis.sampling", "solver.engine.solving"])
        # the kept exact-solve process, and whether a job uses it
        self._warm: _Kept | None = None
        self._warm_busy = False
        self._warm_lock = threading.Lock()
        self._seq = itertools.count(1)  # the jobs' numbers in their workers' messages

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if self.poll(j).state == "running")

    def start(self, bpn: str, worlds: int = 200, seconds: float | None = None, seed: int = 0) -> Job:
        """Start an analysis of ``bpn``; ArgumentError when too many run or the request
        asks too much (checked here, before any process starts)."""
        quota = self.quotas
        secs = quota.max_seconds if seconds is None else seconds
        if not 0 < secs <= quota.max_seconds:
            raise ArgumentError(
                f"seconds={seconds!r}: expected more than 0 and at most {quota.max_seconds:g}"
            )
        if not 1 <= worlds <= quota.max_worlds:
            raise ArgumentError(f"worlds={worlds!r}: expected a whole number from 1 to {quota.max_worlds}")
        from solver.model.position import Position

        p = Position(bpn)
        if p.unknown[p.turn] and not p.is_over():
            raise ArgumentError(
                f"the hand of {'ab'[p.turn]}, to play, is hidden in {bpn!r}: "
                "no move to value (show it, or see the position from his seat)"
            )
        if self.running() >= quota.max_running:
            raise BusyError(
                f"{quota.max_running} analyses are running, the most this board runs at once: "
                "cancel one or wait for it"
            )
        self._forget_old()
        exact = _exact(bpn)
        seq = next(self._seq)
        kept = self._take_warm() if exact else None
        process: Any
        parent: Connection
        if kept is not None:
            process, parent = kept.process, kept.conn
            try:
                parent.send((seq, bpn, secs))
            except OSError:  # (it died since is_alive said otherwise: the job gets a one-off)
                self._drop_warm(process)
                kept = None
        if kept is None:
            parent, child = self._ctx.Pipe(duplex=False)
            process = start_worker(self._ctx, _work, (child, seq, bpn, worlds, secs, seed))
            child.close()
        # (total: the worlds asked for; an exact solve has no count)
        job = Job(
            id=uuid.uuid4().hex[:12],
            bpn=bpn,
            total=0 if exact else worlds,
            process=process,
            conn=parent,
            seq=seq,
            kept=kept,
        )
        self.jobs[job.id] = job
        threading.Thread(target=self._read, args=(job, parent), daemon=True).start()
        return job

    def _take_warm(self) -> _Kept | None:
        """The kept exact-solve process, started if need be, now this job's; None when
        another job has it."""
        with self._warm_lock:
            if self._warm_busy:
                return None
            if self._warm is None or not self._warm.process.is_alive():
                parent, child = self._ctx.Pipe(duplex=True)
                cancel = self._ctx.Value("q", 0, lock=False)
                process = start_worker(self._ctx, _warm_work, (child, cancel))
                child.close()
                self._warm = _Kept(process, parent, cancel)
            self._warm_busy = True
            return self._warm

    def _release_warm(self, process: Any, alive: bool) -> None:
        """The job is done with the kept process: free for the next (``alive``), or gone."""
        with self._warm_lock:
            if self._warm is not None and self._warm.process is process:
                self._warm_busy = False
                if not alive:
                    self._warm = None

    def _drop_warm(self, process: Any) -> None:
        """The kept process ``process`` is gone (ended or found dead): the next exact
        analysis starts another at once."""
        with self._warm_lock:
            if self._warm is not None and self._warm.process is process:
                self._warm, self._warm_busy = None, False

    def start_task(self, kind: str, payload: dict[str, Any]) -> Job:
        """Start a task of play in a worker of its own (the engine's move, a hint, a review:
        :data:`solver.board.tasks.TASKS`), bounded as analyses are; BusyError when as many
        run as the board allows."""
        from solver.board.tasks import TASKS

        if kind not in TASKS:
            raise ArgumentError(f"no task {kind!r}: expected one of {', '.join(TASKS)}")
        if self.running() >= self.quotas.max_running:
            raise BusyError(
                f"{self.quotas.max_running} analyses are running, the most this board runs at once"
            )
        self._forget_old()
        seq = next(self._seq)
        parent, child = self._ctx.Pipe(duplex=False)
        process = start_worker(self._ctx, _task_work, (child, seq, kind, payload))
        child.close()
        job = Job(id=uuid.uuid4().hex[:12], bpn=kind, process=process, conn=parent, seq=seq)
        self.jobs[job.id] = job
        threading.Thread(target=self._read, args=(job, parent), daemon=True).start()
        return job

    def _read(self, job: Job, conn: Connection) -> None:
        """The reader thread of one job: everything the worker sends, as it comes, to the
        answer to this job (the kept exact-solve process's pipe stays open for its next)."""
        ended = False
        try:
            while True:
                kind, seq, *rest = conn.recv()
                if kind == "ready" and job.kept is not None:
                    job.kept.ready.set()
                    continue
                if seq != job.seq:  # (a late answer to an earlier job is never this one's)
                    continue
                if kind == "progress":
                    with job.lock:
                        if job.state == "running":
                            job.done, job.total, job.answer = rest
                    continue
                if job.kept is not None:  # (free for the next job before this one is seen
                    # to end; a cancel from now on has nothing to stop: the answer is read)
                    with job.lock:
                        process, job.process = job.process, None
                    if process is not None:
                        self._release_warm(process, alive=True)
                if kind == "done":
                    job.end("done", answer=rest[0])
                elif kind == "failed":
                    job.end("failed", error=rest[0])
                else:  # (cancelled: the server asked, so the job says so already)
                    job.end("cancelled")
                return
        except (EOFError, OSError):
            ended = True
            job.end("failed", error="the analysis process ended without an answer")
        finally:
            if job.kept is None:
                conn.close()
            elif ended:
                with job.lock:
                    process, job.process = job.process, None
                if process is not None:
                    self._drop_warm(process)
            job.reader_done.set()

    def poll(self, job: Job) -> Job:
        """The job as its reader thread left it; a worker past its time (plus a grace) is
        ended, one that nobody asked for in ``abandon_seconds`` is cancelled (its client
        went away without a word: the slot is freed for the others), and a finished one's
        process reaped."""
        now, quota = time.monotonic(), self.quotas
        if job.state == "running" and now - job.started > quota.max_seconds + 10:
            # (the state first: the reader thread then sees the pipe close on an ended job)
            job.end("failed", error=f"the analysis ran past {quota.max_seconds:g} s and was stopped")
            self._end(job)
        elif job.state == "running" and now - job.asked > quota.abandon_seconds:
            job.end(
                "cancelled",
                error=f"cancelled as abandoned: nobody asked for it for {quota.abandon_seconds:g} s",
            )
            self._end(job)
        if job.state != "running":
            self._reap(job)
        return job

    def get(self, job_id: str) -> Job | None:
        """The job ``job_id`` (:meth:`poll`), now asked for (None if there is none)."""
        job = self.jobs.get(job_id)
        if job is None:
            return None
        self.poll(job)
        job.asked = time.monotonic()
        return job

    def sweep(self) -> None:
        """Poll every job (:meth:`poll`): the server does every second, so that an
        abandoned analysis stops even when no other comes."""
        for job in list(self.jobs.values()):
            self.poll(job)

    def cancel(self, job_id: str) -> Job | None:
        """End a running analysis (one that has ended keeps its state and answer): its
        process, or in the kept exact-solve process its search alone (:meth:`_end`)."""
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
                self._end(job, interrupt=False)
            self._reap(job)
        with self._warm_lock:
            warm, self._warm = self._warm, None
        if warm is not None:
            stop_process(warm.process)
            warm.conn.close()

    def _end(self, job: Job, interrupt: bool = True) -> None:
        """Stop a job that has ended (cancelled or out of time) but whose worker runs: a
        one-off worker is ended; the kept process is interrupted (``interrupt``) and waited
        for up to ``INTERRUPT_GRACE`` seconds, then ended (it is started again for the next
        job).  Waited for, so that the next analysis finds the kept process free."""
        with job.lock:
            process = job.process  # (None once the kept process has answered)
        if process is None:
            return
        kept = job.kept
        if kept is None:
            stop_process(process)
            return
        if interrupt and kept.ready.is_set() and process.is_alive():
            kept.cancel.value = job.seq  # (before the signal: the handler looks at it)
            try:
                os.kill(process.pid, INTERRUPT)
            except ProcessLookupError:  # (it just died: its reader thread sees the pipe close)
                pass
            if job.reader_done.wait(INTERRUPT_GRACE):
                return
        with job.lock:  # (no answer: ended, unless the answer came just now)
            process, job.process = job.process, None
        if process is not None:
            stop_process(process)
            self._drop_warm(process)

    def _reap(self, job: Job) -> None:
        with job.lock:
            process = job.process
        if process is not None and job.kept is None:
            process.join(2)
            job.process = None
        job.conn = None  # (its reader thread closes it)

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.state != "running"]
        for job in finished[: max(0, len(self.jobs) - self.quotas.max_kept + 1)]:
            del self.jobs[job.id]


__all__ = ["BusyError", "Job", "Jobs", "Quotas"]
