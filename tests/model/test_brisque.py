"""Brisque specifics: when declarations are legal, marriages, four kings/queens, the exchange."""

import pytest
from helpers import card_names, make, names

from solver import EXCHANGE, WIN_VALUE, Position
from solver.model.melds import MELDS

# Spades trumps (turnup TS); a holds the trump marriage KS QS, the heart marriage and the 7S.
A_HAND, B_HAND = "KQ7.KQ.A.", "9.7.K9.K9"


def decls(p: Position) -> set[str]:
    return {str(m) for m in p.legal_moves() if m.is_declaration}


def test_no_declaration_at_trick_1():
    p = Position(make("brisque", A_HAND, B_HAND, "TS", talon=19, turn="a"))
    assert p.problems() == [] and p.trick_number == 1
    assert decls(p) == set()
    assert EXCHANGE in p.legal_moves()  # the exchange needs no trick won


def test_declarations_on_lead_from_trick_2():
    p = Position(make("brisque", A_HAND, B_HAND, "TS", talon=17, turn="a"))
    assert p.problems() == [] and p.trick_number == 2
    assert decls(p) == {"+mS", "+mH"}


def test_no_declaration_when_following():
    # b holds both marriages but follows a's lead: no declaration (not even after the trick
    # unless b wins it and leads)
    p = Position(make("brisque", "9.7.K9.K", A_HAND, "TS", talon=15, trick="9C", turn="b"))
    assert p.problems() == [] and p.trick_number == 3
    assert decls(p) == set()
    p.push("7S")  # b trumps, wins, draws and leads trick 4
    assert p.turn == 1 and p.trick == -1
    assert decls(p) == {"+mS", "+mH"}


def test_declarations_in_the_final_phase_on_lead_only():
    p = Position(make("brisque", "KQ.9..8", "A.7.9.9", "D", turn="a"))
    assert p.in_final_phase and decls(p) == {"+mS"}
    q = Position(make("brisque", "A.7.9.", "KQ.9..7", "D", trick="8C", turn="b"))
    assert q.problems() == [] and decls(q) == set()


@pytest.mark.parametrize("meld, points", [("+mS", 40), ("+mH", 20)])
def test_marriage_points(meld, points):
    p = Position(make("brisque", A_HAND, B_HAND, "TS", talon=17, turn="a"))
    before = p.score[:]
    p.push(meld)
    assert p.score == [before[0] + points, before[1]]
    assert [MELDS[i].code for i in p.melds[0]] == [meld[1:]]
    assert meld not in decls(p)  # once a deal
    assert p.problems() == [] and Position(p.bpn()).bpn() == p.bpn()
    assert f"melds={meld[1:]}/-" in p.bpn()


def test_declared_cards_stay_playable_and_shown():
    p = Position(make("brisque", A_HAND, B_HAND, "TS", talon=17, turn="a"))
    p.push("+mH")
    assert {"KH", "QH"} <= card_names(p.legal_moves())
    view = p.view("b")
    assert names(view.hands[0]) == {"KH", "QH"} and view.unknown[0] == 4
    assert view.bpn().split()[1].startswith(".KQ..+?4/")
    p.push("KH")
    assert "KH" not in names(p.view("b").hands[0]) and "QH" in names(p.view("b").hands[0])


@pytest.mark.parametrize(
    "hand_a, hand_b, meld",
    [
        ("AK.K.K.K9", "QJ.Q.Q9.Q", "+kK"),
        ("QJ.Q.Q9.Q", "AK.K.K.K9", "+kQ"),
    ],
)
def test_four_kings_or_queens_win_the_game(hand_a, hand_b, meld):
    p = Position(make("brisque", hand_a, hand_b, "TS", talon=15, turn="a"))
    assert meld in decls(p)
    p.push(meld)
    assert p.is_over() and p.win == 0
    out = p.outcome()
    assert out.win == 0 and out.winner == 0 and out.margin("a") == WIN_VALUE
    assert out.margin("b") == -WIN_VALUE
    assert p.value() == WIN_VALUE and p.value("a") == WIN_VALUE and p.value("b") == -WIN_VALUE
    again = Position(p.bpn())
    assert again.is_over() and again.win == 0 and again.problems() == []


def test_four_kings_after_a_marriage():
    # Cards of a declared marriage may count in four kings.
    b = make("brisque", "AKQ.K.K.K", "J.Q.Q9.Q9", "TS", talon=15, turn="a")
    q = Position(b)
    q.push("+mS")
    assert "+kK" in decls(q)
    q.push("+kK")
    assert q.win == 0


def test_no_briscan_melds_in_brisque():
    # four aces, a sequence and a trump ace are nothing in Brisque
    p = Position(make("brisque", "AKQ.A.A.A", "9.7.K9.K9", "TS", talon=15, turn="a"))
    assert p.problems() == []
    assert decls(p) == {"+mS"}


def test_exchange_impossible_when_turnup_is_the_seven():
    p = Position(make("brisque", A_HAND.replace("7", "T"), B_HAND, "7S", talon=17, turn="a"))
    assert p.problems() == []
    assert EXCHANGE not in p.legal_moves()


def test_exchange_swaps_the_seven_and_the_turnup():
    p = Position(make("brisque", A_HAND, B_HAND, "TS", talon=17, turn="a"))
    p.push("x")
    assert "TS" in names(p.hands[0]) and "7S" not in names(p.hands[0])
    assert p.bpn().split()[2] == "7S"
    assert "exchanged=a" in p.bpn() and "taken=TS" in p.bpn()
    assert EXCHANGE not in p.legal_moves()
    assert p.problems() == []
    assert "TS" in names(p.view("b").hands[0])  # the card taken is known to b
