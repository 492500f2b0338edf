"""The analysis board: the real server (``brisque serve``, uvicorn) on 127.0.0.1,
its JSON API and quotas, and the page in a real browser (Debian's Chromium through
Playwright).  The browser tests are skipped where no Chromium is installed (``.ci/run``
installs it)."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import asyncio
import concurrent.futures

from board_servers import AWAY, FULL, Board, ThreadBoard, raw, same_card_drawn
from helpers import POSITIONS, ROOT

from solver.model.position import Position  # noqa: E402
from solver.play.dealing import deal  # noqa: E402


def solve_json(bpn: str) -> dict:
    res = subprocess.run(
        [sys.executable, "-m", "solver.cli", "solve", bpn, "--json"],
        capture_output=True,
        check=True,
        cwd=AWAY,
    )
    return json.loads(res.stdout)


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    out, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.add(c)
            todo.append(c)
    return out


# ---------------------------------------------------------------- the API


@pytest.mark.slow
def test_the_api_shows_plays_and_solves(board):
    status, info = board.get("/api/position", bpn=FULL)
    assert status == 200 and info["legal"] == ["TS", "KC"] and info["svg"].startswith("<svg")
    status, played = board.post("/api/analysis/play", {"bpn": FULL, "move": "KC"})
    assert status == 200 and played["bpn"] == Position(FULL).apply("KC").bpn()
    status, job = board.post("/api/analysis/jobs", {"bpn": FULL})
    assert status == 202
    done = board.wait(job["id"])
    assert done["state"] == "done"
    expected = solve_json(FULL)
    assert {m["move"]: m["value"] for m in done["answer"]["moves"]} == {
        m["move"]: m["value"] for m in expected["moves"]
    }


def test_bad_input_gets_the_command_lines_words(board):
    status, answer = board.get("/api/position", bpn="nonsense")
    assert status == 400 and "bad BPN 'nonsense'" in answer["error"]
    status, answer = board.post("/api/analysis/play", {"bpn": FULL, "move": "AH"})
    assert status == 400 and "AH" in answer["error"]
    status, answer = board.post("/api/analysis/play", b"\xff\xfe not json")
    assert status == 400 and "expected a JSON object" in answer["error"]
    status, answer = board.post("/api/analysis/jobs", {"bpn": FULL, "worlds": "many"})
    assert status == 400 and "worlds='many'" in answer["error"]
    status, answer = board.get("/api/analysis/jobs/nothing")
    assert status == 404
    impossible = "petite 7.../8... D 0 - - a 0:0"
    status, answer = board.post("/api/analysis/jobs", {"bpn": impossible})
    assert status == 400 and "impossible position" in answer["error"]


def test_it_listens_on_this_machine_only(board):
    port = int(board.url.rsplit(":", 1)[1])
    listening = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        if state == "0A" and int(local.split(":")[1], 16) == port:  # (0A: LISTEN)
            listening.append(local.split(":")[0])
    assert listening == ["0100007F"]  # 127.0.0.1


def test_the_error_is_the_command_lines(board):
    bad = "brisque AK9.97..9/7..Q9.A7 Z 0 - - a 0:0"
    cli = subprocess.run(
        [sys.executable, "-m", "solver.cli", "show", bad], capture_output=True, text=True, cwd=AWAY
    )
    status, answer = board.get("/api/position", bpn=bad)
    assert status == 400 and cli.returncode == 2
    assert answer["error"] in cli.stderr


def test_requests_and_analyses_are_bounded(board):
    # a body announced too big is refused before it is read

    host, port = board.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.putrequest("POST", "/api/analysis/load")
    conn.putheader("Content-Length", "1100000")
    conn.endheaders(b"x" * 1000)
    res = conn.getresponse()
    assert res.status == 413 and "at most" in json.loads(res.read())["error"]
    conn.close()
    status, answer = board.get("/api/position", bpn="brisque " + "A" * 5000)
    assert status == 413
    status, answer = board.post("/api/analysis/jobs", {"bpn": FULL, "seconds": 999})
    assert status == 400 and "at most 20" in answer["error"]
    status, answer = board.post("/api/analysis/jobs", {"bpn": FULL, "worlds": 10**9})
    assert status == 400 and "worlds" in answer["error"]
    # only the page's own files are served, whatever the path asks
    status, answer = board.get("/static/..%2F..%2Fpyproject.toml")
    assert status == 404


def test_odd_bodies_get_a_clear_400_not_a_crash(board):
    for body in [b"[" * 50000, ('{"bpn": "x", "worlds": ' + "9" * 5000 + "}").encode(), b'"just a string"']:
        for path in ("/api/analysis/jobs", "/api/analysis/play"):
            status, answer = board.post(path, body)
            assert status == 400 and "expected a JSON object" in answer["error"], (path, body[:20])
    status, answer = board.get("/api/analysis/jobs/" + "z" * 5000)
    assert status == 404 and len(answer["error"]) < 200


def test_a_hidden_hand_to_play_is_refused_before_any_work(board):
    view = deal(5).view("b").bpn()  # a to play, his hand hidden
    status, answer = board.post("/api/analysis/jobs", {"bpn": view})
    assert status == 400 and "hidden" in answer["error"]


@pytest.mark.slow
def test_an_unwatched_analysis_keeps_its_answer_and_its_time():
    b = Board("--max-seconds", "3")
    try:
        hidden = deal(5).view("a").bpn()
        _, job = b.post("/api/analysis/jobs", {"bpn": hidden, "worlds": 2000})
        time.sleep(8)  # nobody asks while it runs and ends
        _, done = b.get(f"/api/analysis/jobs/{job['id']}")
        assert (
            done["state"] == "done"
            and done["answer"]["worlds"] == done["done"] == done["total"]
            or (done["state"] == "done" and done["done"] <= done["total"])
        )
        time.sleep(1)
        _, again = b.get(f"/api/analysis/jobs/{job['id']}")
        assert again["seconds"] == done["seconds"] <= 3 + 2  # (the time it took, not since)
        status, after = b.request("DELETE", f"/api/analysis/jobs/{job['id']}")
        assert status == 200 and after["state"] == "done"  # (a cancel after the end changes nothing)
    finally:
        b.stop()


def test_analyses_at_once_are_bounded_and_cancelled():
    b = Board("--max-running", "1", "--max-seconds", "30")
    try:
        hidden = deal(5).view("a").bpn()
        status, first = b.post("/api/analysis/jobs", {"bpn": hidden, "worlds": 2000})
        assert status == 202
        status, answer = b.post("/api/analysis/jobs", {"bpn": hidden})
        assert status == 429 and "at once" in answer["error"]
        status, cancelled = b.request("DELETE", f"/api/analysis/jobs/{first['id']}")
        assert status == 200 and cancelled["state"] == "cancelled"
        status, second = b.post("/api/analysis/jobs", {"bpn": FULL})
        assert status == 202 and b.wait(second["id"])["state"] == "done"
    finally:
        b.stop()


@pytest.mark.slow
def test_an_analysis_stops_at_its_time_limit():
    b = Board("--max-seconds", "1")
    try:
        hidden = deal(5).view("a").bpn()
        t = time.monotonic()
        _, job = b.post("/api/analysis/jobs", {"bpn": hidden, "worlds": 2000})
        done = b.wait(job["id"], timeout=30)
        assert done["state"] == "done" and done["answer"]["worlds"] < 2000
        assert time.monotonic() - t < 15
    finally:
        b.stop()


@pytest.mark.slow
def test_stepping_through_a_deal_finds_a_warm_table():
    """Exact analyses share one kept process whose table stays warm: the position after the
    best move is solved with fewer nodes than from a cleared table, to the same values."""
    from solver.engine.results import Limit
    from solver.engine.solving import Solver
    from solver.play.dealing import random_position

    b = Board("--max-seconds", "30")
    try:
        p = random_position(7, "brisque", 5)  # six talon tricks left: a second or so
        _, first = b.post("/api/analysis/jobs", {"bpn": p.bpn()})
        answer = b.wait(first["id"])["answer"]
        assert answer["method"] == "exact"
        q = p.copy()
        q.push(answer["best"][0])
        _, second = b.post("/api/analysis/jobs", {"bpn": q.bpn()})
        warm = b.wait(second["id"])["answer"]
        cold = Solver(q.rules).solve(q, limit=Limit(seconds=30))
        assert warm["method"] == "exact" and cold.exact
        assert warm["moves"] == [m.to_dict() for m in cold.moves] and warm["value"] == int(cold.value)
        assert warm["nodes"] < cold.nodes  # (1.4 times fewer in this deal)
        # an analysis cancelled at once, maybe before the kept process can be interrupted
        _, third = b.post("/api/analysis/jobs", {"bpn": p.bpn()})
        status, cancelled = b.request("DELETE", f"/api/analysis/jobs/{third['id']}")
        assert status == 200 and cancelled["state"] in ("cancelled", "done")
        _, fourth = b.post("/api/analysis/jobs", {"bpn": FULL})
        assert b.wait(fourth["id"])["answer"]["best"] == solve_json(FULL)["best"]
    finally:
        b.stop()


@pytest.mark.slow
def test_a_cancel_interrupts_the_kept_process_whose_table_stays_right():
    """Cancelling an exact analysis stops its search in the kept process, which lives on
    with its table: the same position analysed again there, on the table the interrupted
    search left, gets the values of a cold solve, with fewer nodes."""
    from solver.engine.results import Limit
    from solver.engine.solving import Solver
    from solver.play.dealing import random_position

    b = Board("--max-seconds", "20")
    try:
        p, later = random_position(7, "brisque", 2), random_position(7, "brisque", 5)
        _, first = b.post("/api/analysis/jobs", {"bpn": later.bpn()})  # (the kept process's deal)
        assert b.wait(first["id"])["state"] == "done"
        workers = descendants(b.process.pid)  # (the forkserver, the kept process and so on)
        for delay in (0.1, 0.3):  # (its solve takes a second or so)
            _, job = b.post("/api/analysis/jobs", {"bpn": p.bpn()})
            time.sleep(delay)
            status, cancelled = b.request("DELETE", f"/api/analysis/jobs/{job['id']}")
            assert status == 200 and cancelled["state"] == "cancelled"  # (stopped mid-search)
        _, again = b.post("/api/analysis/jobs", {"bpn": p.bpn()})
        warm = b.wait(again["id"])["answer"]
        assert descendants(b.process.pid) == workers  # the same kept process, no other
        cold = Solver(p.rules).solve(p, limit=Limit(seconds=30))
        assert warm["method"] == "exact" and cold.exact
        assert warm["moves"] == [m.to_dict() for m in cold.moves] and warm["value"] == int(cold.value)
        assert warm["nodes"] < cold.nodes
    finally:
        b.stop()


@pytest.mark.slow
def test_a_late_answer_is_never_the_next_jobs():
    """A worker's answer to an earlier job, still in the pipe, is not taken for the job
    that reads it; cancels that come as the kept process answers leave each next job its
    own answer."""
    import multiprocessing

    from solver.board.jobs import Job, Jobs, Quotas
    from solver.play.dealing import random_position

    jobs = Jobs(Quotas(max_seconds=20))
    try:
        job = Job(id="x", bpn="b", seq=2)
        parent, child = multiprocessing.Pipe(duplex=False)
        child.send(("done", 1, {"bpn": "a"}))  # (the late answer of job 1)
        child.send(("progress", 1, 5, 9, {"bpn": "a"}))
        child.send(("done", 2, {"bpn": "b"}))
        jobs._read(job, parent)
        assert job.state == "done" and job.answer == {"bpn": "b"} and job.done == 0

        slow, p = random_position(7, "brisque", 1), random_position(7, "brisque", 6)
        q = p.copy()  # (p and q: solved in a few hundredths of a second, slow in 10 s)
        q.push(p.legal_moves()[0])
        expected = {}
        for x in (p, q):  # (the first cancel comes before the kept process can be interrupted)
            jobs.cancel(jobs.start(x.bpn()).id)
            again = jobs.wait(jobs.start(x.bpn()).id)
            assert again.state == "done"
            expected[x.bpn()] = again.answer["moves"]
        assert jobs._warm is not None
        kept = jobs._warm.process
        # cancels from the start of a search to after its answer
        for i in range(20):
            a, b = (slow if i % 2 else p), (q if i % 4 < 2 else p)
            job = jobs.start(a.bpn())
            time.sleep(0.002 * (i // 2))
            jobs.cancel(job.id)
            assert job.state == "cancelled" or job.answer["bpn"] == a.bpn()
            nxt = jobs.wait(jobs.start(b.bpn()).id)
            assert nxt.state == "done" and nxt.answer["bpn"] == b.bpn()
            assert nxt.answer["moves"] == expected[b.bpn()]
        assert jobs._warm.process is kept and kept.is_alive()  # (interrupted, never ended)
    finally:
        jobs.close()


def test_an_interrupt_before_the_kept_process_reads_its_job_cancels_that_job():
    """The signal comes while the kept process waits for its job (stopped there, then let
    go): its handler lets it be, and the job read afterwards is found cancelled."""

    from solver.board.jobs import Jobs, Quotas
    from solver.play.dealing import random_position

    jobs = Jobs(Quotas(max_seconds=20))
    try:
        assert jobs.wait(jobs.start(FULL).id).state == "done"
        assert jobs._warm is not None
        kept = jobs._warm.process
        os.kill(kept.pid, signal.SIGSTOP)
        end = time.monotonic() + 5
        while Path(f"/proc/{kept.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T":
            assert time.monotonic() < end
            time.sleep(0.01)
        job = jobs.start(random_position(7, "brisque", 1).bpn())  # (about 10 s)
        threading.Timer(0.3, os.kill, (kept.pid, signal.SIGCONT)).start()
        t = time.monotonic()
        jobs.cancel(job.id)  # (the signal waits for the process to go on)
        assert job.state == "cancelled" and time.monotonic() - t < 1.5  # (answered, not ended)
        assert jobs._warm.process is kept and kept.is_alive()
        assert jobs.wait(jobs.start(FULL).id).answer["best"] == ["TS", "KC"]
    finally:
        jobs.close()


@pytest.mark.slow
def test_a_kept_process_that_does_not_answer_an_interrupt_is_ended(monkeypatch):
    """One stopped (SIGSTOP) in its search, as one stuck would be: ended after the grace,
    and the next exact analysis gets another."""
    from solver.board import jobs as module
    from solver.board.jobs import Jobs, Quotas
    from solver.play.dealing import random_position

    monkeypatch.setattr(module, "INTERRUPT_GRACE", 0.5)
    jobs = Jobs(Quotas(max_seconds=20))
    try:
        job = jobs.start(random_position(7, "brisque", 1).bpn())  # (about 10 s)
        assert job.kept is not None and job.kept.ready.wait(30)
        stuck = job.process
        os.kill(stuck.pid, signal.SIGSTOP)  # (it can no longer answer)
        t = time.monotonic()
        jobs.cancel(job.id)
        # (the grace, then ended: asked, which a stopped process leaves pending, then killed)
        assert job.state == "cancelled" and 0.5 <= time.monotonic() - t < 0.5 + 4 + 1
        assert not stuck.is_alive() and jobs._warm is None
        again = jobs.wait(jobs.start(FULL).id)
        assert again.process is None and jobs._warm is not None and jobs._warm.process is not stuck
        assert again.state == "done" and again.answer["best"] == ["TS", "KC"]
    finally:
        jobs.close()


def alive(pids: set[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie has ended: it waits for its parent)."""
    out = []
    for p in pids:
        try:
            state = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.append(p)
    return out


