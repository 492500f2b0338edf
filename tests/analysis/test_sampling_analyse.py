"""The sampling analysis (solver.analysis.sampling.analyse): determinism, exact answers without
hidden cards, every move scored on the same worlds, and the stopping rules."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest
from helpers import NOTATION_EXAMPLES

from solver.analysis.chance_worlds import world_chance_values
from solver.analysis.sampling import SampledAnalysis, analyse
from solver.analysis.worlds import sample_worlds, world_count
from solver.engine.results import Analysis
from solver.engine.seam import new_engine
from solver.engine.solving import solve
from solver.errors import PositionError
from solver.model.bits import popcount
from solver.model.cards import parse_card
from solver.model.moves import move
from solver.model.position import Position
from solver.play.dealing import random_position

# a's view at trick 4 (NOTATION.md): 19 unseen cards, depth-limited search per world
EARLY_VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
# the last two talon tricks: every world is solved exactly
BRISCAN_T10_VIEW = "briscan ?5/AT.A..A7 8H 3 KQ8.TKQJ9.ATKQ87.TKQ9 - b 27:44 tricks=6:3"
BRISQUE_T9_VIEW = "brisque A97.J.QJ./?6 7D 3 TK8.TKQ987.ATK.KQJ7 - a 13:52 tricks=1:7 exchanged=b taken=AD"
PETITE_T2_VIEW = "petite .J9.8.9/?4 8H 21 8...Q - a 3:0 tricks=1:0"
BRISQUE_T10 = "brisque 7.A.8.AJ7/J9.8.9.K8 TC 7H ATKQ8.TKQJ9.ATKQJ7.Q9 - a 41:39 tricks=6:3"
BRISQUE_WINDOW = "brisque AJ.Q..A87/T87.8..Q JC 0 KQ9.ATKJ97.ATKQJ987.TK9 - a 57:21 tricks=8:2"
BRISCAN_FINAL = "briscan .TJ8..K/J.9..Q9 H 0 ATKQ987.AKQ7.ATKQJ987.ATJ87 - b 47:62 tricks=5:7 final=0:1"


def key(a) -> tuple:
    """Everything of a sampled answer except the time taken."""
    d = a.to_dict()
    d.pop("seconds")
    return tuple(sorted((k, json.dumps(v)) for k, v in d.items()))


def per_move(a) -> list[tuple]:
    return [(str(m.move), m.value, getattr(m, "stderr", None)) for m in a.moves]


def hide(p: Position, player: int, keep: int = 0) -> Position:
    """``p`` with ``player``'s cards hidden as ``?N``, except those in ``keep``."""
    v = p.copy()
    v.unknown[player] = popcount(v.hands[player] & ~keep)
    v.hands[player] &= keep
    return Position(v.bpn())


def mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


# ---------------------------------------------------------------------------- 4. determinism
def test_same_seed_same_answer_and_other_seeds_differ():
    a = analyse(EARLY_VIEW, worlds=30, seed=7)
    b = analyse(Position(EARLY_VIEW), worlds=30, seed=7)
    assert isinstance(a, SampledAnalysis) and a.method == "pimc"
    assert a.world_method == "depth 3 learned"
    assert key(a) == key(b)
    c = analyse(EARLY_VIEW, worlds=30, seed=8)
    assert c.seed == 8 and a.seed == 7
    assert per_move(a) != per_move(c), "another seed gave exactly the same values"
    assert [w.bpn() for w in sample_worlds(Position(EARLY_VIEW), 30, 7)] != [
        w.bpn() for w in sample_worlds(Position(EARLY_VIEW), 30, 8)
    ]


def test_workers_and_executors_do_not_change_the_answer():
    cases = [(EARLY_VIEW, 30, 5, 10), (BRISCAN_T10_VIEW, 30, 2, 7), (PETITE_T2_VIEW, 25, 1, 10)]
    serial = [analyse(bpn, worlds=n, seed=s, batch=b) for bpn, n, s, b in cases]
    two = [analyse(bpn, worlds=n, seed=s, batch=b, workers=2) for bpn, n, s, b in cases]
    with ProcessPoolExecutor(max_workers=2) as pool:
        passed = [analyse(bpn, worlds=n, seed=s, batch=b, executor=pool) for bpn, n, s, b in cases]
        # the executor is the caller's: still usable afterwards
        assert pool.submit(int, "3").result() == 3
    for (bpn, n, _, _), a, b, c in zip(cases, serial, two, passed):
        assert a.worlds == b.worlds == c.worlds == n, bpn
        assert per_move(a) == per_move(b) == per_move(c), bpn
        assert key(a) == key(b) == key(c), bpn


