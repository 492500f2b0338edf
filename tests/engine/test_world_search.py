"""The world search before the last talon tricks: the fitted horizon evaluation, the exact
final phase under a depth limit, and the guard that proves game wins beyond the horizon."""

from __future__ import annotations

import pytest

from solver import analyse, solve
from solver.engine import Limit, Solver
from solver.engine.evaluation import horizon_key, horizon_weights, linear_weights
from solver.engine.quick import WorldSearch
from solver.errors import ArgumentError
from solver.model.bits import points_of, popcount
from solver.model.cards import suit_mask
from solver.model.outright import game_win_possible
from solver.model.position import Position
from solver.model.rules import Rules
from solver.native.constants import WIN_VALUE
from solver.native.engine import HORIZON_FEATURES, HORIZON_ROWS
from solver.play import random_position
from solver.play.players import PimcPlayer, make_player

# b wins the game outright with KD, AD or the marriage (four kings follow); a depth of one
# trick cannot see it, the guard proves it (the exact values are checked below)
QUARTET_AHEAD = "brisque .KJ8.7.KJ/..AKQ9.Q7 JD QHTC7S7H9S9HTD9CTHAHQSJSAS TK8..8.A8 - b 0:25 tricks=0:3"


@pytest.mark.parametrize("rules", ["brisque", "briscan", "petite(draw=yes)"])
def test_every_game_has_weights_of_the_engines_shape(rules):
    r = Rules.parse(rules)
    rows = linear_weights()[horizon_key(r)]
    assert len(rows) == HORIZON_ROWS and all(len(row) == HORIZON_FEATURES for row in rows)
    assert horizon_weights(r) == rows


@pytest.mark.parametrize(
    "rules", ["brisque(objective=tricks)", "petite(objective=margin,draw=yes)", "petite"]
)
def test_no_weights_for_another_objective_or_without_a_talon(rules):
    # weights fitted on point margins would score a trick margin on the wrong scale
    r = Rules.parse(rules)
    assert horizon_weights(r) is None
    p = random_position(2, r, 2)
    fitted_default = Solver(r).solve(p, pv=False, limit=Limit(depth=1))
    s = Solver(r)
    s.engine.set_horizon(None)
    hand_made = s.solve(p, pv=False, limit=Limit(depth=1))
    assert [m.value for m in fitted_default.moves] == [m.value for m in hand_made.moves]


def test_the_linear_weights_file_keeps_every_weight(tmp_path, monkeypatch):
    from solver.engine.evaluation import shipped

    weights = linear_weights()
    monkeypatch.setattr(shipped, "LINEAR_WEIGHTS", tmp_path / "linear-weights.json")
    try:
        shipped.write_linear_weights({**weights, "brisque/margin": [[0.1, -2.5, 1e-17]]})
        assert linear_weights()["brisque/margin"] == [[0.1, -2.5, 1e-17]]
        assert linear_weights()["briscan/margin"] == weights["briscan/margin"]
    finally:
        linear_weights.cache_clear()


def test_set_horizon_checks_the_shape():
    eng = Solver().engine
    with pytest.raises(ArgumentError, match="rows"):
        eng.set_horizon([[0.0] * HORIZON_FEATURES])
    with pytest.raises(ArgumentError, match="rows"):
        eng.set_horizon([[0.0] * (HORIZON_FEATURES - 1)] * HORIZON_ROWS)


