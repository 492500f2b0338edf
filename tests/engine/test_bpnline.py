"""The batch path's native lane (solver.native.bpnline) against the Python path.

The lane answers a line in C only when it is sure of it; its answer must then be the Python
path's byte for byte (``seconds`` aside: the node counts too, from the same table state),
and every line it is not sure of, every impossible or malformed one above all, must be left
to the Python path (``None``), the one source of error messages.
"""

from __future__ import annotations

import json
import random

import pytest

from solver.engine.batchline import fast_answer, lane_for
from solver.engine.solving import Solver
from solver.errors import BrisqueError
from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import deal

# every game, and options that change what the lane checks (scores, drawing, the objective)
RULES_TEXTS = [
    "brisque",
    "briscan",
    "petite",
    "brisque(exchange_points=10)",
    "petite(draw=yes)",
    "briscan(objective=tricks)",
    "brisque(final_follow=follow)",
]


def _cut(answer: str) -> str:
    """An answer without its ``seconds`` (the one field that differs between two runs)."""
    head, sep, _ = answer.rpartition(', "seconds": ')
    assert sep, answer
    return head


def late_positions(rules: Rules, seeds: range) -> list[Position]:
    """Positions with nothing left to draw, reached by random play from seeded deals: every
    move from the moment the talon is gone (mid-trick, the last-pickup window, declarations,
    exchanges), until the deal ends."""
    out = []
    for seed in seeds:
        p = deal(seed, rules)
        rng = random.Random(seed * 7919 + 1)
        while not p.is_over():
            if p.talon_count == 0 or not p.rules.draws:
                out.append(p.copy())
            p.push(rng.choice(p.legal_moves()))
        out.append(p.copy())  # (over: the lane declines it)
    return out


@pytest.mark.parametrize("rules_text", RULES_TEXTS)
def test_the_lane_answers_as_the_python_path(rules_text):
    rules = Rules.parse(rules_text)
    assert str(rules) == rules_text
    lane = lane_for(rules_text)
    assert lane is not None
    _, native = lane
    python, ours = Solver(rules, 16), Solver(rules, 16)  # (the same table state for both)
    taken = 0
    for p in late_positions(rules, range(60)):
        answer = native.answer(ours.engine, p.bpn())
        if p.is_over():
            assert answer is None
            continue
        assert answer is not None, p.bpn()  # (a valid position the lane should take)
        assert _cut(answer) == _cut(python.solve(p).to_json()), p.bpn()
        taken += 1
    assert taken > 200


def test_the_lane_knows_declarations_exchanges_and_the_window():
    """The positions above include the moves that make the lane's rarer branches."""
    seen = set()
    for text in ("brisque", "briscan"):
        for p in late_positions(Rules.parse(text), range(60)):
            b = p.bpn()
            seen |= {k for k in ("melds=", "exchanged=", "taken=", "declared=", "final=") if k in b}
            if p.in_window:
                seen.add("window")
            if p.trick >= 0:
                seen.add("mid-trick")
            if not p.is_over():
                seen |= {str(m)[0] for m in p.legal_moves() if str(m)[0] in "+xp"}
    assert {"melds=", "exchanged=", "final=", "window", "mid-trick", "+", "x", "p"} <= seen


MUTATIONS = "ATKQJ987SHDC.ab0123456789:/-+= "


def mutants(line: str, rng: random.Random, count: int) -> list[str]:
    """Lines near ``line``: a character changed, removed or doubled, two cards swapped
    between the hands or moved to another field, a number changed."""
    out = []
    for _ in range(count):
        kind = rng.randrange(5)
        i = rng.randrange(len(line))
        if kind == 0:
            out.append(line[:i] + rng.choice(MUTATIONS) + line[i + 1 :])
        elif kind == 1:
            out.append(line[:i] + line[i + 1 :])
        elif kind == 2:
            out.append(line[:i] + line[i] + line[i:])
        elif kind == 3:  # swap a card of a's hand with one of b's (often still valid)
            p = Position(line)
            a = [c for c in range(32) if p.hands[0] >> c & 1]
            b = [c for c in range(32) if p.hands[1] >> c & 1]
            if a and b:
                x, y = rng.choice(a), rng.choice(b)
                p.hands[0] ^= (1 << x) | (1 << y)
                p.hands[1] ^= (1 << x) | (1 << y)
            out.append(p.bpn())
        else:  # a number one off
            digits = [j for j, ch in enumerate(line) if ch.isdigit()]
            if digits:
                j = rng.choice(digits)
                out.append(line[:j] + str((int(line[j]) + rng.choice((1, 9))) % 10) + line[j + 1 :])
    return out


