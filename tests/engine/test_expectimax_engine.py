"""The compiled expectimax (``Engine.chance_move``, ``chance_value``): every draw a chance
event, exact values as integers times ``chance_scale``.  Held move by move to the plain
Python reference (solver.engine.reference_chance), to the double-dummy search where one
card is face down (no chance left), to itself whatever order the talon is given in, and
to fail-soft bounds inside a window."""

from __future__ import annotations

import math
import os
import random
import signal
import threading
from fractions import Fraction

import pytest

from solver.engine.reference_chance import expectimax_values
from solver.engine.results import current_margin
from solver.engine.seam import engine_root, new_engine
from solver.engine.solving import solve
from solver.errors import ArgumentError
from solver.model.position import Position
from solver.model.value import Value
from solver.native.constants import WIN_RAW
from solver.native.engine import Engine
from solver.play.dealing import positions_with_talon_left

GAMES = ("brisque", "briscan")
SEED = 1100  # (the positions from here on hold a game win at stake in each game)


def _windows(v: int) -> list[tuple[int, int]]:
    """Windows around an exact value ``v``: narrow, and wholly above or below it."""
    return [(v - 1, v + 1), (v - 50, v), (v - 3000, v - 100), (v, v + 50), (v + 100, v + 3000)]


def _engine(p: Position) -> Engine:
    e = new_engine(p.rules)
    e.load(engine_root(p))
    return e


def _scaled(e: Engine, p: Position) -> dict[str, int]:
    """Every legal move's compiled value, as the engine gives it (times ``chance_scale``);
    ``p`` loaded."""
    past = current_margin(p)
    return {str(m): e.chance_move(int(m), past) for m in p.legal_moves()}


def _compiled(e: Engine, p: Position) -> dict[str, Fraction]:
    """Every legal move's compiled value as a final result, ``p`` loaded in ``e``."""
    return {m: Fraction(v, e.chance_scale) for m, v in _scaled(e, p).items()}


def _final(v: Value) -> int:
    """A double-dummy answer's value as a final result: the margin, or +-WIN_RAW."""
    return (WIN_RAW if v.won else -WIN_RAW) if v.is_game_win else int(v)


@pytest.mark.parametrize("game", GAMES)
def test_every_move_agrees_with_the_reference_two_talon_tricks_left(game):
    # one engine for every position (its tables warm from the ones before), then the first
    # positions again from cleared chance tables: the same values
    ps = positions_with_talon_left(2, 150, game, first_seed=SEED)
    e = new_engine(ps[0].rules)
    at_stake = 0
    for p in ps:
        reference = expectimax_values(p)
        e.load(engine_root(p))
        assert _compiled(e, p) == reference, p.bpn()
        at_stake += any(abs(v) > WIN_RAW / 10 for v in reference.values())
    assert at_stake > 0  # (a chance of a game won somewhere: its arithmetic is checked too)
    for p in ps[:20]:
        e.chance_clear()
        e.load(engine_root(p))
        assert _compiled(e, p) == expectimax_values(p), p.bpn()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_move_agrees_with_the_reference_three_talon_tricks_left(game):
    for p in positions_with_talon_left(3, 2, game, first_seed=SEED):
        assert _compiled(_engine(p), p) == expectimax_values(p), p.bpn()


@pytest.mark.parametrize("game", GAMES)
def test_one_card_face_down_is_the_double_dummy_value(game):
    # no chance left (the last talon card goes to the trick's winner, the turnup to the
    # loser): the expectimax is the double-dummy search's final result, move by move
    for p in positions_with_talon_left(1, 40, game, first_seed=SEED):
        assert p.talon_count == 1
        e = _engine(p)
        assert e.chance_scale == 1
        dd = {str(mv.move): _final(mv.value) for mv in solve(p).moves}
        values = _scaled(e, p)
        assert values == dd, p.bpn()
        assert e.chance_value(current_margin(p)) == max(values.values())


@pytest.mark.parametrize("game", GAMES)
def test_the_root_value_is_its_best_move_and_values_are_whole_multiples(game):
    # three cards face down: 3! ordered draws, every value a whole number of sixths
    for p in positions_with_talon_left(2, 20, game, first_seed=SEED):
        e = _engine(p)
        assert e.chance_scale == math.factorial(p.talon_count) == 6
        values = _scaled(e, p)
        assert all(isinstance(v, int) for v in values.values())
        assert all((Fraction(v, 6) * 6).denominator == 1 for v in values.values())
        e.chance_clear()
        assert e.chance_value(current_margin(p)) == max(values.values()), p.bpn()


