"""The exact equilibrium of the public subgame: checked against
OpenSpiel's sequence-form LP on the same games, and for what an equilibrium must be."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

pytest.importorskip("scipy")


import solver
from solver.analysis import analyse  # noqa: E402
from solver.analysis.equilibrium import (  # noqa: E402
    domain_problem,
    equilibrium,
    exploitability,
    public_view,
)
from solver.analysis.ranking import RankingRule  # noqa: E402
from solver.analysis.subgame import build  # noqa: E402
from solver.errors import ArgumentError, PositionError  # noqa: E402
from solver.model.position import Position  # noqa: E402
from solver.play.dealing import deal, random_position  # noqa: E402


def petite_ending(seed: int) -> Position:
    """Petite Brisque, two cards each, on lead (seeded random play)."""
    p = deal(seed, "petite")
    rng = random.Random(seed)
    while p.hand_size(0) > 2 or p.trick >= 0:
        p.push(rng.choice(p.legal_moves()))
    return p


def last_talon_trick(seed: int, rules: str) -> Position:
    """The start of the last talon trick (seeded random play)."""
    trick = 11 if rules.startswith(("briscan", "petite")) else 10
    for s in range(seed, seed + 200):
        p = random_position(s, rules, trick)
        if not p.is_over() and p.trick < 0 and p.talon_count == 1:
            return p
    raise AssertionError("no such position")


def shown(p: Position, seat: int) -> Position:
    """``p`` with ``seat``'s hand shown to both (a smaller public subgame)."""
    q = p.copy()
    q.shown[seat] |= q.hands[seat]
    return Position(q.bpn())


def follower_shown(p: Position) -> Position:
    """``p`` with the follower's hand shown: the leader's is the hidden one."""
    return shown(p, 1 - p.turn)


def openspiel_value(view: Position, seat: int) -> float:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import sequence_form_lp

    import solver.openspiel  # noqa: F401

    name = {"petite": "python_petite_brisque"}.get(view.rules.game, f"python_{view.rules.game}")
    game = pyspiel.load_game(name, {"position": view.bpn(), "exact_tail": True})
    values = sequence_form_lp.solve_zero_sum_game(game)[:2]
    return float(values[seat])


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [
        lambda: shown(petite_ending(1), 0),
        lambda: shown(petite_ending(4), 1),
        lambda: shown(last_talon_trick(3, "briscan"), 1),
        lambda: shown(last_talon_trick(5, "petite(draw=yes)"), 0),
        lambda: follower_shown(last_talon_trick(1, "briscan")),  # (a carte blanche in play)
    ],
)
def test_the_game_value_is_openspiels_sequence_form_lp(make):
    p = make()
    a = equilibrium(p)
    expected = openspiel_value(public_view(p), p.turn)
    assert abs(a.game_value - expected) < 2e-4, (p.bpn(), a.game_value, expected)


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [
        lambda: petite_ending(2),
        lambda: last_talon_trick(7, "briscan"),
        lambda: last_talon_trick(9, "brisque"),
    ],
)
def test_an_equilibrium_is_what_it_says(make):
    p = make()
    if p.rules.game == "brisque":
        p = shown(p, 1 - p.turn)  # (a smaller subgame: the whole one takes long)
    a = equilibrium(p)
    assert 0 <= a.exploitability <= 0.1
    assert abs(sum(m.probability for m in a.moves) - 1) < 1e-6
    assert a.value is not None and a.best
    # every move played is a best reply to the equilibrium opponent, and none does better
    for m in a.moves:
        assert m.value <= a.value + 1e-6
        if m.probability > 1e-6:
            assert abs(m.value - a.value) < 1e-6
    assert a.pimc_move is not None and a.pimc_loss is not None and a.pimc_loss >= -1e-9
    assert analyse(p, method="equilibrium").game_value == pytest.approx(a.game_value)


def mid_trick(seed: int) -> Position:
    """Petite, two cards each, the lead played: the root player moves last."""
    p = petite_ending(seed)
    p.push(p.legal_moves()[0])
    return shown(p, 1 - p.turn)


def openspiel_game(p: Position):
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401

    name = {"petite": "python_petite_brisque"}.get(p.rules.game, f"python_{p.rules.game}")
    return pyspiel.load_game(name, {"position": public_view(p).bpn(), "exact_tail": True})


SMALL = [
    lambda: shown(petite_ending(1), 0),
    lambda: shown(petite_ending(4), 1),
    lambda: shown(last_talon_trick(3, "briscan"), 1),
    lambda: shown(last_talon_trick(5, "petite(draw=yes)"), 0),
    lambda: follower_shown(last_talon_trick(1, "briscan")),
]


