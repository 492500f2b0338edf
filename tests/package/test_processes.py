"""The process manager (solver.processes): a worker ends when its parent is killed with
SIGKILL, ``stop_process`` and ``stop_pool`` end workers and reap them, workers ignore
Ctrl-C, and the pool, the board and the cluster all start their workers through it (no
other module of the package asks the kernel for a parent's death signal).

Each kill test runs a real process tree: a parent Python process starts a worker through
the manager and prints its number, the test kills the parent with SIGKILL and polls until
the worker is gone (a bounded wait, no assertion on speed).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import solver
from solver.processes import become_worker, start_worker, stop_pool, stop_process, worker_pool

# the installed package (the checkout's source tree has no compiled modules unless built in place)
PACKAGE = Path(solver.__file__).resolve().parent
GONE_WITHIN = 30.0  # seconds a worker may take to go (it takes a fraction of one)

# A parent that starts a worker in each of the manager's ways, prints the worker's
# number, then waits to be killed.
PARENT = {
    "pool": """
import os, time
from solver.processes import worker_pool
pool = worker_pool(1)
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(600)
""",
    "fork": """
import multiprocessing, os, time
from solver.processes import start_worker
ctx = multiprocessing.get_context("fork")
reader, writer = ctx.Pipe(duplex=False)
start_worker(ctx, __import__("tests_worker").report, (writer,))
print(reader.recv(), flush=True)
time.sleep(600)
""",
    "forkserver": """
import multiprocessing, os, time
from solver.processes import forkserver_context, start_worker
ctx = forkserver_context()
reader, writer = ctx.Pipe(duplex=False)
start_worker(ctx, __import__("tests_worker").report, (writer,))
print(reader.recv(), flush=True)
time.sleep(600)
""",
}

# the worker of the single-process parents: sends its number, then waits
WORKER = """
import os, time

def report(conn):
    conn.send(os.getpid())
    conn.close()
    time.sleep(600)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended: it waits for its parent)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_gone(pid: int, within: float = GONE_WITHIN) -> bool:
    end = time.monotonic() + within
    while alive(pid) and time.monotonic() < end:
        time.sleep(0.05)
    return not alive(pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("way", sorted(PARENT))
def test_a_worker_dies_when_its_parent_is_killed(way: str, tmp_path: Path) -> None:
    (tmp_path / "tests_worker.py").write_text(WORKER)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}  # (the worker's module; the package is installed)
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT[way]], stdout=subprocess.PIPE, text=True, cwd=tmp_path, env=env
    )
    worker = 0
    try:
        assert parent.stdout is not None
        line = parent.stdout.readline()
        assert re.fullmatch(r"\d+\n", line), f"the parent printed {line!r}"
        worker = int(line)
        assert worker != parent.pid and alive(worker)
        parent.send_signal(signal.SIGKILL)  # not even a chance to clean up
        parent.wait()
        assert wait_gone(worker), f"the {way} worker outlived its parent killed with SIGKILL"
    finally:
        parent.kill()
        parent.wait()
        if worker and alive(worker):  # (the test failed: leave nothing behind)
            os.kill(worker, signal.SIGKILL)


def _sleep(ready: Any) -> None:
    ready.set()
    time.sleep(600)


def _ignore_term(ready: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    ready.set()
    time.sleep(600)


@pytest.mark.parametrize("target, exitcode", [(_sleep, -signal.SIGTERM), (_ignore_term, -signal.SIGKILL)])
def test_stop_process_ends_and_reaps_a_worker(target, exitcode) -> None:
    """Asked (SIGTERM) first; one that ignores it is killed after the grace period."""
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    worker = start_worker(ctx, target, (ready,))
    assert ready.wait(GONE_WITHIN) and worker.is_alive()
    stop_process(worker, grace=0.5)
    assert not worker.is_alive() and worker.exitcode == exitcode
    assert not alive(worker.pid)  # (reaped: not even a zombie)
    stop_process(worker)  # (a process that has ended: nothing more to do)
    assert worker.exitcode == exitcode


def _worker_facts(task: int) -> tuple[int, bool]:
    """In a worker: its number, and whether it ignores Ctrl-C."""
    return os.getpid(), signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_stop_pool_ends_its_workers_and_they_ignore_ctrl_c() -> None:
    pool = worker_pool(2)
    facts = list(pool.map(_worker_facts, range(4)))
    pids = {pid for pid, _ in facts}
    assert all(ignored for _, ignored in facts)
    stop_pool(pool, wait=False)
    assert all(wait_gone(pid) for pid in pids)


def test_a_worker_whose_starter_is_gone_ends_at_once() -> None:
    """``become_worker`` of a process that has ended: the worker exits before its work."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    ctx = multiprocessing.get_context("fork")
    worker = ctx.Process(target=become_worker, args=(gone.pid,))
    worker.start()
    worker.join(GONE_WITHIN)
    assert worker.exitcode == 1


def test_only_the_process_manager_ties_workers_to_their_parent() -> None:
    """The pool, the board and the cluster start and tie their workers through
    solver.processes: no other module asks the kernel for a parent's death signal (prctl)
    or sets up a worker or a forkserver itself."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "processes.py" and path.parent == PACKAGE:
            continue
        text = path.read_text(encoding="utf-8")
        for word in (
            "prctl",
            "PDEATHSIG",
            "_die_with_parent",
            "_forkserver_alive_fd",
            "set_forkserver_preload",
        ):
            if word in text:
                found.append(f"{path.relative_to(PACKAGE.parent)}: {word}")
    assert not found, "\n".join(found)
    users = {
        "analysis/pool.py": "from solver.processes import",
        "board/jobs.py": "from solver.processes import",
        "cluster/scheduler.py": "from solver.processes import",
    }
    for rel, line in users.items():
        assert line in (PACKAGE / rel).read_text(encoding="utf-8"), rel
