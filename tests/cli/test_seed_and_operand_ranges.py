"""Operand and seed ranges: a .bpd tolerance below 0 is a malformed record, a negative seed
is out of range (not "not a whole number"), and the API takes the seeds the CLI and .bpd
files take: 0 to 2**63 - 1."""

import json
import subprocess
import sys
import tempfile

import pytest
from helpers import ROOT

import solver
from solver.analysis.ranking import RankingRule
from solver.cli.exits import option_words
from solver.errors import ArgumentError, PuzzleError
from solver.formats.bpd import parse_record
from solver.model.ranges import MAX_SEED, MAX_WIN_WORTH
from solver.play.match import DEAL_SEED_STEP, deal_seed, run_match

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
    from solver.model.ranges import MAX_TRICKS_PER_DEAL, PETITE_TRICKS
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


HIDDEN = "brisque ?6/Q.AQ.Q.TQ AD 1 ATKJ98.KJ987.T87.AJ87 - b 32:24 tricks=7:2"


HUGE_WIN_WORTHS = ["1" + "0" * 400, "9" * 5000, str(int(1e308))]


@pytest.mark.parametrize("seed", [100_000_000_000_000, MAX_SEED])
def test_match_takes_every_seed_its_help_accepts(brisque, tmp_path, seed):
    # was "ArgumentError: seed=10000300000000000000: expected a whole number from 0 to ..."
    r = brisque("match", "greedy", "random", "--deals", "1", "--seed", str(seed), "--json")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert json.loads(r.stdout)["seed"] == seed


def test_match_api_at_the_largest_seed_deals_in_range():
    m = run_match("greedy", "random", 2, seed=MAX_SEED)
    seeds = [rec["deal_seed"] for rec in m.records]
    assert all(0 <= s <= MAX_SEED for s in seeds) and seeds[0] != seeds[2]
    assert m.records[0]["start"] == solver.deal(seeds[0]).bpn()


def test_deal_seeds_in_range_are_those_matches_always_had():
    # (the recorded results of benchmarks/ replay from them)
    last = (MAX_SEED - 5) // DEAL_SEED_STEP  # the largest match seed whose pairs 0..5 fit
    for seed in (0, 1, 5, 12345, last):
        assert [deal_seed(seed, i) for i in range(6)] == [seed * 100003 + i for i in range(6)]
    assert deal_seed(last + 1, 0) == (last + 1) * 100003 - 2**63


def test_recorded_match_results_replay_from_the_same_deal_seeds():
    recorded = ROOT / "benchmarks" / "results" / "match-pimc100-greedy-brisque.jsonl"
    lines = recorded.read_text(encoding="utf-8").splitlines()[:6]
    for rec in map(json.loads, lines):  # (a match of seed 1)
        assert rec["deal_seed"] == deal_seed(1, rec["pair"])
        assert rec["start"] == solver.deal(deal_seed(1, rec["pair"])).bpn()


def test_positions_from_the_largest_seed_go_on_from_0():
    from solver.play.dealing import positions_with_talon_left

    assert len(positions_with_talon_left(5, 3, "brisque", first_seed=MAX_SEED)) == 3


def test_match_refuses_a_seed_out_of_range_naming_it():
    with pytest.raises(ArgumentError, match=r"seed=-1: expected a whole number from 0 to"):
        run_match("greedy", "random", 1, seed=-1)


@pytest.mark.parametrize("worth", HUGE_WIN_WORTHS)
def test_huge_win_worth_is_a_usage_error(brisque, tmp_path, worth):
    # was OverflowError, ValueError (4300 digits) or OverflowError in fsum, as tracebacks
    r = brisque("analyse", HIDDEN, "--win-worth", worth, "--worlds", "5")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"--win-worth {worth[:10]}" in r.stderr and f"from 1 to {MAX_WIN_WORTH}" in r.stderr


@pytest.mark.parametrize("worth", [10**400, MAX_WIN_WORTH + 1, 1e308, 0])
def test_huge_win_worth_is_an_argument_error_in_the_api(worth):
    with pytest.raises(
        ArgumentError, match=rf"^win_worth=.*whole number of points from 1 to {MAX_WIN_WORTH}"
    ):
        solver.analyse(HIDDEN, win_worth=worth, worlds=3)


def test_the_largest_win_worth_is_taken():
    assert (
        RankingRule.parse(MAX_WIN_WORTH).points
        == RankingRule.parse(str(MAX_WIN_WORTH)).points
        == MAX_WIN_WORTH
    )


def test_a_fractional_win_worth_is_told_a_whole_number_is_expected(brisque, tmp_path):
    # was "expected ... or a positive number of points", though 10.5 is positive
    r = brisque("analyse", HIDDEN, "--win-worth", "10.5")
    assert r.returncode == 2 and "--win-worth 10.5: expected" in r.stderr
    assert "whole number of points" in r.stderr and "positive number" not in r.stderr


def test_a_negative_win_worth_has_the_same_words_in_the_api_and_the_cli(brisque, tmp_path):
    with pytest.raises(ArgumentError) as api:
        solver.analyse(HIDDEN, win_worth=-1, worlds=3)
    r = brisque("analyse", HIDDEN, "--win-worth", "-1")
    assert r.returncode == 2
    assert f"Error: {option_words(str(api.value))}" in r.stderr
