"""The command line's arguments and numbers: ranges, whole numbers, options that would be ignored,
errors that name the option and quote the input as typed."""

from __future__ import annotations

import re

import pytest
from helpers import NOTATION_EXAMPLES, OUTSIDE, run_brisque

import solver
from solver.analysis.ranking import RankingRule
from solver.cli.exits import option_words
from solver.errors import (
    ArgumentError,
    RulesError,
)
from solver.model.ranges import (
    MAX_DEPTH,
    MAX_GAME_TOTAL,
    MAX_SECONDS,
    MAX_SEED,
    MAX_WIN_WORTH,
    MAX_WORLDS,
)
from solver.model.rules import Rules
from solver.play.players import make_player

VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


FULL = NOTATION_EXAMPLES[0]  # (every card known: b to move, worth 44)


HIDDEN = NOTATION_EXAMPLES[2]


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


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


@pytest.mark.parametrize("bad", ["bogus", "tcp://bogus", "tls://node7", "[::1]"])
def test_a_scheduler_without_a_port_is_refused_up_front(bad):
    from solver.cluster.scheduler import parse_scheduler

    with pytest.raises(ArgumentError) as info:
        parse_scheduler(bad)
    assert repr(bad) in str(info.value) and "no port" in str(info.value)
    assert "HOST:PORT" in str(info.value) and "node7:8786" in str(info.value)


def test_the_cli_says_the_port_is_missing_not_that_something_answered(brisque, tmp_path):
    # was "cannot reach the Dask scheduler at 'bogus' within 10 s (what answered there is not a
    # Dask scheduler (ValueError in the handshake))"
    pytest.importorskip("distributed")
    r = brisque("analyse", VIEW, "--worlds", "5", "--scheduler", "bogus")
    assert r.returncode == 2, r.stderr
    assert "'bogus'" in r.stderr and "no port" in r.stderr and "HOST:PORT" in r.stderr
    assert "answered" not in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "args,option,bad",
    [
        (["deal", "--seed", "4_8"], "--seed", "4_8"),
        (["deal", "--seed", " 5 "], "--seed", " 5 "),
        (["deal", "--seed", "+5"], "--seed", "+5"),
        (["deal", "--at", "1_0"], "--at", "1_0"),
        (["analyse", VIEW, "--worlds", "1_0"], "--worlds", "1_0"),
    ],
)
def test_whole_number_options_refuse_what_the_notation_refuses(invoke, args, option, bad):
    # int() syntax (underscores, surrounding spaces, a sign) was accepted here, refused in BPN and .bpd
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}': {bad!r} is not a whole number from" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_the_notation_refuses_those_numbers_too():
    from solver.model.ranges import whole_number

    for bad in ("4_8", "5.0", "٥"):
        with pytest.raises(ValueError, match="not a whole number"):
            whole_number(bad, 0, 100)
    with pytest.raises(ValueError, match="without a '\\+' sign"):  # (a whole number, signed)
        whole_number("+5", 0, 100)


def test_whole_number_options_take_plain_digits(invoke):
    plain = invoke("deal", "--seed", "48")
    assert plain.exit_code == 0, plain.output
    assert invoke("deal", "--seed", "048").output == plain.output  # (as whole_number)


@pytest.mark.parametrize("bad", ["inf", "1e999", "nan", "-inf"])
def test_an_open_ended_number_option_says_finite(invoke, bad):
    # "'inf' is not a number above 0": inf is one

    r = invoke("analyse", VIEW, "--method", "equilibrium", "--max-exploitability", bad)
    assert r.exit_code == 2
    assert f"{bad!r} is not a finite number above 0" in r.output


def test_an_option_refused_for_a_known_position_is_quoted_as_typed(invoke):
    # said "--seconds 1.0" for --seconds 1

    r = invoke("analyse", FULL, "--seconds", "1", "--worlds", "010")
    assert r.exit_code == 2
    assert "--worlds 010, --seconds 1: every card of this position is known" in r.output
    assert "1.0" not in r.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["--seconds", "abc"], f"'abc' is not a number above 0 and at most {MAX_SECONDS}"),
        (["--seconds", "1e400"], "'1e400' is not a number above 0"),
        (["--seconds", "nan"], "'nan' is not a number above 0"),
        (["--seconds", "0"], "'0' is not a number above 0"),
        (["--seconds", "9" * 100], "(100 characters) is not a number above 0"),
    ],
)
def test_a_bad_number_of_seconds_is_quoted_as_given(brisque, args, words):
    # '--seconds abc' said "'abc' is not a valid float range", 1e400 "inf is not in the range"
    r = brisque("solve", FULL, *args)
    assert r.returncode == 2 and words in r.stderr and "float range" not in r.stderr, r.stderr