def test_features_agree_with_the_model():
    checked = 0
    for seed in range(30):
        p = random_position(seed, "brisque", 4)
        if p.trick >= 0 or p.is_over():
            continue
        s = Solver(p.rules)
        s.load(p)
        level, f = s.engine.horizon_features()
        me, op = p.turn, 1 - p.turn
        hm, ho = p.hands[me], p.hands[op]
        trumps = suit_mask(p.trump)
        seq = list(p.talon or ()) + ([p.turnup] if p.turnup >= 0 else [])
        rest = sum(1 << c for c in seq)
        even, odd = sum(1 << c for c in seq[0::2]), sum(1 << c for c in seq[1::2])
        aces, tens = sum(1 << (8 * i + 7) for i in range(4)), sum(1 << (8 * i + 6) for i in range(4))
        ace_t, ten_t, seven_t = 8 * p.trump + 7, 8 * p.trump + 6, 8 * p.trump

        def diff(mask: int, hm: int = hm, ho: int = ho) -> int:
            return popcount(hm & mask) - popcount(ho & mask)

        assert level == (len(seq) + 1) // 2
        assert f[0] == 1.0
        assert f[1] == points_of(hm) - points_of(ho)
        assert f[2] == diff(trumps)
        assert f[4] == points_of(rest)
        assert f[5] == points_of(1 << seq[0]) - points_of(1 << seq[1])
        assert f[6] == popcount(even & trumps) - popcount(odd & trumps)
        assert f[7] == points_of(even) - points_of(odd)
        assert f[9] == diff(aces) and f[10] == diff(tens)
        assert f[11] == diff(1 << ace_t) and f[12] == diff(1 << ten_t)
        exchange_open = p.exchanged < 0 and p.turnup != seven_t
        assert f[13] == (diff(1 << seven_t) * points_of(1 << p.turnup) if exchange_open else 0)
        checked += 1
    assert checked >= 20


def test_a_horizon_never_falls_in_the_final_phase():
    # one talon trick left: a search of one trick reaches the final phase and is exact
    for seed in range(8):
        p = random_position(seed, "brisque", 10)
        if p.is_over() or p.trick >= 0 or p.in_window or p.turnup < 0:
            continue
        d = solve(p, depth=1, pv=False)
        e = solve(p, pv=False)
        assert d.exact and [m.value for m in d.moves] == [m.value for m in e.moves]


def test_fitted_and_hand_made_evaluations_differ_and_both_run():
    p = random_position(3, "brisque", 3)
    s = Solver(p.rules, horizon="linear")
    fitted = s.solve(p, pv=False, limit=Limit(depth=2))
    s.engine.set_horizon(None)
    s.engine.clear()
    hand_made = s.solve(p, pv=False, limit=Limit(depth=2))
    assert [m.move for m in fitted.moves] == [m.move for m in hand_made.moves]
    assert [m.value for m in fitted.moves] != [m.value for m in hand_made.moves]


@pytest.mark.slow
def test_the_guard_proves_a_game_win_beyond_the_horizon():
    p = Position(QUARTET_AHEAD)
    assert game_win_possible(p, 1) and not game_win_possible(p, 0)
    exact = {str(m.move): int(m.value) for m in solve(p, pv=False).moves}
    shallow = solve(p, depth=1, pv=False)
    got = {str(m.move): int(m.value) for m in shallow.moves}
    winning = {m for m, v in exact.items() if v == WIN_VALUE}
    assert winning == {"KD", "AD", "+mD"}
    assert {m for m, v in got.items() if v == WIN_VALUE} == winning
    assert str(shallow.best[0]) in winning
    # without the guard (the hand-made world search of old) the horizon hides it
    blind = solve(p, limit=Limit(depth=1, guard=False), pv=False)
    assert not any(int(m.value) == WIN_VALUE for m in blind.moves)
    assert WorldSearch.parse("handmade:3").limit(p) == Limit(depth=3, guard=False)
    assert WorldSearch.parse("depth:3").limit(p) == Limit(depth=3)


def test_game_win_possible_rules():
    # Brisque: a king already played rules out four kings; Briscan: a trick to each rules out a vole
    p = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
    assert not game_win_possible(p, 0) and not game_win_possible(p, 1)
    b = next(q for q in (random_position(seed, "briscan", 6) for seed in range(20)) if min(q.tricks) > 0)
    assert not game_win_possible(b, 0) and not game_win_possible(b, 1)
    one_sided = Position(
        "briscan 7.9.J8.9/A..TK7.T 8H KCTSQHQDADTHAHJSAC9S7C8CJC9D7H KQ8.KJ..Q - a 16:0 tricks=3:0"
    )
    assert game_win_possible(one_sided, 0) and not game_win_possible(one_sided, 1)
    fresh = random_position(2, "briscan", 1)
    assert game_win_possible(fresh, 0) and game_win_possible(fresh, 1)
    assert not game_win_possible(random_position(2, "petite(draw=yes)", 1), 0)