def test_same_answer_in_a_fresh_process_with_another_hash_seed():
    outs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "solver.cli",
                "analyse",
                EARLY_VIEW,
                "--worlds",
                "20",
                "--seed",
                "5",
                "--json",
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd="/",
            timeout=120,
        )
        assert r.returncode == 0, r.stderr
        d = json.loads(r.stdout)
        d.pop("seconds")
        outs.append(d)
    assert outs[0] == outs[1]
    here = analyse(EARLY_VIEW, worlds=20, seed=5).to_dict()
    here.pop("seconds")
    assert here == outs[0]


# ---------------------------------------------------------------------------- 5. exact cases
PERFECT = [
    NOTATION_EXAMPLES[0],
    NOTATION_EXAMPLES[1],
    BRISQUE_T10,
    BRISQUE_WINDOW,
    BRISCAN_FINAL,
    "briscan 97..J9.8/AT.A..J7 8H 7H KQJ8.TKQJ9.ATKQ87.ATKQ9 - b 27:57 tricks=6:4",
    "petite ..8.9/A..7. 8H 21 KQ8.J9..Q - a 12:0 tricks=3:0",
    "petite .J9.8.Q9/AKQ8..7. 8H 21 - - a 0:0",
]


@pytest.mark.parametrize("bpn", PERFECT)
def test_perfect_information_gives_the_exact_solve(bpn):
    p = Position(bpn)
    assert not p.has_hidden
    a = analyse(p, worlds=5, seed=3)
    s = solve(Position(bpn))
    assert isinstance(a, Analysis) and a.method == "exact"
    assert a.value == s.value
    assert [str(m) for m in a.best] == [str(m) for m in s.best]
    assert per_move(a) == per_move(s)
    assert len(a.moves) == len(p.legal_moves())
    assert a.to_dict()["method"] == "exact"


def _final_phase_cases():
    """(true position, hand-written view with the opponent's hand as ?N) pairs."""
    out = []
    ex1, ex2 = (Position(b) for b in NOTATION_EXAMPLES[:2])
    out.append((ex1, hide(ex1, 0)))  # b to lead, a hidden
    out.append((ex2, hide(ex2, 1)))  # a to answer KD
    out.append((ex2, hide(ex2, 1, keep=1 << parse_card("QD"))))  # b showed the QD
    window = Position(BRISQUE_WINDOW)
    out.append((window, hide(window, 1)))  # last-pickup window
    for game, seed, trick in (
        ("brisque", 2, 12),
        ("brisque", 5, 14),
        ("briscan", 1, 13),
        ("briscan", 4, 15),
        ("petite(draw=yes)", 3, 13),
    ):
        p = random_position(seed, game, trick)
        assert p.talon_count == 0 and not p.is_over(), p.bpn()
        out.append((p, hide(p, 1 - p.turn)))
    return out


@pytest.mark.parametrize("true_p, view", _final_phase_cases(), ids=lambda x: x.bpn())
def test_final_phase_views_get_the_exact_answer(true_p, view):
    assert view.problems() == [], view.bpn()
    assert view.has_hidden and view.unknown[1 - view.turn] > 0
    assert world_count(view) == 1
    a = analyse(view, worlds=50, seed=1)
    s = solve(true_p)
    assert a.method == "exact"
    assert a.bpn == view.bpn()
    assert a.value == s.value
    assert per_move(a) == per_move(s)
    assert [str(m) for m in a.best] == [str(m) for m in s.best]
    # Position.view() of a final-phase position already shows everything
    full = true_p.view(true_p.turn)
    assert not full.has_hidden
    f = analyse(full, worlds=50, seed=1)
    assert f.value == s.value and per_move(f) == per_move(s)


def test_notation_final_phase_view_value():
    v = "brisque AK9.97..9/?5 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"
    a = analyse(v, worlds=10, seed=0)
    assert a.method == "exact" and a.value == -4
    assert a.move_value("AS") == -18


def test_a_known_talon_order_is_the_only_world():
    # both hands shown, one face-down card whose identity follows from the rest
    v = Position("brisque 7.A.8.AJ7/J9.8.9.K8 TC 1 ATKQ8.TKQJ9.ATKQJ7.Q9 - a 41:39 tricks=6:3")
    assert v.has_hidden and world_count(v) == 1
    a = analyse(v, worlds=10, seed=0)
    s = solve(BRISQUE_T10)
    assert a.value == s.value and per_move(a) == per_move(s)


