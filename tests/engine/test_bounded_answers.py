"""What a budgeted or interrupted solve promises (docs/solver.md, "What an unfinished answer
promises"), on seeded whole deals under several node budgets and on interrupted solves:

* ``best`` holds the moves with the best estimate, every estimate kept inside its move's
  proven bounds, so that no move is called best while another move's proven lower bound
  exceeds its proven upper bound;
* the headline ``value`` is the best move's estimate;
* a value that is a bare proven bound (its estimate lay beyond it, or there was none) says so
  (``bound``: ``"upper"`` or ``"lower"``), and the text never calls it "estimated".
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from typing import Any

import pytest
from helpers import BRISQUE, OUTSIDE, communicate_or_kill

from solver.analysis.line import analyse_line
from solver.analysis.text_reports import format_analysis
from solver.engine import Analysis, Limit, Solver, solve
from solver.engine.bounded import NOT_LOST, NOT_WON, TRIVIAL, _finish, interrupted_answer
from solver.model.position import Position
from solver.play.dealing import random_position


def deal(seed: int) -> str:
    """``brisque deal --seed SEED``: a whole Brisque deal, the talon order known."""
    return random_position(
        seed, Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35").rules
    ).bpn()


def assert_promise(d: dict[str, Any]) -> None:
    """The promise, checked on an answer's JSON object."""
    if d.get("exact", True):
        return
    moves = d["moves"]
    for mv in moves:
        assert mv["lower"] <= mv["value"] <= mv["upper"], mv
        if mv["bound"] == "upper":
            assert mv["value"] == mv["upper"], mv
        elif mv["bound"] == "lower":
            assert mv["value"] == mv["lower"], mv
        else:
            assert mv["bound"] is None, mv
    assert d["best"], d
    if moves:
        top = max(mv["value"] for mv in moves)
        assert sorted(d["best"]) == sorted(mv["move"] for mv in moves if mv["value"] == top), d
        by_move = {mv["move"]: mv for mv in moves}
        for b in d["best"]:
            for mv in moves:
                assert mv["lower"] <= by_move[b]["upper"], (b, mv)
        assert d["value"] == min(max(top, d["lower"]), d["upper"]), d
        assert d["pv"][:1] == [] or d["pv"][0] in d["best"]
    assert d["lower"] <= d["value"] <= d["upper"]
    assert d["bound"] in (None, "upper", "lower")


def assert_text_promise(text: str, d: dict[str, Any]) -> None:
    """The text report of the same answer never prints a bare bound as "estimated"."""
    headline = next(line for line in text.splitlines() if line.startswith("Value for"))
    if d["bound"]:
        assert "estimated" not in headline and ("at most" in headline or "at least" in headline), headline
    else:
        assert f"{d['value']:+d} estimated" in headline, headline
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith("  ") and line.split()}
    for mv in d["moves"]:
        row = rows[mv["move"]]
        kind = {"upper": "at most", "lower": "at least", None: "estimate"}[mv["bound"]]
        if not mv["exact"]:
            assert f"{mv['value']:+d}  {kind}" in row, row
        assert row.rstrip().endswith("best") == (mv["move"] in d["best"]), row


@pytest.mark.parametrize("seed", [4, 6, 8])
@pytest.mark.parametrize("nodes", [5_000, 100_000, 2_000_000])
def test_a_budgeted_whole_deal_calls_best_the_best_estimates(seed: int, nodes: int) -> None:
    a = solve(deal(seed), limit=Limit(nodes=nodes))
    d = a.to_dict()
    assert d["method"] == "bounded" and d["exact"] is False
    assert_promise(d)
    assert_text_promise(format_analysis(a), d)


@pytest.mark.slow
def test_a_move_proven_worse_is_not_called_best() -> None:
    """Deal 6 with 50 million nodes: 9S is proven at most -42 (its look-ahead said more),
    while three moves are estimated at -5.  It was called best, with the value -42."""
    a = solve(deal(6), limit=Limit(nodes=50_000_000))
    d = a.to_dict()
    nine = next(mv for mv in d["moves"] if mv["move"] == "9S")
    assert nine["bound"] == "upper" and nine["value"] == nine["upper"] < d["value"]
    assert "9S" not in d["best"] and d["pv"][0] != "9S"
    assert d["value"] == max(mv["value"] for mv in d["moves"]) and d["bound"] is None
    assert_promise(d)
    text = format_analysis(a)
    assert_text_promise(text, d)
    assert "at most" in next(line for line in text.splitlines() if line.startswith("  9S"))


