"""The games in OpenSpiel: registered, checked by OpenSpiel's own tests,
chance uniform over the consistent deals, perfect recall, and OpenSpiel's algorithms on them.

These tests use the real OpenSpiel (the extra ``openspiel``, which the README's test command
installs)."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import pytest

pyspiel = pytest.importorskip("pyspiel")

import solver  # noqa: E402
import solver.openspiel  # noqa: E402,F401  (registers the games)
from solver.analysis.worlds import world_count  # noqa: E402
from solver.engine import solve  # noqa: E402
from solver.errors import ArgumentError, IllegalMoveError  # noqa: E402
from solver.model.position import Position  # noqa: E402
from solver.play.dealing import deal  # noqa: E402

NAMES = ["python_brisque", "python_briscan", "python_petite_brisque"]


def ending(seed: int, rules: str, cards: int) -> Position:
    """A seeded position of random play where each hand holds ``cards`` cards, on lead."""
    p = deal(seed, rules)
    rng = random.Random(seed)
    while p.hand_size(0) + p.hand_size(1) > 2 * cards or p.trick >= 0 or (p.rules.draws and p.talon_count):
        p.push(rng.choice(p.legal_moves()))
    assert not p.is_over()
    return p


def deal_one(state, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """Apply one chance outcome, drawn with its probability."""
    outcomes, probs = zip(*state.chance_outcomes())
    state.apply_action(rng.choices(outcomes, probs)[0])


def all_states(game):  # type: ignore[no-untyped-def]
    """Every state of a small game, with its probability of chance (depth first)."""
    out = []

    def walk(state, prob):  # type: ignore[no-untyped-def]
        out.append((state, prob))
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, pa in state.chance_outcomes():
                walk(state.child(a), prob * pa)
        else:
            for a in state.legal_actions():
                walk(state.child(a), prob)

    walk(game.new_initial_state(), 1.0)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_simulation_and_serialization(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert game.num_distinct_actions() == 112 and game.get_type().short_name == name


@pytest.mark.parametrize(
    "rules,cards",
    [
        pytest.param("petite", 2, marks=pytest.mark.slow),
        ("brisque", 2),
        ("briscan", 2),
        ("petite(draw=yes)", 2),
    ],
)
def test_a_full_position_is_the_exact_solve(rules, cards):
    """No chance: OpenSpiel's sequence-form LP must give the engine's exact value."""
    from open_spiel.python.algorithms import sequence_form_lp

    for seed in range(3):
        p = ending(seed, rules, cards)
        game = pyspiel.load_game(
            f"python_{'petite_brisque' if rules.startswith('petite') else rules}", {"position": p.bpn()}
        )
        v0, v1, _, _ = sequence_form_lp.solve_zero_sum_game(game)
        exact = int(solve(p).value) if p.turn == 0 else -int(solve(p).value)
        assert abs(v0 - exact) < 1e-4 and abs(v0 + v1) < 1e-4, (p.bpn(), v0, exact)


@pytest.mark.slow
def test_chance_deals_every_consistent_world_equally_likely():
    """a's view with b's hand hidden (and a void of b's): each consistent deal once, with
    probability one over their number."""
    for seed in range(4):
        p = ending(seed, "petite", 2)
        view = p.view(p.turn)
        game = pyspiel.load_game("python_petite_brisque", {"position": view.bpn()})
        worlds = defaultdict(float)
        for state, prob in all_states(game):
            if not state.is_chance_node() and state.position is not None and not state.steps:
                worlds[state.position.bpn()] += prob
        assert len(worlds) == world_count(view)
        assert all(abs(w - 1 / len(worlds)) < 1e-9 for w in worlds.values())
    voided = Position("petite AT9.K..8/?5 9C 21 - - a 0:0 void=b:D")
    plan = solver.openspiel.DealPlan.of(voided)
    first = dict(plan.outcomes([]))
    assert not any(c >> 3 == 2 for c in first) and abs(sum(first.values()) - 1) < 1e-12


def test_a_spectator_view_under_voids_deals_every_consistent_deal_equally_likely():
    """Both hands hidden, each seat void in a suit: the joint weights of the dealing."""
    view = Position("petite ?2/?2 9C 21 .K97.TQJ. - a 0:0 tricks=3:0 void=a:S,b:D")
    plan = solver.openspiel.DealPlan.of(view)
    probs: dict[tuple[int, int], float] = defaultdict(float)

    def walk(dealt: list[int], prob: float) -> None:
        if len(dealt) == plan.size:
            w = plan.world(dealt)
            probs[(w.hands[0], w.hands[1])] += prob
            return
        for c, q in plan.outcomes(dealt):
            walk(dealt + [c], prob * q)

    walk([], 1.0)
    unseen = [c for c in range(32) if view.unseen() >> c & 1]
    consistent = sum(
        1
        for a in itertools.combinations(unseen, 2)
        if all(c >> 3 != 0 for c in a)
        for b in itertools.combinations([c for c in unseen if c not in a], 2)
        if all(c >> 3 != 2 for c in b)
    )
    assert len(probs) == consistent
    assert all(abs(p * consistent - 1) < 1e-9 for p in probs.values())


def test_information_states_hold_what_the_player_saw_and_nothing_else():
    """Perfect recall: states a player cannot tell apart share his information state, which
    never shows the opponent's hidden cards; different states of his own cards differ."""
    p = ending(1, "petite", 2)
    game = pyspiel.load_game("python_petite_brisque", {"position": p.view(p.turn).bpn()})
    me = p.turn
    groups = defaultdict(set)
    for state, _ in all_states(game):
        if state.is_chance_node() or state.is_terminal():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        groups[key].add((tuple(state.legal_actions()), state.position.hands[player]))
        tensor = state.information_state_tensor(player)
        assert len(tensor) == game.information_state_tensor_size()
        # the opponent's hidden cards never appear in the player's string
        if player == me and state.position.hands[1 - me]:
            hidden = state.position.hands[1 - me] & ~p.view(me).hands[1 - me]
            for c in range(32):
                if hidden >> c & 1:
                    from solver.model.cards import card_str

                    assert card_str(c) not in key.split("|")[-1] or f":{card_str(c)}" in key, key
    # one information state, one set of legal moves and one hand of the player's own
    assert all(len(v) == 1 for v in groups.values())
    # b's information states tell his hands apart (he sees his cards), a's do not
    assert sum(1 for k in groups if k.startswith(f"p{1 - me}")) > 1


@pytest.mark.slow
def test_openspiel_algorithms_run_on_the_games():
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability

    p = ending(1, "petite", 2)  # (a position where playing at random costs something)
    game = pyspiel.load_game("python_petite_brisque", {"position": p.view(p.turn).bpn()})
    solver_ = cfr.CFRPlusSolver(game)
    for _ in range(20):
        solver_.evaluate_and_update_policy()
    average = solver_.average_policy()
    nash_conv = exploitability.nash_conv(game, average)
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    assert uniform > 0.2 and 0 <= nash_conv < uniform / 4  # CFR+ learns: far less exploitable than chance


@pytest.mark.parametrize("name", ["python_brisque", "python_briscan"])
def test_an_is_mcts_bot_plays_a_whole_deal_legally(name):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=None) for _ in range(2)
    ]
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            deal_one(state, rng)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.returns()[0] == -state.returns()[1] and state.position.is_over()


