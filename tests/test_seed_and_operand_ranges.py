"""Operand and seed ranges: a .bpd tolerance below 0 is a malformed record, a negative seed
is out of range (not "not a whole number"), and the API takes the seeds the CLI and .bpd
files take: 0 to 2**63 - 1."""

import subprocess
import sys
import tempfile

import pytest

import solver
from solver.errors import ArgumentError, PuzzleError
from solver.formats.bpd import parse_record
from solver.model.limits import MAX_SEED

# (run from outside the checkout: the installed package, not the source tree without its engine)
OUTSIDE = tempfile.gettempdir()

V = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def test_negative_evtol_is_a_malformed_record():
    with pytest.raises(PuzzleError, match=r"evtol '-3'.*out of range"):
        parse_record(f"{V} ; ev 44 ; evtol -3")
    assert parse_record(f"{V} ; ev 44 ; evtol 0").float_op("evtol") == 0.0


def test_negative_seed_operand_is_out_of_range():
    with pytest.raises(PuzzleError) as e:
        parse_record(f"{V} ; bm 9H ; seed -1")
    assert "'-1' is out of range" in str(e.value) and "not a whole number" not in str(e.value)
    with pytest.raises(PuzzleError, match="not a whole number"):
        parse_record(f"{V} ; bm 9H ; seed x1")


def test_puzzles_cli_reports_the_operand(tmp_path):
    f = tmp_path / "bad.bpd"
    f.write_text(f"{V} ; ev 44 ; evtol -3\n")
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", "puzzles", str(f)], capture_output=True, text=True, cwd=OUTSIDE
    )
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Traceback" not in out
    assert "evtol '-3'" in out and "out of range" in out


@pytest.mark.parametrize(
    "call", [lambda s: solver.analyse(V, worlds=5, seed=s), lambda s: solver.deal(seed=s)]
)
def test_api_seed_range_is_the_cli_range(call):
    for bad in (-1, MAX_SEED + 1):
        with pytest.raises(ArgumentError, match=f"seed={bad}: expected a whole number from 0 to {MAX_SEED}"):
            call(bad)
    call(MAX_SEED)


FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # every card known


@pytest.mark.parametrize("worth", ["sentinel", "match", "30"])
def test_analyse_refuses_win_worth_it_would_not_use(worth):
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", "analyse", FP, "--win-worth", worth],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"--win-worth {worth}" in r.stderr and "every card of this position is known" in r.stderr


def test_analyse_takes_win_worth_with_hidden_cards():
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", "analyse", V, "--win-worth", "sentinel", "--worlds", "5"],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
    )
    assert r.returncode == 0, r.stderr


def test_trick_limits_are_the_rules():
    from solver.model.limits import MAX_TRICKS_PER_DEAL, PETITE_TRICKS
    from solver.model.rules import Rules

    assert PETITE_TRICKS == Rules.parse("petite").tricks_per_deal
    assert MAX_TRICKS_PER_DEAL == max(
        Rules.parse(g).tricks_per_deal for g in ("brisque", "briscan", "petite")
    )


def _help(*args):
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", *args, "--help"], capture_output=True, text=True, cwd=OUTSIDE
    )
    assert r.returncode == 0, r.stderr
    return " ".join(r.stdout.split())


def test_help_ranges_tell_the_truth():
    deal = _help("deal")
    assert "1<=x<=40" not in deal and "1<=x<=16; Petite Brisque: x<=5" in deal
    line = _help("line")
    assert "--view own: x>=10" in line
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", "deal", "--seed", "1", "--at", "17"],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
    )
    assert (
        r.returncode == 2
        and "Traceback" not in r.stderr
        and "'17' is not a whole number from 1 to 16" in r.stderr
    )
