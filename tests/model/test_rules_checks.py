"""The checks of RULES.md section 6, one by one."""

import random

import pytest
from helpers import ROOT, assert_conserved, card_names, make, names

import solver
from solver import EXCHANGE, PASS, Position
from solver.errors import (
    ArgumentTypeError,
    RulesError,
)
from solver.model.bits import points_of, popcount
from solver.model.cards import FULL_DECK, card_str
from solver.model.melds import MELDS
from solver.model.rules import Rules
from solver.play.dealing import deal, play_deal
from solver.play.players import GreedyPlayer, RandomPlayer


# ---------------------------------------------------------------- card conservation
@pytest.mark.parametrize("game, hand, talon", [("brisque", 6, 19), ("briscan", 5, 21)])
@pytest.mark.parametrize("seed", range(20))
def test_deal_conserves_the_pack(game, hand, talon, seed):
    p = deal(seed, game)
    assert popcount(p.hands[0]) == popcount(p.hands[1]) == hand
    assert p.turnup >= 0 and len(p.talon) == p.talon_count == talon
    assert 2 * hand + 1 + talon == 32
    union = p.hands[0] | p.hands[1] | (1 << p.turnup)
    for c in p.talon:
        union |= 1 << c
    assert union == FULL_DECK
    assert p.trump == p.turnup >> 3
    assert p.problems() == []


@pytest.mark.parametrize("game, rounds", [("brisque", 10), ("briscan", 11)])
def test_draw_rounds_and_sixteen_tricks(game, rounds):
    """10 (Briscan 11) draw rounds of two cards (the last is the turnup), then 16 tricks in all."""
    for seed in range(40):
        p = deal(seed, game)
        rng = random.Random(seed)
        draw_rounds = 0
        while not p.is_over():
            m = rng.choice(p.legal_moves())
            completes_trick = m.is_card and p.trick >= 0
            before = p.talon_count + (p.turnup >= 0)
            p.push(m)
            while p.in_window:  # Brisque's last pickup: resolve it like a player would
                p.push(rng.choice(p.legal_moves()))
            after = p.talon_count + (p.turnup >= 0)
            if completes_trick and before and not p.is_over():
                draw_rounds += 1
                assert before - after == 2, "each draw round takes two cards"
                assert p.hand_size(0) == p.hand_size(1) == p.rules.hand_size
            else:
                assert after == before
            assert_conserved(p)
        if p.win < 0:  # not stopped by four kings/queens
            assert draw_rounds == rounds
            assert p.completed == 16
            assert popcount(p.out) == 32


# ---------------------------------------------------------------- card points
@pytest.mark.parametrize("game", ["brisque", "briscan"])
def test_finished_deal_card_points(game):
    finished = 0
    for seed in range(60):
        record = play_deal(deal(seed, game), [GreedyPlayer(), RandomPlayer(seed)])
        p = record.final()
        if p.completed < 16:  # a game-winning event stopped play
            continue
        finished += 1
        assert points_of(p.out) == 120
        melds = sum(MELDS[m].points(p.trump, game) for ms in p.melds for m in ms)
        if game == "brisque":
            assert sum(p.score) == 130 + melds
        else:  # Briscan adds the honour turnup and the end-of-play bonuses
            assert sum(p.score) >= 130 + melds
    assert finished >= 50


# ---------------------------------------------------------------- forced follow
# Final phase, spades trumps, QH led by a; b follows with the hand given.
FOLLOW_CASES = [
    ("A.K7..", "..8.8", {"KH"}),  # {7H KH AS}: must beat in the suit led
    ("A.7..", "...8", {"7H"}),  # {7H AS}: must follow suit, even though AS would win
    ("A...9", "...8", {"AS"}),  # {9C AS}: no heart, so trump
    ("..8.9", "...8", {"9C", "8D"}),  # {9C 8D}: anything
]


@pytest.mark.parametrize("follower, leader, legal", FOLLOW_CASES)
def test_forced_follow_examples(follower, leader, legal):
    p = Position(make("brisque", leader, follower, "S", trick="QH", turn="b"))
    assert p.problems() == []
    assert p.in_final_phase and p.forced_follow
    assert card_names(p.legal_moves()) == legal


