"""Defects found by a card player and puzzle composer trying the command line and the board
as a new user (fourth round), each with the input that showed it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

BRISQUE = [sys.executable, "-m", "solver.cli"]
OUTSIDE = tempfile.gettempdir()  # (run from the checkout, python -m would find its unbuilt source first)
ROOT = Path(__file__).resolve().parent.parent
FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to move, worth 44
FULL_DISK = "/dev/full"  # (Linux: every write fails with ENOSPC)


def brisque(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=OUTSIDE, **kw)


# ---- a write that fails: an error in words, not a traceback

needs_full_disk = pytest.mark.skipif(not os.path.exists(FULL_DISK), reason="no /dev/full here")


@needs_full_disk
@pytest.mark.parametrize(
    "args, words",
    [
        (["tree", FP, "-o", FULL_DISK], "cannot write the tree to '/dev/full': No space left on device"),
        (["show", FP, "--svg", "-o", FULL_DISK], "cannot write the diagram to '/dev/full': No space left"),
    ],
)
def test_an_output_file_on_a_full_disk_is_an_error_naming_it(args, words):
    # tree -o /dev/full and show --svg -o /dev/full died with "OSError: [Errno 28]" and a traceback
    res = brisque(*args)
    assert res.returncode == 1, res.stderr
    assert "Traceback" not in res.stderr and words in res.stderr


@needs_full_disk
@pytest.mark.parametrize(
    "args",
    [
        ["solve", FP],
        ["tree", FP, "--format", "dot"],
        ["puzzles", str(ROOT / "positions" / "petite-deals.bpd")],
        ["deal", "--seed", "1"],
    ],
)
def test_standard_output_on_a_full_disk_is_an_error_not_a_traceback(args):
    # brisque solve BPN > /dev/full (a full disk) was a traceback ending in OSError
    with open(FULL_DISK, "w") as full:
        res = subprocess.run(
            [*BRISQUE, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120, cwd=OUTSIDE
        )
    assert res.returncode == 1
    assert "Traceback" not in res.stderr
    assert "Error: cannot write the output: No space left on device" in res.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["puzzles", str(ROOT / "positions" / "petite-deals.bpd")],
        ["solve", FP],
        ["tree", FP, "--format", "dot"],
        ["solve", "-"],
    ],
)
def test_a_reader_that_went_away_ends_the_command_as_sigpipe_does(args):
    # brisque puzzles FILE | head -1 exited 1 (click's status for a closed pipe), which this
    # command uses for a failed puzzle: a script with pipefail took the puzzles for failed.
    # A pipe whose reading end is closed before the command starts makes it deterministic.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        res = subprocess.run(
            [*BRISQUE, *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            input=FP + "\n" if args[-1] == "-" else None,
            text=True,
            timeout=120,
            cwd=OUTSIDE,
        )
    finally:
        os.close(write_end)
    assert res.returncode == 128 + 13, res.stderr  # (128 + SIGPIPE, as `yes | head` ends)
    assert res.stderr == ""  # (quiet: no traceback, no "Exception ignored" at exit)


# ---- brisque deal --json


@pytest.mark.parametrize(
    "args, view",
    [
        (["--seed", "7", "--at", "11"], None),
        (["--seed", "7", "--rules", "briscan(target=300)", "--view", "turn"], "a"),
        (["--seed", "3", "--rules", "petite", "--at", "4", "--view", "b"], "b"),
    ],
)
def test_deal_answers_in_json_as_the_other_commands_do(args, view):
    # brisque deal had no --json ("No such option '--json'"), unlike every query command
    plain = brisque("deal", *args)
    res = brisque("deal", *args, "--json")
    assert res.returncode == 0 and plain.returncode == 0, res.stderr
    answer = json.loads(res.stdout)
    assert answer["bpn"] == plain.stdout.strip()
    assert answer["seed"] == int(args[1]) and answer["view"] == view
    at = int(args[args.index("--at") + 1]) if "--at" in args else 1
    assert answer["trick"] == at
    shown = json.loads(brisque("show", answer["bpn"], "--json").stdout)
    assert answer["turn"] == shown["turn"] and answer["trick"] == shown["trick"]
    rules = args[args.index("--rules") + 1] if "--rules" in args else "brisque"
    assert answer["rules"] == rules and answer["bpn"].startswith(rules + " ")


def test_deal_json_error_is_an_object_too():
    res = brisque("deal", "--seed", "1", "--at", "17", "--json")  # (past any deal: the option's range)
    assert res.returncode == 2
    assert json.loads(res.stdout) == {
        "error": "Invalid value for '--at': '17' is not a whole number from 1 to 16"
    }
    res = brisque("deal", "--seed", "1", "--at", "6", "--rules", "petite", "--json")
    assert res.returncode == 2
    assert json.loads(res.stdout) == {"error": "--at 6: a deal of petite has 5 tricks"}


# ---- brisque puzzles --json: an unreadable record says where it is


def test_an_unreadable_record_gives_its_source_in_json(tmp_path):
    # {"ok": false, "error": ...} had the file and line only inside the message, so that a
    # script could not line it up with the records as it can the others (their "source")
    path = tmp_path / "mine.bpd"
    path.write_bytes(
        b"# composed\n"
        + FP.encode()
        + b' ; id "one" ; v 44\n'
        + FP.encode()
        + b' ; id "two" ; v x\n'
        + FP.encode()
        + b' ; id "caf\xe9" ; v 44\n'
        + FP.encode()
        + b' ; id "four" ; v 44\n'
    )
    res = brisque("puzzles", str(path), "--json")
    assert res.returncode == 1
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r.get("source") for r in rows[:-1]] == [f"{path}:{n}" for n in (2, 3, 4, 5)]
    assert [r["ok"] for r in rows[:-1]] == [True, False, False, True]
    assert "v 'x'" in rows[1]["error"] and "not UTF-8" in rows[2]["error"]
    assert rows[-1] == {
        "summary": True,
        "solved": 2,
        "total": 4,
        "unchecked": 0,
        "failed": 0,
        "unreadable": 2,
    }


# ---- the board: a bad byte in an uploaded file costs its line, not the file


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
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    payload = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(payload)


def test_the_board_loads_the_good_lines_of_a_file_with_a_bad_byte():
    # POST /api/load refused the whole file ("the file is not UTF-8 text (...)", 400) for
    # one bad byte, where brisque puzzles reports that line and runs the others, and the
    # docs say "a bad record is listed and the others load"
    pytest.importorskip("starlette")
    from solver.board.app import create_app

    good = (ROOT / "positions" / "petite-deals.bpd").read_bytes()
    body = (
        "\ufeff".encode() + b'petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ; id "caf\xe9"\n' + good
    )
    status, answer = _post(create_app(), "/api/load", body)
    assert status == 200, answer
    assert len(answer["items"]) == 10
    assert answer["errors"] == ["line 1: the line is not UTF-8 text (invalid continuation byte at byte 67)"]


def test_the_board_still_reads_a_file_that_starts_with_a_byte_order_mark():
    pytest.importorskip("starlette")
    from solver.board.app import create_app

    body = "\ufeff".encode() + b'petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ; id "one"\n'
    status, answer = _post(create_app(), "/api/load", body)
    assert status == 200 and answer == {
        "items": [{"name": "one", "bpns": ["petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3"]}],
        "errors": [],
    }
