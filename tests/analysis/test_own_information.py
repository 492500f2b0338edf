"""The mistake finder for hidden cards: ``brisque line --view own`` judges each move of a
deal record from its player's own information, against the noise of the sampled worlds."""

from __future__ import annotations

import json

import pytest

from solver.analysis.line import MISTAKE_Z, analyse_line, own_information_loss
from solver.analysis.ranking import RankingRule
from solver.analysis.sampling import SampledAnalysis, analyse
from solver.analysis.worlds import all_worlds, world_count
from solver.engine.solving import solve
from solver.errors import ArgumentError, PositionError
from solver.play.dealing import deal, play_deal
from solver.play.players import make_player


def record(seed: int, game: str = "brisque"):
    return play_deal(deal(seed, game), [make_player("greedy"), make_player("random", seed=seed)])


def late_position(seed: int):
    """A perfect-information position one talon trick before the end: few hidden worlds."""
    rec = record(seed)
    p = deal(seed, "brisque")
    for m in rec.moves:
        if p.trick < 0 and p.turnup >= 0 and p.talon_count <= 1 and not p.in_window:
            break
        p.push(m)
    return p


def test_paired_loss_is_the_mean_of_the_worlds_differences():
    p = deal(3, "brisque")
    a = analyse(p.view(p.turn), worlds=40, seed=2)
    assert isinstance(a, SampledAnalysis) and len(a.world_numbers) == a.worlds == 40
    best = a.best[0]
    assert a.paired_loss(best) == (0.0, 0.0)
    for mv in a.moves:
        loss, se = a.paired_loss(mv.move)
        diffs = [w[int(best)] - w[int(mv.move)] for w in a.world_numbers]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        assert loss == pytest.approx(a.move_value(best) - mv.value)  # mean of differences
        assert loss == pytest.approx(mean) and se == pytest.approx((var / len(diffs)) ** 0.5)
    with pytest.raises(ArgumentError, match="not a legal move"):
        a.paired_loss("+kK")


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_enumerated_views_match_a_brute_force_over_the_worlds(seed):
    p = late_position(seed)
    view = p.view(p.turn)
    n = world_count(view)
    assert 1 < n <= 200
    rank = RankingRule.parse("match")
    per_world = []
    for w in all_worlds(view):
        a = solve(w, pv=False)
        per_world.append({str(mv.move): rank.number(mv.value, w) for mv in a.moves})
    means = {m: sum(x[m] for x in per_world) / n for m in per_world[0]}
    best = max(means.values())
    for m in p.legal_moves():
        loss, se, mistake, worlds = own_information_loss(p, m, worlds=500, seed=0)
        assert worlds == n and se == 0.0  # every world solved: no sampling noise
        assert loss == pytest.approx(best - means[str(m)])
        assert mistake == (loss > 0)


@pytest.mark.slow
def test_a_line_judged_from_own_information():
    rec = record(5)
    steps = analyse_line(rec.start, rec.moves[:10], view="own", worlds=20, seed=1)
    assert len(steps) == 10
    for s in steps:
        assert s.own_loss is not None and s.own_stderr is not None and s.own_worlds
        assert s.own_loss >= -1e-9
        if s.own_stderr > 0:
            assert s.own_mistake == (s.own_loss > MISTAKE_Z * s.own_stderr)
        else:
            assert s.own_mistake == (s.own_loss > 0)
        d = s.to_dict()
        # (beyond the noise between the worlds' estimates, early in the talon: an inaccuracy)
        assert d["mistake"] == (s.own_mistake and not s.own_estimate) and d["loss"] == s.loss
    # the double-dummy judgement alone blames every exact loss, and an estimate's loss only
    # when its bounds prove it (else it is an inaccuracy)
    full = analyse_line(rec.start, rec.moves[:10])
    assert all(s.own_loss is None for s in full)
    assert all(s.mistake == (s.loss > 0 or s.game is not None) for s in full if s.exact)
    assert all(s.mistake == (s.proven and s.loss > 0) for s in full if not s.exact and s.game is None)
    assert all(s.inaccuracy == (s.loss > 0 and not s.mistake) for s in full if not s.exact)
    assert [s.loss for s in full] == [s.loss for s in steps]
    # some move that loses double-dummy is no mistake from what its player could see
    assert any(s.loss > 0 and not s.mistake for s in steps)


def test_own_view_needs_every_card_and_a_known_view():
    p = deal(5, "brisque")
    with pytest.raises(PositionError, match="every card"):
        analyse_line(p.view(0), [], view="own")
    with pytest.raises(ArgumentError, match="view="):
        analyse_line(p, [], view="mine")  # type: ignore[arg-type]


@pytest.mark.slow
def test_cli_line_view_own(invoke, tmp_path):
    rec = record(6)
    path = tmp_path / "deal.jsonl"
    path.write_text(rec.to_json() + "\n")
    res = invoke("line", "--record", str(path), "--view", "own", "--worlds", "10", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["view"] == "own" and len(out["steps"]) == len(rec.moves)
    assert all(s["own_loss"] is not None and "mistake" in s for s in out["steps"])
    text = invoke("line", "--record", str(path), "--view", "own", "--worlds", "10")
    assert text.exit_code == 0 and "dd loss" in text.output and "own information" in text.output
    hidden = deal(6, "brisque").view(0).bpn()
    first = str(deal(6, "brisque").legal_moves()[0])  # (a line without moves is refused first)
    bad = invoke("line", hidden, first, "--view", "own")
    assert bad.exit_code != 0 and "every card" in bad.output and bad.exc_info[0] is SystemExit


def test_too_few_worlds_to_judge_the_noise(invoke):
    rec = record(7)
    with pytest.raises(ArgumentError, match="at least"):
        analyse_line(rec.start, rec.moves[:2], view="own", worlds=3)
    res = invoke("line", rec.start, *rec.moves[:2], "--view", "own", "--worlds", "3")
    assert res.exit_code != 0 and "at least" in res.output and res.exc_info[0] is SystemExit


def test_units_are_the_ranking_numbers_without_hidden_cards():
    # in the final phase of Brisque the view hides nothing: the loss is the exact one
    rec = record(8)
    p = deal(8, "brisque")
    for m in rec.moves:
        if p.turnup < 0 and not p.view(p.turn).has_hidden:
            break
        p.push(m)
    exact = solve(p, pv=False)
    for m in p.legal_moves():
        loss, se, mistake, n = own_information_loss(p, m, worlds=10, seed=0)
        assert n == 1 and se == 0.0
        assert loss == pytest.approx(float(exact.value - exact.move_value(m)))  # no game win here
        assert mistake == (loss > 0)
