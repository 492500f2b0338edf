"""The chance of winning a whole game (solver/analysis/game_chance.py), the deal outcomes it
is made from (benchmarks/training/deal_outcomes.py), and grades weighed by it (brisque line --chance)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from helpers import run_brisque, whole_game_record

from solver.analysis.game_chance import DealOutcomes, GameChance, final_scores
from solver.analysis.line import analyse_line
from solver.engine.evaluation import deal_outcomes as deal_outcomes_of_package
from solver.errors import ArgumentError, RecordError
from solver.formats.records import DealRecord
from solver.model.numbers import json_number
from solver.model.position import Position
from solver.model.rules import as_rules
from solver.model.value import Value
from solver.play.table import Table


def recursive_chance(outcomes: DealOutcomes, target: int, grid: int):
    """An independent oracle: the chance by plain recursion over the games' states, each
    deal's scores rounded to the grid as the table rounds them."""

    def step(x: int) -> int:
        return (2 * x + grid) // (2 * grid)

    # (a deal that adds nothing is left out, as the table leaves it out)
    total = sum(c for a, b, w, c in outcomes.counts if w is not None or step(a) or step(b))
    cells = -(-target // grid)

    @cache
    def w(seat: int, i: int, j: int) -> float:
        out = 0.0
        for a, b, winner, count in outcomes.counts:
            x, y = (a, b) if seat == 0 else (b, a)
            if winner is not None:
                out += count / total * (1.0 if winner == "ab"[seat] else 0.0)
                continue
            ii, jj = i + step(x), j + step(y)
            if ii == i and jj == j:  # (a deal that adds nothing: left out, as the table does)
                continue
            if ii >= cells or jj >= cells:
                out += count / total * (1.0 if ii > jj else 0.0 if ii < jj else 0.5)
            else:
                out += count / total * w(1 - seat, ii, jj)
        return out

    return w


SMALL = DealOutcomes(
    "brisque",
    [
        (90, 40, None, 5),
        (60, 75, None, 4),
        (130, 20, None, 2),
        (0, 0, "a", 1),
        (0, 0, "b", 1),
        (45, 110, None, 3),
    ],
    "made by hand",
)


def test_the_table_equals_a_plain_recursion_over_the_games() -> None:
    rules = as_rules("brisque(target=300)")
    table = GameChance(rules, SMALL)
    oracle = recursive_chance(SMALL, 300, table.grid)
    for seat in (0, 1):
        for i in range(0, table.cells, 3):
            for j in range(0, table.cells, 4):
                assert table.chance(i * table.grid, j * table.grid, seat) == pytest.approx(
                    oracle(seat, i, j), abs=1e-12
                )


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_the_two_players_chances_add_up_to_one_and_more_points_never_hurt(game: str) -> None:
    c = GameChance.for_rules(game)
    step = c.grid * max(1, c.cells // 25)
    for seat in (0, 1):
        for mine in range(0, c.target, step):
            for his in range(0, c.target, step):
                here = c.chance(mine, his, seat)
                assert here + c.chance(his, mine, 1 - seat) == pytest.approx(1.0, abs=1e-9)
                if mine + step < c.target:
                    assert c.chance(mine + step, his, seat) >= here - 1e-12


def test_the_chance_at_the_end_of_a_game_is_its_result() -> None:
    c = GameChance.for_rules("brisque")
    assert c.chance(510, 480, 0) == 1.0 and c.chance(480, 510, 1) == 0.0 and c.chance(520, 520, 0) == 0.5
    assert 0.4 < c.chance(0, 0, 0) < 0.6


def test_a_deal_value_becomes_the_chance_of_the_game() -> None:
    brisque = GameChance.for_rules("brisque")
    bpn = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    near = Position(bpn + " game=400:300")
    assert brisque.of_value(near, Value.game_won("b", "b")) == 1.0
    assert brisque.of_value(near, Value.game_won("a", "b")) == 0.0
    # a has 452 whatever happens: losing the deal by 100 takes him past 500 with more than b
    assert brisque.of_value(near, Value.margin(-100, "b")) == 0.0
    assert 0.0 < brisque.of_value(near, Value.margin(0, "b")) < brisque.of_value(near, Value.margin(100, "b"))
    # at 450 a reaches 500 with the 52 he has: b would need more than a, 203 points this deal
    assert brisque.of_value(Position(bpn + " game=450:300"), Value.margin(100, "b")) == 0.0
    petite = GameChance.for_rules("petite")
    p = Position(Table.new("petite", "a", 1, 3).start(0).bpn() + " game=2:0")
    assert petite.of_value(p, Value.margin(1, "a")) == 1.0  # the third deal won: the game


def test_the_split_of_a_deals_points_keeps_what_each_has_and_gives_the_margin() -> None:
    t = Table.new("briscan", "a", 1, 8)
    while not t.position().is_over():
        p = t.position()
        for margin in range(-200, 201, 7):
            v = Value.margin(margin, p.turn)
            mine, his = final_scores(p, v)
            assert mine - his == margin
            assert mine >= p.score[p.turn] and his >= p.score[1 - p.turn]
        t.engine_play(t.engine_choose()) if not t.persons_turn() else t.play(p.legal_moves()[0])
    end = t.position()
    assert final_scores(end, Value.margin(end.score[0] - end.score[1], 0)) == tuple(end.score)


def test_a_game_of_many_deals_settles_and_equals_the_recursion() -> None:
    # (to seven deals won: up to thirteen deals, more sweeps than the target's cells)
    outcomes = DealOutcomes.load("petite")
    table = GameChance(as_rules("petite(target=7)"), outcomes)
    oracle = recursive_chance(outcomes, 7, 1)
    for seat in (0, 1):
        for i in range(7):
            for j in range(7):
                assert table.chance(i, j, seat) == pytest.approx(oracle(seat, i, j), abs=1e-12)


def test_the_chance_is_known_for_each_games_own_objective_only() -> None:
    with pytest.raises(ArgumentError, match="objective"):
        GameChance.for_rules("brisque(objective=tricks)")


def test_the_shipped_outcomes_hold_every_game() -> None:
    for game in ("brisque", "briscan", "petite"):
        o = DealOutcomes.load(game)
        assert sum(c for *_, c in o.counts) >= 1000, game
        assert "self-play" in o.source


def test_the_outcomes_are_read_through_the_evaluations_files() -> None:
    shipped = deal_outcomes_of_package()
    o = DealOutcomes.load("briscan")
    assert o.source == shipped["briscan"]["source"]
    assert o.counts == [(a, b, w, n) for a, b, w, n in shipped["briscan"]["outcomes"]]
    with pytest.raises(ArgumentError, match="no deal outcomes shipped"):
        DealOutcomes.load("skat")


def test_a_whole_games_deal_is_graded_by_the_chance_of_the_game(tmp_path: Path) -> None:
    rec = whole_game_record()
    path = tmp_path / "game.jsonl"
    path.write_text(rec.to_json() + "\n")
    out = run_brisque("line", "--record", path, "--view", "own", "--worlds", 10, "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    steps = json.loads(out.stdout)["steps"]
    assert {s["own_win_of"] for s in steps} == {"game"}
    mine = analyse_line(rec.start, rec.moves, view="own", worlds=10, chance="game")
    assert [s["grade"] for s in steps] == [s.grade for s in mine]
    assert [s["own_win_drop"] for s in steps] == [json_number(s.own_win_drop) for s in mine]
    # --chance deal overrides the record
    deal = run_brisque(
        "line", "--record", path, "--view", "own", "--worlds", 10, "--chance", "deal", "--json", cwd=tmp_path
    )
    assert {s["own_win_of"] for s in json.loads(deal.stdout)["steps"]} == {"deal"}


def test_chance_needs_the_own_view_and_a_known_word(tmp_path: Path) -> None:
    bpn = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    out = run_brisque("line", bpn, "QD", "--chance", "game", cwd=tmp_path)
    assert out.returncode == 2 and "--chance game" in out.stderr and "--view own" in out.stderr
    assert "Traceback" not in out.stderr
    with pytest.raises(Exception, match="chance='set'"):
        analyse_line(bpn, ["QD"], chance="set")  # type: ignore[arg-type]


def test_a_record_says_whole_game_only_when_it_is_one() -> None:
    plain = DealRecord(start="brisque x", moves=["QD"])
    assert "whole_game" not in plain.to_json()
    whole = DealRecord(start="brisque x", moves=["QD"], whole_game=True)
    assert DealRecord.from_json(whole.to_json()).whole_game is True
    with pytest.raises(RecordError, match="'whole_game' is 'yes'"):
        DealRecord.from_json('{"start": "brisque x", "moves": [], "whole_game": "yes"}')


def test_in_a_decided_game_points_thrown_away_are_no_blunder() -> None:
    # b has 495 and 35 of this deal: he wins the game whatever he plays; QD throws 40 points
    bpn = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 game=100:495"
    (deal,) = analyse_line(bpn, ["QD"], view="own", worlds=10)
    (game,) = analyse_line(bpn, ["QD"], view="own", worlds=10, chance="game")
    assert deal.own_loss == game.own_loss == 40 and deal.grade == "blunder"
    assert game.own_win_drop == 0.0 and game.grade is None
