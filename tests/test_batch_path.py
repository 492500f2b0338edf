"""``brisque solve -``, the batch path: each answer as soon as its line is read, in order
with the lines that fail (bad BPNs, bytes that are not UTF-8, impossible positions)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from solver.analysis.batch import solve_line
from solver.model.limits import MAX_LINE_BYTES
from solver.play.dealing import random_position

AWAY = tempfile.mkdtemp(prefix="brisque-batch-")
BRISQUE = str(Path(sys.executable).parent / "brisque")


def test_an_answer_comes_before_the_input_ends():
    """A coprocess writes a line and waits for its answer: it must not wait for EOF."""
    p = random_position(3, "brisque", 13)
    proc = subprocess.Popen(
        [BRISQUE, "solve", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=AWAY
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(p.bpn() + "\n")
    proc.stdin.flush()
    t = time.monotonic()
    answer = json.loads(proc.stdout.readline())  # (blocks until the answer is written)
    assert answer["bpn"] == p.bpn() and "value" in answer
    assert time.monotonic() - t < 60
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0


def test_failed_lines_keep_their_place():
    good = [random_position(s, "brisque", 13).bpn() for s in (1, 2)]
    impossible = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 tricks=9:9"
    data = (
        f"{good[0]}\n# a comment\n\nbrisque x\n".encode()
        + b"\xff\xfe\n"
        + f"{impossible}\n{good[1]}\n".encode()
    )
    out = subprocess.run([BRISQUE, "solve", "-"], input=data, capture_output=True, cwd=AWAY)
    assert out.returncode == 1 and b"Traceback" not in out.stderr
    rows = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert [r["bpn"] for r in rows][0] == good[0] and rows[-1]["bpn"] == good[1]
    assert "error" in rows[1] and "expected 8 fields" in rows[1]["error"]
    assert "not UTF-8" in rows[2]["error"]
    assert rows[3]["error"].startswith(f"impossible position {impossible!r}")
    assert b"3 lines could not be solved" in out.stderr


def test_solve_line_refuses_hidden_cards_and_says_so():
    text, ok = solve_line(random_position(2, "brisque", 5).view(0).bpn())
    assert not ok and "hidden cards" in json.loads(text)["error"]


def _read_line_within(stream, seconds: float) -> str | None:
    """The next line of ``stream`` if it comes within ``seconds``, else None."""
    import select

    ready, _, _ = select.select([stream], [], [], seconds)
    return stream.readline() if ready else None


def test_a_quick_answer_is_not_held_back_by_a_slow_line_after_it():
    """Answers are kept and written a block of input at a time, but never behind a slow
    solve: a file of a final-phase line then a whole deal (about half a minute) gives the
    first answer at once."""
    quick = random_position(1, "brisque", 11).bpn()
    slow = random_position(23, "brisque", 1).bpn()
    proc = subprocess.Popen(
        [BRISQUE, "solve", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=AWAY
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(f"{quick}\n{slow}\n")
        proc.stdin.close()
        first = _read_line_within(proc.stdout, 10)
        assert first is not None and json.loads(first)["bpn"] == quick
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_a_coprocess_gets_the_error_of_a_line_that_is_not_utf8_at_once():
    good = random_position(3, "brisque", 13).bpn()
    proc = subprocess.Popen([BRISQUE, "solve", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=AWAY)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"\xff\xfe\n")
        proc.stdin.flush()
        first = _read_line_within(proc.stdout, 30)
        assert first is not None and b"not UTF-8" in first
        proc.stdin.write(good.encode() + b"\n")
        proc.stdin.flush()
        second = _read_line_within(proc.stdout, 60)
        assert second is not None and json.loads(second)["bpn"] == good
        proc.stdin.close()
        assert proc.wait(timeout=60) == 1  # (a line failed)
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_solve_line_keeps_the_python_paths_words_on_odd_lines():
    base = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    text, ok = solve_line(base + " void=a:\udc80")  # (a lone surrogate: not even encodable)
    assert not ok and "bad optional field" in json.loads(text)["error"]
    text, ok = solve_line(base, budget={"nodes": None, "seconds": None, "depth": 0, "quick": False})
    assert not ok and "depth=0" in json.loads(text)["error"]


def test_a_long_rules_text_is_solved_not_an_internal_error():
    rules = "brisque(target=300,exchange_points=10,quartet_win=deal,final_declarations=no,one_declaration_per_turn=yes,final_follow=follow)"
    text, ok = solve_line(f"{rules} AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
    assert "internal error" not in text
    assert ok, text


GOOD = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


@pytest.mark.parametrize("command", ["solve", "analyse"])
def test_a_line_of_megabytes_gets_a_short_error_and_the_next_line_its_answer(command):
    """A 50 MB line took 310 MB and its error echoed it whole: it is read in bounded
    memory, quoted cut short with its length, and the lines after it are answered."""
    long_line = "brisque " + "K" * 5_000_000
    data = f"{long_line}\n{GOOD}\n".encode()
    out = subprocess.run([BRISQUE, command, "-"], input=data, capture_output=True, cwd=AWAY, timeout=120)
    assert out.returncode == 1 and b"Traceback" not in out.stderr, out.stderr
    lines = out.stdout.decode().splitlines()
    assert len(lines) == 2
    assert len(lines[0]) < 1000, len(lines[0])
    error = json.loads(lines[0])
    assert error["error"].startswith(
        f"line 1 is too long: 'brisque KKKKKKKKKKK...KKKKKKKKKKKKKKKKKKK' ({len(long_line)} bytes), "
        f"more than the {MAX_LINE_BYTES} bytes a line may have"
    ), error
    assert error["bpn"].startswith("brisque KKK") and "..." in error["bpn"]
    answer = json.loads(lines[1])
    assert answer["bpn"] == GOOD and answer["value"] == 44


def test_the_longest_line_is_read_whole_and_a_longer_comment_is_skipped():
    at_most = "brisque " + "K" * (MAX_LINE_BYTES - len("brisque "))  # (a line of just the limit)
    comment = "# " + "x" * (2 * MAX_LINE_BYTES)
    one_more = at_most + "K"
    data = f"{at_most}\n{comment}\n{one_more}\n{GOOD}\n".encode()
    out = subprocess.run([BRISQUE, "solve", "-"], input=data, capture_output=True, cwd=AWAY, timeout=120)
    rows = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert len(rows) == 3, rows
    assert "too long" not in rows[0]["error"] and "expected 8 fields" in rows[0]["error"]
    assert rows[1]["error"].startswith("line 3 is too long:")
    assert f"({MAX_LINE_BYTES + 1} bytes)" in rows[1]["error"]
    assert rows[2]["value"] == 44
