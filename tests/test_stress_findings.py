"""The defects a stress run and a new user found (issue 14), kept as regression tests.

Each test failed on the code before its fix: lost batches, stray worker processes, records
lost on an interrupt, numbers that overflowed deep in the engine, and checks that let bad
input through.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.errors import BPNError, PuzzleError, RulesError
from solver.formats.bpd import parse_record, read_bpd
from solver.model.position import Position
from solver.model.rules import Rules

GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


def cli(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "solver.cli", *args], capture_output=True, cwd=cwd, input=stdin
    )


# ---------------------------------------------------------------- lost data, stray processes
def test_a_bad_line_of_a_batch_gets_its_error_and_the_rest_run(tmp_path):
    lines = [
        GOOD + " final=2147483648:0",
        GOOD + " declared=2147483648",
        GOOD.replace("brisque", "brisque(game=petite)", 1),
        GOOD.replace("52:35", "9" * 4300 + ":35"),
        GOOD + " \xe9",
        GOOD,
    ]
    data = "\n".join(lines).encode("utf-8")
    data = data.replace("\xe9".encode(), b"\xe9")  # a latin-1 byte: not UTF-8
    res = cli("solve", "-", cwd=tmp_path, stdin=data)
    out = [json.loads(line) for line in res.stdout.decode().splitlines()]
    assert res.returncode == 1 and b"Traceback" not in res.stderr
    assert len(out) == 6 and ["error" in o for o in out] == [True] * 5 + [False]
    assert "out of range" in out[0]["error"] and "out of range" in out[1]["error"]
    assert "unknown option 'game'" in out[2]["error"] and "out of range" in out[3]["error"]
    assert "not UTF-8" in out[4]["error"] and out[5]["value"] == -4


def test_puzzle_files_answer_every_good_record(tmp_path):
    bpd = tmp_path / "mixed.bpd"
    bpd.write_bytes(
        b"\xef\xbb\xbf"
        + GOOD.encode()
        + b" ; v -4\n"  # a byte-order mark first
        + GOOD.encode()
        + b' ; id "caf\xe9"\n'  # latin-1
        + GOOD.replace("brisque", "brisque(game=petite)", 1).encode()
        + b" ; v -4\n"
        + GOOD.encode()
        + b" ; ev nan\n"
        + GOOD.encode()
        + b" ; ev inf ; evtol inf\n"
        + GOOD.encode()
        + b" ; bm 9S\n"
    )
    items = read_bpd(str(bpd))
    assert [type(i).__name__ for i in items] == [
        "Record",
        "PuzzleError",
        "PuzzleError",
        "PuzzleError",
        "PuzzleError",
        "Record",
    ]
    assert "not UTF-8" in str(items[1]) and "finite" in str(items[3]) and "finite" in str(items[4])
    res = cli("puzzles", str(bpd), cwd=tmp_path)
    assert res.returncode == 1 and b"Traceback" not in res.stderr
    assert b"2/6 solved" in res.stdout


def test_an_empty_puzzle_file_is_an_error(tmp_path):
    empty = tmp_path / "empty.bpd"
    empty.write_text("# nothing here\n")
    res = cli("puzzles", str(empty), cwd=tmp_path)
    assert res.returncode == 2 and b"no puzzle records" in res.stderr and b"Traceback" not in res.stderr


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
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM and b"Traceback" not in err
    deadline = time.time() + 5
    while _stray(seed) and time.time() < deadline:
        time.sleep(0.1)
    assert _stray(seed) == []
    if command == "match":  # the pairs played so far: written, and summed up
        kept = (tmp_path / "m.jsonl").read_text().splitlines()
        assert kept and len(kept) % 2 == 0
        assert b"interrupted after" in err and b"deal pairs" in out
    else:  # the answer so far
        assert b"worlds" in out


# ---------------------------------------------------------------- numbers and checks
@pytest.mark.parametrize("text", ["brisque(game=petite)", "brisque(cls=1)", "briscan(game=brisque)"])
def test_a_rules_option_named_like_a_parameter_is_an_unknown_option(text):
    with pytest.raises(RulesError, match="unknown option"):
        Rules.parse(text)


@pytest.mark.parametrize(
    "bpn, field",
    [
        (GOOD + " final=2147483648:0", "final"),
        (GOOD + " declared=2147483648", "declared"),
        (GOOD + " tricks=17:0", "tricks"),
        (GOOD.replace("52:35", "9" * 4300 + ":35"), "score"),
        (GOOD.replace("52:35", "20000:20"), "score"),
        (GOOD.replace("AK9.97..9", "AK9.97..9+?" + "9" * 4300), "hand"),
        (GOOD + " game=" + "9" * 30 + ":0", "game"),
    ],
)
def test_huge_numbers_are_refused_when_parsed(bpn, field):
    with pytest.raises(BPNError, match=field) as info:
        Position(bpn)
    assert "out of range" in str(info.value) and len(str(info.value)) < 600  # quoted, but short


@pytest.mark.parametrize(
    "option", ["exchange_points=20000", "exchange_points=1001", "target=0", "target=" + "9" * 50]
)
def test_options_beyond_what_the_engine_carries_are_refused(option):
    with pytest.raises(RulesError, match="out of range"):
        Rules.parse(f"brisque({option})")


def test_exchange_points_at_the_edge_still_solve():
    r = Rules.parse("brisque(exchange_points=1000)")
    assert r.exchange_points == 1000


@pytest.mark.parametrize("operand", ["ev nan", "evtol nan", "ev inf ; evtol inf", "ev -inf"])
def test_non_finite_puzzle_operands_are_refused(operand):
    with pytest.raises(PuzzleError, match="finite"):
        parse_record(f"{GOOD} ; {operand}")


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "--seed", "-1"],
        ["solve", GOOD, "--nodes", "99999999999999999999999"],
        ["solve", GOOD, "--seconds", "nan"],
        ["analyse", GOOD, "--seconds", "inf"],
        ["match", "greedy", "random", "--deals", "0"],
        ["analyse", GOOD, "--workers", "0"],
    ],
)
def test_bad_numbers_on_the_command_line(tmp_path, args):
    res = cli(*args, cwd=tmp_path)
    assert res.returncode == 2 and b"Traceback" not in res.stderr and b"Invalid value" in res.stderr


def _help_examples() -> list[list[str]]:
    """The examples of every command's --help that need no file: each must work."""
    import shlex

    from click.testing import CliRunner

    from solver.cli import main

    out = []
    for name in main.commands:
        text = CliRunner().invoke(main, [name, "--help"]).output
        for line in text.splitlines():
            line = line.strip()
            line = line.split(" | ")[0]  # (the command before a pipe)
            words = line.split()
            if (
                len(words) < 2
                or words[0] != "brisque"
                or words[1] not in main.commands
                or words[1] == "match"
            ):
                continue  # (matches take minutes; they have tests of their own)
            if not any(s in line for s in ("$(", ".jsonl", ".bpd", "-o ")):
                out.append(shlex.split(line)[1:])
    return out