@pytest.mark.parametrize("game", GAMES)
def test_the_order_the_talon_is_given_in_changes_nothing(game):
    for i, p in enumerate(positions_with_talon_left(2, 15, game, first_seed=SEED)):
        values = _scaled(_engine(p), p)
        shuffled = p.copy()
        assert shuffled.talon is not None
        rng = random.Random(i)
        while shuffled.talon == p.talon:  # (another order, not by chance the same)
            rng.shuffle(shuffled.talon)
        assert _scaled(_engine(shuffled), shuffled) == values, p.bpn()


@pytest.mark.parametrize("game", GAMES)
def test_a_window_gives_the_value_inside_it_and_a_fail_soft_bound_outside(game):
    # each search from cleared chance tables (a warm table would answer exactly); a bound
    # lies between the window's edge and the value; the exact value afterwards is unchanged
    bounds = 0
    for p in positions_with_talon_left(2, 10, game, first_seed=SEED):
        e, past = _engine(p), current_margin(p)
        for m in p.legal_moves():
            move = int(m)
            v = e.chance_move(move, past)
            for alpha, beta in _windows(v):
                e.chance_clear()
                r = e.chance_move(move, past, alpha, beta)
                if alpha < v < beta:
                    assert r == v, (p.bpn(), m, alpha, beta)
                elif beta <= v:
                    assert beta <= r <= v, (p.bpn(), m, alpha, beta)
                else:
                    assert v <= r <= alpha, (p.bpn(), m, alpha, beta)
                bounds += r != v
            assert e.chance_move(move, past) == v
    assert bounds > 0  # (the windows did cut the search somewhere)


def test_more_than_fifteen_face_down_cards_are_refused():
    (p,) = positions_with_talon_left(9, 1, "brisque", first_seed=SEED)
    assert p.talon_count == 17
    e = _engine(p)
    with pytest.raises(ArgumentError, match="17 face-down cards: the exact expectimax takes at most 15"):
        e.chance_move(int(p.legal_moves()[0]), current_margin(p))
    with pytest.raises(ArgumentError, match="at most 15"):
        e.chance_value(current_margin(p))


def test_a_node_budget_aborts_the_search_and_the_engine_answers_after():
    # fifteen cards face down (15!: the most int64 holds) is accepted, and no search of it
    # ends within 50 nodes
    (deep,) = positions_with_talon_left(8, 1, "brisque", first_seed=SEED)
    assert deep.talon_count == 15
    e = _engine(deep)
    e.set_limits(nodes=50)
    e.chance_move(int(deep.legal_moves()[0]), current_margin(deep))
    assert e.aborted
    (p,) = positions_with_talon_left(2, 1, "brisque", first_seed=SEED)
    e.load(engine_root(p))
    e.chance_move(int(p.legal_moves()[0]), current_margin(p))
    assert e.aborted  # (the budget holds until cleared)
    e.clear_limits()
    assert _compiled(e, p) == expectimax_values(p) and not e.aborted


def test_ctrl_c_stops_the_search_and_the_engine_answers_after():
    (deep,) = positions_with_talon_left(8, 1, "brisque", first_seed=SEED)
    e = _engine(deep)
    e.set_limits(seconds=10)  # (a backstop: were the interrupt lost, the test fails, not hangs)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            e.chance_move(int(deep.legal_moves()[0]), current_margin(deep))
    finally:
        timer.cancel()
    e.clear_limits()
    (p,) = positions_with_talon_left(2, 1, "brisque", first_seed=SEED)
    e.load(engine_root(p))
    assert _compiled(e, p) == _compiled(_engine(p), p) == expectimax_values(p)


def test_sampled_chance_nodes_are_the_same_draws_whatever_the_talons_order():
    p = positions_with_talon_left(3, 1, "brisque", first_seed=5)[0]
    engine = new_engine(p.rules)

    def values(q: Position, shifts: int) -> list[int]:
        engine.set_chance_sampling(shifts, seed=7)
        engine.load(engine_root(q))
        return [engine.chance_move(m, current_margin(q)) for m in sorted(engine.root_moves())]

    exact, sampled = values(p, 0), values(p, 1)
    assert values(p, 4) == exact  # (four rotations of five cards: every draw)
    assert sampled != exact
    q = p.copy()
    assert q.talon is not None
    random.Random(1).shuffle(q.talon)
    assert values(q, 1) == sampled
    # one rotation of five cards: five draws of twenty, each weighing four; the values stay
    # on the exact scale (5!) and near the exact ones
    scale = 120
    assert max(abs(a - b) for a, b in zip(exact, sampled, strict=True)) / scale < 15
    with pytest.raises(ArgumentError, match="shifts=-1"):
        engine.set_chance_sampling(-1)
