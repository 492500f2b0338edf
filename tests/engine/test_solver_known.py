"""Hand-made positions whose answers were worked out by hand from RULES.md.

Each position is written in BPN by hand, checked valid, and solved by the engine and by
the reference; the expected values below come from the reasoning in the comments (or
from NOTATION.md), never from a solver's output.
"""

from __future__ import annotations

import pytest

from solver.engine.reference import reference_solve
from solver.engine.solving import solve
from solver.model.position import Position


def answers(bpn: str) -> list[tuple[int, str | None, dict[str, int]]]:
    """(value, win, {move: value}) from the engine and from the reference."""
    p = Position(bpn)
    assert p.problems() == [], p.problems()
    assert p.bpn() == bpn  # written in canonical form
    a = solve(p)
    engine = (a.value, a.win, {str(m.move): m.value for m in a.moves})
    r = solve(p, engine="reference")
    value, moves = reference_solve(p)
    assert (r.value, {str(m.move): m.value for m in r.moves}) == (value, moves)
    return [engine, (r.value, r.win, moves)]


def check(bpn: str, value: int, moves: dict[str, int], win: str | None = None) -> None:
    for got in answers(bpn):
        assert got == (value, win, moves), bpn


# ----------------------------------------------------------------------------- last trick
def test_last_trick_winner_takes_card_points_and_ten():
    # Trick 16, spades trump, a leads AH and b must answer KH (his only card).
    # a takes 11 + 4 + 10 for the last trick: 60 + 25 = 85 against 45, margin +40.
    check("brisque .A../.K.. S 0 ATKQJ987.TQJ987.ATKQJ987.ATKQJ987 - a 60:45", 40, {"AH": 40})


def test_last_trick_ruffed():
    # b has no heart but the 7 of trumps: he must trump and takes 11 + 10.
    # a 60, b 49 + 21 = 70: -10 for a.
    check("brisque .A../7... S 0 ATKQJ98.TKQJ987.ATKQJ987.ATKQJ987 - a 60:49", -10, {"AH": -10})


def test_last_trick_answering_a_lead():
    # b has led KH to the last trick; a beats it with AH: 15 + 10, 85 against 45.
    check("brisque .A../... S 0 ATKQJ987.TQJ987.ATKQJ987.ATKQJ987 KH a 60:45", 40, {"AH": 40})


# ----------------------------------------------------------------------------- marriages
def test_final_phase_marriage_scores_20():
    # Trick 15, spades trump: a holds KH QH, b two low clubs (no heart, no trump), so a takes
    # both tricks: 4 + 3 + 10 = 17.  Declaring first adds 20; leading a card first breaks
    # the marriage (a on lead later holds only one of the pair).  Score 60:53 (+7).
    check(
        "brisque .KQ../...87 S 0 ATKQJ987.ATJ987.ATKQJ987.ATKQJ9 - a 60:53",
        44,
        {"+mH": 7 + 37, "KH": 7 + 17, "QH": 7 + 17},
    )


def test_final_phase_trump_marriage_scores_40():
    # The same with the marriage in trumps (KS QS, spades trump): 40 + 17.
    check(
        "brisque KQ.../...87 S 0 ATJ987.ATKQJ987.ATKQJ987.ATKQJ9 - a 60:53",
        64,
        {"+mS": 7 + 57, "KS": 7 + 17, "QS": 7 + 17},
    )


TWO_MARRIAGES = ".KQ.KQ./...J987 S 0 ATKQJ987.ATJ987.ATJ987.ATKQ - a 54:50"


def test_two_marriages_declared_at_one_turn():
    # Trick 13: a holds KH QH KD QD, b four clubs (no trump): a takes all four tricks,
    # 14 points of his own, b's JC (2) and the last trick (10): 26.  Both marriages: +40.
    # Leading a card first loses that suit's marriage, but a is on lead again and declares
    # the other one: 26 + 20.  Score 54:50 (+4).
    check("brisque " + TWO_MARRIAGES, 70, {"+mH": 70, "+mD": 70, "KH": 50, "QH": 50, "KD": 50, "QD": 50})


