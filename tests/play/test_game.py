"""Deals, players, deal records and matches (solver.play)."""

import pytest
from helpers import make

from solver import Position, PositionError, Rules, parse_move
from solver.formats.records import DealRecord
from solver.play.dealing import deal, play_deal, play_match, random_position
from solver.play.players import GreedyPlayer, RandomPlayer


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_deal_is_deterministic(game):
    assert deal(7, game).bpn() == deal(7, game).bpn()
    assert len({deal(s, game).bpn() for s in range(20)}) == 20
    assert deal(7, game).problems() == []


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite", "petite(draw=yes)"])
@pytest.mark.parametrize("seed", range(8))
def test_replaying_a_record_gives_every_position(game, seed):
    players = [RandomPlayer(seed), GreedyPlayer()] if seed % 2 else [GreedyPlayer(), RandomPlayer(seed)]
    start = deal(seed, game)
    record = play_deal(start, players)
    assert record.start == start.bpn()
    assert start.move_stack == [] and start.bpn() == deal(seed, game).bpn()  # untouched
    assert record.players == (players[0].name, players[1].name)
    # replay by hand
    p = Position(record.start)
    expected = [p.bpn()]
    for text in record.moves:
        p.push(parse_move(text))
        expected.append(p.bpn())
    assert p.is_over()
    assert record.bpns() == expected
    positions = record.replay()
    assert len(positions) == len(record.moves) + 1
    assert positions[-1].is_over() and record.final().bpn() == expected[-1]
    assert all(q.problems() == [] for q in positions)
    again = DealRecord.from_json(record.to_json())
    assert again == record and again.bpns() == expected


def test_a_bad_record_names_the_move():
    record = DealRecord(start=deal(1).bpn(), moves=[str(deal(1).legal_moves()[0]), "ZZ"])
    with pytest.raises(PositionError) as info:
        record.replay()
    assert "move 2 ('ZZ')" in str(info.value)


def test_players_choose_legal_moves():
    for seed in range(30):
        for game in ("brisque", "briscan", "petite"):
            p = deal(seed, game)
            greedy, rnd = GreedyPlayer(), RandomPlayer(seed)
            while not p.is_over():
                g = greedy.choose(p.copy())
                r = rnd.choose(p.copy())
                assert g in p.legal_moves() and r in p.legal_moves()
                p.push(g if p.turn == 0 else r)


def test_greedy_declares_and_exchanges():
    p = Position(make("brisque", "KQ7.KQ.A.", "9.7.K9.K9", "TS", talon=17, turn="a"))
    assert str(GreedyPlayer().choose(p)) == "+mS"  # the trump marriage first (40)
    p.push("+mS")
    p.push("+mH")
    assert str(GreedyPlayer().choose(p)) == "x"


@pytest.mark.parametrize("rules", ["brisque", "briscan", "petite", "brisque(target=200)"])
@pytest.mark.parametrize("seed", range(4))
def test_play_match_ends_when_a_player_reaches_the_target(rules, seed):
    result = play_match([GreedyPlayer(), RandomPlayer(seed)], seed=seed, rules=rules)
    target = Rules.parse(rules).target
    assert result.winner in (0, 1)
    if result.by_event:
        last = result.deals[-1].final().outcome()
        assert last.win is not None
        at_a = result.seats[-1]
        assert result.winner == (at_a, 1 - at_a)[last.win]
    else:
        assert max(result.totals) >= target
        assert result.totals[result.winner] > result.totals[1 - result.winner]
    # the game totals before each deal are written in its starting BPN
    totals = [0, 0]
    for record, at_a in zip(result.deals, result.seats):
        start = Position(record.start)
        assert start.game == [totals[at_a], totals[1 - at_a]]
        out = record.final().outcome()
        if start.rules.game == "petite":
            if out.winner is not None:
                totals[(at_a, 1 - at_a)[out.winner]] += 1
        elif out.win is None:
            totals[at_a] += out.score[0]
            totals[1 - at_a] += out.score[1]
    assert totals == result.totals


def test_play_match_is_deterministic():
    a = play_match([GreedyPlayer(), RandomPlayer(1)], seed=5, rules="petite")
    b = play_match([GreedyPlayer(), RandomPlayer(1)], seed=5, rules="petite")
    assert [d.moves for d in a.deals] == [d.moves for d in b.deals]
    assert a.totals == b.totals and a.winner == b.winner


@pytest.mark.parametrize(
    "game, trick", [("brisque", 1), ("brisque", 11), ("brisque", 16), ("briscan", 12), ("petite", 5)]
)
def test_random_position_reaches_the_trick(game, trick):
    for seed in range(10):
        p = random_position(seed, game, trick)
        assert p.trick_number == trick or p.is_over()
        assert p.trick == -1 and p.problems() == []
        assert p.move_stack == []
