"""Defects found by trying the Python API and ``brisque puzzles`` as a new user would, each
with the input that showed it, and the documentation examples that had gone stale."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import NOTATION_EXAMPLES

import solver
from solver import errors
from solver.analysis.puzzles import check_record
from solver.cli import main
from solver.engine.results import Limit
from solver.errors import ArgumentError, ArgumentTypeError
from solver.formats.bpd import parse_record, read_bpd
from solver.model.limits import MAX_SECONDS
from solver.model.value import Value

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "positions"
OUTSIDE = tempfile.gettempdir()  # (run from the checkout, python -m would find its unbuilt source first)
FP = NOTATION_EXAMPLES[0]  # b to lead, value 44 for b
KD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"  # the JSON example of the docs
VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def run(*args: str, stdin: str | None = None):
    try:  # keep standard error apart (click < 8.2 mixes it in by default)
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, [str(a) for a in args], input=stdin)


# ---------------------------------------------------------------- 1. seats of a Value
def test_a_value_takes_the_seat_letters_its_repr_shows():
    v = Value.margin(5, "a")
    assert v == 5 and v.pov == 0 and repr(v) == "Value.margin(5, pov='a')"
    assert repr(v.for_seat("b")) == "Value.margin(-5, pov='b')"
    assert v.for_seat("a") is v and v.for_seat(0) is v and v.for_seat("B") == -5
    w = Value.game_won("b", pov="a")
    assert int(w) == -10000 and w.win == "b" and w.lost
    assert w.for_seat("b").won and eval(repr(w), {"Value": Value}) == w  # (the repr builds it again)


@pytest.mark.parametrize("seat", ["c", "", "ab", 2, -1, True, None, 1.0, "0"])
def test_a_value_refuses_anything_but_a_seat(seat):
    with pytest.raises(ArgumentError, match=r"expected a seat, 'a' or 'b' \(or 0 or 1\)") as e:
        Value.margin(5, 0).for_seat(seat)
    assert f"seat={seat!r}" in str(e.value)
    with pytest.raises(ArgumentError, match=re.escape(f"pov={seat!r}")):
        Value.margin(5, seat)


# ---------------------------------------------------------------- 2. a BPN string wherever a position goes
def test_every_solver_entry_point_takes_a_bpn_string():
    s = solver.Solver()
    assert s.solve(FP).value == solver.solve(solver.Position(FP)).value == 44
    assert s.value(FP) == 44 and s.can_reach(FP, 44) and not s.can_reach(FP, 45)
    value, played, best = s.judge(FP, "QD")
    assert (value, played) == (44, 4) and "+mD" in [str(m) for m in best]
    assert s.batch_values([FP, KD])[0] == [44, -4]
    assert solver.analyse(VIEW, worlds=4, seed=1).worlds == 4


def test_judge_refuses_an_illegal_move():
    with pytest.raises(solver.IllegalMoveError, match="illegal move AH .*legal: 7S 9D QD KD 7C AC"):
        solver.Solver().judge(FP, "AH")


@pytest.mark.parametrize(
    "m, error, message",
    [
        (9999, solver.IllegalMoveError, "illegal move 9999 in"),  # (was a bare KeyError: 9999)
        (5, solver.IllegalMoveError, r"illegal move 5 \(KS\) in"),
        (1.5, ArgumentTypeError, r"m=1.5: expected a move"),  # (was taken as 1, "illegal move 8S")
        (None, ArgumentTypeError, r"m=None: expected a move"),
        (True, ArgumentTypeError, r"m=True: expected a move"),
    ],
)
def test_judge_quotes_a_move_it_cannot_use(m, error, message):
    with pytest.raises(error, match=message):
        solver.Solver().judge(FP, m)


FINISHED = "petite .../... KH 21 KJ8.T98.TK.Q7 - a 33:0 tricks=5:0 void=b:HC"  # (a deal played out)
# b's view of a deal a ended by declaring four queens: a's last card is hidden from b
ENDED_VIEW = (
    "brisque Q.KQ.Q.Q+?1/97.T.T.A8 JH 3 ATKJ8.98.AK987.KJ97 - a 82:6 tricks=5:3 melds=mH+kQ/- declared=1"
)


def test_analyse_answers_a_finished_deal_as_solve_does():
    # brisque analyse answered it, solver.analyse refused "there is nothing to analyse"
    for bpn, value in ((FINISHED, 5), (ENDED_VIEW, 10000)):
        a, s = solver.analyse(bpn), solver.solve(bpn)
        assert a.value == s.value == value and a.moves == a.best == a.pv == []
        assert dict(json.loads(a.to_json()), seconds=0) == dict(json.loads(s.to_json()), seconds=0)
    assert solver.Position(ENDED_VIEW).has_hidden and solver.solve(ENDED_VIEW).value.win == "a"


def test_the_command_line_answers_a_finished_view_with_hidden_cards():
    # brisque analyse on it said "use the sampling analysis (brisque analyse)"
    for command in ("solve", "analyse"):
        r = run(command, ENDED_VIEW, "--json")
        assert r.exit_code == 0, r.stderr
        assert json.loads(r.stdout)["win"] == "a"


ENTRY_POINTS = {
    "solve": lambda x: solver.solve(x),
    "Solver.solve": lambda x: solver.Solver().solve(x),
    "Solver.value": lambda x: solver.Solver().value(x),
    "Solver.can_reach": lambda x: solver.Solver().can_reach(x, 0),
    "analyse": lambda x: solver.analyse(x),
    "can_reach": lambda x: solver.can_reach(x, 0),
    "solve_batch": lambda x: solver.solve_batch([x]),
    "analyse_line": lambda x: solver.analyse_line(x, []),
    "solution_tree": lambda x: solver.solution_tree(x),
}


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("bad", [42, None, b"brisque", ["brisque"]])
def test_a_position_of_the_wrong_type_is_a_clear_type_error(name, bad):
    with pytest.raises(ArgumentTypeError, match="expected a Position or a BPN string") as e:
        ENTRY_POINTS[name](bad)
    assert repr(bad) in str(e.value) and type(bad).__name__ in str(e.value)
    assert isinstance(e.value, TypeError) and isinstance(e.value, solver.BrisqueError)


# ---------------------------------------------------------------- 3. Position(42)
@pytest.mark.parametrize("bad", [42, 4.5, b"brisque", ("brisque",)])
def test_a_position_of_a_non_string_says_what_is_expected(bad):
    with pytest.raises(ArgumentTypeError, match="expected a BPN string, such as 'brisque ") as e:
        solver.Position(bad)
    assert str(e.value).startswith(f"Position({bad!r}): ") and str(e.value).endswith(type(bad).__name__)


def test_a_huge_argument_is_quoted_cut_short():
    with pytest.raises(ArgumentTypeError) as e:
        solver.Position(list(range(10_000)))
    assert str(e.value).startswith("Position([0, 1, 2") and len(str(e.value)) < 300


# ---------------------------------------------------------------- 4. budgets
BAD_BUDGETS = [
    {"nodes": 0},
    {"nodes": -1},
    {"nodes": 1.5},
    {"nodes": "5"},
    {"nodes": True},
    {"seconds": 0},
    {"seconds": -1.0},
    {"seconds": math.nan},
    {"seconds": math.inf},
    {"seconds": 1e300},
    {"seconds": MAX_SECONDS + 1},
    {"seconds": "5"},
    {"depth": 0},
    {"depth": True},
    {"depth": 2.0},
]


@pytest.mark.parametrize("budget", BAD_BUDGETS, ids=lambda b: repr(b))
def test_a_budget_of_nothing_or_of_the_wrong_kind_is_refused(budget):
    ((name, value),) = budget.items()
    with pytest.raises(ArgumentError, match=re.escape(f"{name}={value!r}: expected")):
        solver.solve(FP, **budget)
    with pytest.raises(ArgumentError, match=re.escape(f"{name}={value!r}: expected")):
        Limit(**budget)


def test_the_smallest_and_largest_budgets_are_accepted():
    a = solver.solve(FP, nodes=1)
    assert a.value.pov == 1 and a.lower <= 44 <= a.upper  # (proven bounds of the value 44)
    assert solver.solve(FP, seconds=MAX_SECONDS).value == 44  # (the final phase: solved)


def test_a_limit_and_a_budget_together_are_refused():
    with pytest.raises(ArgumentError, match="give the budget one way, not both"):
        solver.solve(FP, limit=Limit(nodes=100), nodes=5)
    with pytest.raises(ArgumentTypeError, match="limit=100: expected a solver.Limit"):
        solver.solve(FP, limit=100)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kw",
    [
        {"time_limit": 0},
        {"time_limit": math.nan},
        {"worlds": 0},
        {"worlds": 2.5},
        {"workers": 0},
        {"seed": "x"},  # (was taken, and the answer's seed became "x")
        {"seed": 1.5},
        {"separation": -1},  # (was taken: every check "separated")
        {"separation": math.nan},
    ],
)
def test_the_sampling_budgets_are_checked_too(kw):
    ((name, value),) = kw.items()
    with pytest.raises(ArgumentError, match=re.escape(f"{name}={value!r}: expected")):
        solver.analyse(VIEW, **kw)


# ---------------------------------------------------------------- 5. the exceptions users catch
@pytest.mark.parametrize("name", errors.__all__)
def test_every_error_class_is_exported_from_the_package(name):
    assert name in solver.__all__
    assert getattr(solver, name) is getattr(errors, name)


def test_argument_error_is_catchable_from_the_package():
    with pytest.raises(solver.ArgumentError):
        solver.solve(FP, nodes=0)


# ---------------------------------------------------------------- 6. brisque puzzles
def test_a_bm_that_is_illegal_says_so():
    v = check_record(parse_record(f"{FP} ; bm AH"))
    assert not v.ok and v.failures == ["bm AH: illegal in this position (legal: 7S 9D QD KD 7C AC +mD)"]
    v = check_record(parse_record(f"{FP} ; am AH ; bm QD"))
    assert v.failures[0].startswith("bm QD: QD is worth +4, the best moves") and v.failures[1].startswith(
        "am AH: illegal"
    )


def test_the_engine_pv_passes_and_a_shorter_one_too():
    a = solver.solve(FP)
    line = " ".join(str(m) for m in a.pv)
    assert check_record(parse_record(f"{FP} ; pv {line}")).ok
    assert check_record(parse_record(f"{FP} ; pv {' '.join(line.split()[:3])}")).ok


def test_an_illegal_pv_move_is_reported_where_it_is():
    v = check_record(parse_record(f"{FP} ; v 44 ; pv +mD AC AC"))
    assert v.failures == ["pv move 3 AC: illegal after +mD AC (legal: 9C)"]  # (a must follow in clubs)


def test_a_pv_move_that_is_not_best_is_reported_with_the_value_it_gives():
    # b's QD breaks his marriage (+4); a's KS throws points after 7S (+58 for b)
    v = check_record(parse_record(f"{FP} ; pv QD"))
    assert v.failures == [
        "pv move 1 QD: not a best move in this position: the value for b becomes +4 instead of +44"
    ]
    v = check_record(parse_record(f"{FP} ; pv 7S KS"))
    assert v.failures == [
        "pv move 2 KS: not a best move after 7S: the value for b becomes +58 instead of +44"
    ]


def test_a_hidden_card_pv_is_checked_for_its_first_move_and_legality():
    r = next(x for x in read_bpd(str(POSITIONS / "hidden-cards.bpd")) if x.id == "hc-001")
    base = r.bpn + " ; worlds 40 ; seed 48"
    assert check_record(parse_record(base + " ; pv +mC JS")).ok  # (a's reply: hidden, may be held)
    v = check_record(parse_record(base + " ; pv JS"))
    assert v.failures == ["pv move 1 JS: JS is worth -58.00, the best move +mC -37.43"]
    v = check_record(parse_record(base + " ; pv +mC QS"))
    assert v.failures[0].startswith("pv move 2 QS: illegal after +mC (legal: JS 8H 8D KD QC KC)")


def test_a_record_without_expectation_is_not_counted_as_solved(tmp_path):
    f = tmp_path / "mixed.bpd"
    f.write_text(f'{FP} ; id "plain"\n{FP} ; id "real" ; v 44\n', encoding="utf-8")
    v = check_record(read_bpd(str(f))[0])
    assert v.ok and not v.checked
    res = run("puzzles", "-q", f)
    assert res.exit_code == 0
    out = res.stdout.splitlines()
    assert out[0].startswith("--    plain") and "not checked: no bm, am, pv, v or ev" in out[0]
    assert out[1].startswith("ok    real")
    assert out[-1] == "1 of 1 solved, 1 not checked (no bm, am, pv, v or ev)"
    objs = [json.loads(ln) for ln in run("puzzles", "--json", f).stdout.splitlines()]
    assert [o["checked"] for o in objs[:-1]] == [False, True]
    assert objs[-1] == {
        "summary": True,
        "solved": 1,
        "total": 1,
        "unchecked": 1,
        "failed": 0,
        "unreadable": 0,
    }


def test_puzzles_read_standard_input():
    lines = f'{FP} ; id "one" ; v 44\n# a comment\n{FP} ; id "two" ; v 45\n'
    res = run("puzzles", "-", stdin=lines)
    assert res.exit_code == 1
    out = res.stdout.splitlines()
    assert (
        out[0].startswith("ok    one")
        and out[1].startswith("FAIL  two")
        and "v 45: the value is 44" in out[1]
    )
    assert out[-1] == "1 of 2 solved, 1 failed"
    objs = [json.loads(ln) for ln in run("puzzles", "--json", "-", stdin=lines).stdout.splitlines()]
    assert [o["source"] for o in objs[:-1]] == ["stdin:1", "stdin:3"]


def test_puzzles_from_a_pipe_in_a_real_process():
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", "puzzles", "-"],
        input=f"{FP} ; bm +mD ; pv +mD AC\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=OUTSIDE,
    )
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "1 of 1 solved", r.stderr


# ---------------------------------------------------------------- 7. the documentation's examples
def _json_example(text: str) -> dict:
    block = re.search(r"## JSON answers.*?```json\n(.*?)```", text, re.S)
    assert block
    return json.loads(block.group(1))


def test_the_json_example_of_the_notation_is_the_engine_answer():
    documented = _json_example((ROOT / "docs" / "notation.md").read_text(encoding="utf-8"))
    r = subprocess.run(  # (a fresh process: the node count of a cold table)
        [sys.executable, "-m", "solver.cli", "solve", KD, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=OUTSIDE,
    )
    real = json.loads(r.stdout)
    assert real.pop("seconds") >= 0 and documented.pop("seconds") >= 0  # (times vary)
    assert real == documented


def test_the_rules_errors_of_the_options_page_are_the_real_ones():
    text = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    shown = [ln for ln in text.splitlines() if ln.startswith("bad rules '")]
    assert len(shown) == 2
    for line in shown:
        given = line.split("'")[1]
        with pytest.raises(solver.RulesError) as e:
            solver.Rules.parse(given)
        assert str(e.value) == line
