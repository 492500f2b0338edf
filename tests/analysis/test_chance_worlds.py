"""World search without draw clairvoyance (solver.analysis.chance_worlds and the world search
``chance``): each sampled world's moves valued by the exact expectimax, the talon a set."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from solver.analysis.chance_worlds import draws_are_chance, world_chance_values
from solver.analysis.sampling import analyse
from solver.engine.quick import CHANCE_TALON_TRICKS, WorldSearch
from solver.engine.reference_chance import expectimax_values
from solver.engine.results import Limit
from solver.engine.seam import new_engine
from solver.errors import ArgumentError
from solver.model.moves import move
from solver.model.position import Position
from solver.model.value import ExpectedMargin
from solver.play.dealing import positions_with_talon_left
from solver.play.players import make_player

GAMES = ("brisque", "briscan")


@pytest.mark.parametrize("game", GAMES)
def test_a_worlds_values_are_the_reference_expectimax(game):
    engine = new_engine(Position(positions_with_talon_left(2, 1, game)[0].bpn()).rules)
    checked = 0
    for p in positions_with_talon_left(2, 25, game, first_seed=40):
        values = world_chance_values(engine, p)
        if values is None:  # (a game win at stake: the world keeps its double-dummy values)
            continue
        reference = expectimax_values(p)
        assert {str(move(m)): Fraction(v).limit_denominator(1000) for m, v in values.items()} == reference
        assert all(isinstance(v, ExpectedMargin) and v.pov == p.turn for v in values.values())
        checked += 1
    assert checked >= 15


def test_the_talons_order_does_not_change_a_worlds_values():
    p = positions_with_talon_left(2, 1, "brisque")[0]
    engine = new_engine(p.rules)
    values = world_chance_values(engine, p)
    for i in range(4):
        q = p.copy()
        assert q.talon is not None
        random.Random(i).shuffle(q.talon)
        assert world_chance_values(engine, q) == values


def test_no_chance_is_left_with_one_face_down_card():
    p = positions_with_talon_left(1, 1, "brisque")[0]
    assert p.talon_count == 1 and not draws_are_chance(p)
    assert draws_are_chance(positions_with_talon_left(2, 1, "brisque")[0])


def test_the_chance_world_search_is_asked_for_late_in_the_deal_only():
    late = positions_with_talon_left(2, 1, "brisque")[0]
    early = positions_with_talon_left(5, 1, "brisque")[0]
    assert WorldSearch.parse("chance").limit(late) == Limit(chance=True)
    assert WorldSearch.parse("chance").limit(early) == WorldSearch.parse("quick").limit(early)
    assert WorldSearch.parse("chance:5").limit(early) == Limit(chance=True)
    assert WorldSearch.parse("chance").describe(Limit(chance=True), late) == "expectimax"
    assert CHANCE_TALON_TRICKS == 2
    with pytest.raises(ArgumentError, match="chance or chance:N"):
        WorldSearch.parse("chance:x")


def test_an_analysis_with_chance_worlds_ranks_by_the_expectimax():
    # the worked example of docs/solver.md: with b's hand known to the analysis only through
    # sampling, the expectimax worlds rank the hearts first, the clairvoyant worlds too here,
    # but the values differ by what clairvoyance was worth
    p = positions_with_talon_left(2, 1, "brisque")[0]
    view = p.view(p.turn)
    chance = analyse(view, worlds=40, seed=1, world_search="chance")
    quick = analyse(view, worlds=40, seed=1, world_search="quick")
    assert chance.world_method == "expectimax" and quick.world_method == "exact"
    assert {str(m) for m in chance.best} == {"7H", "8H"}
    assert chance.value != quick.value
    assert all(isinstance(v, ExpectedMargin) for w in chance.world_values for v in w.values())


def test_workers_do_not_change_a_chance_analysis():
    p = positions_with_talon_left(2, 1, "briscan", first_seed=3)[0]
    view = p.view(p.turn)
    one = analyse(view, worlds=30, seed=2, world_search="chance")
    two = analyse(view, worlds=30, seed=2, world_search="chance", workers=2)
    assert [(m.move, m.value, m.stderr) for m in one.moves] == [
        (m.move, m.value, m.stderr) for m in two.moves
    ]


def test_a_chance_player_plays_a_legal_move_and_says_its_search():
    player = make_player("pimc:20@chance")
    assert player.name == "pimc:20@chance"
    p = positions_with_talon_left(2, 1, "brisque")[0]
    assert player.choose(p) in p.legal_moves()