def python_answer(solver: Solver, line: str) -> str | None:
    """The Python path's answer, or None when it refuses the line (or the deal is over)."""
    try:
        p = Position(line)
        if p.rules != solver.rules or p.is_over():
            return None
        return solver.solve(p).to_json()
    except BrisqueError:
        return None


@pytest.mark.slow
@pytest.mark.parametrize("rules_text", ["brisque", "briscan", "petite"])
def test_the_lane_takes_no_line_the_python_path_refuses(rules_text):
    """Thousands of lines near valid ones: the lane answers only what the Python path
    answers, and then the same (tables cleared before each, so the node counts agree)."""
    rules = Rules.parse(rules_text)
    lane = lane_for(rules_text)
    assert lane is not None
    _, native = lane
    python, ours = Solver(rules, 14), Solver(rules, 14)
    rng = random.Random(13)
    base = [p.bpn() for p in late_positions(rules, range(40)) if not p.is_over()]
    answered = refused = 0
    for line in base:
        for m in mutants(line, rng, 30):
            python.engine.clear()
            ours.engine.clear()
            expected = python_answer(python, m)
            got = native.answer(ours.engine, m)
            if got is not None:
                assert expected is not None, f"the lane answered a line the Python path refuses: {m!r}"
                assert _cut(got) == _cut(expected), m
                answered += 1
            elif expected is None:
                refused += 1
    assert answered > 50 and refused > 500  # (both kinds were tried)


@pytest.mark.parametrize(
    "line",
    [
        # not canonical: the Python parser reads these, the lane leaves them to it
        "brisque ak9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
        "brisque KA9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
        "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 052:35",
        "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 tricks=0:0",
        "brisque  AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
        "brisque AK9.97..9/7..KQ9.A7 ♦ 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
        # keys the lane does not take, and rules not written canonically
        "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 game=100:20",
        "brisque(exchange=no,target=300) AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
        "brisque(declare=before_draw) AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
        # hidden cards, a known talon, impossible positions, nonsense
        "brisque AK9.97..9/?6 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
        "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1",
        "brisque AK9.97..9/A..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
        "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:36",
        "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 tricks=9:9",
        "brisque x",
        "brisque",
        "",
    ],
)
def test_lines_the_lane_leaves_to_python(line):
    assert fast_answer(line) is None


@pytest.mark.parametrize("rules_text", ["brisque", "brisque(target=300)"])
def test_a_canonical_line_is_answered_natively_with_the_python_answer(rules_text):
    line = f"{rules_text} AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    answer = fast_answer(line)
    assert answer is not None
    d = json.loads(answer)
    assert d["bpn"] == line and d["value"] == 44 and d["turn"] == "b" and d["win"] is None
    assert d["best"][0] == "7S" and {"move": "QD", "value": 4} in d["moves"]


def test_a_game_win_is_written_as_the_python_path_writes_it():
    """A final phase where four kings win the game: ``win`` names the seat, values are
    +-10000 (found among random final-phase positions of Brisque)."""
    rules = Rules.parse("brisque")
    _, native = lane_for("brisque")  # type: ignore[misc]
    python, ours = Solver(rules, 14), Solver(rules, 14)
    wins = 0
    for p in late_positions(rules, range(300)):
        if p.is_over() or p.trick >= 0:
            continue
        answer = native.answer(ours.engine, p.bpn())
        assert answer is not None
        d = json.loads(answer)
        if d["win"] is not None:
            wins += 1
            assert abs(d["value"]) == 10000
            python.engine.clear()
            ours.engine.clear()
            assert _cut(native.answer(ours.engine, p.bpn()) or "") == _cut(python.solve(p).to_json())
    assert wins > 0


def test_the_lane_refuses_no_engine_rather_than_crash():
    _, native = lane_for("brisque")  # type: ignore[misc]
    with pytest.raises(TypeError):
        native.answer(None, "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