@pytest.mark.slow
@pytest.mark.parametrize("make", SMALL)
def test_openspiels_exploitability_module_agrees_with_ours(make):
    """Ours and OpenSpiel's NashConv, on our strategies as tabular policies: the equilibrium,
    PIMC's, and a seeded random one (each information set's moves weighted at random)."""
    from open_spiel.python.algorithms import exploitability as openspiel

    from solver.openspiel.policy import pure_strategy, tabular_policy

    p = make()
    a = equilibrium(p, strategies=True)
    game = openspiel_game(p)
    rng = random.Random(7)
    noisy = {}
    for key, probs in sorted(a.strategy.items()):
        weights = [rng.random() for _ in probs]
        noisy[key] = {m: w / sum(weights) for m, w in zip(probs, weights, strict=True)}
    for name, strategy, ours in [
        ("equilibrium", a.strategy, a.exploitability),
        ("pimc", pure_strategy(a.pimc_strategy), a.pimc_exploitability),
        ("random", noisy, exploitability(p, noisy)),
    ]:
        theirs = float(openspiel.nash_conv(game, tabular_policy(game, strategy)))
        assert ours == pytest.approx(theirs, abs=1e-6), (name, p.bpn())
        assert ours == pytest.approx(exploitability(p, strategy), abs=1e-9), name
    assert a.exploitability < 1e-6 < exploitability(p, noisy)


@pytest.mark.slow
def test_the_dominated_last_replies_left_out_keep_the_value():
    """The last mover's dominated cards are left out of the program (the root's own ones
    when he moves last), and the value is still OpenSpiel's LP, the strategy unexploitable
    in the whole game."""
    for p in (shown(last_talon_trick(3, "briscan"), 1), mid_trick(3), mid_trick(5)):
        tree, _, _ = build(p, RankingRule.parse("match"), everywhere=False)
        last = p.turn if p.trick >= 0 else 1 - p.turn
        assert tree.dominated[last], p.bpn()
        a = equilibrium(p)
        assert a.exploitability < 1e-6
        assert abs(a.game_value - openspiel_value(public_view(p), p.turn)) < 2e-4, p.bpn()


@pytest.mark.slow
def test_each_information_sets_sequences_are_consecutive():
    """The program's constraints and the best responses take a set's sequences as a run
    from its first (``info_sets``); the walk numbers them so, the last replies' too."""
    from solver.analysis.subgame import info_sets

    for p in (last_talon_trick(1, "briscan"), mid_trick(5), petite_ending(2)):
        tree, _, _ = build(p, RankingRule.parse("match"), everywhere=False)
        for seat in (0, 1):
            _, firsts, counts = info_sets(tree, seat)
            for (key, (_, actions)), first, count in zip(
                tree.infos[seat].items(), firsts, counts, strict=True
            ):
                assert [tree.seqs[seat][(key, m)] for m in actions] == list(range(first, first + count))


def test_pimc_is_measured_against_the_equilibrium():
    p = last_talon_trick(1, "briscan")
    p = shown(p, 1 - p.turn)
    a = equilibrium(p, strategies=True)
    assert a.pimc_exploitability is not None and a.pimc_exploitability >= a.exploitability - 1e-9
    root = (p.turn, p.hands[p.turn], ())
    assert a.pimc_strategy[root] == int(a.pimc_move)
    assert a.strategy[root] == pytest.approx({int(m.move): m.probability for m in a.moves}, abs=1e-9)
    assert "pimc_exploitability" in a.to_dict()


def test_a_carte_blanche_shows_the_leaders_hand_to_the_follower():
    """After a carte blanche the follower knows the leader's hand: his information sets
    are split by it (the history records the cards shown), as OpenSpiel's are."""
    p = follower_shown(last_talon_trick(1, "briscan"))
    tree, _, _ = build(p, RankingRule.parse("match"), everywhere=False)
    follower = 1 - p.turn
    blanche = [key for key in tree.infos[follower] if any(e > 255 for e in key[2])]
    assert blanche
    hands = {e >> 8 for key in blanche for e in key[2] if e > 255}
    assert len(hands) > 1  # (several leader hands, each its own set)


def test_the_drawn_card_of_the_actual_position_is_not_public():
    for seed in range(2, 30):
        p = last_talon_trick(seed, "briscan(declare=before_draw)")
        if p.drawn:
            break
    else:
        pytest.skip("no such position")
    q = p.copy()
    q.drawn = 0
    assert public_view(p).bpn() == public_view(q).bpn()
    assert equilibrium(shown(p, 1 - p.turn)).game_value == pytest.approx(
        equilibrium(shown(q, 1 - q.turn)).game_value
    )


def test_outside_the_domain_is_refused_with_the_reason():
    final = petite_ending(1)
    while final.hand_size(0) > 1 or final.trick >= 0:
        final.push(final.legal_moves()[0])
    with pytest.raises(ArgumentError, match="no decision with hidden cards is left"):
        equilibrium(final)
    early = deal(1)
    assert "talon tricks left" in (domain_problem(early) or "")
    with pytest.raises(ArgumentError, match="outside the equilibrium solver's domain"):
        equilibrium(early)
    with pytest.raises(ArgumentError, match="two cards a hand"):
        equilibrium(deal(1, "petite"))