@pytest.mark.slow
def test_no_process_outlives_the_server_killed():
    """``kill -9`` of the server, as a long exact solve (a whole deal) runs in the kept
    process and a sampled analysis in a one-off worker: the forkserver and every worker are
    gone within seconds (each worker once held the forkserver's "alive" pipe, so that the
    forkserver waited on the workers and the workers on the forkserver)."""
    b, below = Board(), set()
    try:
        _, exact = b.post("/api/analysis/jobs", {"bpn": deal(4).bpn()})  # (longer than its 30 s)
        _, job = b.post("/api/analysis/jobs", {"bpn": deal(5).view("a").bpn(), "worlds": 2000})
        time.sleep(2)
        assert b.get(f"/api/analysis/jobs/{exact['id']}")[1]["state"] == "running"
        assert b.get(f"/api/analysis/jobs/{job['id']}")[1]["state"] == "running"
        below = descendants(b.process.pid)
        assert len(below) >= 3, "the forkserver and a process for each analysis"
        os.kill(b.process.pid, signal.SIGKILL)  # not even a chance to clean up
        b.process.wait()
        end = time.monotonic() + 5  # (about 0.1 s here)
        while time.monotonic() < end and alive(below):
            time.sleep(0.05)
        assert not alive(below)
    finally:
        b.stop()
        for p in alive(below):  # (the test failed: what it leaves would slow the next ones)
            os.kill(p, signal.SIGKILL)