@pytest.mark.parametrize("seed", [6, 8])
def test_a_value_alone_within_a_budget_is_its_best_estimate(seed: int) -> None:
    a = solve(deal(seed), every_move=False, limit=Limit(nodes=200_000))
    d = a.to_dict()
    assert not a.exact and d["moves"] == [] and d["best"]
    assert d["lower"] <= d["value"] <= d["upper"]
    if d["bound"] == "upper":
        assert d["value"] == d["upper"]
    elif d["bound"] == "lower":
        assert d["value"] == d["lower"]


def _finished(lo: dict[int, int], hi: dict[int, int], guess: dict[int, int], **kw: Any) -> Analysis:
    p = Position(deal(6))
    legal = [int(m) for m in p.legal_moves()]
    full = {m: -TRIVIAL for m in legal}
    return _finish(
        p,
        {**full, **{legal[i]: v for i, v in lo.items()}},
        {**{m: TRIVIAL for m in legal}, **{legal[i]: v for i, v in hi.items()}},
        {legal[i]: v for i, v in guess.items()},
        legal,
        None,
        0,
        time.perf_counter(),
        True,
        None,  # type: ignore[arg-type]  # (no principal variation is walked: not all exact)
        **kw,
    )


def test_an_estimate_beyond_a_proven_bound_is_that_bound_and_says_so() -> None:
    # move 0 guessed +30 but proven at most -42; move 1 guessed -60, proven at least -20
    a = _finished({0: -230, 1: -20}, {0: -42}, {0: 30, 1: -60, 2: -5, 3: -5, 4: -9, 5: -9, 6: -9})
    m0, m1, *rest = a.moves
    assert (int(m0.value), m0.bound) == (-42, "upper") and (int(m1.value), m1.bound) == (-20, "lower")
    assert all(mv.bound is None for mv in rest)
    assert [str(m) for m in a.best] == [str(a.moves[2].move), str(a.moves[3].move)]
    assert int(a.value) == -5 and a.bound is None


def test_a_best_move_known_only_by_a_bound_makes_the_headline_a_bound() -> None:
    # an interrupted solve whose look-ahead was itself interrupted: no estimate at all;
    # move 0 proven at most +190, the others not reached
    a = _finished({}, {0: 190}, {}, interrupted=True)
    assert [mv.bound for mv in a.moves] == ["upper"] and int(a.value) == 190 and a.bound == "upper"
    d = a.to_dict()
    assert d["bound"] == "upper" and d["moves"][0]["bound"] == "upper"
    headline = format_analysis(a).splitlines()[1]
    assert "estimated" not in headline and "at most +190" in headline, headline
    assert "not searched before the interrupt" in format_analysis(a)


def test_a_best_move_proven_at_most_a_value_bounds_the_position_only_when_no_move_may_be_more() -> None:
    # the best move guessed +250, proven at most +190; the others estimated lower, and
    # not proven below +190: the position may be worth more, the best move may not
    a = _finished({}, {0: 190}, {0: 250, 1: 10, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0})
    assert a.bound == "upper" and int(a.value) == 190 and int(a.upper) == 10000
    headline = format_analysis(a).splitlines()[1]
    assert "at most +190 for the best move" in headline and "estimated" not in headline, headline
    assert "at most +190 for the best move (a proven bound)" in a._repr_html_()
    # every other move proven below it: +190 is the position's own upper bound
    hi = {0: 190, **{i: 100 for i in range(1, 7)}}
    a = _finished({}, hi, {0: 250, 1: 10, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0})
    assert a.bound == "upper" and int(a.value) == int(a.upper) == 190
    headline = format_analysis(a).splitlines()[1]
    assert "at most +190 (a proven bound" in headline and "for the best move" not in headline, headline
    assert "at most +190 (a proven bound)" in a._repr_html_()


