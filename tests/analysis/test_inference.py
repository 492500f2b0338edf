"""Inference from the opponent's play (solver.analysis.inference): histories rebuilt for every
world replay to it, worlds where the opponent would have declared or exchanged weigh less,
the weighted answer is the same with any number of workers, and the command line and the
players use it."""

from __future__ import annotations

import json
import math
import random
from itertools import islice

import pytest

from solver import analyse, deal
from solver.analysis.inference import (
    History,
    Model,
    effective_worlds,
    log_likelihood,
    model_for,
    move_probability,
    world_history,
)
from solver.analysis.worlds import iter_worlds
from solver.errors import ArgumentError, ArgumentTypeError, IllegalMoveError
from solver.model.cards import parse_card
from solver.model.melds import MARRIAGE
from solver.model.moves import EXCHANGE, Move
from solver.model.position import Position
from solver.play.match import run_match
from solver.play.players import make_player


def random_history(seed: int, game: str, moves: int) -> tuple[Position, History]:
    """A deal played on by seeded random moves (declarations and exchanges among them)."""
    p = deal(seed, game)
    rng = random.Random(seed)
    while len(p.move_stack) < moves and not p.is_over():
        p.push(rng.choice(p.legal_moves()))
    return p, History.of(p)


@pytest.mark.parametrize(
    "game", ["brisque", "briscan", "brisque(declare=before_draw)", "briscan(declare=before_draw)"]
)
def test_every_world_gets_a_history_that_replays_to_it(game):
    checked = 0
    for seed in range(40):
        p, h = random_history(seed, game, 4 + seed % 20)
        if p.is_over() or not h.view.has_hidden:
            continue
        # the true deal and sampled worlds: log_likelihood replays the moves from the
        # rebuilt start and refuses one that does not end in the world
        for world in [p, *islice(iter_worlds(h.view, seed), 4)]:
            ll, nodes, _ = log_likelihood(h, world, seed)
            assert ll <= 0 and math.isfinite(ll)
            start = world_history(h, world, random.Random(seed))
            assert start.rules == p.rules and not start.has_hidden
            checked += 1
    assert checked > 100


def test_a_history_is_the_views_of_its_player_and_hides_the_rest():
    p, h = random_history(5, "brisque", 9)
    assert len(h.views) == len(h.moves) + 1 and h.view.bpn() == p.view(p.turn).bpn()
    for v in h.views:
        view = Position(v)
        assert view.talon is None and view.unknown[1 - h.seat] > 0


def test_a_history_refuses_a_start_with_hidden_cards_and_illegal_moves():
    with pytest.raises(ArgumentError, match="hides cards"):
        History.from_play(deal(3).view("a"), [], "a")
    with pytest.raises(IllegalMoveError):
        History.from_play(deal(3), ["AS", "AS"], "a")


def _first_trick_won_by_b(kind: str) -> tuple[Position, Move]:
    """A Brisque deal where b wins the first trick and could then declare (``marriage``) or
    exchange the 7 of trumps (``exchange``), and leads instead, keeping the cards of that
    chance: the position before his lead, and his lead."""
    for seed in range(300):
        p = deal(seed)
        for a_card in p.legal_moves():
            q = p.apply(a_card)
            for b_card in q.legal_moves():
                r = q.apply(b_card)
                if r.turn != 1:
                    continue
                legal = r.legal_moves()
                if kind == "marriage":
                    decls = [
                        m
                        for m in legal
                        if m.is_declaration and m.meld is not None and m.meld.kind == MARRIAGE
                    ]
                    if not decls:
                        continue
                    kept = decls[0].meld.cards_for(r.trump)
                else:
                    if EXCHANGE not in legal:
                        continue
                    kept = 1 << r.seven_of_trumps
                lead = [m for m in legal if m.is_card and not kept >> int(m) & 1]
                if lead:
                    full = deal(seed)
                    full.push(a_card)
                    full.push(b_card)
                    return full, lead[0]
    raise AssertionError("no such deal in the seeds searched")


def _weights_by(h: History, holds, worlds: int = 300) -> tuple[float, float]:
    """Mean likelihood of the worlds where ``holds(b's hand)`` and of the others."""
    yes, no = [], []
    for w in islice(iter_worlds(h.view, 1), worlds):
        ll = log_likelihood(h, w, 1)[0]
        (yes if holds(w.hands[1]) else no).append(math.exp(ll))
    assert yes and no
    return sum(yes) / len(yes), sum(no) / len(no)


def test_a_marriage_not_declared_makes_the_worlds_where_he_held_it_less_likely():
    p, lead = _first_trick_won_by_b("marriage")
    p.push(lead)
    h = History.of(p)  # a's view, a to move
    assert h.seat == 0

    def marriage(hand: int) -> bool:  # a king and a queen of one suit
        return any(hand >> parse_card("K" + s) & 1 and hand >> parse_card("Q" + s) & 1 for s in "SHDC")

    with_it, without = _weights_by(h, marriage)
    assert with_it < 0.7 * without, (with_it, without)


def test_an_exchange_not_made_makes_the_worlds_where_he_held_the_seven_less_likely():
    p, lead = _first_trick_won_by_b("exchange")
    seven = p.seven_of_trumps
    p.push(lead)
    h = History.of(p)
    with_it, without = _weights_by(h, lambda hand: bool(hand >> seven & 1))
    assert with_it < 0.7 * without, (with_it, without)