def test_a_request_for_another_host_is_refused(board):
    """DNS rebinding: a page of evil.example whose name leads to 127.0.0.1 sends its own
    name in Host; the board answers its own names, with the port it listens on, only."""
    port = urllib.parse.urlsplit(board.url).port
    path = "/api/position?bpn=" + urllib.parse.quote(FULL)
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1"):
        status, answer = raw(board.url, "GET", path, Host=host)
        assert status == 421 and repr(host) in answer["error"], host
        assert f"127.0.0.1:{port}" in answer["error"]
    status, answer = raw(board.url, "GET", "/", Host="evil.example")
    assert status == 421 and "evil.example" in answer["error"]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LOCALHOST:{port}"):
        status, answer = raw(board.url, "GET", path, Host=host)
        assert status == 200 and answer["legal"] == ["TS", "KC"], host


def test_a_cross_site_request_changes_nothing(board):
    """A page of another site may POST a text/plain body without asking (no preflight):
    a request that changes something is refused unless it comes from the board's page."""
    port = urllib.parse.urlsplit(board.url).port
    slow = json.dumps({"bpn": deal(8).view("a").bpn(), "worlds": 2000}).encode()
    plain = {"Content_Type": "text/plain"}
    for origin in ("http://evil.example", f"http://evil.example:{port}", "null", f"https://127.0.0.1:{port}"):
        status, answer = raw(board.url, "POST", "/api/analysis/jobs", slow, Origin=origin, **plain)
        assert status == 403 and repr(origin) in answer["error"], origin
    status, answer = raw(board.url, "POST", "/api/analysis/load", b"x", Origin="http://evil.example", **plain)
    assert status == 403
    for path, body in (
        ("/api/analysis/jobs", slow),
        ("/api/analysis/load", b"x"),
    ):  # (no Origin: an old browser)
        status, answer = raw(board.url, "POST", path, body, Sec_Fetch_Site="cross-site", **plain)
        assert status == 403 and "cross-site" in answer["error"]
    status, answer = raw(board.url, "DELETE", "/api/analysis/jobs/abc", Origin="http://evil.example")
    assert status == 403
    # the board's own page, under any of its names
    move = json.dumps({"bpn": FULL, "move": "KC"}).encode()
    for origin in (board.url, f"http://localhost:{port}", f"http://[::1]:{port}"):
        status, answer = raw(
            board.url, "POST", "/api/analysis/play", move, Origin=origin, Sec_Fetch_Site="same-origin"
        )
        assert status == 200 and answer["bpn"] == Position(FULL).apply("KC").bpn()
    # reading is the browser's to guard (no CORS header: the page of another site reads nothing)
    status, _ = raw(
        board.url, "GET", "/api/position?bpn=" + urllib.parse.quote(FULL), Origin="http://evil.example"
    )
    assert status == 200


