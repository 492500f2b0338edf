"""Defects found by trying the package as a researcher would (fourth round: the Python API,
the OpenSpiel games, bench, the batch path and the cluster options), each with the input
that showed it."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

import solver
from solver.errors import ArgumentError
from solver.play.dealing import random_position

BRISQUE = [sys.executable, "-m", "solver.cli"]
OUTSIDE = tempfile.gettempdir()  # (run from the checkout, python -m would find its unbuilt source first)
FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to move, worth 44
VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def brisque(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=OUTSIDE, **kw)


# ---- threads: one engine searched by two threads at once


def test_solve_from_several_threads_gives_the_answers_of_one():
    # solve() from a ThreadPoolExecutor shared one engine between the threads (its search
    # runs without the GIL): wrong values, or "EngineError: principal variation lost"
    ps = [random_position(seed, "brisque", 9) for seed in range(32)]
    alone = [solver.solve(p).to_json() for p in ps]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda p: solver.solve(p).to_json(), ps))

    def strip(text: str) -> dict:
        d = json.loads(text)
        d.pop("seconds")
        d.pop("nodes")  # (a warm table differs from thread to thread)
        return d

    assert [strip(a) for a in together] == [strip(a) for a in alone]


def test_a_sampled_analysis_on_a_thread_pool_is_the_local_one():
    # docs: "any concurrent.futures executor", the same answer with any number of workers;
    # on a ThreadPoolExecutor the worlds were solved by threads sharing one engine
    alone = solver.analyse(VIEW, worlds=40, seed=2)
    with ThreadPoolExecutor(4) as pool:
        pooled = solver.analyse(VIEW, worlds=40, seed=2, executor=pool)
    assert pooled.moves == alone.moves and pooled.best == alone.best


def test_the_batch_path_on_a_thread_pool_is_the_local_one():
    from solver.analysis.batch import solve_lines

    lines = [random_position(seed, "brisque", 10).bpn() for seed in range(40)] * 2
    alone = [json.loads(a) for a, _ in solve_lines(lines)]
    with ThreadPoolExecutor(4) as pool:
        pooled = [json.loads(a) for a, _ in solve_lines(lines, executor=pool, chunk=2)]
    for d in (*alone, *pooled):
        d.pop("seconds")
        d.pop("nodes")
    assert pooled == alone


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


# ---- the reference solver: options it would ignore


@pytest.mark.parametrize(
    "extra", [{"threads": 2}, {"nodes": 10}, {"seconds": 1.0}, {"depth": 1}, {"quick": True}]
)
def test_the_reference_solver_refuses_what_it_would_ignore(extra):
    # solve(p, engine="reference", nodes=10) answered exactly, as if the budget held
    with pytest.raises(ArgumentError, match="engine='reference'"):
        solver.solve(FP, engine="reference", **extra)
    assert solver.solve(FP, engine="reference").value == 44


# ---- bench --compare


def test_bench_compare_refuses_a_saved_figure_that_is_no_number():
    # a saved file with "seconds": "x" was a TypeError traceback after the whole run, and a
    # suite named by a list an "unhashable type" one; then such figures were skipped in
    # silence (trial 17): now the entry is refused, named
    from solver.bench.suites import compare
    from solver.errors import ArgumentError

    new = {"quick": True, "suites": [{"name": "batch", "seconds": 0.2, "nodes": 5}]}
    for saved, words in (
        ([{"name": "batch", "seconds": "x", "nodes": True}], "suites[0] ('batch'): seconds 'x'"),
        ([{"name": ["batch"], "seconds": 1.0}], "suites[0] has name ['batch']"),
        ([{"name": "batch", "seconds": None, "nodes": [1]}], "suites[0] ('batch'): seconds None"),
    ):
        with pytest.raises(ArgumentError) as e:
            compare(new, {"quick": True, "suites": saved})
        assert words in str(e.value)
    rows = compare(new, {"quick": True, "suites": [{"name": "batch", "seconds": 0.1, "nodes": 0}]})
    assert rows == [{"suite": "batch", "figure": "seconds", "new": 0.2, "old": 0.1, "ratio": 2.0}]


def test_bench_refuses_a_run_of_the_other_kind_before_running(tmp_path, monkeypatch):
    # `bench --quick --compare whole.json` ran every suite first, then refused: a whole
    # run can take an hour for nothing
    from click.testing import CliRunner

    from solver.bench import suites
    from solver.cli import main

    ran: list[object] = []
    monkeypatch.setattr(suites, "run", lambda *a, **k: ran.append(a))
    for quick, flags in ((False, ["--quick"]), (True, [])):
        saved = tmp_path / f"saved-{quick}.json"
        saved.write_text(json.dumps({"quick": quick, "suites": [], "signature": 1}))
        r = CliRunner().invoke(main, ["bench", *flags, "--suite", "deep", "--compare", str(saved)])
        assert r.exit_code == 2 and "do not compare" in r.output and str(saved) in r.output
    assert ran == []  # (refused before any suite ran)


# ---- the cluster: an address that answers but is no Dask scheduler


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


def test_a_port_that_never_answers_is_refused_within_the_connect_time(silent_port):
    # --scheduler tcp://host:8787 (the dashboard's port, or any server that waits for the
    # client to speak first) waited for Dask's handshake forever
    pytest.importorskip("distributed")
    t0 = time.monotonic()
    r = brisque("solve", "-", "--scheduler", f"tcp://127.0.0.1:{silent_port}", input=FP + "\n")
    assert r.returncode == 2, r.stderr
    assert "cannot reach the Dask scheduler" in r.stderr and "handshake" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert time.monotonic() - t0 < 40


def test_a_port_that_speaks_another_protocol_is_refused_cleanly(chatty_port):
    # Dask read the HTTP bytes as a frame length ("Unable to allocate 3.07 EiB"), then its
    # half-made client printed a traceback from __del__ and took 20 s more to give up
    pytest.importorskip("distributed")
    t0 = time.monotonic()
    r = brisque("solve", "-", "--scheduler", f"tcp://127.0.0.1:{chatty_port}", input=FP + "\n")
    assert r.returncode == 2, r.stderr
    assert "not a Dask scheduler" in r.stderr and "EiB" not in r.stderr
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr
    assert time.monotonic() - t0 < 15


# ---- the equilibrium of the late deal


PETITE_VIEW = "petite ...Q7/?2 KH 21 KJ8.T98.. - a 16:0 tricks=3:0 void=b:H"


@pytest.mark.parametrize(
    "extra",
    [{"worlds": 5}, {"seed": 3}, {"workers": 2}, {"time_limit": 2.0}, {"world_search": "exact"}],
)
def test_the_equilibrium_refuses_the_sampling_options(extra):
    # analyse(p, method="equilibrium", worlds=5) answered as if the worlds meant something;
    # the command line refuses --worlds with --method equilibrium
    with pytest.raises(ArgumentError, match="method='equilibrium'") as err:
        solver.analyse(PETITE_VIEW, method="equilibrium", **extra)
    assert next(iter(extra)) in str(err.value)
    assert solver.analyse(PETITE_VIEW, method="equilibrium", win_worth=5).game_value > 0


def test_exploitability_refuses_a_strategy_that_is_no_strategy():
    # a move that is not legal, probabilities of 2 each: both measured 0.0 points, the
    # exploitability of an equilibrium; None was an AttributeError
    from solver.analysis.equilibrium import equilibrium, exploitability
    from solver.errors import ArgumentTypeError

    own = equilibrium(PETITE_VIEW, strategies=True).strategy
    assert own is not None and exploitability(PETITE_VIEW, own) < 1e-6
    key = next(iter(own))
    for bad, words in (
        ({key: {99: 1.0}}, "move 99 is not legal"),
        ({key: {m: 2.0 for m in own[key]}}, "probability 2.0"),
        ({key: {m: -1.0 for m in own[key]}}, "probability -1.0"),
        ({key: {m: float("nan") for m in own[key]}}, "probability nan"),
        ({key: {next(iter(own[key])): 0.5}}, "sum to 0.5"),
    ):
        with pytest.raises(ArgumentError, match=words):
            exploitability(PETITE_VIEW, bad)
    for bad in (None, {key: 1}, [key]):
        with pytest.raises(ArgumentTypeError, match="expected a mapping"):
            exploitability(PETITE_VIEW, bad)  # type: ignore[arg-type]