@pytest.mark.parametrize(
    "command, args, words",
    [
        (["analyse", FULL], ["--separation", "-1"], "'-1' is not a number from 0 to 1000"),
        (["analyse", FULL], ["--max-exploitability", "x"], "'x' is not a finite number above 0"),
    ],
)
def test_every_number_option_says_what_is_expected(brisque, command, args, words):
    r = brisque(*command, *args)
    assert r.returncode == 2 and words in r.stderr, r.stderr


def test_number_options_are_shown_as_numbers_in_the_help(brisque):
    r = brisque("analyse", "--help")
    assert "FLOAT RANGE" not in r.stdout and "--seconds NUMBER" in r.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["solve", NOTATION_EXAMPLES[0], "--depth", str(MAX_DEPTH + 1)],
        ["solve", NOTATION_EXAMPLES[0], "--depth", "41", "--json"],
        ["line", NOTATION_EXAMPLES[0], "QD", "--depth", "41"],
        ["analyse", NOTATION_EXAMPLES[2], "--depth", str(MAX_DEPTH + 1)],
    ],
)
def test_a_depth_out_of_range_is_a_usage_error_not_a_traceback(brisque, args):
    r = brisque(*args)
    assert r.returncode == 2, r.stderr
    assert f"from 1 to {MAX_DEPTH}" in r.stderr and "Traceback" not in r.stderr


def test_the_deepest_depth_allowed_is_searched(brisque):
    r = brisque("solve", NOTATION_EXAMPLES[0], "--depth", str(MAX_DEPTH))
    assert r.returncode == 0 and "+44" in r.stdout  # (the final phase: exact under any depth)


@pytest.mark.parametrize("spec", ["pimc:0", f"pimc:{MAX_WORLDS + 1}", "pimc:99999999999999999999", "pimc:-3"])
def test_a_pimc_player_asks_for_a_sane_number_of_worlds(spec):
    with pytest.raises(ArgumentError, match=f"from 1 to {MAX_WORLDS}"):
        make_player(spec)
    assert make_player(f"pimc:{MAX_WORLDS}").name == f"pimc:{MAX_WORLDS}"