@pytest.mark.slow
def test_an_abandoned_analysis_frees_its_slot():
    """A client that starts analyses and goes away without a word: once nobody has asked
    for them in ``abandon_seconds``, they are cancelled and the others may start theirs."""
    from solver.board.jobs import Quotas

    b = ThreadBoard(Quotas(max_running=2, max_seconds=30, abandon_seconds=2))
    try:
        slow = {"bpn": deal(8).view("a").bpn(), "worlds": 2000}
        first, second = (b.post("/api/analysis/jobs", slow) for _ in range(2))
        assert first[0] == 202 and second[0] == 202
        assert b.post("/api/analysis/jobs", slow)[0] == 429  # (both slots taken)
        t, end = time.monotonic(), time.monotonic() + 2 + 10
        while time.monotonic() < end:  # (never asking for the two)
            status, third = b.post("/api/analysis/jobs", {"bpn": FULL})
            if status == 202:
                break
            assert status == 429
            time.sleep(0.2)
        assert status == 202 and time.monotonic() - t >= 1.5  # (not before they were abandoned)
        assert b.wait(third["id"])["state"] == "done"
        for _, job in (first, second):
            status, answer = b.get(f"/api/analysis/jobs/{job['id']}")
            assert status == 200 and answer["state"] == "cancelled" and "abandoned" in answer["error"]
    finally:
        b.stop()


@pytest.mark.slow
def test_an_analysis_asked_for_is_never_abandoned():
    """The page asks every 0.25 s: its analysis runs to its end, however long."""
    from solver.board.jobs import Quotas

    b = ThreadBoard(Quotas(max_running=2, max_seconds=4, abandon_seconds=1))
    try:
        _, job = b.post("/api/analysis/jobs", {"bpn": deal(8).view("a").bpn(), "worlds": 2000})
        answer = b.wait(job["id"], timeout=30)
        assert answer["state"] == "done" and answer["seconds"] > 1.5
    finally:
        b.stop()


def test_a_client_gone_before_its_body_is_one_line_in_the_log():
    """An upload cut short (a Content-Length larger than what came, then the socket closed)
    is a line in the log, not a traceback."""
    b = Board()
    try:
        port = urllib.parse.urlsplit(b.url).port
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(
                f"POST /api/analysis/load HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 1000\r\n\r\n".encode()
                + b"0123456789"
            )
            time.sleep(0.3)
        time.sleep(0.5)
        assert b.get("/api/position", bpn=FULL)[0] == 200  # (the board goes on)
    finally:
        b.stop()
    assert b.process.stderr is not None
    err = b.process.stderr.read()
    assert "Traceback" not in err and "ClientDisconnect" not in err, err
    lines = [line for line in err.splitlines() if line != "interrupted"]  # (SIGINT: stop)
    assert len(lines) == 1 and "POST /api/analysis/load" in lines[0] and "went away" in lines[0], err
    assert "10 of 1000 bytes" in lines[0]


