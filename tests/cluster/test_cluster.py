"""The work on a Dask cluster (the extra ``cluster``): a LocalCluster through the API, a
scheduler and two workers started as their own processes (``dask scheduler``, ``dask
worker``) on 127.0.0.1 and used through ``--scheduler``, and a worker killed mid-match.
Every result is compared with the same run done here."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import communicate_or_kill

pytest.importorskip("distributed")

import threading

from distributed import Client, LocalCluster  # noqa: E402

import solver
from solver.analysis.batch_solve import solve_lines  # noqa: E402
from solver.analysis.puzzles import check_records  # noqa: E402
from solver.analysis.sampling import analyse  # noqa: E402
from solver.cluster import open_executor, parse_scheduler  # noqa: E402
from solver.errors import ArgumentError  # noqa: E402
from solver.formats.bpd import parse_record  # noqa: E402
from solver.play.dealing import (
    deal,  # noqa: E402
)
from solver.play.match import run_match  # noqa: E402

AWAY = tempfile.mkdtemp(prefix="brisque-cluster-")  # (outside the checkout: the installed package)
BIN = Path(sys.executable).parent
VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def brisque(*args: str, stdin: str | None = None, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "brisque"), *args], input=stdin, capture_output=True, text=True, cwd=AWAY, timeout=timeout
    )


def without_times(lines: list[str]) -> list[dict[str, object]]:
    """The answers without their seconds (the one field that differs from run to run)."""
    out = []
    for line in lines:
        d = json.loads(line)
        d.pop("seconds", None)
        out.append(d)
    return out


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        scheduler_kwargs={"dashboard": False},
        worker_dashboard_address="127.0.0.1:0",
        silence_logs=40,
    )
    c = Client(cluster, set_as_default=False)
    yield c
    c.close()
    cluster.close()


def test_scheduler_names_are_checked():
    assert parse_scheduler("local:3") == ("local", 3)
    assert parse_scheduler("127.0.0.1:8786") == ("address", "tcp://127.0.0.1:8786")
    assert parse_scheduler("localhost:8786") == ("address", "tcp://localhost:8786")
    assert parse_scheduler("tls://node1:8786") == ("address", "tls://node1:8786")
    for bad in ("local:0", "local:x", "local:100000", "a b", "host:99999", "", "ucx://h:1", "host:123456"):
        with pytest.raises(ArgumentError, match="scheduler"):
            parse_scheduler(bad)


@pytest.mark.slow
def test_a_match_on_a_local_cluster_is_the_local_match(client):
    here = run_match("greedy", "random", 40, seed=3, rules="briscan")
    there = run_match("greedy", "random", 40, seed=3, rules="briscan", executor=client)
    assert there.records == here.records
    assert there.summary == here.summary


def test_a_sampled_analysis_on_a_local_cluster_is_the_local_one(client):
    here = analyse(VIEW, worlds=60, seed=5, batch=10)
    there = analyse(VIEW, worlds=60, seed=5, batch=10, executor=client)
    assert there.to_dict()["moves"] == here.to_dict()["moves"]
    assert there.worlds == here.worlds == 60


def test_batch_lines_and_puzzles_on_a_local_cluster(client):
    lines = [final_phase_bpn(s) for s in range(12)] + ["brisque x"]
    here = list(solve_lines(lines, chunk=5))
    there = list(solve_lines(lines, chunk=5, executor=client))
    assert [ok for _, ok in there] == [ok for _, ok in here] == [True] * 12 + [False]
    # (this process's table is warm from other tests, the workers' are not: the nodes, and
    # among lines of equal value the principal variation, may differ; the values may not)
    keep = ("bpn", "value", "best", "moves", "exact")
    assert [{k: d.get(k) for k in keep} for d in without_times([t for t, _ in there])] == [
        {k: d.get(k) for k in keep} for d in without_times([t for t, _ in here])
    ]
    records = [parse_record(f'{VIEW} ; worlds 20 ; seed 2 ; id "h"'), parse_record(f'{lines[0]} ; id "x"')]
    assert records[0] is not None and records[1] is not None
    a = [(r.id, v if isinstance(v, str) else v.to_dict()) for r, v in check_records(records)]
    b = [(r.id, v if isinstance(v, str) else v.to_dict()) for r, v in check_records(records, executor=client)]
    for (ida, va), (idb, vb) in zip(a, b, strict=True):
        assert ida == idb
        assert isinstance(va, dict) and isinstance(vb, dict)
        assert va["value"] == vb["value"] and va["best"] == vb["best"] and va["ok"] == vb["ok"]


def final_phase_bpn(seed: int) -> str:
    """A seeded Brisque position at the start of the final phase (the talon gone)."""
    from solver.model.position import Position

    p: Position = deal(seed, "brisque")
    while p.talon_count:
        p.push(p.legal_moves()[0])
    return p.bpn()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_workers(address: str, n: int, timeout: float = 60) -> None:
    with Client(address, timeout=timeout, set_as_default=False) as c:
        c.wait_for_workers(n, timeout=timeout)


@pytest.fixture()
def processes() -> Iterator[dict[str, object]]:
    """``dask scheduler`` and two ``dask worker`` processes (no nanny: a killed worker
    stays dead) on 127.0.0.1."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__LOGGING__DISTRIBUTED": "error"}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": AWAY, "env": env}
    scheduler = subprocess.Popen(
        [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        **quiet,
    )
    workers = [
        subprocess.Popen(
            [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"],
            **quiet,
        )
        for _ in range(2)
    ]
    try:
        wait_for_workers(address, 2)
        yield {"address": address, "workers": workers}
    finally:
        for proc in [*workers, scheduler]:
            proc.kill()
            proc.wait(timeout=30)


@pytest.mark.slow
def test_separate_scheduler_and_workers_through_the_command_line(processes, tmp_path):
    address = str(processes["address"])
    here = brisque("match", "greedy", "random", "--deals", "30", "--seed", "4", "--json", "-q",
                   "--records", str(tmp_path / "here.jsonl"))  # fmt: skip
    there = brisque("match", "greedy", "random", "--deals", "30", "--seed", "4", "--json", "-q",
                    "--records", str(tmp_path / "there.jsonl"), "--scheduler", address)  # fmt: skip
    assert here.returncode == there.returncode == 0, there.stderr
    assert (tmp_path / "here.jsonl").read_text() == (tmp_path / "there.jsonl").read_text()
    lines = "\n".join(final_phase_bpn(s) for s in range(8)) + "\nbrisque x\n"
    a = brisque("solve", "-", stdin=lines)
    b = brisque("solve", "-", "--scheduler", address, stdin=lines)
    assert a.returncode == b.returncode == 1  # (the bad line)
    assert without_times(b.stdout.splitlines()) == without_times(a.stdout.splitlines())
    c = brisque("analyse", VIEW, "--worlds", "40", "--seed", "3", "--json", "--scheduler", address)
    d = brisque("analyse", VIEW, "--worlds", "40", "--seed", "3", "--json")
    assert c.returncode == d.returncode == 0, c.stderr
    assert json.loads(c.stdout)["moves"] == json.loads(d.stdout)["moves"]


@pytest.mark.slow
def test_a_worker_killed_mid_match_loses_no_record(processes, tmp_path):
    """One of the two workers is killed (SIGKILL) once the match has begun; the scheduler
    gives its tasks to the other, and the records are complete, in order, and those of the
    same match played here."""
    address = str(processes["address"])
    args = ["match", "pimc:4", "greedy", "--deals", "24", "--seed", "6", "--json", "-q"]
    there_file = tmp_path / "there.jsonl"
    run = subprocess.Popen(
        [str(BIN / "brisque"), *args, "--records", str(there_file), "--scheduler", address],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=AWAY,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not there_file.exists() or not there_file.read_text().strip()):
        time.sleep(0.05)
    workers = processes["workers"]
    assert isinstance(workers, list)
    workers[0].send_signal(signal.SIGKILL)  # mid-match: records have begun, others are running
    out, err = communicate_or_kill(run, 300)
    assert run.returncode == 0, err
    here = brisque(*args, "--records", str(tmp_path / "here.jsonl"))
    assert here.returncode == 0, here.stderr
    records = there_file.read_text().splitlines()
    assert len(records) == 48
    assert records == (tmp_path / "here.jsonl").read_text().splitlines()
    assert [json.loads(r)["pair"] for r in records] == [i // 2 for i in range(48)]
    assert json.loads(out)["mean_margin"] == json.loads(here.stdout)["mean_margin"]


@pytest.mark.slow
def test_the_command_line_refuses_a_bad_or_unreachable_scheduler():
    r = brisque("solve", "-", "--scheduler", "local:0", stdin="")
    assert r.returncode == 2 and "local:N" in r.stderr and "Traceback" not in r.stderr
    r = brisque("match", "greedy", "random", "--scheduler", "127.0.0.1:1", "--deals", "2", timeout=60)
    assert r.returncode == 2 and "cannot reach the Dask scheduler" in r.stderr and "Traceback" not in r.stderr
    r = brisque("match", "greedy", "random", "--workers", "2", "--scheduler", "local:2")
    assert r.returncode == 2 and "give one of them" in r.stderr
    r = brisque("analyse", "brisque x", "--scheduler", "127.0.0.1:1", timeout=60)  # (the BPN first)
    assert r.returncode == 2 and "bad BPN" in r.stderr and "Dask" not in r.stderr
    r = brisque("analyse", VIEW, "--method", "equilibrium", "--scheduler", "local:2")
    assert r.returncode == 2 and "equilibrium" in r.stderr


@pytest.mark.slow
def test_a_local_cluster_from_the_command_line_ends_with_it(tmp_path):
    """``--scheduler local:2``: the same records as here, and no process left behind."""
    a = brisque("match", "greedy", "random", "--deals", "10", "--records", str(tmp_path / "a.jsonl"), "-q")
    b = brisque("match", "greedy", "random", "--deals", "10", "--records", str(tmp_path / "b.jsonl"), "-q",
                "--scheduler", "local:2")  # fmt: skip
    assert a.returncode == b.returncode == 0, b.stderr
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()
    assert "Traceback" not in b.stderr and "distributed." not in b.stderr  # (Dask's log kept quiet)
    with open_executor("local:1") as ex:
        assert ex.workers == 1
        assert list(ex.map(abs, [-1, -2])) == [1, 2]


@pytest.mark.slow
def test_a_killed_command_leaves_no_cluster_process():
    """SIGKILL of a command running on ``local:2``: its worker processes end too."""
    proc = subprocess.Popen(
        [str(BIN / "brisque"), "match", "pimc:4", "greedy", "--deals", "200", "-q", "--scheduler", "local:2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=AWAY,
    )
    deadline = time.monotonic() + 60
    children: list[int] = []
    while time.monotonic() < deadline and len(children) < 2:
        time.sleep(0.2)
        children = descendants(proc.pid)
    assert len(children) >= 2, "the local cluster's workers did not start"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(alive(c) for c in children):
        time.sleep(0.2)
    assert not [c for c in children if alive(c)]


def descendants(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid=,ppid="], capture_output=True, text=True).stdout.split()
    parent = {int(c): int(p) for c, p in zip(out[::2], out[1::2], strict=True)}
    found, frontier = [], {pid}
    while frontier:
        frontier = {c for c, p in parent.items() if p in frontier}
        found.extend(frontier)
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _line_within(stream, seconds: float) -> str | None:
    """The next line of ``stream`` if it comes within ``seconds``, else None."""
    import select

    ready, _, _ = select.select([stream], [], [], seconds)
    return stream.readline() if ready else None


@pytest.mark.slow
def test_a_scheduler_without_workers_is_said_to_have_none_and_the_work_waits_for_one(tmp_path):
    """``dask scheduler`` alone holds the tasks without a word: the run looked hung.  It now
    says so on standard error within seconds, with the command that starts a worker, and
    keeps waiting: the worker started then does the work."""
    from solver.cluster.scheduler import NO_WORKER_SECONDS

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__LOGGING__DISTRIBUTED": "error"}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": AWAY, "env": env}
    started = [
        subprocess.Popen(
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            **quiet,
        )
    ]
    try:
        with Client(address, timeout=60, set_as_default=False):  # (the scheduler answers)
            pass
        lines = "\n".join(final_phase_bpn(s) for s in range(4)) + "\n"
        (tmp_path / "lines.txt").write_text(lines)
        with open(tmp_path / "lines.txt") as given:
            run = subprocess.Popen(
                [str(BIN / "brisque"), "solve", "-", "--scheduler", address],
                stdin=given,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=AWAY,
            )
        started.append(run)
        assert run.stderr is not None
        t0 = time.monotonic()
        warning = _line_within(run.stderr, NO_WORKER_SECONDS + 30)
        assert warning is not None, "no word of the missing workers"
        assert time.monotonic() - t0 < NO_WORKER_SECONDS + 30
        assert warning.startswith(f"warning: the Dask scheduler at {address} has had no worker for ")
        assert f"start one with 'dask worker {address}'" in warning
        assert run.poll() is None  # (still waiting, for a worker to come)
        started.append(
            subprocess.Popen(
                [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"],
                **quiet,
            )
        )
        out, err = communicate_or_kill(run, 180)
        assert run.returncode == 0, err
        assert without_times(out.splitlines()) == without_times(
            brisque("solve", "-", stdin=lines).stdout.splitlines()
        )
        assert "Traceback" not in err
    finally:
        for proc in reversed(started):
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=30)


FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to move, worth 44


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port on 127.0.0.1 that takes connections and never says a word (as an HTTP server
    waits for a request)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield srv.getsockname()[1]
    stop.set()
    t.join()
    for c in held:
        c.close()
    srv.close()


@pytest.fixture
def chatty_port() -> Iterator[int]:
    """A port on 127.0.0.1 that answers every connection with an HTTP error at once."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    stop = threading.Event()

    def accept() -> None:
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                c = srv.accept()[0]
            except OSError:
                continue
            c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)
            c.close()

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield srv.getsockname()[1]
    stop.set()
    t.join()
    srv.close()


@pytest.mark.slow
def test_a_dask_worker_of_two_threads_gives_the_local_analysis():
    # `dask worker --nthreads 2` (Dask's default is several threads a worker): two worlds
    # at once in one worker process, one engine between them
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    alone = solver.analyse(VIEW, worlds=40, seed=5)
    with (
        LocalCluster(
            n_workers=1,
            threads_per_worker=2,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=50,
        ) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        remote = solver.analyse(VIEW, worlds=40, seed=5, executor=client)
    assert remote.moves == alone.moves and remote.best == alone.best


@pytest.mark.slow
@pytest.mark.parametrize(
    "port, said, unsaid, within",
    [
        # --scheduler tcp://host:8787 (the dashboard's port, or any server that waits for the
        # client to speak first) waited for Dask's handshake forever
        ("silent_port", ("cannot reach the Dask scheduler", "handshake"), (), 40),
        # Dask read the HTTP bytes as a frame length ("Unable to allocate 3.07 EiB"), then its
        # half-made client printed a traceback from __del__ and took 20 s more to give up
        ("chatty_port", ("not a Dask scheduler",), ("EiB", "Exception ignored"), 15),
    ],
)
def test_a_port_that_is_no_dask_scheduler_is_refused_cleanly(brisque, request, port, said, unsaid, within):
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{request.getfixturevalue(port)}"
    t0 = time.monotonic()
    r = brisque("solve", "-", "--scheduler", address, input=FP + "\n")
    assert r.returncode == 2, r.stderr
    assert all(words in r.stderr for words in said) and not any(words in r.stderr for words in unsaid)
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert time.monotonic() - t0 < within
