"""The judgement of clairvoyant choices against the expectimax (bench_chance_judgement)."""

from __future__ import annotations

from benchmarks.bench_chance_judgement import averaged, double_dummy, judge, run
from solver.play.dealing import positions_with_talon_left


def test_the_worked_example_of_the_docs_is_judged_as_they_say() -> None:
    # docs/solver.md, "The talon as chance": the double-dummy choice (a spade) loses 12 2/3
    # points to the expectimax best (a heart), which averaging finds
    p = positions_with_talon_left(2, 1, "brisque")[0]
    row = judge(p)
    assert row["double_dummy_best"] is False and abs(row["double_dummy_lost"] - 38 / 3) < 1e-9
    assert row["averaged_best"] is True and row["averaged_lost"] == 0.0
    # the chance world search has one hand to sample here (both open): the expectimax itself
    assert row["world_search_best"] is True and row["world_search_lost"] == 0.0


def test_sampled_chance_nodes_are_scored_beside_the_others() -> None:
    p = positions_with_talon_left(3, 1, "brisque", first_seed=2)[0]
    row = judge(p, sampled=1)
    assert isinstance(row["sampled_best"], bool) and (row["sampled_lost"] is None or row["sampled_lost"] >= 0)


def test_averaging_over_every_order_of_a_fixed_talon_is_its_own_mean() -> None:
    p = positions_with_talon_left(2, 1, "briscan", first_seed=3)[0]
    assert p.talon is not None and len(p.talon) == 3
    mean = averaged(p)
    assert set(mean) == set(double_dummy(p))
    assert all((v * 6).denominator == 1 for v in mean.values())  # (six orders)


def test_a_run_gives_shares_and_losses_a_game() -> None:
    (row,) = run(tricks=2, positions=5, games=("brisque",))
    assert row["positions"] == 5 and 0 <= row["double_dummy_best"] <= 100 and row["averaged_lost"] >= 0