def test_one_declaration_per_turn_declares_the_second_marriage_later():
    # One declaration a turn: +mH, lead KH, win, then +mD at the next lead: still 26 + 40.
    check(
        "brisque(one_declaration_per_turn=yes) " + TWO_MARRIAGES,
        70,
        {"+mH": 70, "+mD": 70, "KH": 50, "QH": 50, "KD": 50, "QD": 50},
    )
    # after +mH the same turn offers no second declaration
    p = Position("brisque(one_declaration_per_turn=yes) " + TWO_MARRIAGES)
    p.push("+mH")
    assert sorted(str(m) for m in p.legal_moves()) == ["KD", "KH", "QD", "QH"]


def test_no_final_phase_declarations():
    # final_declarations=no: the marriages cannot be declared in the final phase: 4 + 26.
    check("brisque(final_declarations=no) " + TWO_MARRIAGES, 30, {"KH": 30, "QH": 30, "KD": 30, "QD": 30})


NOTATION_FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
NOTATION_JSON = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


@pytest.mark.parametrize("engine", ["native", "reference"])
def test_notation_puzzle_record(engine):
    # NOTATION.md: "; bm +mD 7S 9D 7C AC ; v 44"
    a = solve(NOTATION_FP, engine=engine)
    assert a.turn == "b" and a.value == 44 and a.win is None
    assert {str(m) for m in a.best} == {"+mD", "7S", "9D", "7C", "AC"}
    # the moves outside bm are worse: leading a card of the trump marriage breaks it
    assert all(mv.value < 44 for mv in a.moves if str(mv.move) in ("KD", "QD"))


@pytest.mark.parametrize("engine", ["native", "reference"])
def test_notation_json_example(engine):
    # NOTATION.md's JSON answer: value -4, AS -18, best KS 9S 9H 7H 9C.
    a = solve(NOTATION_JSON, engine=engine)
    assert a.turn == "a" and a.value == -4 and a.win is None
    assert a.move_value("AS") == -18
    assert a.move_value("KS") == -4
    assert {str(m) for m in a.best} == {"KS", "9S", "9H", "7H", "9C"}
    assert {str(mv.move) for mv in a.moves} == {"AS", "KS", "9S", "9H", "7H", "9C"}


# ----------------------------------------------------------------------------- quartets
FOUR_KINGS = "K.K.K.K/87..7.7 S 0 ATQJ9.ATQJ987.ATQJ98.ATQJ98 - a 60:44"
# Trick 13, spades trump.  a: the four kings; b: 7S 8S 7D 7C.  Without the quartet the
# 16 card points and the last trick are at stake; b's two trumps ruff KH (a's only way
# to keep it from the last trick is to lose it early): a 22, b 4, +18.  Score 60:44 (+16).


def test_four_kings_on_lead_win_the_game():
    check("brisque " + FOUR_KINGS, 10000, {"+kK": 10000, "KS": 34, "KH": 34, "KD": 34, "KC": 34}, win="a")
    a = solve("brisque " + FOUR_KINGS)
    assert [str(m) for m in a.best] == ["+kK"] and [str(m) for m in a.pv] == ["+kK"]


def test_four_kings_with_quartet_win_deal():
    # quartet_win=deal: a is credited with the 16 points left and the last trick: 60 + 26.
    check("brisque(quartet_win=deal) " + FOUR_KINGS, 42, {"+kK": 42, "KS": 34, "KH": 34, "KD": 34, "KC": 34})


FOUR_QUEENS_B = "AT.AT.AT./Q7.Q8.Q.Q S 0 KJ98.KJ97.KJ987.ATKJ987 - b 20:25"


def test_four_queens_win_for_the_mover_b():
    # b on lead at trick 11 holds the four queens: declaring wins the game for b.
    p = Position("brisque " + FOUR_QUEENS_B)
    assert p.problems() == []
    for a in (solve(p), solve(p, engine="reference")):
        assert a.turn == "b" and a.value == 10000 and a.win == "b"
        assert [str(m) for m in a.best] == ["+kQ"]
        assert a.move_value("+kQ") == 10000
        # leading a card breaks the quartet for good; a holds no quartet: no win either way
        assert all(not mv.value.is_game_win for mv in a.moves if str(mv.move) != "+kQ")
    assert reference_solve(p)[0] == 10000


QUARTET_AGAINST = "K.K7.K.K/Q.9.87.QJ S 0 TJ987.ATQJ8.ATQJ9.AT987 AS b 45:40"
# a has led AS (trump) keeping the four kings; b's only legal card is QS (he must follow
# spades and cannot beat the ace).  a wins the trick, is on lead and declares the kings.


def test_quartet_of_the_opponent_loses_the_game():
    check("brisque " + QUARTET_AGAINST, -10000, {"QS": -10000}, win="a")