@pytest.mark.slow
def test_the_command_line_answers_and_refuses(tmp_path):
    p = shown(petite_ending(1), 0)
    run = [sys.executable, "-m", "solver.cli", "analyse"]
    res = subprocess.run(
        [*run, p.bpn(), "--method", "equilibrium", "--json"], capture_output=True, cwd=tmp_path
    )
    assert res.returncode == 0, res.stderr
    answer = json.loads(res.stdout)
    assert answer["method"] == "equilibrium" and answer["exploitability"] <= 0.1
    assert {"game_value", "value", "moves", "pimc_move", "pimc_loss", "deals"} <= set(answer)
    text = subprocess.run([*run, p.bpn(), "--method", "equilibrium"], capture_output=True, cwd=tmp_path)
    assert text.returncode == 0 and b"Exploitability" in text.stdout
    bad = subprocess.run([*run, deal(1).bpn(), "--method", "equilibrium"], capture_output=True, cwd=tmp_path)
    assert bad.returncode == 2 and b"outside the equilibrium" in bad.stderr and b"Traceback" not in bad.stderr


@pytest.mark.parametrize("flag", ["yes", "no", 1, None])
def test_strategies_must_be_true_or_false(flag):
    # (any truthy value used to count: "no" asked for the strategies)
    with pytest.raises(ArgumentError, match=rf"strategies={flag!r}: expected True or False"):
        equilibrium(shown(petite_ending(1), 0), strategies=flag)


def test_an_answer_more_exploitable_than_asked_is_refused(monkeypatch):
    import solver.analysis.subgame as subgame

    p = shown(petite_ending(1), 0)
    with pytest.raises(ArgumentError, match="max_exploitability=0"):
        equilibrium(p, max_exploitability=0)
    for bad, quoted in (("x", "'x'"), (True, "True"), (float("nan"), "nan")):
        with pytest.raises(ArgumentError, match=f"max_exploitability={quoted}: expected a number"):
            equilibrium(p, max_exploitability=bad)  # type: ignore[arg-type]
    real = subgame.solve_public

    def sloppy(*args, **kwargs):  # (the program's answer, made worse than it is)
        s = real(*args, **kwargs)
        s.exploitability = 0.5
        return s

    monkeypatch.setattr(subgame, "solve_public", sloppy)
    with pytest.raises(PositionError, match="exploitable by 0.5 points, above the 0.1"):
        equilibrium(p)
    assert equilibrium(p, max_exploitability=1).exploitability == 0.5


PETITE_VIEW = "petite ...Q7/?2 KH 21 KJ8.T98.. - a 16:0 tricks=3:0 void=b:H"


@pytest.mark.slow
@pytest.mark.parametrize(
    "extra",
    [{"worlds": 5}, {"seed": 3}, {"workers": 2}, {"time_limit": 2.0}, {"world_search": "exact"}],
)
def test_the_equilibrium_refuses_the_sampling_options(extra):
    # analyse(p, method="equilibrium", worlds=5) answered as if the worlds meant something;
    # the command line refuses --worlds with --method equilibrium
    with pytest.raises(ArgumentError, match="method='equilibrium'") as err:
        solver.analyse(PETITE_VIEW, method="equilibrium", **extra)
    assert next(iter(extra)) in str(err.value)
    assert solver.analyse(PETITE_VIEW, method="equilibrium", win_worth=5).game_value > 0


@pytest.mark.slow
def test_exploitability_refuses_a_strategy_that_is_no_strategy():
    # a move that is not legal, probabilities of 2 each: both measured 0.0 points, the
    # exploitability of an equilibrium; None was an AttributeError
    from solver.analysis.equilibrium import equilibrium, exploitability
    from solver.errors import ArgumentTypeError

    own = equilibrium(PETITE_VIEW, strategies=True).strategy
    assert own is not None and exploitability(PETITE_VIEW, own) < 1e-6
    key = next(iter(own))
    for bad, words in (
        ({key: {99: 1.0}}, "move 99 is not legal"),
        ({key: {m: 2.0 for m in own[key]}}, "probability 2.0"),
        ({key: {m: -1.0 for m in own[key]}}, "probability -1.0"),
        ({key: {m: float("nan") for m in own[key]}}, "probability nan"),
        ({key: {next(iter(own[key])): 0.5}}, "sum to 0.5"),
    ):
        with pytest.raises(ArgumentError, match=words):
            exploitability(PETITE_VIEW, bad)
    for bad in (None, {key: 1}, [key]):
        with pytest.raises(ArgumentTypeError, match="expected a mapping"):
            exploitability(PETITE_VIEW, bad)  # type: ignore[arg-type]