@pytest.mark.parametrize("name", NAMES)
def test_a_resampled_state_is_one_the_player_cannot_tell_apart(name):
    game = pyspiel.load_game(name)
    rng = random.Random(11)
    state = game.new_initial_state()
    moves = 4 if name == "python_petite_brisque" else 12  # (Petite's deal is five tricks)
    for _ in range(200):  # into the deal: chance, then a few random moves
        if not state.is_chance_node() and len(state.steps) >= moves:
            break
        if state.is_chance_node():
            deal_one(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    other = 1 - player
    seen, hands = state.information_state_string(player), set()
    for k in range(20):
        sample = state.resample_from_infostate(player, lambda k=k: (k * 0.618) % 1.0)
        assert sample.information_state_string(player) == seen
        assert sample.legal_actions() == state.legal_actions()
        assert (
            sample.position.problems() == [] and sample.position.hands[player] == state.position.hands[player]
        )
        hands.add(sample.position.hands[other])
    assert len(hands) > 1  # the opponent's cards are redrawn


@pytest.mark.parametrize(
    "params,message",
    [
        ({"rules": "briscan"}, "not brisque's"),
        ({"position": "brisque x"}, "bad BPN"),
        ({"position": "briscan .T98..Q7/KJ8..TK. KH 21 - - a 0:10"}, "not brisque"),
    ],
)
def test_bad_parameters_get_a_clear_error(params, message):
    with pytest.raises(Exception, match=message):
        pyspiel.load_game("python_brisque", params)


def test_a_view_no_deal_fits_is_refused():
    with pytest.raises(Exception, match="impossible start position"):  # a void in every suit
        pyspiel.load_game(
            "python_petite_brisque",
            {"position": "petite ?2/?2 9C 21 .K97.TQJ. - a 0:0 tricks=3:0 void=a:SHDC"},
        )


def test_a_spectator_sees_neither_hand():
    game = pyspiel.load_game("python_brisque", {"position": "brisque ?6/?6 QH 19 - - a 0:0"})
    state = game.new_initial_state()
    assert state.is_chance_node()
    rng = random.Random(3)
    while state.is_chance_node():
        deal_one(state, rng)
    observer = solver.openspiel.game.BrisqueObserver(
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE),
        game,
        None,
    )
    assert "?6/?6" in observer.string_from(state, 0)
    assert list(itertools.islice((s for s in [state.information_state_string(0)]), 1))[0].count("?6") == 1