def _expected_follow(hand: int, led: int, trump: int, must_beat: bool) -> int:
    """RULES.md's follow rule, written independently of solver.model.bits.follow_mask."""
    suit = [c for c in range(32) if hand >> c & 1 and c >> 3 == led >> 3]
    higher = [c for c in suit if (c & 7) > (led & 7)]
    trumps = [c for c in range(32) if hand >> c & 1 and c >> 3 == trump]
    for group in ([higher] if must_beat else []) + [suit, trumps]:
        if group:
            return sum(1 << c for c in group)
    return hand


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite", "petite(draw=yes)"])
def test_follow_rule_on_random_deals(game):
    """Free play in the talon phase; the forced-follow rule in the final phase (Petite: always)."""
    forced = free = 0
    for seed in range(40):
        p = deal(seed, game)
        rng = random.Random(seed)
        while not p.is_over():
            if p.trick >= 0:
                played = sum(1 << m for m in p.legal_moves() if m.is_card)
                hand = p.hands[p.turn]
                if p.in_final_phase or game.startswith("petite"):
                    forced += 1
                    assert played == _expected_follow(
                        hand, p.trick, p.trump, not game.startswith("petite")
                    ), p.bpn()
                else:
                    free += 1
                    assert played == hand, p.bpn()
            p.push(rng.choice(p.legal_moves()))
    assert forced > 0
    assert free > 0 or game.startswith("petite")


# ---------------------------------------------------------------- trump-7 exchange at the last pickup
# Trick 10 of Brisque, spades trumps (turnup KS); a has led AH and b answers 7H so that a wins.
def _trick10(talon_top: str, hand_a: str, hand_b: str) -> Position:
    p = Position(make("brisque", hand_a, hand_b, "KS", talon=talon_top, trick="AH", turn="b"))
    assert p.problems() == [] and p.trick_number == 10 and p.talon_count == 1
    return p


def test_brisque_last_pickup_window_after_drawing_the_seven():
    p = _trick10("7S", "Q.KQ.A.A", "9.7.K9.K9")
    p.push("7H")
    # a won and drew the last face-down card (the 7S); b has not taken the turnup yet
    assert p.in_window and p.turn == 0
    assert p.talon_count == 0 and p.turnup >= 0
    assert p.hand_size("a") == 6 and p.hand_size("b") == 5
    assert p.legal_moves() == [EXCHANGE, PASS]
    assert p.problems() == []
    assert p.bpn().split()[2:4] == ["KS", "0"]

    x = p.apply("x")
    assert x.turnup == -1 and x.bpn().split()[2] == "S"
    assert "KS" in names(x.hands[0]) and "7S" not in names(x.hands[0])
    assert "7S" in names(x.hands[1]), "the loser receives the 7"
    assert x.hand_size("a") == x.hand_size("b") == 6
    assert x.exchanged == 0 and card_str(x.taken) == "KS"
    assert x.in_final_phase and x.problems() == []
    assert "+mS" in card_names(x.legal_moves())  # a now holds KS QS and leads trick 11

    q = p.apply("pass")
    assert "KS" in names(q.hands[1]), "the loser takes the turnup"
    assert "7S" in names(q.hands[0])
    assert q.exchanged == -1 and q.in_final_phase and q.problems() == []


def test_brisque_last_pickup_window_with_seven_already_held():
    p = _trick10("9S", "7.KQ.A.A", "Q.7.K9.K9")
    p.push("7H")
    assert p.in_window and p.legal_moves() == [EXCHANGE, PASS]


def test_brisque_no_window_when_winner_lacks_the_seven():
    p = _trick10("9S", "Q.KQ.A.A", "7.7.K9.K9")
    p.push("7H")
    assert not p.in_window
    assert p.turnup == -1 and p.in_final_phase
    assert "KS" in names(p.hands[1]), "the loser took the turnup KS at once"
    assert EXCHANGE not in p.legal_moves() and PASS not in p.legal_moves()


def test_brisque_follower_may_exchange_before_trick_10_answer():
    # Brisque: the exchange is allowed before following too (b holds the 7S here).
    p = _trick10("9S", "Q.KQ.A.A", "7.7.K9.K9")
    assert EXCHANGE in p.legal_moves()


# ---------------------------------------------------------------- Briscan: trick 11
def _briscan_trick11() -> Position:
    # Briscan, trick 11 (10 completed, one face-down card left), spades trumps, turnup KS.
    p = Position(make("briscan", "7.KQ.A.A", "9.7.K9.K", "KS", talon="9C", turn="a"))
    assert p.problems() == [] and p.trick_number == 11
    return p


def test_briscan_exchange_allowed_on_lead_at_trick_11():
    p = _briscan_trick11()
    assert EXCHANGE in p.legal_moves()
    p.push("x")
    assert card_str(p.turnup) == "7S" and p.exchanged == 0 and p.problems() == []