def test_world_search_specs():
    assert WorldSearch.parse("quick") == WorldSearch() and WorldSearch.parse("EXACT").kind == "exact"
    assert WorldSearch.parse("handmade:3") == WorldSearch("handmade", 3)
    assert str(WorldSearch.parse("depth:2")) == "depth:2"
    for bad in ("depth", "depth:0", "handmade:x", "deep:3", "quick:2", "depth:99"):
        with pytest.raises(ArgumentError, match="world search"):
            WorldSearch.parse(bad)


def test_sampled_answers_name_the_world_search_they_ran():
    p = random_position(11, "brisque", 2)
    view = p.view(p.turn)
    learned = analyse(view, worlds=6, seed=1)
    fitted = analyse(view, worlds=6, seed=1, world_search="linear")
    hand_made = analyse(view, worlds=6, seed=1, world_search="handmade:3")
    assert learned.world_method == "depth 3 learned" and fitted.world_method == "depth 4"
    assert hand_made.world_method == "depth 3 hand-made"
    assert [m.value for m in fitted.moves] != [m.value for m in hand_made.moves]
    assert [m.value for m in learned.moves] != [m.value for m in hand_made.moves]
    assert analyse(view, worlds=6, seed=1, world_search="depth:2").world_method == "depth 2"
    with pytest.raises(ArgumentError, match="give one of them"):
        analyse(view, worlds=6, depth=2, world_search="handmade:3")


def test_players_take_a_world_search():
    assert make_player("pimc:5@handmade:3").name == "pimc:5@handmade:3"
    assert make_player("clairvoyant@depth:2").name == "clairvoyant@depth:2"
    assert make_player("pimc:5@quick").name == "pimc:5"
    # the quick search of Brisque before the learned network keeps a name of its own
    linear, early = make_player("pimc:5@linear"), random_position(4, "brisque", 2)
    assert isinstance(linear, PimcPlayer) and linear.search.limit(early) == Limit(depth=4)
    assert linear.search.horizon(early.rules) == "linear" and WorldSearch().horizon(early.rules) == "learned"
    with pytest.raises(ArgumentError, match="only pimc and clairvoyant"):
        make_player("greedy@depth:2")
    with pytest.raises(ArgumentError, match="world search"):
        make_player("pimc:5@deep")
    p = random_position(4, "brisque", 2)
    move = make_player("clairvoyant@handmade:3").choose(p)
    assert move in p.legal_moves()


def test_each_world_gets_the_limit_of_its_search(monkeypatch):
    from solver.analysis import sampling

    # a world solved with the guard finds b's four queens beyond a one-trick horizon; without it not
    p = Position(QUARTET_AHEAD)
    with_guard = sampling._solve_worlds(
        (str(p.rules), [QUARTET_AHEAD], Limit(depth=1), "linear", None, None)
    )[0][0]
    blind = sampling._solve_worlds(
        (str(p.rules), [QUARTET_AHEAD], Limit(depth=1, guard=False), "linear", None, None)
    )[0][0]
    assert sum(v.won for v in with_guard.values()) == 3 and not any(v.won for v in blind.values())
    # and analyse hands every world the limit of the search it was asked for
    seen = []
    real = sampling._solve_worlds

    def spy(task, out=None):
        seen.append(task[2:4])
        return real(task, out)

    monkeypatch.setattr(sampling, "_solve_worlds", spy)
    view = p.view(1)
    analyse(view, worlds=3, seed=1, world_search="handmade:2")
    analyse(view, worlds=3, seed=1)
    assert seen[0] == (Limit(depth=2, guard=False), "handmade")
    assert seen[-1] == (Limit(depth=3), "learned")