def test_among_equal_estimates_the_best_proven_comes_first() -> None:
    """Equal estimates: all are best (in legal order, as the JSON lists them), and the
    principal variation starts with (the players play) the one with the highest proven
    lower bound, here the move the game-win guard proved not to lose the game outright."""
    a = _finished({1: NOT_LOST}, {0: NOT_WON, 1: NOT_WON}, {0: 20, 1: 20, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5})
    legal = Position(deal(6)).legal_moves()
    assert [str(m) for m in a.best] == [str(legal[0]), str(legal[1])]
    assert a.pv[:1] == [legal[1]]


def test_a_proven_value_names_no_move_not_proven_to_reach_it() -> None:
    """Without every move's value, Ctrl-C in the walk of the principal variation: the root's
    value is proven, no move is; the one-trick look-ahead's favourite (TD, worth less
    than the value) is not called best in an answer whose value is proven."""
    p = Position(
        "brisque AJ.Q.T7.8/T7.A87..9 JC 8SKHQCAC7C KQ9.TJ9.AKQJ98.TK - a 53:0 tricks=7:0"
    )  # (deal 0 at 8)
    s = Solver(p.rules)
    full = s.solve(p)
    t0, n0 = time.perf_counter(), s.engine.nodes
    s.solve(p, every_move=False)  # (what Ctrl-C in its principal variation's walk leaves proven)
    a = interrupted_answer(s.engine, p, {}, None, False, t0, n0)
    assert a is not None and a.exact and a.value == full.value and a.stopped == "interrupted"
    assert set(map(str, a.best)) <= set(map(str, full.best)), (a.best, full.best)
    assert a.best == [] and a.pv == []
    assert "Best move: none proven before the interrupt" in format_analysis(a)


def assert_interrupted_text(text: str) -> None:
    """An interrupted solve's text: each move row says what its value is, a bound only
    where the proven bounds put it, and the headline value is the best rows' value."""
    lines = text.splitlines()
    headline = lines[1]
    assert headline.endswith("(interrupted)"), headline
    rows = [line.split(maxsplit=3) for line in lines if line.startswith("  ") and line[2] != " "]
    rows = [r for r in rows if len(r) >= 3 and r[1][0] in "+-" and r[0] != "move"]
    assert rows, text
    values = []
    for _move, value, rest in ((r[0], r[1], " ".join(r[2:])) for r in rows):
        assert rest.startswith(("estimate", "at most", "at least", "exact")), rest
        if rest.startswith("at most"):
            assert f"and {value}" in rest or f"at most {value}" in rest.removeprefix("at most "), rest
        if rest.startswith("at least"):
            assert f"between {value}" in rest or f"at least {value}" in rest.removeprefix("at least "), rest
        values.append(int(value))
    best = max(values)
    if "estimated" in headline:
        assert f"Value for a: {best:+d} estimated;" in headline, headline
    else:
        assert f"{best:+d}" in headline and ("at most" in headline or "at least" in headline), headline


def _interrupted_cli(seed: int, delay: float, *args: str) -> tuple[int, str, str]:
    proc = subprocess.Popen(
        [*BRISQUE, "solve", deal(seed), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = communicate_or_kill(proc, 120)
    return proc.returncode, out, err


@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, 6])
def test_ctrl_c_on_a_whole_deal_answers_with_estimates(seed: int) -> None:
    """Ctrl-C during the exact solve of a whole deal: every move gets the one-trick
    look-ahead's estimate (the moves not searched too), kept inside what was proven, and
    the best are the best estimates; a bound is never printed as an estimate."""
    for delay in (1.5, 3.0, 5.0):
        code, out, err = _interrupted_cli(seed, delay, "--json")
        assert code == 130 and "Traceback" not in err, err
        d = json.loads(out)
        if "error" in d:  # (nothing proven yet: try later)
            continue
        assert d["stopped"] == "interrupted" and len(d["moves"]) == len(Position(deal(seed)).legal_moves())
        assert_promise(d)
        code, text, err = _interrupted_cli(seed, delay)
        assert code == 130 and "Traceback" not in err, err
        if text.startswith("Brisque"):  # (else nothing proven yet in this run)
            assert_interrupted_text(text)
        return
    raise AssertionError("nothing proven after 5 s")


