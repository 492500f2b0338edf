"""Defects found by trying the package as a new user would (third round), each with the
input that showed it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
import time

import pytest
from helpers import NOTATION_EXAMPLES

import solver
from solver.errors import ArgumentError, ArgumentTypeError, IllegalMoveError
from solver.model.limits import MAX_SECONDS, MAX_TABLE_BITS, MIN_TABLE_BITS

BRISQUE = [sys.executable, "-m", "solver.cli"]
OUTSIDE = tempfile.gettempdir()  # (run from the checkout, python -m would find its unbuilt source first)
FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to move, worth 44


def brisque(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=OUTSIDE, **kw)


# ---- the Python API: arguments a new user passes


@pytest.mark.parametrize("rules", ["petite", "briscan(target=300)", solver.Rules.parse("petite"), None])
def test_solver_takes_a_rules_string_as_positions_do(rules):
    # Solver("brisque") was "AttributeError: 'str' object has no attribute 'game'"
    s = solver.Solver(rules)
    expected = rules if isinstance(rules, solver.Rules) else solver.Rules.parse(rules or "brisque")
    assert s.rules == expected


def test_solver_with_a_rules_string_solves():
    assert solver.Solver("brisque").solve(FP).value == 44


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"rules": 3}, ArgumentTypeError, "rules=3: expected a Rules or a rules string"),
        ({"rules": "chess"}, solver.RulesError, "unknown game 'chess'"),
        (
            {"table_bits": "x"},
            ArgumentError,
            f"table_bits='x': expected a whole number of bits from {MIN_TABLE_BITS} to {MAX_TABLE_BITS}",
        ),
        ({"table_bits": 40}, ArgumentError, "table_bits=40"),
        ({"table_bits": 1.5}, ArgumentError, "table_bits=1.5"),
    ],
)
def test_solver_arguments_are_checked_and_quoted(kwargs, error, words):
    # Solver(table_bits="x") was a bare "TypeError: an integer is required"
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        solver.Solver(**kwargs)


@pytest.mark.parametrize("bad", [None, 3, b"brisque"])
def test_rules_parse_refuses_what_is_not_a_string(bad):
    # Rules.parse(None) was "AttributeError: 'NoneType' object has no attribute 'strip'"
    with pytest.raises(ArgumentTypeError, match="expected a rules string"):
        solver.Rules.parse(bad)


@pytest.mark.parametrize("target", ["44", None, 1.5, True, [44]])
def test_can_reach_checks_its_target(target):
    # can_reach(p, 1.5) answered (the engine cut the number), "x" or None were bare TypeErrors
    for call in (solver.can_reach, solver.Solver().can_reach):
        with pytest.raises(ArgumentError, match=r"target=.*: expected a whole number"):
            call(FP, target)


def test_can_reach_still_takes_any_whole_number():
    import numpy as np

    assert solver.can_reach(FP, 44) and not solver.can_reach(FP, 45)
    assert solver.can_reach(FP, np.int64(44)) and not solver.can_reach(FP, 10**30)
    assert solver.can_reach(FP, -(10**30))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"depth": 0},
        {"depth": -1},
        {"depth": 1.5},
        {"depth": "2"},
        {"depth": 10**20},
        {"max_nodes": 1},
        {"max_nodes": 1.5},
    ],
)
def test_solution_tree_checks_depth_and_max_nodes(kwargs):
    # depth=0, -1 and 1.5 gave a tree silently, depth="2" a bare TypeError
    ((name, value),) = kwargs.items()
    with pytest.raises(ArgumentError, match=f"{name}="):
        solver.solution_tree(FP, **kwargs)


def test_analyse_line_reads_one_string_of_moves_as_the_command_line_does():
    # analyse_line(p, "QD 9C") read the string a character at a time: "bad move 'Q'"
    steps = solver.analyse_line(FP, "QD 9C")
    assert [(str(s.move), s.loss) for s in steps] == [("QD", 40), ("9C", 0)]


def test_analyse_line_refuses_moves_that_are_not_a_list():
    with pytest.raises(ArgumentTypeError, match="moves=None: expected a list of moves"):
        solver.analyse_line(FP, None)


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


def test_move_value_of_an_illegal_move_lists_the_legal_ones():
    a = solver.solve(FP)
    with pytest.raises(IllegalMoveError, match="legal: 7S 9D QD KD 7C AC \\+mD"):
        a.move_value("AS")


# ---- OpenSpiel: chance actions


def test_openspiel_chance_node_refuses_a_card_that_is_no_outcome():
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(
        "python_petite_brisque", {"position": "petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H"}
    )
    state = game.new_initial_state()
    outcomes = [c for c, _ in state.chance_outcomes()]
    # 999 was accepted (str(state) then an IndexError), and so was a card dealt twice
    with pytest.raises(IllegalMoveError, match="chance action 999 is not a card b's hand may get"):
        state.apply_action(999)
    state.apply_action(outcomes[1])
    with pytest.raises(IllegalMoveError, match=f"chance action {outcomes[1]} "):
        state.apply_action(outcomes[1])
    with pytest.raises(IllegalMoveError, match=f"chance action {outcomes[0]} "):
        state.apply_action(outcomes[0])  # (a hand is dealt in ascending order)
    assert state.history() == [outcomes[1]]


# ---- the command line


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
def test_a_bad_number_of_seconds_is_quoted_as_given(args, words):
    # '--seconds abc' said "'abc' is not a valid float range", 1e400 "inf is not in the range"
    r = brisque("solve", FP, *args)
    assert r.returncode == 2 and words in r.stderr and "float range" not in r.stderr, r.stderr


@pytest.mark.parametrize(
    "command, args, words",
    [
        (["analyse", FP], ["--separation", "-1"], "'-1' is not a number from 0 to 1000"),
        (["analyse", FP], ["--max-exploitability", "x"], "'x' is not a finite number above 0"),
    ],
)
def test_every_number_option_says_what_is_expected(command, args, words):
    r = brisque(*command, *args)
    assert r.returncode == 2 and words in r.stderr, r.stderr


def test_number_options_are_shown_as_numbers_in_the_help():
    r = brisque("analyse", "--help")
    assert "FLOAT RANGE" not in r.stdout and "--seconds NUMBER" in r.stdout


def test_line_without_moves_is_an_error():
    # printed an empty table and "total loss: a 0, b 0"
    r = brisque("line", FP)
    assert r.returncode == 2 and "no moves to judge after the BPN" in r.stderr, r.stderr


def test_line_reads_moves_given_in_one_argument():
    r = brisque("line", FP, "QD 9C", "--json")
    assert r.returncode == 0, r.stderr
    assert [s["move"] for s in json.loads(r.stdout)["steps"]] == ["QD", "9C"]


def test_tree_depth_has_an_upper_end():
    r = brisque("tree", NOTATION_EXAMPLES[0], "--depth", "99999999999999999999")
    assert r.returncode == 2 and "is not a whole number from 1 to 1000" in r.stderr, r.stderr


def test_a_folder_given_as_a_position_gets_a_hint():
    r = brisque("solve", OUTSIDE)
    assert r.returncode == 2 and f"{OUTSIDE!r} is a folder: give the position itself" in r.stderr


def test_an_interrupted_solve_with_json_answers_a_json_object():
    # Ctrl-C on an exact solve printed "interrupted" and nothing on standard output
    deal = brisque("deal", "--seed", "1").stdout.strip()
    proc = subprocess.Popen(
        [*BRISQUE, "solve", deal, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
    )
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the solve ended before the interrupt")
    assert proc.returncode == 130 and "Traceback" not in err, err
    answer = json.loads(out)  # the bounds proven so far, or an error where there are none
    assert answer == {"bpn": deal, "error": "interrupted"} or answer["stopped"] == "interrupted"


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "bad", "--json"],
        ["solve", "--json", "bad"],
        ["solve", "--nodes", "5", "bad", "--json"],
        ["show", "bad", "--json"],
        ["analyse", "--worlds", "3", "bad", "--json"],
        ["line", "bad", "QD", "--json"],
    ],
)
def test_the_json_error_of_a_malformed_position_names_it_in_bpn(args):
    # {"error": ...} without "bpn" when the BPN had no space, unlike a bad line of solve -
    r = brisque(*args)
    assert r.returncode == 2
    answer = json.loads(r.stdout)
    assert answer["bpn"] == "bad" and "bad BPN 'bad'" in answer["error"]


def test_the_json_error_without_a_position_has_no_bpn():
    r = brisque("line", "--record", "nonexistent.jsonl", "--json")
    assert r.returncode == 2 and "bpn" not in json.loads(r.stdout)


def test_the_board_names_only_the_analysis_argument_that_is_wrong():
    pytest.importorskip("starlette")
    from test_board import Board

    board = Board()
    try:
        hidden = "brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1"
        # said "worlds=200, seconds='x': expected numbers", quoting a default never given
        status, answer = board.post("/api/analyses", {"bpn": hidden, "seconds": "x"})
        assert status == 400 and answer["error"] == "seconds='x': expected a number of seconds"
        status, answer = board.post("/api/analyses", {"bpn": hidden, "worlds": 1.5})
        assert status == 400 and answer["error"] == "worlds=1.5: expected a whole number of worlds"
    finally:
        board.stop()


# ------------------------------------------- line: sampling options with nothing to sample
def test_line_refuses_worlds_where_every_card_is_known():
    # `line BPN QD --worlds 5` on a double-dummy position silently ignored --worlds
    from click.testing import CliRunner

    from solver.cli import main
    from solver.play.dealing import deal

    p = deal(6, "brisque")
    first = str(p.legal_moves()[0])
    for extra, quoted in ((["--worlds", "5"], "--worlds 5"), (["--seed", "3"], "--seed 3")):
        r = CliRunner().invoke(main, ["line", p.bpn(), first, *extra])
        assert r.exit_code == 2 and quoted in r.output and "every card" in r.output, r.output
    ok = CliRunner().invoke(main, ["line", p.bpn(), first, "--json"])  # without them: answered
    assert ok.exit_code == 0 and json.loads(ok.output)["steps"][0]["move"] == first
    hidden = p.view(0).bpn()  # hidden cards: the worlds are used, so accepted
    r = CliRunner().invoke(main, ["line", hidden, first, "--worlds", "10", "--json"])
    assert r.exit_code == 0, r.output


def test_a_batch_with_other_rules_names_the_position():
    # "position rules petite differ from this solver's brisque" did not say which position
    from solver.engine.api import Solver
    from solver.errors import PositionError
    from solver.play.dealing import deal

    other = deal(2, "petite").bpn()
    with pytest.raises(PositionError) as err:
        Solver("brisque").batch_values([deal(1, "brisque").bpn(), other])
    assert "position 2 of the batch" in str(err.value) and other[:20] in str(err.value)