def _into(state, moves: int, rng: random.Random):  # type: ignore[no-untyped-def]
    """Chance at random, then random moves, until ``moves`` were played (or the deal ends)."""
    while not state.is_terminal() and (state.is_chance_node() or len(state.steps) < moves):
        if state.is_chance_node():
            deal_one(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_resampling_keeps_the_start_voids_and_its_own_history():
    game = pyspiel.load_game(
        "python_petite_brisque", {"position": "petite AT9.K..8/?5 9C 21 - - a 0:0 void=b:D"}
    )
    rng = random.Random(4)
    state = _into(game.new_initial_state(), 1, rng)
    player = state.current_player()
    for k in range(40):
        sample = state.resample_from_infostate(player, lambda k=k: (k * 0.377) % 1.0)
        start = sample.plan.world(sample.dealt)
        assert not start.hands[1] & (0xFF << 16), "b was void in diamonds at the start"
        assert list(sample.history()) == sample.dealt + [m for _, m, *_ in sample.steps]
        assert sample.information_state_string(player) == state.information_state_string(player)


def test_a_carte_blanche_shows_its_hand_in_the_information_states():
    rng = random.Random(0)
    game = pyspiel.load_game("python_briscan")
    for _ in range(3000):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                deal_one(state, rng)
                continue
            blank = [
                a for a in state.legal_actions() if a >= 40 and state.action_to_string(a) in ("+bc", "+bp")
            ]
            if blank:
                mover = state.current_player()
                hand = state.position.hands[mover]
                state.apply_action(blank[0])
                seen = state.information_state_string(1 - mover).split("|")[-1]
                from solver.model.cards import card_str

                shown = [card_str(c) for c in range(32) if hand >> c & 1]
                assert all(c in seen for c in shown), (seen, shown)
                return
            state.apply_action(rng.choice(state.legal_actions()))
    pytest.skip("no carte blanche in 3000 random deals")


def test_game_details_that_openspiel_tools_rely_on():
    game = pyspiel.load_game("python_brisque", {"rules": "brisque(target=50000)"})
    assert game.max_utility() >= 50000 and game.min_utility() <= -50000
    state = _into(game.new_initial_state(), 2, random.Random(1))
    assert all(
        state.action_to_string(pyspiel.PlayerId.CHANCE, a).startswith("deal ") for a in state.history()[:3]
    )
    observer = solver.openspiel.game.BrisqueObserver(
        pyspiel.IIGObservationType(perfect_recall=True), game, None
    )
    observer.set_from(state, 0)
    start = state.plan.world(state.dealt)
    assert observer.dict["start_turnup"][start.turnup] == 1  # (dealt by chance from the start)
    late = _into(
        pyspiel.load_game("python_petite_brisque", {"rules": "petite(draw=yes)"}).new_initial_state(),
        24,
        random.Random(2),
    )
    if not late.is_terminal():  # the talon gone: a resample is the state itself
        again = late.resample_from_infostate(late.current_player(), lambda: 0.5)
        assert str(again) == str(late)


def test_an_exact_tail_ends_where_no_hidden_decision_is_left():
    p = ending(3, "briscan", 5)  # (the start of the final phase: nothing hidden is left)
    game = pyspiel.load_game("python_briscan", {"position": p.bpn(), "exact_tail": True})
    state = game.new_initial_state()
    assert state.is_terminal()
    assert state.returns()[0] == (1 if p.turn == 0 else -1) * int(solve(p).value)
    view = pyspiel.load_game(
        "python_petite_brisque", {"position": ending(1, "petite", 2).view(0).bpn(), "exact_tail": True}
    )
    pyspiel.random_sim_test(view, num_sims=3, serialize=True, verbose=False)


def test_the_solved_returns_are_those_of_an_exact_tail_and_of_play_to_the_end():
    """The exact solver's returns, outside any game: a state's own, where the game ends there."""
    from solver.openspiel.returns import played_returns, solved_returns

    p = ending(3, "briscan", 5)
    state = pyspiel.load_game("python_briscan", {"position": p.bpn(), "exact_tail": True}).new_initial_state()
    assert state.is_terminal() and solved_returns(p) == state.returns()
    assert solved_returns(p)[0] == (1 if p.turn == 0 else -1) * int(solve(p).value)
    played = pyspiel.load_game("python_briscan", {"position": p.bpn()}).new_initial_state()
    while not played.is_terminal():  # (play on at random: the returns are the deal's own)
        played.apply_action(played.legal_actions()[0])
    assert played_returns(played.position) == solved_returns(played.position) == played.returns()
    with pytest.raises(solver.errors.PlayError, match="not over"):
        played_returns(p)


@pytest.mark.parametrize("action", [200, -1, 34, 112])
def test_an_action_that_is_no_move_has_no_name(action):
    # (as leduc_poker's "Unknown action", not a made-up name such as 'move200')

    state = pyspiel.load_game("python_petite_brisque").new_initial_state()
    with pytest.raises(ArgumentError, match=rf"chance action {action} is no card: expected 0 to 31"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, action)
    _into(state, 0, random.Random(1))
    assert state.action_to_string(33) == "pass" and state.action_to_string(111) == "+bp"
    with pytest.raises(
        ArgumentError, match=rf"action {action} is no move: expected 0 to 33 \(.*\) or 40 to 111"
    ):
        state.action_to_string(action)


TARGET_300 = "brisque(target=300) AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


@pytest.mark.parametrize("rules", ["brisque", "brisque(target=500)", "brisque(target=400)"])
def test_openspiel_refuses_rules_that_differ_from_the_positions_however_spelt(brisque, rules):
    # "brisque" was taken as "not given" (the position's target 300 won silently), while its
    # equal spelling brisque(target=500) was refused
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401  (registers the games)

    with pytest.raises(Exception, match=r"the position's rules brisque\(target=300\) differ"):
        pyspiel.load_game("python_brisque", {"rules": rules, "position": TARGET_300})


@pytest.mark.parametrize(
    "params", [{}, {"rules": "brisque(target=300)"}, {"rules": " brisque( target=300 ) "}]
)
def test_openspiel_reports_the_rules_it_plays(brisque, params):
    # get_parameters()["rules"] and str(game) said "brisque" for a target-300 game
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401

    game = pyspiel.load_game("python_brisque", {**params, "position": TARGET_300})
    assert game.rules.target == 300
    assert game.get_parameters()["rules"] == "brisque[target~300]"
    assert "rules=brisque[target~300]" in str(game)
    assert pyspiel.load_game(str(game)).rules == game.rules  # (its game string loads again)


def test_openspiel_rules_left_out_without_a_position_are_the_games_own():
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401
    from solver.model.rules import Rules

    game = pyspiel.load_game("python_briscan")
    assert game.rules == Rules.parse("briscan") and game.get_parameters()["rules"] == "briscan"
    with pytest.raises(Exception, match="not brisque's"):
        pyspiel.load_game("python_brisque", {"rules": "briscan"})


def test_openspiel_chance_node_refuses_a_card_that_is_no_outcome():
    pyspiel = pytest.importorskip("pyspiel")
    import solver.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(
        "python_petite_brisque", {"position": "petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H"}
    )
    state = game.new_initial_state()
    outcomes = [c for c, _ in state.chance_outcomes()]
    # 999 was accepted (str(state) then an IndexError), and so was a card dealt twice
    with pytest.raises(IllegalMoveError, match="chance action 999 is not a card b's hand may get"):
        state.apply_action(999)
    state.apply_action(outcomes[1])
    with pytest.raises(IllegalMoveError, match=f"chance action {outcomes[1]} "):
        state.apply_action(outcomes[1])
    with pytest.raises(IllegalMoveError, match=f"chance action {outcomes[0]} "):
        state.apply_action(outcomes[0])  # (a hand is dealt in ascending order)
    assert state.history() == [outcomes[1]]
