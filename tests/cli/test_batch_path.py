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

import solver
from solver.analysis.batch_solve import solve_line
from solver.errors import ArgumentTypeError
from solver.model.ranges import (
    MAX_LINE_BYTES,
)
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


FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to move, worth 44


GOOD_KD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


@pytest.mark.parametrize("one", [FP, solver.Position(FP)])
def test_a_batch_of_one_position_not_in_a_list_is_refused(one):
    # solve_batch(bpn) read the string a character at a time: "bad BPN 'b'"
    with pytest.raises(ArgumentTypeError, match=r"expected a list of Positions or BPN strings, not one"):
        solver.solve_batch(one)
    with pytest.raises(ArgumentTypeError, match="give \\[position\\]"):
        solver.Solver().batch_values(one)
    with pytest.raises(ArgumentTypeError, match="positions=None"):
        solver.solve_batch(None)
    assert solver.solve_batch([one]) == [44]


def test_a_batch_with_other_rules_names_the_position():
    # "position rules petite differ from this solver's brisque" did not say which position
    from solver.engine.solving import Solver
    from solver.errors import PositionError
    from solver.play.dealing import deal

    other = deal(2, "petite").bpn()
    with pytest.raises(PositionError) as err:
        Solver("brisque").batch_values([deal(1, "brisque").bpn(), other])
    assert "position 2 of the batch" in str(err.value) and other[:20] in str(err.value)


@pytest.mark.parametrize("command", ["solve", "analyse"])
@pytest.mark.parametrize("text", ["", "# only a comment\n\n"], ids=["empty", "comments"])
def test_a_batch_with_no_positions_says_so(brisque, command, text):
    # `brisque solve - < /dev/null` was silent
    r = brisque(command, "-", input=text)
    assert r.returncode == 0 and r.stdout == ""
    assert "no positions read from standard input" in r.stderr


def test_a_bad_line_of_a_batch_gets_its_error_and_the_rest_run(brisque, tmp_path):
    lines = [
        GOOD_KD + " final=2147483648:0",
        GOOD_KD + " declared=2147483648",
        GOOD_KD.replace("brisque", "brisque(game=petite)", 1),
        GOOD_KD.replace("52:35", "9" * 4300 + ":35"),
        GOOD_KD + " \xe9",
        GOOD_KD,
    ]
    data = "\n".join(lines).encode("utf-8")
    data = data.replace("\xe9".encode(), b"\xe9")  # a latin-1 byte: not UTF-8
    res = brisque.raw("solve", "-", cwd=tmp_path, stdin=data)
    out = [json.loads(line) for line in res.stdout.decode().splitlines()]
    assert res.returncode == 1 and b"Traceback" not in res.stderr
    assert len(out) == 6 and ["error" in o for o in out] == [True] * 5 + [False]
    assert "out of range" in out[0]["error"] and "out of range" in out[1]["error"]
    assert "unknown option 'game'" in out[2]["error"] and "out of range" in out[3]["error"]
    assert "not UTF-8" in out[4]["error"] and out[5]["value"] == -4


def test_a_batch_of_many_rule_sets_runs_in_bounded_memory(tmp_path):
    board = GOOD_KD.split(" ", 1)[1]
    lines = [f"brisque(exchange_points={n}) {board}" for n in range(1, 21)]
    probe = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run([sys.executable, '-m', 'solver.cli', 'solve', '-', '--json'],"
        " input=sys.stdin.buffer.read(), capture_output=True)\n"
        "assert r.returncode == 0, r.stderr\n"
        "print(len(r.stdout.splitlines()), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], input="\n".join(lines).encode(), capture_output=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    answered, peak_kb = map(int, done.stdout.split())
    assert answered == 20
    # one solver per rule set kept them all: 37 MB each, 740 MB for these 20 lines
    assert peak_kb < 400_000
