"""Thinking by time: a budget of seconds counted in work (solver.analysis.thinking), the same
answer with any number of workers, the player spec ``pimc:0.5s`` and ``analyse --think``."""

from __future__ import annotations

import json

import pytest

from solver import analyse, deal
from solver.analysis.thinking import COSTS, Think, world_work
from solver.engine.seam import HORIZONS
from solver.errors import ArgumentError, ArgumentTypeError
from solver.model.rules import GAMES
from solver.play.match import run_match
from solver.play.players import make_player

EARLY = deal(4).view("a")
SMALL_VIEW = "brisque 7.A.8.AJ7/?6 TC 1 ATKQ8.TKQJ9.ATKQJ7.Q9 - a 41:39 tricks=6:3"  # 7 worlds


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("0.5s", 0.5), ("500ms", 0.5), ("2", 2.0), (" 1.5 S ", 1.5), (".25s", 0.25), (3, 3.0)],
)
def test_a_budget_reads_seconds_and_milliseconds(text, seconds):
    assert Think.parse(text).seconds == seconds


@pytest.mark.parametrize("text", ["", "abc", "-1s", "1e3s", "0.5 sec", "1h", "0s", "0.0001s", "nan"])
def test_a_malformed_or_out_of_range_budget_is_refused_quoting_it(text):
    with pytest.raises(ArgumentError, match="think="):
        Think.parse(text)


def test_a_budget_of_the_wrong_type_is_a_type_error():
    with pytest.raises(ArgumentTypeError, match="think=\\[1\\]"):
        Think.parse([1])  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        Think(True)


def test_every_game_and_horizon_has_its_costs():
    for game in GAMES:
        for horizon in HORIZONS:
            assert world_work(game, horizon, False, 1000, 10) > world_work(game, horizon, False, 0, 0) > 0
    assert set(COSTS) <= set(GAMES)


def test_the_worlds_stop_at_the_first_that_spends_the_budget():
    a = analyse(EARLY, think=0.05, seed=3)
    assert a.stopped == "think" and a.worlds > 1
    assert a.work >= 0.05
    # one world fewer would not have spent it: the same seed's first worlds, counted
    fewer = analyse(EARLY, worlds=a.worlds - 1, seed=3)
    assert fewer.work < 0.05
    assert fewer.to_dict()["work_seconds"] == pytest.approx(fewer.work, abs=1e-6)


def test_more_thinking_sees_more_worlds_of_the_same_stream():
    short, long = analyse(EARLY, think=0.03, seed=5), analyse(EARLY, think=0.12, seed=5)
    assert long.worlds > short.worlds
    assert analyse(EARLY, worlds=short.worlds, seed=5).to_dict()["moves"] == short.to_dict()["moves"]


def test_the_same_seed_and_budget_give_the_same_answer_with_any_number_of_workers():
    one = analyse(EARLY, think=0.08, seed=7)
    two = analyse(EARLY, think=0.08, seed=7, workers=2)
    assert (one.worlds, one.stopped) == (two.worlds, two.stopped)
    strip = lambda d: {k: v for k, v in d.items() if k != "seconds"}  # noqa: E731
    assert strip(one.to_dict()) == strip(two.to_dict())


def test_a_budget_larger_than_the_worlds_enumerates_them_all():
    a = analyse(SMALL_VIEW, think=5, seed=1)
    assert a.enumerated and a.stopped == "enumerated" and a.worlds == 7


def test_worlds_cap_a_budget():
    a = analyse(EARLY, think=10, worlds=6, seed=1)
    assert a.worlds == 6 and a.stopped == "worlds"


def test_the_separation_rule_may_stop_before_the_budget():
    a = analyse(EARLY, think=5, separation=0.01, batch=2, seed=1)
    assert a.stopped == "separated" and a.work < 5


def test_a_player_thinks_by_time_and_plays_the_same_moves_again():
    p = make_player("pimc:20ms@learned:3", seed=2)
    assert p.name == "pimc:0.02s@learned:3"
    first = run_match("pimc:20ms", "greedy", 1, seed=9)
    again = run_match("pimc:20ms", "greedy", 1, seed=9, workers=2)
    assert first.records == again.records and first.summary == again.summary


def test_a_player_spec_with_a_bad_budget_is_refused():
    with pytest.raises(ArgumentError, match="player 'pimc:xs'.*0.5s"):
        make_player("pimc:xs")


def test_the_command_line_thinks_by_time(invoke):
    r = invoke("analyse", EARLY.bpn(), "--think", "40ms", "--seed", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["stopped"] == "think" and d["work_seconds"] >= 0.04 and d["worlds"] > 1
    text = invoke("analyse", EARLY.bpn(), "--think", "40ms", "--seed", "2")
    assert f"thought for its time, {d['worlds']} worlds" in text.stdout


@pytest.mark.parametrize("bad", ["abc", "0", "-2s"])
def test_the_command_line_refuses_a_bad_budget(invoke, bad):
    r = invoke("analyse", EARLY.bpn(), "--think", bad)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"--think '{bad}'" in r.stderr or "--think " in r.stderr