# ---------------------------------------------------------------------------- 6. same worlds
@pytest.mark.parametrize(
    "bpn, n, seed, method",
    [
        (BRISCAN_T10_VIEW, 20, 4, "expectimax"),  # (Briscan's quick search: the draws by chance here)
        (BRISQUE_T9_VIEW, 25, 6, "exact"),
        (PETITE_T2_VIEW, 30, 2, "exact"),
    ],
)
def test_every_move_is_scored_on_the_same_worlds(bpn, n, seed, method):
    v = Position(bpn)
    a = analyse(v, worlds=n, seed=seed)
    # (in Brisque three tricks to the learned network reach the final phase here)
    assert a.world_method == method and not a.enumerated and a.worlds == n
    legal = v.legal_moves()
    assert [m.move for m in a.moves] == legal, "one entry per legal move, in order"
    # recompute from the same worlds, each solved exactly (double dummy, or expectimax)
    values = {str(m): [] for m in legal}
    engine = new_engine(v.rules)
    for w in sample_worlds(v, n, seed):
        chance = world_chance_values(engine, w) if method == "expectimax" else None
        if chance is not None:
            assert list(chance) == [int(m) for m in legal]
            for m, x in chance.items():
                values[str(move(m))].append(x)
            continue
        s = solve(w)
        assert [m.move for m in s.moves] == legal
        for mv in s.moves:
            values[str(mv.move)].append(mv.value)
    for mv in a.moves:
        mean, se = mean_se([float(x) for x in values[str(mv.move)]])
        assert mv.value == pytest.approx(mean, abs=1e-9), str(mv.move)
        assert mv.stderr == pytest.approx(se, abs=1e-9), str(mv.move)
    _check_summary(a)


def _check_summary(a: SampledAnalysis) -> None:
    top = max(m.value for m in a.moves)
    assert a.value == top
    assert a.best and all(a.move_value(m) == top for m in a.best)
    assert {str(m.move) for m in a.moves if m.value == top} == {str(m) for m in a.best}
    assert a.stderr == next(m.stderr for m in a.moves if m.value == top)
    if a.worlds < 2 and not a.enumerated:  # (one sampled world: no standard error, not 0)
        assert all(m.stderr is None for m in a.moves)
    else:
        assert all(m.stderr is not None and m.stderr >= 0 and math.isfinite(m.stderr) for m in a.moves)
    assert a.pv and a.pv[0] == a.best[0]
    d = a.to_dict()
    assert d["method"] == "pimc" and d["worlds"] == a.worlds and len(d["moves"]) == len(a.moves)


@pytest.mark.parametrize(
    "bpn",
    [
        EARLY_VIEW,
        PETITE_T2_VIEW,
        "briscan .TQ8..Q7/?5 KH 19 .9.T. - a 10:10 tricks=1:0",
        "brisque ?6/KJ.KQ.T7. AD 17 .8.K. - b 0:4 tricks=0:1",
    ],
)
def test_summary_of_a_sampled_analysis(bpn):
    v = Position(bpn)
    a = analyse(v, worlds=20, seed=1)
    assert a.worlds == 20 and a.stopped == "worlds" and a.turn == "ab"[v.turn]
    assert a.bpn == v.bpn()
    assert [m.move for m in a.moves] == v.legal_moves()
    _check_summary(a)


def test_one_world_has_no_stderr():
    # (not 0, which a script reads as certain: one world says nothing of the spread)
    a = analyse(EARLY_VIEW, worlds=1, seed=3)
    assert a.worlds == 1 and a.stderr is None and all(m.stderr is None for m in a.moves)
    _check_summary(a)


def test_progress_reports_every_round():
    seen = []
    a = analyse(
        EARLY_VIEW, worlds=30, seed=1, batch=10, progress=lambda done, total: seen.append((done, total))
    )
    assert seen and seen[-1] == (30, 30)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert a.worlds == 30


def test_time_limit_stops_early():
    a = analyse(EARLY_VIEW, worlds=50_000, seed=1, time_limit=0.3, batch=10)
    assert a.stopped == "time"
    assert 1 <= a.worlds < 50_000
    assert a.enumerated is False
    assert [m.move for m in a.moves] == Position(EARLY_VIEW).legal_moves()
    _check_summary(a)
    # the worlds it did solve are the first ones of the seeded sample
    b = analyse(EARLY_VIEW, worlds=a.worlds, seed=1)
    assert per_move(a) == per_move(b)