@pytest.mark.parametrize("args", _help_examples(), ids=lambda a: " ".join(a)[:40])
def test_the_examples_of_the_help_work(tmp_path, args):
    res = cli(*args, cwd=tmp_path)
    assert res.returncode == 0, res.stderr.decode()


# ---------------------------------------------------------------- API edge cases
@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("solver").solve(GOOD, depth=0),
        lambda: __import__("solver").solve(GOOD, seconds=float("nan")),
        lambda: __import__("solver").solve(GOOD, nodes=-5),
        lambda: __import__("solver").analyse(
            "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", depth=-1
        ),
        lambda: __import__("solver").analyse(
            "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", workers=0
        ),
        lambda: __import__("solver").run_match("greedy", "random", 2, workers=-1),
    ],
    ids=[
        "solve depth 0",
        "solve seconds nan",
        "solve nodes -5",
        "analyse depth -1",
        "analyse workers 0",
        "match workers -1",
    ],
)
def test_api_limits_of_nothing_are_errors(call):
    from solver.errors import ArgumentError

    with pytest.raises(ArgumentError, match="expected|at least"):
        call()


@pytest.mark.parametrize("field, value", [("turn", 5), ("trick", 40), ("turnup", 99), ("trump", 7)])
def test_fields_set_out_of_range_are_problems_not_crashes(field, value):
    p = Position(GOOD)
    setattr(p, field, value)
    probs = p.problems()
    assert len(probs) == 1 and probs[0].startswith(f"{field} {value}")


def test_the_help_points_to_what_an_installed_user_can_reach():
    from click.testing import CliRunner

    from solver.cli import main

    top = CliRunner().invoke(main, ["--help"]).output
    assert "https://" in top and "show --help" in top
    show = CliRunner().invoke(main, ["show", "--help"]).output
    assert "BPN fields" in show and "score" in show and "talon" in show
