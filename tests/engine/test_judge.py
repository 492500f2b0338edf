"""A line's exact analysis without every move's exact value (``Solver.judge``): the value,
the played move's value and the best moves are those of the full solve, on seeded
positions of every game, mid-trick and on lead, with the talon and without."""

from __future__ import annotations

import random

import pytest
from helpers import NOTATION_EXAMPLES

import solver
from solver.analysis.line import analyse_line
from solver.engine.solving import shared_solver, solve
from solver.errors import ArgumentTypeError
from solver.model.position import Position
from solver.play.dealing import deal


def seeded(game: str, count: int) -> list[Position]:
    """Positions of ``game`` late in the deal (the last two talon tricks, or five cards
    each without a talon) played to by seeded random moves, the trick sometimes begun."""
    out: list[Position] = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        p = deal(seed, game)
        while not p.is_over() and (p.talon_count > 4 if p.rules.draws else p.hand_size(p.turn) > 5):
            p.push(rng.choice(p.legal_moves()))
        if not p.is_over() and rng.random() < 0.5:
            p.push(rng.choice(p.legal_moves()))
        if not p.is_over():
            p.clear_stack()
            out.append(p)
    return out


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite", "petite(draw=yes)"])
def test_judge_is_the_full_solve(game):
    rng = random.Random(7)
    for p in seeded(game, 300):
        m = rng.choice(p.legal_moves())
        value, played, best = shared_solver(p.rules).judge(p, m)
        a = solve(p)
        assert value == a.value, p.bpn()
        assert played == a.move_value(m), (p.bpn(), str(m))
        assert [str(b) for b in best] == [str(b) for b in a.best], p.bpn()


def test_an_exact_line_is_judged_as_the_full_solve_judges_it():
    p = seeded("brisque", 1)[0]
    a = solve(p)
    moves = list(a.pv)[:6]
    steps = analyse_line(p, moves, auto_limit=False)
    q = p.copy()
    for step, m in zip(steps, moves, strict=True):
        full = solve(q)
        assert (step.best_value, step.move_value, [str(b) for b in step.best]) == (
            full.value,
            full.move_value(m),
            [str(b) for b in full.best],
        )
        assert step.loss == full.value - full.move_value(m) and step.exact
        q.push(m)


def test_a_move_that_is_not_legal_at_the_engine_root_is_refused():
    p = seeded("brisque", 1)[0]
    s = shared_solver(p.rules)
    s.load(p)
    illegal = next(c for c in range(32) if not p.is_legal(c))
    with pytest.raises(ValueError, match="not legal"):
        s.engine.move_value(illegal)


FP = NOTATION_EXAMPLES[0]  # b to lead, value 44 for b


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