def test_time_limit_on_an_enumerable_view_is_not_enumerated():
    v = Position(BRISQUE_T9_VIEW)
    assert world_count(v) == 504
    a = analyse(v, worlds=1000, seed=1, time_limit=0.1)
    assert a.stopped == "time" and a.worlds < 504 and a.enumerated is False


def _paired_z(values, first, second):
    diffs = [x - y for x, y in zip(values[first], values[second])]
    return mean_se(diffs)


def test_separation_stops_when_one_move_is_clearly_best():
    v = Position(BRISQUE_T9_VIEW)
    z = 3.0
    a = analyse(v, worlds=200, seed=3, separation=z, batch=10)
    assert a.stopped == "separated"
    assert 20 <= a.worlds < 200 and a.worlds % 10 == 0
    _check_summary(a)
    # check the rule against the same worlds solved here: at the stopping point the best
    # move leads the runner-up by more than z standard errors of the paired difference,
    # and at no earlier batch boundary (from the second batch on) did it
    values = {str(m): [] for m in v.legal_moves()}
    for w in sample_worlds(v, a.worlds, 3):
        for mv in solve(w).moves:
            values[str(mv.move)].append(mv.value)

    def separated(k):
        means = {m: sum(xs[:k]) / k for m, xs in values.items()}
        ranked = sorted(means, key=lambda m: -means[m])
        diff, se = _paired_z({m: xs[:k] for m, xs in values.items()}, ranked[0], ranked[1])
        return diff > 0 and (se == 0 or diff > z * se)

    assert separated(a.worlds)
    assert not any(separated(k) for k in range(20, a.worlds, 10))
    assert str(a.best[0]) == max(values, key=lambda m: sum(values[m]))
    # without the rule, all worlds are solved; a huge z never separates
    b = analyse(v, worlds=40, seed=3, separation=1e9)
    assert b.stopped == "worlds" and b.worlds == 40


@pytest.mark.parametrize("batch", [3, 5])
def test_separation_waits_for_two_batches(batch):
    # a position where one move leads clearly from the very first world on
    v = Position("brisque AJ.8.7.KQ/?6 7S 3 TK8.ATQ9.ATKQ98.A98 - a 4:73 tricks=1:7 exchanged=a taken=KS")
    a = analyse(v, worlds=60, seed=1, separation=3.0, batch=batch)
    assert a.stopped == "separated"
    assert a.worlds == 2 * batch
    full = analyse(v, worlds=60, seed=1, batch=batch)
    assert full.worlds == 60 and full.stopped == "worlds"
    assert str(full.best[0]) == str(a.best[0])


# ---------------------------------------------------------------------------- errors
def test_analyse_refuses_the_wrong_view():
    p = Position(BRISQUE_T10)
    with pytest.raises(PositionError, match="player to move"):
        analyse(p.view("b"), worlds=10)  # a to move, a's hand hidden
    with pytest.raises(PositionError, match="impossible"):
        analyse("brisque 7.A.8.AJ7/?5 TC 1 ATKQ8.TKQJ9.ATKQJ7.Q9 - a 41:39 tricks=6:3", worlds=10)


def test_the_runner_up_is_the_paired_difference_over_the_same_worlds():
    """Whether the best move really beats the runner-up: the mean of their difference world
    by world, with the standard error of that paired difference (smaller than either
    move's own when the worlds move both alike), in the answer and its JSON."""
    v = Position(BRISQUE_T9_VIEW)
    a = analyse(v, worlds=25, seed=6)
    values = {str(m): [] for m in v.legal_moves()}
    for w in sample_worlds(v, 25, 6):
        for mv in solve(w).moves:
            values[str(mv.move)].append(mv.value)
    best = str(a.best[0])
    second = max((m for m in values if m != best), key=lambda m: sum(values[m]))
    diff, se = _paired_z(values, best, second)
    r = a.runner_up
    assert r is not None and str(r.move) == second
    assert r.difference == pytest.approx(diff, abs=1e-9) and r.stderr == pytest.approx(se, abs=1e-9)
    assert r.stderr < a.moves[[str(m.move) for m in a.moves].index(second)].stderr
    assert a.to_dict()["runner_up"] == {"move": second, "difference": round(diff, 3), "stderr": round(se, 3)}
    every = analyse("brisque 7.A.8.AJ7/?6 TC 1 ATKQ8.TKQJ9.ATKQJ7.Q9 - a 41:39 tricks=6:3", worlds=50)
    assert every.enumerated and every.runner_up is not None  # (7 worlds: no sampling noise)
    assert every.runner_up.stderr == 0.0 and every.runner_up.difference >= 0