def closed_within(s: socket.socket, seconds: float) -> bytes:
    """What the server sent before it closed ``s``, which it must do within ``seconds``."""
    s.settimeout(seconds)
    got = b""
    try:
        while chunk := s.recv(4096):
            got += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        pytest.fail(f"the connection is still open after {seconds} s (got {got!r})")
    return got


@pytest.mark.slow
def test_slow_requests_are_cut_off():
    """A request line sent in half, headers sent a byte at a time (slowloris): closed after
    ``header_seconds``; a body trickling in: 408 after ``body_seconds``."""
    from solver.board.jobs import Quotas

    b = ThreadBoard(Quotas(header_seconds=1, body_seconds=2))
    try:
        half = socket.create_connection(("127.0.0.1", b.port))
        half.sendall(b"GET /api/posi")
        t = time.monotonic()
        assert closed_within(half, 1 + 5) == b""
        assert time.monotonic() - t >= 0.5  # (it had its second)
        half.close()

        idle = socket.create_connection(("127.0.0.1", b.port))  # (nothing sent at all)
        assert closed_within(idle, 1 + 5) == b""
        idle.close()

        trickle = socket.create_connection(("127.0.0.1", b.port))
        t, cut = time.monotonic(), False
        for byte in b"GET /api/position HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"x" * 100:
            try:
                trickle.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                cut = True
                break
            time.sleep(0.1)
            if time.monotonic() - t > 1 + 5:
                break
        assert cut or closed_within(trickle, 0.5) == b""
        assert time.monotonic() - t < 1 + 5
        trickle.close()

        body = socket.create_connection(("127.0.0.1", b.port))
        body.sendall(
            f"POST /api/analysis/load HTTP/1.1\r\nHost: 127.0.0.1:{b.port}\r\nContent-Length: 100\r\n\r\n".encode()
        )
        t = time.monotonic()
        for _ in range(30):  # (a byte every 0.2 s: 6 s for the 30 bytes, past the 2 s)
            try:
                body.sendall(b"x")
            except (BrokenPipeError, ConnectionResetError):
                break
            time.sleep(0.2)
            body.settimeout(0.01)
            try:
                if body.recv(1, socket.MSG_PEEK):
                    break
            except (TimeoutError, BlockingIOError):
                pass
        answer = closed_within(body, 5)
        assert time.monotonic() - t < 2 + 5
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert b"did not come within 2 s" in answer
        body.close()

        # a request sent at once is answered as ever
        assert b.get("/api/position", bpn=FULL)[0] == 200
    finally:
        b.stop()


def test_a_puzzle_file_and_match_records_load_with_their_errors(board):
    text = (POSITIONS / "petite-deals.bpd").read_text()
    status, answer = board.post("/api/analysis/load", (text + "nonsense line\n").encode())
    assert status == 200 and answer["items"] and len(answer["errors"]) == 1
    record = json.dumps({"start": FULL, "moves": ["KC", "9C"], "players": ["x", "y"]})
    status, answer = board.post("/api/analysis/load", (record + "\n{broken\n").encode())
    assert status == 200 and len(answer["items"][0]["bpns"]) == 3 and len(answer["errors"]) == 1


def fetch_text(url: str) -> tuple[str, str]:
    """The text of a page or file of the board, and its Content-Type."""
    with urllib.request.urlopen(url, timeout=30) as res:
        return res.read().decode("utf-8"), res.headers["Content-Type"]


def test_both_pages_are_modules_that_import_the_shared_one(board):
    shared, kind = fetch_text(board.url + "/static/common.js")
    assert kind.startswith("text/javascript")  # (a browser runs a module of that type only)
    assert "export function drawCard(" in shared and "export async function api(" in shared
    for path, script in (("/", "board.js"), ("/play", "play.js")):
        html, _ = fetch_text(board.url + path)
        assert f'<script type="module" src="/static/{script}"></script>' in html
        assert '<link rel="stylesheet" href="/static/cards.css">' in html
        js, kind = fetch_text(f"{board.url}/static/{script}")
        assert kind.startswith("text/javascript")
        imported = re.search(r'^import \{([^}]*)\} from "/static/common\.js";$', js, re.M)
        names = set(re.findall(r"\w+", imported.group(1))) if imported else set()
        assert {"api", "showError"} <= names and {"drawCard", "drawTable"} & names, script
        # (no page keeps its own copy of what the shared module does)
        for own in ("async function api(", "function showError(", "function cardElement("):
            assert own not in js, (script, own)


def test_the_old_route_names_are_gone(board):
    for method, path in (
        ("POST", "/api/play"),
        ("POST", "/api/analyses"),
        ("GET", "/api/analyses/0123"),
        ("DELETE", "/api/analyses/0123"),
        ("POST", "/api/load"),
    ):
        status, answer = board.request(method, path, b"{}" if method == "POST" else None)
        assert status == 404 and "no page" in answer["error"], (method, path)
    status, answer = board.get("/api/analysis/play")  # (a move is a POST)
    assert status == 405 and "GET is not for" in answer["error"]
    status, answer = board.post("/api/analysis/play", {"bpn": FULL, "move": "KC"})
    assert status == 200 and answer["bpn"] == Position(FULL).apply("KC").bpn()


