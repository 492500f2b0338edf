"""Bad input to every command: a clear error quoting the input (cut when huge), a non-zero exit code,
never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import NOTATION_EXAMPLES

FIELDS = ["rules", "hands", "trump", "talon", "out", "trick", "turn", "score"]


HIDDEN = NOTATION_EXAMPLES[2]


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


HUGE = "9" * 5000


VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


BAD_BPNS = [
    "",
    "brisque",
    "nonsense x y",
    GOOD.replace("52:35", "52:3x"),
    GOOD.replace("52:35", HUGE + ":1"),
    "brisque(game=petite) " + GOOD.split(" ", 1)[1],
    "brisque(foo=1) " + GOOD.split(" ", 1)[1],
    GOOD.replace(" D ", " X "),
    GOOD + " extra=1",
    GOOD.replace("AK9", "AK9AK9"),
    GOOD.replace("52:35", "52:36"),  # impossible: the scores do not add up
    "brisque \udcff",  # (a byte that was not UTF-8 on the command line)
]


BAD_INPUTS = [[cmd, bpn] for cmd in ("show", "solve", "analyse", "tree", "line") for bpn in BAD_BPNS] + [
    ["solve", *GOOD.split(" ")],  # not quoted
    ["solve", GOOD, "--nodes", HUGE],
    ["solve", GOOD, "--nodes", "x"],
    ["solve", GOOD, "--seconds", "nan"],
    ["solve", GOOD, "--depth", "-1"],
    ["solve", GOOD, "--table-bits", "99"],
    ["solve", GOOD, "--quick", "--depth", "2"],
    ["solve", VIEW],
    ["analyse", VIEW, "--worlds", "0"],
    ["analyse", VIEW, "--worlds", HUGE],
    ["analyse", VIEW, "--world-search", "bogus"],
    ["analyse", VIEW, "--win-worth", "bogus"],
    ["analyse", VIEW, "--separation", "-1"],
    ["analyse", VIEW, "--workers", "0"],
    ["analyse", GOOD, "--depth", "0"],
    ["line", GOOD, "ZZ"],
    ["line", GOOD, "9D"],
    ["line", GOOD, "AS", "AS"],
    ["line"],
    ["line", "--record", "missing.jsonl"],
    ["line", "--record", "rec.jsonl"],
    ["line", "--record", "garbage.txt"],
    ["line", "--record", "latin1.txt"],
    ["line", "--record", "deep.jsonl"],  # nested beyond Python's recursion limit
    ["line", "--record", "rec.jsonl", "--deal", "0"],
    ["line", "--record", "rec.jsonl", "--deal", HUGE],
    ["tree", GOOD, "-o", "/nonexistent/x.graphml"],
    ["tree", GOOD, "--depth", "-3"],
    ["tree", GOOD, "--format", "png"],
    ["puzzles", "missing.bpd"],
    ["puzzles", "garbage.txt"],
    ["puzzles", "latin1.txt"],
    ["puzzles", "empty.bpd"],
    ["puzzles", "garbage.txt", "--workers", "0"],
    ["puzzles"],
    ["match", "bogus", "greedy"],
    ["match", "pimc:x", "greedy"],
    ["match", "pimc:" + HUGE, "greedy"],
    ["match", "random", "greedy", "--deals", "0"],
    ["match", "random", "greedy", "--deals", HUGE],
    ["match", "random", "greedy", "--rules", "bogus"],
    ["match", "random", "greedy", "--records", "/nonexistent/x.jsonl"],
    ["match", "clairvoyant@bogus", "greedy"],
    ["match", "random"],
    ["deal"],
    ["deal", "--seed", "x"],
    ["deal", "--seed", "-1"],
    ["deal", "--seed", HUGE],
    ["deal", "--seed", "1", "--rules", "bogus(x=1)"],
    ["deal", "--seed", "1", "--rules", "brisque(target=" + HUGE + ")"],
    ["deal", "--seed", "1", "--at", "99"],
    ["deal", "--seed", "1", "--view", "c"],
    ["bogus-command"],
    ["show", GOOD, "--bogus"],
]


# what a message must never show: Python's own words instead of the tool's
LEAKS = [b"Traceback", b"invalid literal", b"Expecting value", b"has no attribute", b"NoneType", b"Error:  "]


@pytest.mark.parametrize("field", range(9), ids=[*FIELDS, "optional"])
def test_a_huge_bad_field_is_quoted_cut(brisque, field):
    # a bad 100 KB field was echoed whole in the error
    parts = NOTATION_EXAMPLES[0].split()
    if field == 8:
        parts.append("k=" + "x" * 100_000)
    else:
        parts[field] = parts[field] + "X" * 100_000
    r = brisque("solve", " ".join(parts))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr) < 600 and "characters)" in r.stderr, r.stderr[:600]


def test_a_huge_bad_line_of_a_batch_is_given_back_once(brisque):
    # `brisque solve -` echoed a 1 MB bad line twice (in "bpn" and in the error)

    parts = NOTATION_EXAMPLES[0].split()
    parts[2] += "X" * 1_000_000
    line = " ".join(parts)
    r = brisque("solve", "-", input=line + "\n")
    answer = json.loads(r.stdout)
    # (a line past MAX_LINE_BYTES is not kept whole: its beginning and its end, and its length)
    assert r.returncode == 1 and answer["bpn"].startswith(line[:50]) and answer["bpn"].endswith(line[-50:])
    assert len(answer["bpn"]) < 300 and "..." in answer["bpn"]
    assert len(answer["error"]) < 300 and f"({len(line)} bytes)" in answer["error"]


@pytest.mark.parametrize(
    "args",
    [
        ["match", "Q" * 100_000, "greedy"],
        ["line", NOTATION_EXAMPLES[0], "Q" * 100_000],
        ["deal", "--seed", "1", "--rules", "brisque(target=" + "1" * 100_000 + ")"],
        ["line", NOTATION_EXAMPLES[0], "QD", "--view", "Q" * 100_000],
        ["analyse", HIDDEN, "--world-search", "Q" * 100_000],
    ],
    ids=["player", "move", "rules option", "choice", "world search"],
)
def test_huge_bad_options_are_quoted_cut(brisque, args):
    r = brisque(*args)
    assert r.returncode == 2 and len(r.stderr) < 800 and "100000 characters" in r.stderr, r.stderr[:800]


@pytest.mark.slow
def test_every_command_refuses_bad_input_cleanly(tmp_path):
    (tmp_path / "garbage.txt").write_text("garbage\n")
    (tmp_path / "latin1.txt").write_bytes(b"\xe9t\xe9 \xff\n")
    (tmp_path / "empty.bpd").write_text("")
    (tmp_path / "rec.jsonl").write_text('{"start": 1}\n')
    (tmp_path / "deep.jsonl").write_text("[" * 100_000 + "\n")
    failures = []
    for args in BAD_INPUTS:
        res = subprocess.run(
            [sys.executable, "-m", "solver.cli", *args], capture_output=True, cwd=tmp_path, timeout=120
        )
        said = res.stdout + res.stderr
        leaks = [w.decode() for w in LEAKS if w in said]
        told = any(w in said for w in (b"Error", b"ERROR", b"Valid: NO"))  # (show pictures it)
        if res.returncode == 0 or leaks or not told:
            failures.append(f"{[a[:30] for a in args]}: status {res.returncode}, {leaks}: {said[-300:]!r}")
    assert not failures, f"{len(failures)} of {len(BAD_INPUTS)}:\n" + "\n".join(failures)


@pytest.mark.slow
def test_an_impossible_position_exits_2_in_every_command(brisque, tmp_path):
    impossible = GOOD.replace("52:35", "52:36")
    for command in ("show", "solve", "analyse", "tree"):
        res = brisque.raw(command, impossible, cwd=tmp_path)
        assert res.returncode == 2, (command, res.stderr)
    assert b"Valid: NO" in brisque.raw("show", impossible, cwd=tmp_path).stdout  # (still pictured)