def test_quartet_of_the_opponent_with_quartet_win_deal():
    # a takes AS + QS (14), then is credited with what is left: 120 - 85 - 14 = 21, and 10.
    # a 45 + 14 + 31 = 90 against b 40: -50 for b.
    check("brisque(quartet_win=deal) " + QUARTET_AGAINST, -50, {"QS": -50})


# ----------------------------------------------------------------------------- last pickup
WINDOW = "7..ATJ98./...ATJ98 AS 0 TKQJ98.ATKQJ987.KQ7.KQ7 - a 33:30"
# Brisque after trick 10: a won it, drew the last card and holds 7S; the turnup AS
# (spades trump) is still on the table.  a: 7S AD TD JD 9D 8D; b: AC TC JC 9C 8C.
# 57 card points are left, and the last trick: 67.  Score 33:30 (+3).
# x: a takes AS, b the 7S.  a leads AS (b must play 7S), then his diamonds: b has none
#    and no trump, so a takes everything: +67.
# pass: b takes AS.  a leads a small diamond, b must ruff with AS (11); b leads a small
#    club, which a ruffs with 7S; a's diamonds then take the rest: a 56, b 11: +45.


def test_last_pickup_window_exchange_or_pass():
    p = Position("brisque " + WINDOW)
    assert p.in_window and p.trick_number == 11
    check("brisque " + WINDOW, 70, {"x": 3 + 67, "pass": 3 + 45})


def test_last_pickup_window_exchange_points():
    # exchange_points=10: the exchange itself scores 10.
    check("brisque(exchange_points=10) " + WINDOW, 80, {"x": 3 + 77, "pass": 3 + 45})


# ----------------------------------------------------------------------------- Petite Brisque
PETITE = ".7..7/.A..8 AC 21 AKQ..AKQ. - a 20:16 tricks=2:1"
# Trick 4 of 5, clubs trump, turnup AC.  a: 7H 7C; b: AH 8C; a on lead, tricks 2:1.
# x: a takes AC: AC wins one trick, b's AH the other: 1:1 more, 3:2 in all.
# 7H: b must follow with AH and wins, b leads 8C; a, to answer, exchanges 7C for AC
#     ("at any of his turns") and wins with it: also 3:2.
# 7C: b follows with 8C and wins, then b's AH takes a's 7H: 2:3.


def test_petite_trick_count():
    check("petite " + PETITE, 1, {"x": 1, "7H": 1, "7C": -1})


def test_petite_margin_objective():
    # Points instead of tricks (score 20:16): x or 7H trade 11 for 11; 7C gives b the AH.
    check("petite(objective=margin) " + PETITE, 4, {"x": 4, "7H": 4, "7C": 4 - 11})


# ----------------------------------------------------------------------------- objective=tricks
TRICKS_QUARTET = "J7..AT.AT/KQ.Q7.Q.Q H 0 AT98.ATKJ98.KJ987.KJ987 - a 60:0"
# Brisque with the trick objective, trick 11, hearts trump, a on lead.
# a: JS 7S AD TD AC TC; b: KS QS QH 7H QD QC (four queens, but not on lead).
# 7S or JS: b must beat the spade, with KS or QS; with KS he wins the trick keeping the
#     four queens, is on lead and declares them: the game is his (-10000).
# AD/TD (AC/TC): b must follow with QD (QC), the quartet is broken and a wins the trick.
#     Then b is void in that suit and holds two trumps: a's other diamond (club) is ruffed;
#     a takes only his two aces-or-tens, once in each of diamonds and clubs, b the other
#     four tricks: 2 - 4 = -2.


def test_tricks_objective_keeps_the_quartet_threat_of_the_follower():
    # the king and queen of spades are not interchangeable for b: only KS keeps four queens
    check(
        "brisque(objective=tricks) " + TRICKS_QUARTET,
        -2,
        {"7S": -10000, "JS": -10000, "AD": -2, "TD": -2, "AC": -2, "TC": -2},
    )


def test_margin_objective_keeps_the_quartet_threat_of_the_follower():
    p = Position("brisque " + TRICKS_QUARTET)
    for a in (solve(p), solve(p, engine="reference")):
        assert a.move_value("7S") == -10000 and a.move_value("JS") == -10000
        assert a.value > 0 and {str(m) for m in a.best} <= {"AD", "TD", "AC", "TC"}
