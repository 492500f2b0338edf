"""Defects found by trying the package as a new user would (seventeenth round), each with
the input that showed it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from solver.errors import ArgumentError

BRISQUE = [sys.executable, "-m", "solver.cli"]
VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def brisque(tmp_path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    # (from outside the checkout: there python -m would find the unbuilt source first)
    return subprocess.run(
        [*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=tmp_path, input=stdin
    )


# ---- A. a scheduler address without a port


@pytest.mark.parametrize("bad", ["bogus", "tcp://bogus", "tls://node7", "[::1]"])
def test_a_scheduler_without_a_port_is_refused_up_front(bad):
    from solver.cluster.executors import parse_scheduler

    with pytest.raises(ArgumentError) as info:
        parse_scheduler(bad)
    assert repr(bad) in str(info.value) and "no port" in str(info.value)
    assert "HOST:PORT" in str(info.value) and "node7:8786" in str(info.value)


def test_the_cli_says_the_port_is_missing_not_that_something_answered(tmp_path):
    # was "cannot reach the Dask scheduler at 'bogus' within 10 s (what answered there is not a
    # Dask scheduler (ValueError in the handshake))"
    pytest.importorskip("distributed")
    r = brisque(tmp_path, "analyse", VIEW, "--worlds", "5", "--scheduler", "bogus")
    assert r.returncode == 2, r.stderr
    assert "'bogus'" in r.stderr and "no port" in r.stderr and "HOST:PORT" in r.stderr
    assert "answered" not in r.stderr and "Traceback" not in r.stderr


# ---- B. OpenSpiel: the rules parameter and a position's rules

TARGET_300 = "brisque(target=300) AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


@pytest.mark.parametrize("rules", ["brisque", "brisque(target=500)", "brisque(target=400)"])
def test_openspiel_refuses_rules_that_differ_from_the_positions_however_spelt(rules):
    # "brisque" was taken as "not given" (the position's target 300 won silently), while its
    # equal spelling brisque(target=500) was refused
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401  (registers the games)

    with pytest.raises(Exception, match=r"the position's rules brisque\(target=300\) differ"):
        pyspiel.load_game("python_brisque", {"rules": rules, "position": TARGET_300})


@pytest.mark.parametrize(
    "params", [{}, {"rules": "brisque(target=300)"}, {"rules": " brisque( target=300 ) "}]
)
def test_openspiel_reports_the_rules_it_plays(params):
    # get_parameters()["rules"] and str(game) said "brisque" for a target-300 game
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401

    game = pyspiel.load_game("python_brisque", {**params, "position": TARGET_300})
    assert game.rules.target == 300
    assert game.get_parameters()["rules"] == "brisque[target~300]"
    assert "rules=brisque[target~300]" in str(game)
    assert pyspiel.load_game(str(game)).rules == game.rules  # (its game string loads again)


def test_openspiel_rules_left_out_without_a_position_are_the_games_own():
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401
    from solver.model.rules import Rules

    game = pyspiel.load_game("python_briscan")
    assert game.rules == Rules.parse("briscan") and game.get_parameters()["rules"] == "briscan"
    with pytest.raises(Exception, match="not brisque's"):
        pyspiel.load_game("python_brisque", {"rules": "briscan"})


# ---- C. smaller API items

P = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


@pytest.mark.parametrize("limit", [5, "nodes=5", 2.5])
def test_solver_solve_checks_limit_as_solve_does(limit):
    # Solver().solve(P, limit=5) was "AttributeError: 'int' object has no attribute 'bounded'"
    import solver
    from solver.errors import ArgumentTypeError

    for call in (solver.solve, solver.Solver().solve):
        with pytest.raises(ArgumentTypeError, match=r"limit=.*expected a solver\.Limit"):
            call(P, limit=limit)


def test_solver_solve_still_takes_a_limit():
    import solver

    assert solver.Solver().solve(P, limit=solver.Limit(nodes=10**6)).value == solver.solve(P).value


@pytest.mark.parametrize(
    "deals,quoted", [(2.5, "deals=2.5"), ("3", "deals='3'"), (0, "deals=0"), (True, "deals=True")]
)
def test_run_match_checks_deals_naming_only_deals(deals, quoted):
    # 2.5 and "3" were TypeErrors; 0 was "deals=0, workers=1: both must be at least 1"
    from solver.play.match import run_match

    with pytest.raises(ArgumentError) as info:
        run_match("greedy", "random", deals, seed=1)
    assert str(info.value).startswith(quoted + ":") and "whole number" in str(info.value)
    assert "workers" not in str(info.value)


def test_run_match_checks_workers_naming_only_workers():
    from solver.play.match import run_match

    with pytest.raises(ArgumentError) as info:
        run_match("greedy", "random", 2, seed=1, workers=0)
    assert str(info.value).startswith("workers=0:") and "deals" not in str(info.value)
    assert run_match("greedy", "random", 1, seed=1).summary["pairs"] == 1


def test_copy_and_deepcopy_of_a_position_agree_on_the_move_stack():
    # copy.copy dropped the move stack, copy.deepcopy kept it
    import copy

    from solver.model.position import Position

    p = Position(P)
    p.push("KD")
    p.push(p.legal_moves()[0])
    for q in (copy.copy(p), copy.deepcopy(p), p.copy(stack=True)):
        assert q.move_stack == p.move_stack and q.bpn() == p.bpn()
        q.pop()
        q.pop()
        assert q.bpn() == P
        assert len(p.move_stack) == 2 and p.bpn() != P  # (the copy's pops leave p alone)
    assert p.copy().move_stack == []  # (the cheap copy, as documented)
    p.pop()
    p.pop()
    assert p.bpn() == P


def test_pop_returns_the_move_taken_back():
    # pop() returned None; python-chess's Board.pop() returns the move
    from solver.model.moves import Move
    from solver.model.position import Position

    p = Position(P)
    first = p.legal_moves()[0]
    p.push(first)
    second = p.legal_moves()[-1]
    p.push(second)
    assert p.pop() == second and isinstance(second, Move)
    assert p.pop() == first


# ---- D. the command line's whole numbers are the notation's


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
def test_whole_number_options_refuse_what_the_notation_refuses(args, option, bad):
    # int() syntax (underscores, surrounding spaces, a sign) was accepted here, refused in BPN and .bpd
    from click.testing import CliRunner

    from solver.cli import main

    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}': {bad!r} is not a whole number from" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_the_notation_refuses_those_numbers_too():
    from solver.model.limits import whole_number

    for bad in ("4_8", "5.0", "٥"):
        with pytest.raises(ValueError, match="not a whole number"):
            whole_number(bad, 0, 100)
    with pytest.raises(ValueError, match="without a '\\+' sign"):  # (a whole number, signed)
        whole_number("+5", 0, 100)


def test_whole_number_options_take_plain_digits():
    from click.testing import CliRunner

    from solver.cli import main

    runner = CliRunner()
    plain = runner.invoke(main, ["deal", "--seed", "48"])
    assert plain.exit_code == 0, plain.output
    assert runner.invoke(main, ["deal", "--seed", "048"]).output == plain.output  # (as whole_number)


# ---- E. wording

FULL = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


@pytest.mark.parametrize("bad", ["inf", "1e999", "nan", "-inf"])
def test_an_open_ended_number_option_says_finite(bad):
    # "'inf' is not a number above 0": inf is one
    from click.testing import CliRunner

    from solver.cli import main

    r = CliRunner().invoke(main, ["analyse", VIEW, "--method", "equilibrium", "--max-exploitability", bad])
    assert r.exit_code == 2
    assert f"{bad!r} is not a finite number above 0" in r.output


def test_an_option_refused_for_a_known_position_is_quoted_as_typed():
    # said "--seconds 1.0" for --seconds 1
    from click.testing import CliRunner

    from solver.cli import main

    r = CliRunner().invoke(main, ["analyse", FULL, "--seconds", "1", "--worlds", "010"])
    assert r.exit_code == 2
    assert "--worlds 010, --seconds 1: every card of this position is known" in r.output
    assert "1.0" not in r.output


def test_two_quoted_bpns_get_the_hint_to_give_them_a_line_each(tmp_path):
    # the hint said to quote the BPN, which was quoted
    r = brisque(tmp_path, "solve", FULL, FULL)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "Got unexpected extra argument" in r.stderr
    assert "brisque solve takes one BPN: for several, give - and one BPN a line" in r.stderr
    assert "in quotes" not in r.stderr
    both = brisque(tmp_path, "solve", "-", stdin=f"{FULL}\n{FULL}\n")  # (what the hint says works)
    assert both.returncode == 0 and both.stdout.count("\n") >= 2, both.stderr


def test_an_unquoted_bpn_still_gets_the_hint_to_quote_it(tmp_path):
    r = brisque(tmp_path, "solve", *FULL.split(" "))
    assert r.returncode == 2 and "give it as one argument, in quotes" in r.stderr


@pytest.mark.parametrize("text", ["brisque(target=300))", "brisque)", "brisque((target=300)"])
def test_unmatched_parentheses_in_rules_are_said_so(text):
    # said "option target: '300)' is not a whole number"
    from solver.errors import RulesError
    from solver.model.rules import Rules

    with pytest.raises(RulesError) as info:
        Rules.parse(text)
    assert repr(text) in str(info.value) and "parentheses do not match" in str(info.value)
    assert "whole number" not in str(info.value)


# ---- F. BRISQUE_PURE=0 is off


def _compiled_under(tmp_path, value: str) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "BRISQUE_PURE": value}
    code = "import solver.model.bits as b; print(b.COMPILED)"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env
    )


@pytest.mark.parametrize("value", ["0", "no", "False", "OFF", ""])
def test_brisque_pure_off_values_keep_the_compiled_module(tmp_path, value):
    # BRISQUE_PURE=0 switched the pure Python twin on (any non-empty value did)
    r = _compiled_under(tmp_path, value)
    assert r.returncode == 0 and r.stdout.strip() == "True" and r.stderr == "", r.stderr


@pytest.mark.parametrize("value", ["1", "yes", "TRUE", "On"])
def test_brisque_pure_on_values_use_the_pure_twin(tmp_path, value):
    r = _compiled_under(tmp_path, value)
    assert r.returncode == 0 and r.stdout.strip() == "False" and r.stderr == "", r.stderr


def test_brisque_pure_other_values_are_a_warning_quoting_them(tmp_path):
    r = _compiled_under(tmp_path, "maybe")
    assert r.returncode == 0 and r.stdout.strip() == "True"
    assert "RuntimeWarning: BRISQUE_PURE='maybe' is not understood" in r.stderr
    assert "Traceback" not in r.stderr