@pytest.mark.parametrize(
    "args, expected",
    [
        (["show", NOTATION_EXAMPLES[0], "--pov", "a"], "--pov is for the SVG diagram: add --svg"),
        (
            ["show", NOTATION_EXAMPLES[0], "--arrow", "7S", "--highlight", "7S"],
            "--highlight and --arrow are for the SVG diagram: add --svg",
        ),
        (["show", NOTATION_EXAMPLES[0], "--size", "300"], "--size is for the SVG diagram"),
        (
            ["analyse", HIDDEN, "--method", "equilibrium", "--worlds", "5", "--seed", "3"],
            "--worlds, --seed: these options are for the sampling (--method pimc)",
        ),
        (
            ["analyse", HIDDEN, "--method", "equilibrium", "--world-search", "exact"],
            "--world-search: this option is for the sampling",
        ),
        (["analyse", HIDDEN, "--max-exploitability", "1"], "for --method equilibrium only"),
        (["line", NOTATION_EXAMPLES[0], "QD", "--deal", "2"], "--deal 2 picks a record of a --record FILE"),
    ],
)
def test_an_option_that_would_be_ignored_is_an_error_naming_it(brisque, args, expected):
    # --pov, --highlight, --arrow without --svg, and --worlds, --seed, --world-search
    # with --method equilibrium, were silently ignored
    r = brisque(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert expected in r.stderr


def test_errors_name_the_options_not_the_python_arguments(brisque):
    # "win_worth='0': expected ..." on the command line
    r = brisque("analyse", HIDDEN, "--win-worth", "0")
    assert r.returncode == 2 and "--win-worth 0: expected" in r.stderr and "win_worth=" not in r.stderr

    assert option_words("worlds=5 and world_search='exact'") == "--worlds 5 and --world-search exact"
    kept = "impossible position 'brisque ... tricks=2:1 void=b:H game=0:0'"  # (BPN fields stay)
    assert option_words(kept) == kept


@pytest.mark.parametrize(
    "args, quoted",
    [
        (["line", NOTATION_EXAMPLES[0], "seed=3"], "bad move 'seed=3'"),
        (["match", "worlds=5", "greedy", "--deals", "1"], "unknown player 'worlds=5'"),
        (["analyse", HIDDEN, "--world-search", "view=x"], "--world-search 'view=x'"),
    ],
)
def test_an_error_quotes_the_input_as_given(brisque, args, quoted):
    # the renaming of arguments to options rewrote the input quoted in the message:
    # "bad move '--seed 3'" for the move seed=3

    r = brisque(*args)
    assert r.returncode == 2 and quoted in r.stderr, r.stderr
    assert option_words('bad "it\'s seed=3"; seed=4') == 'bad "it\'s seed=3"; --seed 4'
    assert option_words("the player's seed=4, 'x'") == "the player's --seed 4, 'x'"  # (an apostrophe)


@pytest.mark.parametrize(
    "option", ["exchange_points=20000", "exchange_points=1001", "target=0", "target=" + "9" * 50]
)
def test_options_beyond_what_the_engine_carries_are_refused(option):
    with pytest.raises(RulesError, match="out of range"):
        Rules.parse(f"brisque({option})")


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
def test_bad_numbers_on_the_command_line(brisque, tmp_path, args):
    res = brisque.raw(*args, cwd=tmp_path)
    assert res.returncode == 2 and b"Traceback" not in res.stderr and b"Invalid value" in res.stderr


# ---- seeds and win worths: the API's ranges are the command line's, and the help tells them

LATE_HIDDEN = "brisque ?6/Q.AQ.Q.TQ AD 1 ATKJ98.KJ987.T87.AJ87 - b 32:24 tricks=7:2"
HUGE_WIN_WORTHS = ["1" + "0" * 400, "9" * 5000, str(int(1e308))]


@pytest.mark.parametrize(
    "call", [lambda s: solver.analyse(HIDDEN, worlds=5, seed=s), lambda s: solver.deal(seed=s)]
)
def test_api_seed_range_is_the_cli_range(call):
    for bad in (-1, MAX_SEED + 1):
        with pytest.raises(ArgumentError, match=f"seed={bad}: expected a whole number from 0 to {MAX_SEED}"):
            call(bad)
    call(MAX_SEED)


@pytest.mark.parametrize("worth", ["sentinel", "match", "30"])
def test_analyse_refuses_win_worth_it_would_not_use(worth):
    r = run_brisque("analyse", FULL, "--win-worth", worth, cwd=OUTSIDE)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"--win-worth {worth}" in r.stderr and "every card of this position is known" in r.stderr


def test_analyse_takes_win_worth_with_hidden_cards():
    r = run_brisque("analyse", HIDDEN, "--win-worth", "sentinel", "--worlds", "5", cwd=OUTSIDE)
    assert r.returncode == 0, r.stderr


def test_trick_limits_are_the_rules():
    from solver.model.ranges import MAX_TRICKS_PER_DEAL, PETITE_TRICKS
    from solver.model.rules import Rules

    assert PETITE_TRICKS == Rules.parse("petite").tricks_per_deal
    assert MAX_TRICKS_PER_DEAL == max(
        Rules.parse(g).tricks_per_deal for g in ("brisque", "briscan", "petite")
    )


def _help(*args):
    r = run_brisque(*args, "--help", cwd=OUTSIDE)
    assert r.returncode == 0, r.stderr
    return " ".join(r.stdout.split())


def test_help_ranges_tell_the_truth():
    deal = _help("deal")
    assert "1<=x<=40" not in deal and "1<=x<=16; Petite Brisque: x<=5" in deal
    line = _help("line")
    assert "--view own: x>=10" in line
    r = run_brisque("deal", "--seed", "1", "--at", "17", cwd=OUTSIDE)
    assert (
        r.returncode == 2
        and "Traceback" not in r.stderr
        and "'17' is not a whole number from 1 to 16" in r.stderr
    )


@pytest.mark.parametrize("worth", HUGE_WIN_WORTHS)
def test_huge_win_worth_is_a_usage_error(brisque, tmp_path, worth):
    # was OverflowError, ValueError (4300 digits) or OverflowError in fsum, as tracebacks
    r = brisque("analyse", LATE_HIDDEN, "--win-worth", worth, "--worlds", "5")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"--win-worth {worth[:10]}" in r.stderr and f"from 1 to {MAX_WIN_WORTH}" in r.stderr


@pytest.mark.parametrize("worth", [10**400, MAX_WIN_WORTH + 1, 1e308, 0])
def test_huge_win_worth_is_an_argument_error_in_the_api(worth):
    with pytest.raises(
        ArgumentError, match=rf"^win_worth=.*whole number of points from 1 to {MAX_WIN_WORTH}"
    ):
        solver.analyse(LATE_HIDDEN, win_worth=worth, worlds=3)


def test_the_largest_win_worth_is_taken():
    assert (
        RankingRule.parse(MAX_WIN_WORTH).points
        == RankingRule.parse(str(MAX_WIN_WORTH)).points
        == MAX_WIN_WORTH
    )


def test_a_fractional_win_worth_is_told_a_whole_number_is_expected(brisque, tmp_path):
    # was "expected ... or a positive number of points", though 10.5 is positive
    r = brisque("analyse", LATE_HIDDEN, "--win-worth", "10.5")
    assert r.returncode == 2 and "--win-worth 10.5: expected" in r.stderr
    assert "whole number of points" in r.stderr and "positive number" not in r.stderr


def test_a_negative_win_worth_has_the_same_words_in_the_api_and_the_cli(brisque, tmp_path):
    with pytest.raises(ArgumentError) as api:
        solver.analyse(LATE_HIDDEN, win_worth=-1, worlds=3)
    r = brisque("analyse", LATE_HIDDEN, "--win-worth", "-1")
    assert r.returncode == 2
    assert f"Error: {option_words(str(api.value))}" in r.stderr
