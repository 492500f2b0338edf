"""Defects found by trying the analysis with hidden cards as a new user would (fourth round):
brisque analyse, line, match and puzzles on views, and the same from Python; each test
with the input that showed it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest

import solver
from solver.errors import ArgumentTypeError, HiddenInformationError

BRISQUE = [sys.executable, "-m", "solver.cli"]
OUTSIDE = tempfile.gettempdir()  # (run from the checkout, python -m would find its unbuilt source first)
VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"  # a's view at trick 4
EARLY = "brisque ?6/T.TJ9.9.K QC 15 ..TKQJ. - b 0:19 tricks=0:2"  # b's view at trick 3
PETITE = "petite A..J.K/?3 8D 21 KJ.T.Q. - a 13:6 tricks=1:1 void=b:D"  # 969 worlds


def brisque(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=OUTSIDE, **kw)


def interrupted(args: list[str], after: float, stdin: str | None = None, within: float = 30.0):
    """Run brisque ARGS, send SIGINT after ``after`` seconds (to the command alone, as
    ``timeout -s INT`` or ``kill -INT`` do), and return (status, stdout, stderr, seconds from
    the signal to the end).  A command still running ``within`` seconds after the signal
    fails the test (its process group is killed)."""
    proc = subprocess.Popen(
        [*BRISQUE, *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
        start_new_session=True,
    )
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
        proc.stdin = None
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    try:
        out, err = proc.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"brisque {' '.join(args)} still ran {within} s after Ctrl-C")
    return proc.returncode, out, err, time.monotonic() - t0


# ---- Ctrl-C


@pytest.mark.slow
def test_ctrl_c_before_the_first_world_does_not_wait_for_the_workers():
    # with --workers 2, Ctrl-C before any world was solved printed "interrupted" and then
    # waited for every queued task of the workers (which ignore Ctrl-C): minutes here
    status, out, err, seconds = interrupted(
        ["analyse", EARLY, "--world-search", "exact", "--worlds", "1000", "--workers", "2"], after=2.0
    )
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    assert seconds < 10


@pytest.mark.slow
def test_ctrl_c_before_the_first_deal_pair_does_not_wait_for_the_workers():
    # the same in brisque match: the orderly shutdown waited for every pair queued
    status, out, err, seconds = interrupted(
        ["match", "pimc:3000", "pimc:3000", "--deals", "6", "--workers", "2"], after=2.0
    )
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    assert seconds < 10


@pytest.mark.slow
def test_ctrl_c_stops_a_batch_of_sampled_analyses():
    # analyse - printed the interrupted line's answer so far, then went on with the next
    # lines and exited 0, as if nothing had happened
    lines = "\n".join([EARLY] * 4) + "\n"
    status, out, err, _ = interrupted(
        ["analyse", "-", "--worlds", "100000", "--seconds", "1.5"], after=2.5, stdin=lines
    )
    answers = [json.loads(line) for line in out.splitlines()]
    assert status == 130 and "Traceback" not in err, err
    assert answers and answers[-1]["stopped"] == "interrupted"
    assert len(answers) < 4 and all(a["stopped"] == "time" for a in answers[:-1])


@pytest.mark.slow
def test_ctrl_c_during_a_sampled_puzzle_is_not_a_verdict():
    # puzzles judged the interrupted record on its worlds so far ("ok"), then sampled the
    # next records in full and exited 0
    with tempfile.NamedTemporaryFile("w", suffix=".bpd", delete=False) as f:
        for i in range(3):
            f.write(f'{EARLY} ; id "h{i}" ; bm 9H ; worlds 100000 ; seed 1\n')
    try:
        status, out, err, _ = interrupted(["puzzles", f.name], after=2.0)
    finally:
        os.unlink(f.name)
    assert status == 130 and "interrupted" in err and "Traceback" not in err, err
    assert "solved" not in out and not out.startswith("ok")


def test_an_interrupted_sampling_raises_in_check_record(monkeypatch):
    from solver.analysis import puzzles
    from solver.formats.bpd import parse_record

    real = puzzles.analyse

    def interrupted_analyse(*args, **kw):
        a = real(*args, **{**kw, "worlds": 10})
        a.stopped = "interrupted"
        return a

    monkeypatch.setattr(puzzles, "analyse", interrupted_analyse)
    with pytest.raises(KeyboardInterrupt):
        puzzles.check_record(parse_record(f'{VIEW} ; id "x" ; bm 9H'))


# ---- the Python API


@pytest.mark.parametrize("search", [3, None, b"exact", ["exact"]])
def test_analyse_refuses_a_world_search_that_is_not_a_spec(search):
    # analyse(view, world_search=3) was "AttributeError: 'int' object has no attribute 'limit'"
    with pytest.raises(ArgumentTypeError, match=r"world_search=.*: expected a WorldSearch or a spec string"):
        solver.analyse(VIEW, world_search=search)


def test_analyse_still_takes_a_world_search_object_or_spec():
    from solver.engine.quick import WorldSearch

    for search in (WorldSearch("handmade", 2), "handmade:2"):
        assert solver.analyse(VIEW, worlds=3, world_search=search).world_method == "depth 2 hand-made"


# ---- brisque line through a hidden hand


def test_a_line_through_a_hidden_hand_names_the_move():
    # "the legal moves of b are unknown: ..." said neither which move nor why it was asked
    with pytest.raises(HiddenInformationError, match=r"move 2 \(KS\) is b's, whose hand is hidden"):
        solver.analyse_line(PETITE, "AS KS", worlds=20)
    r = brisque("line", PETITE, "AS", "KS", "--worlds", "20")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "move 2 (KS) is b's, whose hand is hidden" in r.stderr


# ---- an enumeration cut short


def test_an_enumeration_cut_short_is_a_fair_sample_not_the_first_worlds():
    # with --worlds above the 969 worlds of this view, a time limit kept the first worlds of
    # the lexicographic enumeration (b's lowest cards first): "+2.87 +- 0.09, sampled" for an
    # exact value of +2.40 (checked by hand over the 969 worlds); the separation rule and
    # Ctrl-C cut it the same way
    from solver.analysis.worlds import all_worlds, shuffled_worlds, world_count

    v = solver.Position(PETITE)
    assert world_count(v) == 969
    exact = solver.analyse(v, worlds=5000)
    assert exact.enumerated and exact.value == pytest.approx(2.4035, abs=1e-4)
    first = [w.bpn() for w, _ in zip(all_worlds(v), range(40), strict=False)]
    shuffled = [w.bpn() for w, _ in zip(shuffled_worlds(v, 0), range(40), strict=False)]
    assert shuffled != first
    assert sorted(w.bpn() for w in shuffled_worlds(v, 0)) == sorted(w.bpn() for w in all_worlds(v))
    # the first 40 of the enumeration are biased by about 10 standard errors
    biased = sum(solver.solve(w).value for w in first[:40]) / 40 - 2.4035
    assert abs(biased) > 0.3

    def ctrl_c(done: int, total: int) -> None:
        if done >= 40:
            raise KeyboardInterrupt

    means = []
    for seed in range(5):
        cut = solver.analyse(v, worlds=5000, seed=seed, progress=ctrl_c)
        assert cut.stopped == "interrupted" and not cut.enumerated and cut.worlds == 40
        means.append(cut.value)
    assert abs(sum(means) / len(means) - 2.4035) < 0.15


@pytest.mark.parametrize("n", [0, 1, 5, 1000, 150_001])
def test_a_seeded_order_of_the_worlds_takes_each_once(n):
    from solver.analysis.worlds import _shuffled_range

    order = list(_shuffled_range(n, 7))
    assert sorted(order) == list(range(n))
    assert n < 5 or order != list(range(n))
    assert order == list(_shuffled_range(n, 7))


def test_every_world_solved_has_no_standard_error():
    # "+2.40 +- 0.03 (969 worlds, all)": the standard error of an exact mean is 0, as
    # paired_loss already said
    a = solver.analyse(PETITE, worlds=5000)
    assert a.enumerated and a.stderr == 0.0
    assert all(m.stderr == 0.0 and m.margin_stderr == 0.0 for m in a.moves)
    r = brisque("analyse", PETITE, "--worlds", "5000")
    assert "+2.40 +- 0.00 (969 worlds, all" in r.stdout


# ---- information states


@pytest.mark.parametrize(
    "bpn",
    [
        VIEW + " void=b:D",  # Brisque's talon phase: no obligation to follow, and a draw each trick
        "petite(draw=yes) AT9.K..8/?5 9C 21 - - a 0:0 void=b:D",
    ],
)
def test_a_void_with_face_down_cards_left_is_impossible(bpn):
    # accepted, and the sampler then dealt b no diamond on a void no play can reveal: every
    # trick of the talon phase ends with both players drawing, which ends any void
    p = solver.Position(bpn)
    assert any("a void is known with" in problem for problem in p.problems())
    r = brisque("analyse", bpn, "--worlds", "5")
    assert r.returncode == 2 and "impossible position" in r.stderr and "Traceback" not in r.stderr


def test_a_void_without_drawing_stays_possible():
    assert solver.Position(PETITE).problems() == []


@pytest.mark.slow
def test_an_interrupted_match_or_line_says_so_in_its_json():
    # the JSON of a match or a line cut short by Ctrl-C looked like a whole answer (only the
    # exit status and standard error said otherwise); a sampled analysis says "stopped"
    # (fast players, so that pairs are done when the signal lands even on a loaded machine:
    # with none done the answer is {"error": "interrupted"}, as for any command)
    status, out, err, _ = interrupted(["match", "greedy", "random", "--deals", "100000", "--json"], after=5.0)
    assert status == 130 and "Traceback" not in err, err
    summary = json.loads(out)
    assert summary["interrupted"] is True and 0 < summary["pairs"] < 100000
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        rec = solver.run_match("greedy", "random", 1, seed=2).records[0]
        f.write(json.dumps(rec) + "\n")
    try:
        status, out, err, _ = interrupted(
            ["line", "--record", f.name, "--view", "own", "--worlds", "400", "--json"], after=3.0
        )
    finally:
        os.unlink(f.name)
    assert status == 130 and "Traceback" not in err, err
    answer = json.loads(out)
    assert answer["interrupted"] is True and len(answer["steps"]) < len(rec["moves"])


def test_a_whole_match_has_no_interrupted_key():
    r = brisque("match", "greedy", "random", "--deals", "1", "--json")
    assert r.returncode == 0 and "interrupted" not in json.loads(r.stdout)


# ---- options that would be ignored

FULL = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - a 52:35"  # every card known


@pytest.mark.parametrize(
    "options, named",
    [
        (["--worlds", "5", "--seed", "3"], "--worlds 5, --seed 3"),
        (["--seconds", "2"], "--seconds 2"),  # (as typed: trial 17)
        (["--workers", "2", "--json"], "--workers 2"),
    ],
)
def test_analyse_refuses_sampling_options_where_every_card_is_known(options, named):
    # they were ignored (the exact solve answered), as brisque line's were before 7fd5743
    r = brisque("analyse", FULL, *options)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{named}: every card of this position is known" in r.stderr


def test_analyse_of_a_known_position_without_sampling_options_is_the_exact_solve():
    r = brisque("analyse", FULL, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["method"] == "exact"
    batch = brisque("analyse", "-", "--worlds", "5", input=FULL + "\n" + VIEW + "\n")
    assert batch.returncode == 0 and [json.loads(x)["method"] for x in batch.stdout.splitlines()] == [
        "exact",
        "pimc",
    ]


# ---------------------------------------------------------------- left by the round, fixed after
@pytest.mark.parametrize("seat", [1.0, True, 2, None, "c"])
def test_a_seat_is_a_or_b_or_0_or_1_and_nothing_that_equals_them(seat):
    # Position.view(1.0) and view(True) answered b's view: they compare equal to 1
    from solver.errors import NotationError

    p = solver.Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
    with pytest.raises(NotationError, match=r"bad player .*expected a or b \(or 0 or 1\)"):
        p.view(seat)
    assert p.view(1).bpn() == p.view("b").bpn() == p.view("B").bpn()


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({"update_every": float("nan")}, "update_every=nan: expected a finite number of seconds"),
        ({"update_every": -1}, "update_every=-1: expected a finite number of seconds"),
        ({"on_update": 3}, "on_update=3: expected a function or None"),
        ({"progress": "x"}, "progress='x': expected a function or None"),
    ],
)
def test_the_progress_hooks_are_checked_before_any_world(kw, error):
    # a hook that is no function failed at its first call, after the first worlds; nan and
    # negative intervals were taken
    with pytest.raises((solver.ArgumentError, ArgumentTypeError), match=error.replace("(", r"\(")):
        solver.analyse(VIEW, worlds=5, **kw)