def test_solve_dash_keeps_the_same_promise() -> None:
    lines = "\n".join(deal(s) for s in (4, 6, 8)) + "\n"
    done = subprocess.run(
        [*BRISQUE, "solve", "-", "--nodes", "100000"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        timeout=120,
        env={**os.environ},
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 3
    for d in answers:
        assert_promise(d)
        assert d == {**solve(d["bpn"], limit=Limit(nodes=100_000)).to_dict(), "seconds": d["seconds"]}


@pytest.mark.slow
def test_a_line_says_when_a_value_is_a_bare_bound() -> None:
    """Deal 6 with 50 million nodes a position: 9S's value is its proven upper bound."""
    (step,) = analyse_line(deal(6), ["9S"], limit=Limit(nodes=50_000_000))
    assert step.value_bound == "upper" and step.best_bound is None
    assert step.to_dict()["value_bound"] == "upper" and step.loss > 0 and not step.mistake
    done = subprocess.run(
        [*BRISQUE, "line", deal(6), "9S", "--nodes", "50000000"],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "9S at most -42" in done.stdout, done.stdout


@pytest.mark.slow
def test_ctrl_c_in_solve_dash_answers_the_line_being_solved() -> None:
    """`solve -` interrupted in a whole deal: the lines answered stand, and the line being
    solved gets what was proven so far (as `solve BPN` prints it), keeping the promise."""
    for delay in (2.0, 4.0, 6.0):
        proc = subprocess.Popen(
            [*BRISQUE, "solve", "-"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=OUTSIDE,
        )
        assert proc.stdin is not None
        proc.stdin.write(
            "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35\n" + deal(6) + "\n"
        )
        proc.stdin.flush()
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = communicate_or_kill(proc, 120)
        assert proc.returncode == 130 and "Traceback" not in err, err
        answers = [json.loads(line) for line in out.splitlines()]
        assert answers[0]["value"] == 44
        if len(answers) == 1:  # (nothing proven yet in the deal: try later)
            continue
        assert len(answers) == 2 and answers[1]["stopped"] == "interrupted"
        assert_promise(answers[1])
        return
    raise AssertionError("nothing proven after 6 s")


# b declares the four kings at once (+kK): a game won outright, proven within any budget
KINGS = "brisque AJ.98.8.A/K.K.TK7.K JC TSJD9CQD9D7CQCQS7SAHADJHQH8STC 9.T7..8 - b 0:10 tricks=0:2"


def test_a_bounded_solve_whose_bounds_meet_is_exact():
    for limit in (Limit(nodes=1000), Limit(depth=4)):
        a = solve(KINGS, limit=limit)
        assert a.method == "bounded" and a.lower == a.upper
        assert a.exact and a.win == "b" and a.value.won
        d = a.to_dict()
        assert d["exact"] is True and d["win"] == "b" and d["lower"] == d["upper"] == d["value"] == 10000
        assert d["method"] == "bounded" and d["stopped"] in ("budget", "depth")
        # the best moves are those proven to win; each move's entry says what is proven of it
        assert "+kK" in d["best"]
        for mv in d["moves"]:
            assert mv["exact"] == (mv["lower"] == mv["upper"])
            if mv["move"] in d["best"]:
                assert mv["exact"] and mv["value"] == 10000


def test_the_text_of_a_bounded_solve_whose_bounds_meet_reads_as_an_exact_answer(invoke):
    r = invoke("solve", KINGS, "--nodes", "1000")
    assert r.exit_code == 0, r.output
    assert "Value for b: +10000 (proven, b wins the game)" in r.stdout
    assert "estimated" not in r.stdout and "search not finished" not in r.stdout
    d = json.loads(invoke("solve", KINGS, "--depth", "4", "--json").stdout)
    assert d["exact"] is True and d["win"] == "b"


def test_an_unfinished_bounded_solve_still_says_estimated():
    start = "brisque Q9.Q9..Q7/.87.KJ9.J TS 8DKHAHKCJSKS8SASTH7SACQDTC9CTD8CJHAD7D - - a 0:0"
    a = solve(start, limit=Limit(nodes=1000))
    assert a.lower != a.upper and not a.exact and a.win is None
    assert a.to_dict()["exact"] is False