def test_the_table_to_draw_shows_what_the_bpn_shows():
    from solver.board.position_info import describe

    view = Position(deal(8).view("a").bpn())
    table = describe(view, "b")["table"]
    assert table["bottom"] == "b" and table["turn"] == "a"
    assert table["hands"]["b"]["cards"] == [] and table["hands"]["b"]["hidden"] == 6
    assert len(table["hands"]["a"]["cards"]) == 6
    assert sorted(table["playable"]) == sorted(table["hands"]["a"]["cards"])
    assert table["turnup"] == "8H" and table["talon"] == 19
    hidden_turn = Position(deal(8).view("b").bpn())  # (the hand to play is hidden)
    assert describe(hidden_turn)["table"]["playable"] == []


def test_board_error_is_a_brisque_error_carrying_its_status():
    import solver
    from solver.board.games import GameError
    from solver.errors import ArgumentError, BoardError, BrisqueError

    assert issubclass(BoardError, BrisqueError) and issubclass(BoardError, ArgumentError)
    assert issubclass(GameError, BoardError)
    assert BoardError("too large", 413).status == 413 and BoardError("bad").status == 400
    assert solver.BoardError is BoardError and "BoardError" in solver.errors.__all__


# ---------------------------------------------------------------- the page, in Chromium


def open_board(page, board, bpn: str) -> None:
    page.goto(f"{board.url}/?bpn={urllib.parse.quote(bpn)}")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('done')", timeout=30000)


@pytest.mark.slow
def test_the_page_shows_every_value_that_solve_gives(page, board):
    bpn = deal(3).bpn()
    p = Position(bpn)
    while p.trick_number < 12:  # (late enough to solve at once)
        p.push(p.legal_moves()[0])
    open_board(page, board, p.bpn())
    shown = {
        e.get_attribute("data-move"): e.get_attribute("data-value")
        for e in page.query_selector_all("#moves [data-move]")
    }
    expected = solve_json(p.bpn())
    assert shown == {m["move"]: str(m["value"]) for m in expected["moves"]}
    assert page.get_attribute("[data-bpn]", "data-bpn") == p.bpn()
    assert page.input_value("input[name=bpn]") == p.bpn()
    assert page.text_content("#pv").split() == expected["pv"]


def test_clicking_a_card_plays_it_and_the_line_goes_back_and_forth(page, board):
    open_board(page, board, FULL)
    page.click("#diagram [data-move='KC']")
    after = Position(FULL).apply("KC").bpn()
    page.wait_for_function(f"document.querySelector('[data-bpn]').dataset.bpn === {json.dumps(after)}")
    page.click("#back")
    page.wait_for_function(
        f"document.querySelector('[data-bpn]').dataset.bpn === {json.dumps(Position(FULL).bpn())}"
    )
    page.click("#forward")
    page.wait_for_function(f"document.querySelector('[data-bpn]').dataset.bpn === {json.dumps(after)}")
    bottom = page.get_attribute("#diagram .diagram", "data-bottom")
    page.click("#flip")
    page.wait_for_function(
        f"document.querySelector('#diagram .diagram').dataset.bottom !== {json.dumps(bottom)}"
    )
    # a move in the list plays too
    page.wait_for_selector("#moves [data-move]")
    move = page.get_attribute("#moves [data-move]", "data-move")
    page.click(f"#moves [data-move='{move}']")
    page.wait_for_function(
        f"document.querySelector('[data-bpn]').dataset.bpn === {json.dumps(Position(after).apply(move).bpn())}"
    )


def test_the_diagrams_cards_are_drawn_by_the_shared_module(page, board):
    page.goto(f"{board.url}/?bpn={urllib.parse.quote(FULL)}")
    page.wait_for_selector("#diagram [data-move='KC']")
    same_card_drawn(page, "#diagram [data-move='KC']", {"move": "KC"})
    same_card_drawn(page, "#diagram [data-seat='a'] .card[data-card]", {})
    # (the card of the play page's hand is the same function's: tests/board/test_board_play.py)


def test_a_puzzle_file_is_stepped_through(page, board, tmp_path):
    path = tmp_path / "two.bpd"
    records = (POSITIONS / "petite-deals.bpd").read_text().splitlines()
    mine = [r for r in records if r.strip() and not r.startswith("#")][:2]
    path.write_text("\n".join(mine) + "\n")
    page.goto(board.url + "/")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#collection:not([hidden])")
    first = Position(mine[0].split(";")[0]).bpn()
    page.wait_for_function(f"document.querySelector('[data-bpn]').dataset.bpn === {json.dumps(first)}")
    assert page.text_content("#item-info").startswith("2 loaded")
    page.click("#next-item")
    second = Position(mine[1].split(";")[0]).bpn()
    page.wait_for_function(f"document.querySelector('[data-bpn]').dataset.bpn === {json.dumps(second)}")


def test_the_puzzle_view_shows_the_answer_with_a_pass_or_fail_mark_and_hides_it(page, board, tmp_path):
    records = [r for r in (POSITIONS / "petite-deals.bpd").read_text().splitlines() if r.startswith("petite")]
    good = records[0]
    bm = good.split("; bm ")[1].split(" ;")[0]
    v = good.split("; v ")[1].split(" ;")[0]
    # the same position with a wrong value: the solve does not agree
    wrong = good.replace(f"; v {v} ;", f"; v {int(v) + 7} ;").replace('id "', 'id "wrong-')
    path = tmp_path / "puzzles.bpd"
    path.write_text(good + "\n" + wrong + "\n")
    page.goto(board.url + "/")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#puzzle:not([hidden])")
    assert f"best move {bm}" in page.text_content(
        "#answer-text"
    ) and f"value {int(v):+d}" in page.text_content("#answer-text")
    page.wait_for_function("document.getElementById('verdict').dataset.verdict !== ''", timeout=30000)
    assert page.get_attribute("#verdict", "data-verdict") == "pass"
    page.check("#hide-answer")
    assert (
        not page.is_visible("#answer")
        or page.evaluate("getComputedStyle(document.getElementById('answer')).visibility") == "hidden"
    )
    assert page.evaluate("getComputedStyle(document.getElementById('moves')).visibility") == "hidden"
    page.uncheck("#hide-answer")
    page.click("#next-item")
    page.wait_for_function("document.getElementById('verdict').dataset.verdict === 'fail'", timeout=30000)
    assert f"value {int(v) + 7:+d}" in page.text_content("#answer-text")


