"""Petite Brisque: follow suit (else trump) from trick 1, no need to beat, no declarations."""

import pytest
from helpers import card_names, make

from solver import EXCHANGE, Position
from solver.play.dealing import deal


def trick1(follower: str, leader: str = "..AK.A9", led: str = "QH", turnup: str = "JS") -> Position:
    """Petite Brisque, trick 1: a has led, b (5 cards) answers; spades trumps."""
    p = Position(
        make("petite", leader, follower, turnup, talon="21", trick=led, turn="b", out="-", score="0:0")
    )
    assert p.problems() == [], p.problems()
    return p


@pytest.mark.parametrize(
    "follower, legal",
    [
        ("A.K7.7.7", {"7H", "KH"}),  # follow suit, need not beat the queen
        ("A.7.7.T7", {"7H"}),  # follow suit even though the trump would win
        ("A9.8.7.7", {"8H"}),  # a lower heart only
        ("A9..7.T7", {"AS", "9S"}),  # no heart: trump
        ("..7.TKQ7", {"7D", "7C", "TC", "KC", "QC"}),  # no heart, no trump: anything
    ],
)
def test_follow_rule_from_trick_1(follower, legal):
    p = trick1(follower)
    assert p.trick_number == 1 and p.forced_follow
    assert card_names(m for m in p.legal_moves() if m.is_card) == legal


@pytest.mark.parametrize(
    "follower, legal",
    [
        ("A.K7..", {"7H", "KH"}),  # Brisque's final phase would force KH
        ("A.7..8", {"7H"}),
        ("A...98", {"AS"}),
        ("..8.97", {"9C", "8D", "7C"}),
    ],
)
def test_the_brisque_examples_under_petite_rules(follower, legal):
    # trick 3 (two tricks out), a has led QH with two cards left, b answers with three
    p = Position(make("petite", "..T.T", follower, "JS", talon="21", trick="QH", turn="b", out="KQ...KQ"))
    assert p.problems() == [] and p.trick_number == 3
    assert card_names(m for m in p.legal_moves() if m.is_card) == legal


def test_no_declarations_in_petite():
    p = Position(make("petite", "KQ..9.", "A.A.A.", "JS", talon="21", out=".JT..JT", turn="a", score="24:0"))
    assert p.problems() == [] and p.trick_number == 3
    assert not any(m.is_declaration for m in p.legal_moves())


def test_exchange_at_any_turn_in_petite():
    # b follows with the 7 of trumps in hand and may exchange first
    p = trick1("A7.K7.8.")
    assert EXCHANGE in p.legal_moves()
    p.push("x")
    assert p.bpn().split()[2] == "7S" and p.problems() == []
    # the exchange does not change the follow rule
    assert card_names(m for m in p.legal_moves() if m.is_card) == {"7H", "KH"}


def test_five_tricks_and_three_win_the_deal():
    for seed in range(30):
        p = deal(seed, "petite")
        assert p.hand_size(0) == p.hand_size(1) == 5 and p.talon_count == 21
        while not p.is_over():
            p.push(p.legal_moves()[-1])
        assert p.completed == 5 and sum(p.tricks) == 5
        o = p.outcome()
        winner = 0 if p.tricks[0] >= 3 else 1
        assert o.winner == winner and o.win is None
        assert p.value(winner) == p.tricks[winner] - p.tricks[1 - winner] > 0
        assert p.talon_count == 21 and p.turnup >= 0  # dead cards, turnup on the table
