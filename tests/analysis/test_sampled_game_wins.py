"""Game wins in sampled answers: p_win and p_loss, the margin of the other worlds, and the
ranking value, checked on enumerated views against a count over the worlds solved one by one."""

from __future__ import annotations

import random
from statistics import mean

import pytest

from solver import Position, analyse, solve
from solver.analysis.ranking import RankingRule
from solver.analysis.worlds import all_worlds, world_count
from solver.errors import ArgumentError
from solver.play import deal


def last_talon_trick_views(seeds: range) -> list[Position]:
    """Views of the player to lead at Brisque's last talon trick (one face-down card left)
    where some world ends in a game won outright (four kings or queens)."""
    out = []
    for seed in seeds:
        p = deal(seed, "brisque")
        rng = random.Random(seed)
        while not p.is_over() and not (p.talon_count == 1 and p.trick < 0):
            p.push(rng.choice(p.legal_moves()))
        if p.is_over() or p.in_window or not _quartet_possible(p):
            continue
        v = p.view(p.turn)
        if not v.has_hidden or world_count(v) > 40:
            continue
        if any(mv.value.is_game_win for w in all_worlds(v) for mv in solve(w, pv=False).moves):
            out.append(v)
    return out


def _quartet_possible(p: Position) -> bool:
    """A cheap filter: a seat holds three kings (or queens) and the fourth is still in play."""
    live = p.hands[0] | p.hands[1] | (1 << p.turnup if p.turnup >= 0 else 0)
    live |= sum(1 << c for c in p.talon or [])
    for rank in (4, 5):  # queen, king
        cards = [suit * 8 + rank for suit in range(4)]
        if all(live >> c & 1 for c in cards) and any(
            sum(p.hands[s] >> c & 1 for c in cards) >= 3 for s in (0, 1)
        ):
            return True
    return False


VIEWS = last_talon_trick_views(range(3000))


def test_there_are_enough_views_with_game_winning_chances():
    assert len(VIEWS) >= 5


@pytest.mark.parametrize("rule", ["match", "sentinel", 250])
def test_p_win_p_loss_margin_and_value_are_the_counts_over_the_worlds(rule):
    rank = RankingRule.parse(rule)
    for v in VIEWS[:8]:
        a = analyse(v, worlds=1000, seed=0, win_worth=rule)
        assert a.enumerated and a.ranking == str(rank)
        per_world = [solve(w, pv=False) for w in all_worlds(v)]
        for mv in a.moves:
            values = [w.move_value(mv.move) for w in per_world]
            n = len(values)
            assert mv.p_win == pytest.approx(sum(x.won for x in values) / n)
            assert mv.p_loss == pytest.approx(sum(x.lost for x in values) / n)
            margins = [int(x) for x in values if not x.is_game_win]
            if margins:
                assert mv.margin == pytest.approx(mean(margins))
            else:
                assert mv.margin is None
            # the ranking value: a game won counts for what the rule says
            need = {s: v.rules.target - v.game[s] for s in (0, 1)}
            expected = []
            for x in values:
                if not x.is_game_win or rule == "sentinel":
                    expected.append(int(x))
                elif rule == "match":
                    expected.append(need[x.winner] if x.won else -need[x.winner])
                else:
                    expected.append(rule if x.won else -rule)
            assert mv.value == pytest.approx(mean(expected)), str(mv.move)
        # the moves are ranked by value
        assert a.value == max(mv.value for mv in a.moves)


def test_the_match_rule_uses_the_points_still_needed():
    # with a 20 points from the target (game=480:0), a game won by a is worth 20, not 500
    for v in VIEWS[:5]:
        assert "game=" not in v.bpn()
        far = analyse(v, worlds=1000)
        close = analyse(Position(v.bpn() + " game=480:0"), worlds=1000)
        for f, c in zip(far.moves, close.moves):
            assert (f.p_win, f.p_loss, f.margin) == (c.p_win, c.p_loss, c.margin)
            a_wins = f.p_win if v.turn == 0 else f.p_loss  # the share of worlds a wins outright
            sign = 1 if v.turn == 0 else -1  # a's win counts + for a, - for b
            assert c.value - f.value == pytest.approx(sign * a_wins * (20 - 500))


def test_the_human_answer_reads_as_shares_and_a_margin():
    a = analyse(VIEWS[0], worlds=1000)
    line = next(m for m in a.moves if m.p_win or m.p_loss).describe(a.turn)
    assert "wins the game in" in line and "% of worlds" in line


@pytest.mark.parametrize("bad", ["0", "-5", "lots", 0])
def test_a_bad_win_worth_is_refused(bad):
    with pytest.raises(ArgumentError, match="win_worth"):
        RankingRule.parse(bad)