def test_a_sampled_analysis_runs_to_its_end_and_another_is_cancelled(page, board):
    p = Position(FULL)
    view = p.view("b").bpn()  # b's hand shown, a's hidden: sampled
    open_board(page, board, view)
    assert "worlds" in page.text_content("#summary")
    values = page.query_selector_all("#moves [data-value]")
    assert values and all(
        float(v.get_attribute("data-value")) == float(v.get_attribute("data-value")) for v in values
    )
    early = deal(8).view("a").bpn()
    page.fill("input[name=bpn]", early)
    page.click("#show")
    page.wait_for_function("document.getElementById('status').textContent !== 'idle'")
    page.click("#cancel")
    page.wait_for_function("document.getElementById('status').textContent === 'cancelled'")


def test_a_tab_reloaded_or_closed_leaves_no_analysis_running(page, board):
    slow = deal(8).view("a").bpn()
    for _ in range(3):  # (max-running is 2: a leak would refuse the third)
        page.goto(f"{board.url}/?bpn={urllib.parse.quote(slow)}")
        page.wait_for_function("document.getElementById('status').textContent !== 'idle'")
        assert "not started" not in page.text_content("#status")
    page.goto(board.url + "/")  # (leaving the page ends its analysis)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        status, job = board.post("/api/analysis/jobs", {"bpn": FULL})
        if status == 202:
            break
        time.sleep(0.2)
    assert status == 202 and board.wait(job["id"])["state"] == "done"


def test_two_tabs_do_not_disturb_each_other(page, board):
    other = page.context.browser.new_page()
    try:
        slow = deal(8).view("a").bpn()
        other.goto(f"{board.url}/?bpn={urllib.parse.quote(slow)}")
        other.wait_for_function("document.getElementById('status').textContent !== 'idle'")
        open_board(page, board, FULL)  # this tab's analysis ends while the other's runs
        assert page.query_selector_all("#moves [data-move]")
        assert not other.text_content("#status").startswith("cancelled")
        other.click("#cancel")
        other.wait_for_function("document.getElementById('status').textContent === 'cancelled'")
        assert page.text_content("#status").startswith("done")
    finally:
        other.close()


def test_a_bad_position_is_a_clear_message_and_the_page_keeps_working(page, board):
    page.goto(board.url + "/")
    page.fill("input[name=bpn]", "brisque nonsense")
    page.click("#show")
    page.wait_for_selector("#error:not([hidden])")
    assert "bad BPN" in page.text_content("#error")
    page.fill("input[name=bpn]", FULL)
    page.click("#show")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('done')", timeout=30000)
    assert page.is_hidden("#error")


@pytest.mark.slow
def test_the_page_says_what_an_unfinished_solve_knows(page):
    """A whole deal stopped by the board's time limit: the page shows each move's estimate
    as one ("≈"), a bare bound as "at most"/"at least", and the summary says the search did
    not finish; the best moves marked are the answer's, the best estimates."""
    b = Board("--max-seconds", "1")
    try:
        pg = page.context.browser.new_page(viewport={"width": 1280, "height": 800})
        open_board(pg, b, deal(6).bpn())
        summary = pg.text_content("#summary") or ""
        assert "search not finished" in summary and ("≈" in summary or "at most" in summary), summary
        rows = pg.query_selector_all("#moves [data-move]")
        texts = [r.text_content() or "" for r in rows]
        assert texts and all(("≈" in t) or ("at most" in t) or ("at least" in t) for t in texts), texts
        marked = {r.get_attribute("data-move") for r in rows if "best" in (r.get_attribute("class") or "")}
        values = {r.get_attribute("data-move"): int(r.get_attribute("data-value") or 0) for r in rows}
        assert marked == {m for m, v in values.items() if v == max(values.values())}
        pg.close()
    finally:
        b.stop()


def test_the_summary_says_whose_bound_an_unfinished_value_is(page, board):
    """An unfinished answer whose best move is proven at most +190 (its estimate lay above
    it): with another move not proven below +190 the summary says the bound is the best
    move's (the position may be worth more); with every other move proven below, it is the
    position's own bound."""
    p = deal(3)
    while p.trick_number < 12:  # (late enough to solve at once)
        p.push(p.legal_moves()[0])
    open_board(page, board, p.bpn())
    first, second = (str(m) for m in p.legal_moves()[:2])
    answer = {
        "bpn": p.bpn(),
        "turn": "a" if p.turn == 0 else "b",
        "method": "bounded",
        "exact": False,
        "value": 190,
        "bound": "upper",
        "lower": -10000,
        "upper": 10000,
        "best": [first],
        "pv": [first],
        "moves": [
            {"move": first, "value": 190, "exact": False, "lower": -10000, "upper": 190, "bound": "upper"},
            {"move": second, "value": 10, "exact": False, "lower": -10000, "upper": 10000, "bound": None},
        ],
    }
    page.evaluate("answer => import('/static/board.js').then((m) => m.render(answer))", answer)
    summary = page.text_content("#summary") or ""
    assert "at most +190 for the best move" in summary and "≈" not in summary, summary
    answer["upper"] = 190
    answer["moves"][1]["upper"] = 100
    page.evaluate("answer => import('/static/board.js').then((m) => m.render(answer))", answer)
    summary = page.text_content("#summary") or ""
    assert "at most +190 (a proven bound" in summary and "for the best move" not in summary, summary


