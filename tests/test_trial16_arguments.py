"""Defects found by trying the package as a new user would (sixteenth round), each with the
input that showed it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from solver.analysis.ranking import RankingRule
from solver.cli.errors import option_words
from solver.errors import ArgumentError
from solver.model.limits import MAX_GAME_TOTAL, MAX_SEED, MAX_WIN_WORTH
from solver.play.match import DEAL_SEED_STEP, deal_seed, run_match

BRISQUE = [sys.executable, "-m", "solver.cli"]
HIDDEN = "brisque ?6/Q.AQ.Q.TQ AD 1 ATKJ98.KJ987.T87.AJ87 - b 32:24 tricks=7:2"


def brisque(tmp_path, *args: str) -> subprocess.CompletedProcess:
    # (from outside the checkout: there python -m would find the unbuilt source first)
    return subprocess.run([*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=tmp_path)


# ---- 1. a match's deal seeds stay in the seed range for every match seed


@pytest.mark.parametrize("seed", [100_000_000_000_000, MAX_SEED])
def test_match_takes_every_seed_its_help_accepts(tmp_path, seed):
    # was "ArgumentError: seed=10000300000000000000: expected a whole number from 0 to ..."
    r = brisque(tmp_path, "match", "greedy", "random", "--deals", "1", "--seed", str(seed), "--json")
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
    recorded = Path(__file__).parent.parent / "benchmarks" / "results" / "match-pimc100-greedy-brisque.jsonl"
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


# ---- 2 and 3. --win-worth: a range, and the same words in the API and the CLI

HUGE_WIN_WORTHS = ["1" + "0" * 400, "9" * 5000, str(int(1e308))]


@pytest.mark.parametrize("worth", HUGE_WIN_WORTHS)
def test_huge_win_worth_is_a_usage_error(tmp_path, worth):
    # was OverflowError, ValueError (4300 digits) or OverflowError in fsum, as tracebacks
    r = brisque(tmp_path, "analyse", HIDDEN, "--win-worth", worth, "--worlds", "5")
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


def test_a_fractional_win_worth_is_told_a_whole_number_is_expected(tmp_path):
    # was "expected ... or a positive number of points", though 10.5 is positive
    r = brisque(tmp_path, "analyse", HIDDEN, "--win-worth", "10.5")
    assert r.returncode == 2 and "--win-worth 10.5: expected" in r.stderr
    assert "whole number of points" in r.stderr and "positive number" not in r.stderr


def test_a_negative_win_worth_has_the_same_words_in_the_api_and_the_cli(tmp_path):
    with pytest.raises(ArgumentError) as api:
        solver.analyse(HIDDEN, win_worth=-1, worlds=3)
    r = brisque(tmp_path, "analyse", HIDDEN, "--win-worth", "-1")
    assert r.returncode == 2
    assert f"Error: {option_words(str(api.value))}" in r.stderr


# ---- 4. deal(seed, game=...) checks the game totals as BPN's game= does


@pytest.mark.parametrize(
    "game", [(1.5, 0), (MAX_GAME_TOTAL + 1, 0), (-1, 0), ("a", 0), (1, 2, 3), (True, 0), None]
)
def test_deal_refuses_bad_game_totals_quoting_them(game):
    expected = rf"^game={re.escape(repr(game))}: expected two whole numbers from 0 to {MAX_GAME_TOTAL}"
    with pytest.raises(ArgumentError, match=expected):
        solver.deal(1, game=game)


def test_deal_takes_game_totals_the_bpn_takes():
    p = solver.deal(1, game=[MAX_GAME_TOTAL, 7])
    assert p.game == [MAX_GAME_TOTAL, 7]
    assert solver.Position(p.bpn()).game == [MAX_GAME_TOTAL, 7]


# ---- 5. match --json rounds the shares and the times to 6 decimals


def test_match_json_rounds_shares_and_times(tmp_path):
    r = brisque(tmp_path, "match", "greedy", "random", "--deals", "3", "--seed", "2", "--json")
    s = json.loads(r.stdout)
    for x in [*s["won_share_ci95"], s["seconds_per_deal_first"], s["seconds_per_deal_second"]]:
        assert round(x, 6) == x
    assert s["won_share_ci95"][0] == round(
        run_match("greedy", "random", 3, seed=2).summary["won_share_ci95"][0], 6
    )


# ---- 6. the API's edge cases


@pytest.mark.parametrize(
    "parse", [solver.parse_move, solver.parse_moves, solver.parse_card, solver.parse_hand]
)
@pytest.mark.parametrize("text", [None, 3])
def test_parsers_refuse_what_is_not_text_quoting_it(parse, text):
    # parse_move(None) was "AttributeError: 'NoneType' object has no attribute 'strip'"
    with pytest.raises(ArgumentError, match=rf"^bad \w+ {text}: expected .*, as text"):
        parse(text)


@pytest.mark.parametrize("margin", [True, 10000, 20000, -10000, 10**30])
def test_a_margin_is_no_bool_and_no_game_won(margin):
    with pytest.raises(ArgumentError, match=rf"^margin={margin}: expected a whole number from -9999 to 9999"):
        solver.Value.margin(margin, "a")


def test_margins_inside_the_game_win_marker_are_taken():
    assert [int(solver.Value.margin(m, "b")) for m in (-9999, 0, 9999)] == [-9999, 0, 9999]
    assert solver.Value.from_number(10000, "a").won and solver.Value.from_number(-9999, "a") == -9999