def test_briscan_no_exchange_once_trick_11_is_led():
    p = _briscan_trick11()
    p.push("AD")
    assert EXCHANGE not in p.legal_moves()  # b to follow
    p.push("7H")
    assert p.turnup == -1 and p.in_final_phase  # the turnup is gone after trick 11
    assert p.turn == 0 and "7S" in names(p.hands[0])  # a still holds the 7 but it is too late
    assert EXCHANGE not in p.legal_moves()
    assert p.problems() == []


def test_briscan_follower_never_exchanges():
    # Briscan, trick 3: b holds the 7S but is following; a leads and b may not exchange.
    p = Position(make("briscan", "A.KQ..A", "7.7.K9.K", "KS", talon=17, turn="b", trick="AD"))
    assert p.problems() == [], p.problems()
    assert EXCHANGE not in p.legal_moves()
    # Brisque allows the same exchange when following.
    q = Position(make("brisque", "A.KQ..A8", "7.7.K9.K9", "KS", talon=15, turn="b", trick="AD"))
    assert q.problems() == [], q.problems()
    assert EXCHANGE in q.legal_moves()


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_rules_built_directly_take_the_games_defaults(game):
    from solver import Rules

    assert Rules(game=game) == Rules.preset(game) and hash(Rules(game=game)) == hash(Rules.preset(game))
    assert str(Rules(game=game)) == game
    assert Rules(game, target=2) == Rules.preset(game, target=2) == Rules.parse(f"{game}(target=2)")


def test_rules_built_directly_are_checked():
    from solver import Rules
    from solver.errors import RulesError

    cases = [
        ({"target": -1}, "option target: '-1' is out of range: expected a whole number from 1 to"),
        ({"quartet_win": "bogus"}, "option quartet_win='bogus': expected one of game, deal"),
        ({"game": "bogus"}, "unknown game 'bogus': expected one of brisque, briscan, petite"),
        ({"game": 3}, "unknown game 3: expected one of"),
        ({"game": "petite", "quartet_win": "deal"}, "option 'quartet_win' does not apply to petite"),
    ]
    for kwargs, words in cases:
        with pytest.raises(RulesError, match=words):
            Rules(**kwargs)
        if "game" not in kwargs or kwargs["game"] == "petite":
            # the same message as the rules string gives
            text = f"{kwargs.pop('game', 'brisque')}({','.join(f'{k}={v}' for k, v in kwargs.items())})"
            with pytest.raises(RulesError, match=words):
                Rules.parse(text)


def test_rules_that_were_refused_no_longer_reach_a_deal_or_the_solver():
    from solver import Rules
    from solver.errors import RulesError

    with pytest.raises(RulesError, match="target"):
        solver.deal(1, Rules(target=-1))
    with pytest.raises(RulesError, match="'bogus'"):
        solver.Solver(Rules(game="bogus"))
    assert solver.deal(1, Rules(game="petite")).bpn().startswith("petite ")


@pytest.mark.parametrize("text", ["brisque(target=300))", "brisque)", "brisque((target=300)"])
def test_unmatched_parentheses_in_rules_are_said_so(brisque, text):
    # said "option target: '300)' is not a whole number"
    from solver.errors import RulesError
    from solver.model.rules import Rules

    with pytest.raises(RulesError) as info:
        Rules.parse(text)
    assert repr(text) in str(info.value) and "parentheses do not match" in str(info.value)
    assert "whole number" not in str(info.value)


@pytest.mark.parametrize("bad", [None, 3, b"brisque"])
def test_rules_parse_refuses_what_is_not_a_string(bad):
    # Rules.parse(None) was "AttributeError: 'NoneType' object has no attribute 'strip'"
    with pytest.raises(ArgumentTypeError, match="expected a rules string"):
        solver.Rules.parse(bad)


@pytest.mark.parametrize("text", ["brisque(game=petite)", "brisque(cls=1)", "briscan(game=brisque)"])
def test_a_rules_option_named_like_a_parameter_is_an_unknown_option(text):
    with pytest.raises(RulesError, match="unknown option"):
        Rules.parse(text)


def test_exchange_points_at_the_edge_still_solve():
    r = Rules.parse("brisque(exchange_points=1000)")
    assert r.exchange_points == 1000


def test_the_rules_errors_of_the_options_page_are_the_real_ones():
    text = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    shown = [ln for ln in text.splitlines() if ln.startswith("bad rules '")]
    assert len(shown) == 2
    for line in shown:
        given = line.split("'")[1]
        with pytest.raises(solver.RulesError) as e:
            solver.Rules.parse(given)
        assert str(e.value) == line