HIDDEN = "brisque ?6/J.8.K8.KQ 7D 1 AK97.ATKQJ97.A9.AJ987 - b 41:28 tricks=5:4 exchanged=b taken=KD"


@pytest.fixture(scope="module")
def capped_board() -> Iterator[Board]:
    """A board that runs two analyses at once, of 20 seconds at most."""
    b = Board("--max-running", "2", "--max-seconds", "20")
    assert b.url.startswith("http://127.0.0.1:")
    yield b
    b.stop()


def _post(app, path: str, body: bytes) -> tuple[int, dict]:
    """One request to the ASGI application, without a server."""
    sent: list[dict] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:80"), (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    # (in a thread of its own: the browser tests' event loop may be running in this one)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    payload = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(payload)


@pytest.mark.parametrize(
    ("path", "data", "key"),
    [
        ("/api/analysis/jobs", {"bpn": HIDDEN, "sede": 5}, "'sede'"),
        ("/api/analysis/jobs", {"bpn": FULL, "world": 20}, "'world'"),
        ("/api/analysis/play", {"bpn": FULL, "move": "KC", "pov": "a"}, "'pov'"),
    ],
)
def test_an_unknown_key_is_a_400_naming_it(capped_board, path, data, key):
    status, answer = capped_board.post(path, data)
    assert status == 400, answer
    assert f"unknown key {key}" in answer["error"] and "expected the keys 'bpn'" in answer["error"]


def test_seed_is_taken_and_gives_the_cli_answer(brisque, capped_board, tmp_path):
    import json

    status, job = capped_board.post("/api/analysis/jobs", {"bpn": HIDDEN, "worlds": 20, "seed": 5})
    assert status == 202, job
    done = capped_board.wait(job["id"])
    assert done["state"] == "done", done
    r = brisque("analyse", HIDDEN, "--worlds", "20", "--seed", "5", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    cli = json.loads(r.stdout)
    assert done["answer"]["value"] == cli["value"] and done["answer"]["seed"] == 5 == cli["seed"]


@pytest.mark.parametrize("seed", [-1, 2**63, "5", 1.5, True])
def test_a_bad_seed_is_a_400_naming_it(capped_board, seed):
    status, answer = capped_board.post("/api/analysis/jobs", {"bpn": HIDDEN, "seed": seed})
    assert status == 400 and answer["error"].startswith("seed=") and "from 0 to" in answer["error"], answer


@pytest.mark.parametrize("key", ["worlds", "seed"])
def test_worlds_or_seed_with_every_card_known_is_refused(capped_board, key):
    status, answer = capped_board.post("/api/analysis/jobs", {"bpn": FULL, key: 20})
    assert status == 400, answer
    assert answer["error"].startswith(f"{key}=20: every card of this position is known"), answer


def test_the_page_sends_only_bpn_to_analyses():
    """The page's own request: refusing worlds on an exact position cannot break it."""

    js = (ROOT / "solver/board/static/board.js").read_text()
    assert 'api("POST", "/api/analysis/jobs", { bpn })' in js


def test_the_board_names_only_the_analysis_argument_that_is_wrong():
    pytest.importorskip("starlette")

    board = Board()
    try:
        hidden = "brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1"
        # said "worlds=200, seconds='x': expected numbers", quoting a default never given
        status, answer = board.post("/api/analysis/jobs", {"bpn": hidden, "seconds": "x"})
        assert status == 400 and answer["error"] == "seconds='x': expected a number of seconds"
        status, answer = board.post("/api/analysis/jobs", {"bpn": hidden, "worlds": 1.5})
        assert status == 400 and answer["error"] == "worlds=1.5: expected a whole number of worlds"
    finally:
        board.stop()


def test_the_board_loads_the_good_lines_of_a_file_with_a_bad_byte():
    # POST /api/analysis/load refused the whole file ("the file is not UTF-8 text (...)", 400) for
    # one bad byte, where brisque puzzles reports that line and runs the others, and the
    # docs say "a bad record is listed and the others load"
    pytest.importorskip("starlette")
    from solver.board.app import create_app

    good = (POSITIONS / "petite-deals.bpd").read_bytes()
    body = (
        "\ufeff".encode() + b'petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ; id "caf\xe9"\n' + good
    )
    status, answer = _post(create_app(), "/api/analysis/load", body)
    assert status == 200, answer
    assert len(answer["items"]) == 10
    assert answer["errors"] == ["line 1: the line is not UTF-8 text (invalid continuation byte at byte 67)"]


def test_the_board_still_reads_a_file_that_starts_with_a_byte_order_mark():
    pytest.importorskip("starlette")
    from solver.board.app import create_app

    body = "\ufeff".encode() + b'petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ; id "one"\n'
    status, answer = _post(create_app(), "/api/analysis/load", body)
    assert status == 200 and answer == {
        "items": [{"name": "one", "bpns": ["petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3"]}],
        "errors": [],
    }


def test_the_address_printed_answers_at_once() -> None:
    # (a client that reads the address and connects straight away, without retrying)
    process = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "serve", "--no-browser", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=AWAY,
    )
    try:
        assert process.stderr is not None
        found = re.search(r"http://127\.0\.0\.1:\d+/", process.stderr.readline())
        assert found
        url = found.group(0) + "api/position?" + urllib.parse.urlencode({"bpn": FULL})
        with urllib.request.urlopen(url, timeout=60) as res:
            assert res.status == 200
    finally:
        process.terminate()
        process.wait(timeout=30)
