"""Ctrl-C with worker processes keeps what was finished, as with one process, and never
prints a traceback (``match``, ``analyse``, ``solve -`` with ``--workers 2``; ``puzzles``
ends with the summary so far).  Each test runs the real command and sends SIGINT to it
alone, as the terminal does to the whole group: the workers ignore it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from helpers import BRISQUE, OUTSIDE, POSITIONS, communicate_or_kill, interrupt_after

from solver.formats.bpd import parse_record

HIDDEN = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def start(args: list[str], **kw) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*BRISQUE, *args], cwd=OUTSIDE, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw
    )


def interrupt(proc: subprocess.Popen[str], timeout: float = 20) -> tuple[str, str]:
    """SIGINT to ``proc``; what it writes after what was read (read through the pipes' own
    buffers: ``communicate`` would skip what a ``readline`` had buffered)."""
    assert proc.stdout is not None and proc.stderr is not None
    proc.send_signal(signal.SIGINT)
    texts: dict[str, str] = {}
    readers = [
        threading.Thread(target=lambda k=k, f=f: texts.__setitem__(k, f.read()), daemon=True)
        for k, f in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for t in readers:
        t.start()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("the command did not end after Ctrl-C")
    for t in readers:
        t.join(timeout=5)
    assert set(texts) == {"out", "err"}, "a pipe left open after the command ended (a worker alive?)"
    out, err = texts["out"], texts["err"]
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "InvalidStateError" not in err, err
    return out, err


def wait_for(check, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "no progress in time"
        time.sleep(0.05)


@pytest.mark.slow
def test_ctrl_c_on_a_match_with_workers_keeps_the_pairs_played(tmp_path):
    for attempt in range(3):  # (the defect was a race: several times)
        records = tmp_path / f"records{attempt}.jsonl"
        proc = start(
            ["match", "pimc:2", "greedy", "--deals", "20", "--workers", "2", "--records", str(records)]
        )
        # one deal pair (two records) written: it must be counted in the summary
        wait_for(lambda records=records: records.exists() and len(records.read_text().splitlines()) >= 2)
        out, err = interrupt(proc)
        m = re.search(r"interrupted after (\d+) of 20 deal pairs", err)
        assert m and int(m.group(1)) >= 1, err
        assert "mean margin" in out


@pytest.mark.slow
def test_ctrl_c_on_analyse_with_workers_gives_the_worlds_solved():
    for _ in range(2):
        proc = start(["analyse", HIDDEN, "--worlds", "100000", "--workers", "2", "--json"])
        time.sleep(4)  # (a task is at most 20 worlds: some hundreds are solved by then)
        out, _ = interrupt(proc)
        answer = json.loads(out)
        assert answer.get("stopped") == "interrupted", out
        assert answer["worlds"] > 0


def test_ctrl_c_on_a_batch_with_workers_keeps_the_quick_answers():
    """A chunk of quick lines before a long solve: its answers go out before the long one."""
    quick = [
        "brisque 7.7.8./J9..9. C 0 ATKQ8.ATKQJ98.ATKQJ7.ATKQJ987 - a 68:50 tricks=9:4 "
        "final=2:1 exchanged=a void=b:H taken=TC"
    ] * 150
    whole = "brisque 8.J9.8.Q9/AKQ.8.J7. TC KHTD7SKDKCTSQHQDADTHAHJSAC9S7C8CJC9D7H - - a 0:0"
    for _ in range(2):
        proc = start(["solve", "-", "--workers", "2"], stdin=subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("\n".join([*quick, whole, whole]) + "\n")
        proc.stdin.close()
        proc.stdin = None  # (communicate: nothing more to send)
        got = [proc.stdout.readline() for _ in range(150)]  # (written while the deals are solved)
        assert all(json.loads(line)["value"] == 6 for line in got)
        out, err = interrupt(proc)
        assert out == "", out  # (the whole deals were not finished)
        assert "interrupted" in err


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_on_puzzles_prints_the_summary_so_far(tmp_path, as_json):
    text = (POSITIONS / "brisque-endgames.bpd").read_text()
    text += (POSITIONS / "hidden-cards.bpd").read_text()
    big = tmp_path / "big.bpd"
    big.write_text(text * 20)
    proc = start(["puzzles", str(big), *(["--json"] if as_json else [])])
    assert proc.stdout is not None
    first = proc.stdout.readline()  # (a record checked)
    assert first
    out, err = interrupt(proc)
    lines = [first, *out.splitlines()]
    m = re.search(r"interrupted after (\d+) records? of (\d+)", err)
    assert m, err
    done = int(m.group(1))
    assert len(lines) == done + 1  # every record checked, then the summary
    if as_json:
        summary = json.loads(lines[-1])
        assert summary["summary"] is True and summary["interrupted"] is True
        assert summary["total"] + summary["unchecked"] == done
        assert summary["total"] == summary["solved"] + summary["failed"] + summary["unreadable"]
        assert "error" not in summary
    else:
        assert re.fullmatch(r"\d+ of \d+ solved so far.*", lines[-1]), lines[-1]


@pytest.mark.slow
def test_workers_ignore_ctrl_c_and_end_with_the_command():
    """SIGINT to the whole group (a terminal's Ctrl-C): the parent alone decides, and no
    worker outlives it."""
    proc = start(
        ["analyse", HIDDEN, "--worlds", "100000", "--workers", "2", "--json"], start_new_session=True
    )
    time.sleep(3)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the command did not end after Ctrl-C")
    assert proc.returncode == 130
    assert "Traceback" not in err, err
    assert json.loads(out).get("worlds", 0) > 0, out
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # (no process left in its group)
        os.killpg(proc.pid, 0)


def test_tree_reports_its_progress_and_says_how_long_it_takes():
    from solver.analysis.tree import solution_tree

    seen: list[tuple[int, int]] = []
    g = solution_tree(
        "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35",
        depth=2,
        progress=lambda solved, nodes: seen.append((solved, nodes)),
    )
    assert seen[0] == (0, 1) and [s for s, _ in seen] == list(range(len(seen)))
    assert len(seen) == 1 + g.out_degree(g.graph["root"])  # the root, then each child
    help_text = subprocess.run(
        [*BRISQUE, "tree", "--help"], cwd=OUTSIDE, text=True, capture_output=True, timeout=20
    ).stdout
    assert "minutes a position" in help_text and "--quiet" in help_text


def test_tree_shows_progress_on_a_terminal():
    import pty

    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [
                *BRISQUE,
                "tree",
                "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35",
                "--format",
                "json",
            ],
            cwd=OUTSIDE,
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=20,
        )
        os.close(follower)
        follower = -1
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
        if follower >= 0:
            os.close(follower)
    assert proc.returncode == 0 and json.loads(proc.stdout)
    assert b"solving position 1 (1 position in the tree so far)" in shown


@pytest.mark.slow
def test_a_command_started_with_sigint_ignored_keeps_ignoring_it():
    """A background job of a script starts with SIGINT ignored: Ctrl-C in the terminal is not
    for it. SIGTERM still ends it with the answer so far (status 143)."""

    def ignore_sigint() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    proc = start(["match", "greedy", "random", "--deals", "100000", "--json"], preexec_fn=ignore_sigint)
    try:
        time.sleep(2.0)  # (started, and playing)
        proc.send_signal(signal.SIGINT)
        time.sleep(1.0)
        assert proc.poll() is None, "SIGINT ended a command that was started with it ignored"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    assert json.loads(out)["deals"] > 0


EARLY = "brisque ?6/T.TJ9.9.K QC 15 ..TKQJ. - b 0:19 tricks=0:2"  # b's view at trick 3


VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"  # a's view at trick 4


def _stray(marker: str) -> list[int]:
    """Processes whose command line holds ``marker`` (this one's children included)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


@pytest.mark.slow
def test_ctrl_c_before_the_first_world_does_not_wait_for_the_workers():
    # with --workers 2, Ctrl-C before any world was solved printed "interrupted" and then
    # waited for every queued task of the workers (which ignore Ctrl-C): minutes here
    status, out, err, seconds = interrupt_after(
        ["analyse", EARLY, "--world-search", "exact", "--worlds", "1000", "--workers", "2"], after=2.0
    )
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    assert seconds < 10


@pytest.mark.slow
def test_ctrl_c_before_the_first_deal_pair_does_not_wait_for_the_workers():
    # the same in brisque match: the orderly shutdown waited for every pair queued
    status, out, err, seconds = interrupt_after(
        ["match", "pimc:3000", "pimc:3000", "--deals", "6", "--workers", "2"], after=2.0
    )
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    assert seconds < 10


@pytest.mark.slow
def test_ctrl_c_stops_a_batch_of_sampled_analyses():
    # analyse - printed the interrupted line's answer so far, then went on with the next
    # lines and exited 0, as if nothing had happened
    lines = "\n".join([EARLY] * 4) + "\n"
    status, out, err, _ = interrupt_after(
        ["analyse", "-", "--worlds", "100000", "--seconds", "1.5"], after=2.5, stdin=lines
    )
    answers = [json.loads(line) for line in out.splitlines()]
    assert status == 130 and "Traceback" not in err, err
    assert answers and answers[-1]["stopped"] == "interrupted"
    assert len(answers) < 4 and all(a["stopped"] == "time" for a in answers[:-1])


@pytest.mark.slow
def test_ctrl_c_during_a_sampled_puzzle_is_not_a_verdict():
    # puzzles judged the interrupted record on its worlds so far ("ok"), then sampled the
    # next records in full and exited 0
    with tempfile.NamedTemporaryFile("w", suffix=".bpd", delete=False) as f:
        for i in range(3):
            f.write(f'{EARLY} ; id "h{i}" ; bm 9H ; worlds 100000 ; seed 1\n')
    try:
        status, out, err, _ = interrupt_after(["puzzles", f.name], after=2.0)
    finally:
        os.unlink(f.name)
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    assert "solved" not in out and not out.startswith("ok")


def test_an_interrupted_sampling_raises_in_check_record(monkeypatch):
    from solver.analysis import puzzles

    real = puzzles.analyse

    def interrupted_analyse(*args, **kw):
        a = real(*args, **{**kw, "worlds": 10})
        a.stopped = "interrupted"
        return a

    monkeypatch.setattr(puzzles, "analyse", interrupted_analyse)
    with pytest.raises(KeyboardInterrupt):
        puzzles.check_record(parse_record(f'{VIEW} ; id "x" ; bm 9H'))


@pytest.mark.slow
def test_ctrl_c_ends_a_match_of_pimc_in_one_process():
    # each decision of pimc:5000 takes seconds: Ctrl-C used to end that decision only
    # (the answer so far), and the match went on
    proc = subprocess.Popen(
        [*BRISQUE, "match", "pimc:5000", "greedy", "--deals", "3", "--json", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
    )
    time.sleep(4)
    assert proc.poll() is None  # (still playing its first deal)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the match went on after Ctrl-C")
    assert proc.returncode == 130 and "interrupted" in err


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("command", ["match", "analyse"])
def test_workers_end_with_their_parent_on_sigterm(tmp_path, command):
    seed = str(900_000_000 + os.getpid() % 1000 + (0 if command == "match" else 1))  # a marker
    if command == "match":
        args = ["match", "pimc:4", "greedy", "--deals", "200", "--seed", seed, "--workers", "2"]
        args += ["--records", str(tmp_path / "m.jsonl")]
    else:
        view = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
        args = ["analyse", view, "--worlds", "10000000", "--workers", "2", "--seed", seed, "--quiet"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.time() + 30
    while len(_stray(seed)) < 3 and time.time() < deadline:  # the parent and two workers
        time.sleep(0.1)
    records, started = tmp_path / "m.jsonl", time.time()
    while time.time() < started + 60:  # some work done: a deal pair, or a few seconds of sampling
        if command == "match" and records.exists() and records.read_text().count("\n") >= 2:
            break
        if command == "analyse" and time.time() > started + 4:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    out, err = communicate_or_kill(proc, 30)
    assert proc.returncode == 128 + signal.SIGTERM and b"Traceback" not in err
    deadline = time.time() + 5
    while _stray(seed) and time.time() < deadline:
        time.sleep(0.1)
    assert _stray(seed) == []
    if command == "match":  # the pairs played so far: written, and summed up
        kept = (tmp_path / "m.jsonl").read_text().splitlines()
        assert kept and len(kept) % 2 == 0
        assert b"interrupted after" in err and b"deal pair" in out  # ("1 deal pair" or "N deal pairs")
    else:  # the answer so far
        assert b"worlds" in out


@pytest.mark.slow
def test_ctrl_c_ends_a_sampling_run_with_workers_at_once(tmp_path):
    view = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
    args = ["analyse", view, "--worlds", "10000000", "--workers", "2", "--quiet"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(4)
    sent = time.time()
    proc.send_signal(signal.SIGINT)
    out, err = communicate_or_kill(proc, 60)
    assert time.time() - sent < 5  # (it took 6 to 9 s, waiting for the workers' tasks)
    assert proc.returncode == 130 and b"Traceback" not in err and b"worlds" in out