def test_a_game_without_a_model_is_analysed_without_inference():
    p, h = random_history(29, "petite(draw=yes)", 3)
    a = analyse(h.view, worlds=10, seed=1, history=h)
    assert a.effective_worlds is None
    assert a.to_dict()["moves"] == analyse(h.view, worlds=10, seed=1).to_dict()["moves"]


def test_a_move_the_replay_does_not_allow_is_a_clear_error():
    with pytest.raises(ArgumentError, match="not legal in the rebuilt history"):
        move_probability({1: 0, 2: 5}, 3, Model())


def test_the_model_prefers_better_moves_and_never_rules_one_out():
    model = Model(beta=0.2, floor=0.3)
    good, bad = move_probability({1: 20, 2: 0}, 1, model), move_probability({1: 20, 2: 0}, 2, model)
    assert good > bad >= 0.3 / 2 and math.isclose(good + bad, 1.0)
    assert effective_worlds([0.0] * 7) == pytest.approx(7.0)
    assert 1.0 <= effective_worlds([0.0, -1.0, -3.0]) < 3.0


def test_every_game_with_a_talon_has_a_fitted_model():
    for game in ("brisque", "briscan"):
        m = model_for(game)
        assert 0 < m.beta and 0 < m.floor < 1 and 0 < m.temper <= 1 and m.histories >= 1


@pytest.fixture(scope="module")
def played():
    p, h = random_history(11, "brisque", 13)
    assert not p.is_over() and h.opponent_decisions >= 5
    return p, h


def test_the_weighted_answer_is_the_same_with_any_number_of_workers(played):
    _, h = played
    one = analyse(h.view, worlds=40, seed=4, history=h)
    two = analyse(h.view, worlds=40, seed=4, history=h, workers=2)
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert strip(one.to_dict()) == strip(two.to_dict())
    assert 1.0 <= one.effective_worlds < 40
    think1 = analyse(h.view, think=0.1, seed=4, history=h)
    think2 = analyse(h.view, think=0.1, seed=4, history=h, workers=2)
    assert strip(think1.to_dict()) == strip(think2.to_dict()) and think1.stopped == "think"


def test_inference_off_is_the_uniform_answer(played):
    _, h = played
    off = analyse(h.view, worlds=30, seed=2, history=h, inference=False).to_dict()
    plain = analyse(h.view, worlds=30, seed=2).to_dict()
    del off["seconds"], plain["seconds"]
    assert off == plain and off["effective_worlds"] is None
    on = analyse(h.view, worlds=30, seed=2, history=h).to_dict()
    assert on["moves"] != plain["moves"]  # the weights move the means


def test_a_history_that_does_not_end_in_the_position_is_refused(played):
    _, h = played
    with pytest.raises(ArgumentError, match="history: it ends in"):
        analyse(deal(3).view("a"), worlds=5, history=h)
    with pytest.raises(ArgumentTypeError, match="history="):
        analyse(h.view, worlds=5, history="QS AS")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="inference="):
        analyse(h.view, worlds=5, history=h, inference="yes")  # type: ignore[arg-type]


def test_a_player_with_inference_plays_the_same_moves_again():
    assert make_player("pimc:0.02s@learned:3+infer").name == "pimc:0.02s@learned:3+infer"
    with pytest.raises(ArgumentError, match="only pimc takes \\+infer"):
        make_player("greedy+infer")
    first = run_match("pimc:20ms+infer", "pimc:20ms", 1, seed=3)
    again = run_match("pimc:20ms+infer", "pimc:20ms", 1, seed=3, workers=2)
    assert first.records == again.records


def test_the_command_line_infers_from_the_moves_given(invoke):
    start = deal(4).bpn()
    moves = ["7H", "9H", "9D", "JD", "JH", "TH", "7D"]
    r = invoke("analyse", start, *moves, "--worlds", "30", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["bpn"] == "brisque K8.K.Q.98/?5 QC 13 .TJ97.J9. 7D a 2:12 tricks=1:2"  # a's view only
    assert 1 <= d["effective_worlds"] < 30
    off = json.loads(
        invoke("analyse", start, *moves, "--worlds", "30", "--json", "--inference", "off").stdout
    )
    assert off["effective_worlds"] is None
    text = invoke("analyse", start, *moves, "--worlds", "30").stdout
    assert "Inference from b's play: the 30 worlds weigh as" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["7H", "ZZ"], "MOVES:"),
        (["7H", "AS"], "MOVES: illegal move AS"),
    ],
)
def test_the_command_line_refuses_bad_moves(invoke, args, message):
    r = invoke("analyse", deal(4).bpn(), *args)
    assert r.exit_code == 2 and message in r.stderr and "Traceback" not in r.output


def test_the_command_line_wants_the_whole_deal_with_moves(invoke):
    r = invoke("analyse", deal(4).view("a").bpn(), "7H")
    assert r.exit_code == 2 and "hides cards" in r.stderr
    r = invoke("analyse", "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", "--inference", "off")
    assert r.exit_code == 2 and "without MOVES" in r.stderr


def test_a_few_heavy_worlds_do_not_stop_the_sampling_by_separation():
    from solver.analysis.sampling import MIN_EFFECTIVE_WORLDS, _separated

    nums = [{1: 10, 2: 0}] * 40  # the first move ahead in every world, without noise
    assert _separated(nums, [1, 2], 2.0)
    assert _separated(nums, [1, 2], 2.0, [1.0] * 40)
    heavy = [1.0] * 3 + [1e-9] * 37  # worth three worlds
    assert MIN_EFFECTIVE_WORLDS > 3 and not _separated(nums, [1, 2], 2.0, heavy)
