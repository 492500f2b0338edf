"""The review of a deal played against the engine: one row per decision, graded from the
person's own information as ``brisque line --record --view own`` grades it, and the graph."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import whole_game_record

from solver.analysis.line import analyse_line, grade_of
from solver.cli import main
from solver.errors import ArgumentError, RecordError
from solver.formats.records import DealRecord
from solver.play.review import graph_svg, review_deal
from solver.play.table import Table


def played(game: str, seat: str, seed: int) -> Table:
    t = Table.new(game, seat=seat, level=1, seed=seed)
    while not t.view()["over"]:
        v = t.view()
        if v["turn"] == "you":
            t.play(v["legal"][len(v["legal"]) // 2]["move"])
        else:
            t.engine_play(t.engine_choose())
    return t


def test_one_row_per_decision_and_the_same_grades_as_brisque_line(tmp_path: Path) -> None:
    t = played("brisque", "b", 31)
    (rec,) = t.records()
    review = review_deal(rec, "b", worlds=20, seed=4)
    positions = rec.replay()
    decisions = [i + 1 for i, p in enumerate(positions[:-1]) if p.turn == 1 and len(p.legal_moves()) > 1]
    assert [row["number"] for row in review.rows] == decisions
    f = tmp_path / "deal.jsonl"
    f.write_text(rec.to_json() + "\n")
    out = CliRunner().invoke(
        main, ["line", "--record", str(f), "--view", "own", "--worlds", "20", "--seed", "4", "--json"]
    )
    assert out.exit_code == 0, out.output
    by_number = {s["number"]: s for s in json.loads(out.output)["steps"]}
    for row in review.rows:
        step = by_number[row["number"]]
        assert (row["grade"], row["own_loss"], row["dd_loss"]) == (
            step["grade"],
            step["own_loss"],
            step["loss"],
        )
    assert review.result["counts"] == {
        g: sum(1 for r in review.rows if r["grade"] == g) for g in ("inaccuracy", "mistake", "blunder")
    }


def test_a_move_that_throws_points_away_with_every_card_known_is_graded() -> None:
    # late in the deal every card is known to the player: the loss is exact, no noise
    for seed in range(40):
        rec = played("brisque", "a", seed).records()[0]
        steps = analyse_line(rec.start, rec.moves, view="own", worlds=10, seed=0, only="a")
        late = [s for s in steps if s.trick > 10 and s.own_stderr == 0 and s.own_loss is not None]
        for s in late:
            expected = "blunder" if s.own_loss >= 25 else "mistake" if s.own_loss >= 10 else None
            if expected and s.game is None:
                # graded by the points, unless the chance of the deal it gave up is worse
                if s.grade == "blunder" and s.own_loss < 25:
                    assert s.own_win_drop is not None and s.own_win_drop >= 0.25 and s.own_win_stderr == 0
                else:
                    assert s.grade == expected
                return
    pytest.fail("no late move lost 10 points in 40 deals")


def test_grades_need_the_size_and_to_be_beyond_the_noise() -> None:
    assert grade_of(2.9, 0.0) is None  # below an inaccuracy
    assert grade_of(3.0, 0.0) == "inaccuracy"
    assert grade_of(10.0, 4.9) == "mistake" and grade_of(10.0, 5.0) is None  # 2 standard errors
    assert grade_of(30.0, 1.0) == "blunder"
    assert grade_of(0.0, 0.0, 0.12, 0.01) == "mistake"  # the chance of winning the deal
    assert grade_of(0.0, 0.0, 0.12, 0.07) is None
    assert grade_of(5.0, None) is None  # one world: nothing known of the noise


def test_judging_one_seat_gives_its_steps_unchanged() -> None:
    rec = played("briscan", "a", 8).records()[0]
    every = analyse_line(rec.start, rec.moves, view="own", worlds=10, seed=2)
    mine = analyse_line(rec.start, rec.moves, view="own", worlds=10, seed=2, only="a")
    assert [s.to_dict() for s in every if s.player == "a"] == [s.to_dict() for s in mine]
    with pytest.raises(ArgumentError, match="only='c'"):
        analyse_line(rec.start, rec.moves, only="c")


def test_the_graph_is_svg_with_a_dot_a_decision() -> None:
    rec = played("petite", "a", 3).records()[0]
    review = review_deal(rec, "a", worlds=10)
    svg = graph_svg(review)
    root = ET.fromstring(svg)
    dots = root.findall("{http://www.w3.org/2000/svg}circle")
    assert len(dots) == len(review.graph) and len(review.graph) >= len(review.rows) + 1
    assert review.graph[-1]["final"] and review.graph[-1]["value"] == review.result["margin"]


def test_a_review_needs_a_finished_deal_and_good_settings() -> None:
    rec = played("brisque", "a", 2).records()[0]
    unfinished = DealRecord(start=rec.start, moves=rec.moves[:5])
    with pytest.raises(RecordError, match="not over"):
        review_deal(unfinished, "a")
    with pytest.raises(ArgumentError, match="seat='x'"):
        review_deal(rec, "x")
    with pytest.raises(ArgumentError, match="worlds=3"):
        review_deal(rec, "a", worlds=3)


def test_a_deal_of_a_whole_game_is_reviewed_by_the_chance_of_the_game() -> None:

    rec = whole_game_record()
    seat = "a" if rec.players[0] == "you" else "b"
    r = review_deal(rec, seat, worlds=10, seed=2)
    steps = analyse_line(rec.start, rec.moves, view="own", worlds=10, seed=2, only=seat, chance="game")
    by_number = {s.number: s for s in steps}
    assert r.rows and {row["own_win_of"] for row in r.rows} == {"game"}
    assert all(row["grade"] == by_number[row["number"]].grade for row in r.rows)
    # the single deal's chance differs: the game's totals are near the target
    deal = {
        s.number: s.own_win_drop
        for s in analyse_line(rec.start, rec.moves, view="own", worlds=10, seed=2, only=seat)
    }
    assert any(deal[row["number"]] != pytest.approx(row["own_win_drop"], abs=1e-3) for row in r.rows)
