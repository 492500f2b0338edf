"""Briscan specifics: the meld table, card reuse, the honour turnup and the end-of-play bonuses."""

import pytest
from helpers import make, names

from solver import WIN_VALUE, Position
from solver.engine.reference import reference_solve
from solver.engine.solving import solve
from solver.model.bits import points_of
from solver.model.cards import RANKS
from solver.play.dealing import deal

SCORE = "300:300"  # Briscan's score check is a lower bound: leave room for earlier melds


def decls(p: Position) -> set[str]:
    return {str(m) for m in p.legal_moves() if m.is_declaration}


def talon_phase(hand_a: str, turnup: str, hand_b: str = "8.7.K8.K", **kw) -> Position:
    """Briscan, trick 3, a on lead."""
    p = Position(make("briscan", hand_a, hand_b, turnup, talon=17, turn="a", **kw))
    assert p.problems() == [], p.problems()
    return p


def final_phase(hand_a: str, hand_b: str, melds: str = "", trump: str = "C") -> Position:
    """Briscan, trick 12 (start of the final phase, 5 cards each), a on lead."""
    extra = f"melds={melds}" if melds else ""
    p = Position(make("briscan", hand_a, hand_b, trump, turn="a", score=SCORE, extra=extra))
    assert p.problems() == [], p.problems()
    assert p.in_final_phase and p.trick_number == 12
    return p


def gain(p: Position, move: str) -> int:
    before = p.score[p.turn]
    p.push(move)
    return p.score[p.turn] - before


# ---------------------------------------------------------------- sequences
def test_plain_sequence_and_marriage():
    p = talon_phase("KQJ.A.9.", "8H")
    assert decls(p) == {"+3KS", "+mS", "+at"}
    assert gain(p, "+3KS") == 50
    assert "+mS" not in decls(p)  # sequence cards may not go into a marriage


def test_trump_sequence_scores_double():
    p = talon_phase("KQJ.A.9.", "9S")
    assert decls(p) == {"+3KS", "+mS"}
    assert gain(p, "+3KS") == 100


def test_sequence_any_length_from_three():
    p = talon_phase("AKQJ.9..", "8H")
    assert decls(p) == {"+4AS", "+3AS", "+3KS", "+mS"}
    q = talon_phase("AKQJ.9..", "8H")
    assert gain(q, "+4AS") == 100
    assert decls(q) == set()
    assert gain(p, "+3AS") == 60
    assert decls(p) == set()  # cannot be lengthened, and KQ are sequence cards


def test_tierce_to_the_nine():
    p = talon_phase("987.A.9.", "8H", hand_b="K.7.K8.K")
    assert decls(p) == {"+39S", "+at", "+bp"}  # no courts: carte blanche too
    assert gain(p, "+39S") == 20


@pytest.mark.parametrize(
    "code, top, length, points",
    [
        ("5AH", "A", 5, 300),
        ("5KH", "K", 5, 150),
        ("5QH", "Q", 5, 100),
        ("5JH", "J", 5, 50),
        ("4AH", "A", 4, 100),
        ("4KH", "K", 4, 80),
        ("4QH", "Q", 4, 60),
        ("4JH", "J", 4, 40),
        ("4TH", "T", 4, 30),
        ("3AH", "A", 3, 60),
        ("3KH", "K", 3, 50),
        ("3QH", "Q", 3, 40),
        ("3JH", "J", 3, 30),
        ("3TH", "T", 3, 20),
        ("39H", "9", 3, 20),
    ],
)
@pytest.mark.parametrize("trump, factor", [("H", 2), ("D", 1)])
def test_sequence_table(code, top, length, points, trump, factor):
    natural = "789TJQKA"
    hi = natural.index(top)
    ranks = sorted(natural[hi - length + 1 : hi + 1], key=RANKS.index, reverse=True)
    hand_a = "." + "".join(ranks) + ".." + "AK"[: 5 - length]
    p = final_phase(hand_a, "AKQJT...", trump=trump)
    assert "+" + code in decls(p)
    assert gain(p, "+" + code) == factor * points
    assert p.problems() == []


# ---------------------------------------------------------------- quartets
@pytest.mark.parametrize("rank, points", [("A", 150), ("T", 100), ("K", 80), ("Q", 60), ("J", 40)])
@pytest.mark.parametrize("trump", ["H", "D"])
def test_quartet_table(rank, points, trump):
    p = final_phase(f"{rank}.{rank}.{rank}.{rank}7", "98.87.8.", trump=trump)
    assert "+k" + rank in decls(p)
    assert gain(p, "+k" + rank) == points  # never doubled
    assert not p.is_over() and p.win == -1  # not a game-winning event in Briscan


def test_no_four_nines():
    p = final_phase("9.9.9.97", "A8.87.8.")
    assert not any(d.startswith("+k") for d in decls(p))


# ---------------------------------------------------------------- carte blanche
def test_carte_blanche_of_courts():
    p = talon_phase("KQ.J.K.Q", "9C", hand_b="98.8.98.")
    assert "+bc" in decls(p) and "+bp" not in decls(p)
    assert gain(p, "+bc") == 20
    assert "+bc" not in decls(p)  # once per player
    view = p.view("b")  # the whole hand was shown
    assert view.hands[0] == p.hands[0] and view.unknown[0] == 0


def test_carte_blanche_of_no_courts():
    p = talon_phase("A9.8.T.7", "9C", hand_b="K8.9.K9.")
    assert decls(p) == {"+bp"}
    assert gain(p, "+bp") == 10


def test_no_carte_blanche_with_a_mixed_hand():
    p = talon_phase("K9.8.T.7", "9C", hand_b="Q8.9.K9.")
    assert "+bp" not in decls(p) and "+bc" not in decls(p)


def test_carte_blanche_needs_five_cards():
    five = final_phase("KQ.J.K.Q", "98.87.8.")
    assert "+bc" in decls(five)
    four = Position(make("briscan", "KQ.J.K.", "98.7.8.", "C", turn="a", score=SCORE))
    assert four.problems() == [] and four.hand_size("a") == 4
    assert decls(four) == {"+mS"}


def test_carte_blanche_once_per_player_not_once_per_deal():
    # a has declared +bc earlier; b, on lead with a hand of courts, may declare his own.
    b_turn = Position(make("briscan", "A9.8.T.7", "KQ.J.K.Q", "C", turn="b", score=SCORE, extra="melds=bc/-"))
    assert b_turn.problems() == []
    assert "+bc" in decls(b_turn)
    b_turn.push("+bc")
    assert b_turn.problems() == []
    assert Position(b_turn.bpn()).problems() == []
    # a may not declare it a second time
    a_turn = final_phase("KQ.J.K.Q", "A9.8.T.7", melds="bc/-")
    assert "+bc" not in decls(a_turn)


# ---------------------------------------------------------------- ace of trumps
def test_ace_of_trumps():
    p = talon_phase("KQ.AT.9.", "8H")
    assert "+at" in decls(p)
    assert gain(p, "+at") == 30
    assert "+at" not in decls(p)


@pytest.mark.parametrize("taken, allowed", [("AH", False), ("TH", True)])
def test_ace_of_trumps_not_obtained_by_the_exchange(taken, allowed):
    p = talon_phase("KQ.AT.9.", "7H", hand_b="8.8.K8.K", extra=f"exchanged=a taken={taken}")
    assert ("+at" in decls(p)) is allowed


def test_ace_of_trumps_after_exchanging_for_it():
    p = talon_phase("KQ.7.9.8", "AH", hand_b="9.8.K8.K")
    assert "+at" not in decls(p)
    p.push("x")
    assert "AH" in names(p.hands[0]) and "+at" not in decls(p)
    assert "taken=AH" in p.bpn()
    assert "+at" not in decls(Position(p.bpn()))


# ---------------------------------------------------------------- card reuse
@pytest.mark.parametrize(
    "hand, melds, expected",
    [
        # a marriage's cards cannot be in a later sequence (a sequence without them is fine)
        (".KQJT9..", "mH/-", {"+3JH"}),
        # a sequence's cards cannot be in a later marriage, and the sequence cannot be lengthened
        (".AKQJT..", "3KH/-", set()),
        (".AKQJT..", "-/-", {"+5AH", "+4AH", "+4KH", "+3AH", "+3KH", "+3QH", "+mH"}),
        # a quartet's cards stay free for one marriage or one sequence
        ("K.KQ.K.K", "kK/-", {"+mH"}),
        ("K.KQJ.K.", "kK/-", {"+mH", "+3KH"}),
        ("K.KQJ.K.", "kK+mH/-", set()),
        ("K.KQJ.K.", "kK+3KH/-", set()),
        ("K.K.K.KQ", "kK+mH/-", {"+mC"}),  # another king is still free
        # a sequence's cards may later count in a quartet
        ("K.KQ.K.K", "3KH/-", {"+kK"}),
    ],
)
def test_card_reuse(hand, melds, expected):
    p = final_phase(hand, "AT98.8..", melds=melds, trump="D")
    assert decls(p) - {"+bc"} == expected  # (hands of courts also allow carte blanche)


@pytest.mark.parametrize("first, points, lost", [("+3KH", 100, "+mH"), ("+mH", 40, "+3KH")])
def test_card_reuse_example_from_the_docs(first, points, lost):
    # hearts trumps, a holds K Q J of hearts: the tierce or the marriage, not both
    p = final_phase("K.KQJ.K.", "AT98.8..", trump="H")
    assert {"+3KH", "+mH"} <= decls(p)
    assert gain(p, first) == points
    assert lost not in decls(p)


# ---------------------------------------------------------------- the honour turnup
def test_dealer_scores_ten_for_an_honour_turnup():
    seen = set()
    for seed in range(40):
        p = deal(seed, "briscan")
        honour = RANKS[p.turnup & 7] in "ATKQJ"
        assert p.score == ([0, 10] if honour else [0, 0])
        assert p.problems() == []
        seen.add(honour)
        assert deal(seed, "brisque").score == [0, 0]
    assert seen == {True, False}


# ---------------------------------------------------------------- the end of play
def test_last_five_cards_of_trumps_score_30():
    # trick 11: a leads AS, b answers 7C; a draws the last card (8H) and b takes the turnup
    p = Position(make("briscan", ".AKQJ..", "K..K9.K7", "9H", talon="8H", trick="AS", turn="b"))
    assert p.problems() == [] and p.trick_number == 11
    before = p.score[:]
    p.push("7C")
    assert p.in_final_phase and names(p.hands[0]) == {"AH", "KH", "QH", "JH", "8H"}
    assert p.score == [before[0] + 11 + 30, before[1]]
    assert p.problems() == []


def test_no_trump_hand_bonus_without_five_trumps():
    p = Position(make("briscan", ".AKQJ..", "K..K9.K7", "9H", talon="8D", trick="AS", turn="b"))
    before = p.score[:]
    p.push("7C")
    assert p.score == [before[0] + 11, before[1]]


@pytest.mark.parametrize(
    "tricks, final, gain_a, gain_b, win",
    [
        ("10:5", "4:0", 11 + 10 + 20 + 10, 0, None),  # last trick, all five final tricks, most tricks
        ("6:9", "3:1", 11 + 10, 10, None),  # b has most tricks
        ("7:8", "0:4", 11 + 10, 0, None),  # 8:8, nobody has 9
        ("8:7", "3:1", 11 + 10 + 10, 0, None),  # a reaches 9 with the last trick
        ("15:0", "4:0", 11 + 10 + 20 + 10, 0, 0),  # vole: all 16 tricks win the game
    ],
)
def test_end_of_play_bonuses(tricks, final, gain_a, gain_b, win):
    p = Position(
        make("briscan", "A...", "...7", "H", turn="a", score=SCORE, extra=f"tricks={tricks} final={final}")
    )
    assert p.problems() == [] and p.trick_number == 16
    before = p.score[:]
    p.push("AS")
    p.push("7C")
    assert p.is_over()
    assert p.score == [before[0] + gain_a, before[1] + gain_b]
    if win is None:
        assert p.win == -1 and not p.value().is_game_win
        assert p.value() == p.score[0] - p.score[1]
    else:
        assert p.outcome().win == win
        assert p.value("a") == WIN_VALUE and p.value("b") == -WIN_VALUE
    assert p.problems() == []
    assert points_of(p.out) == 120


# ---- a card of a declared sequence may later count only in a quartet: neither the ace of
# trumps nor a carte blanche can use it (the position model and the engine agree)


def test_ace_of_trumps_after_a_trump_sequence_with_the_ace_is_refused():
    # trumps are clubs; a holds the A K Q of clubs and has already declared them as a tierce
    p = final_phase("9.9..AKQ", "8.8.9.T7", melds="3AC/-")
    assert "+at" not in decls(p)
    q = final_phase("9.9..AKQ", "8.8.9.T7")
    assert "+at" in decls(q)


def test_ace_of_trumps_declared_first_then_the_sequence_is_allowed():
    q = final_phase("9.9..AKQ", "8.8.9.T7")
    q.push("+at")
    assert "+3AC" in decls(q)


def test_carte_blanche_refused_when_a_card_was_in_a_sequence():
    p = final_phase("..987.87", "A.A.A.AT", melds="39D/-", trump="H")
    assert "+bp" not in decls(p)
    q = final_phase("..987.87", "A.A.A.AT", trump="H")
    assert "+bp" in decls(q)


def test_engine_agrees_with_the_reference_on_the_reuse_rule():
    for p in (
        final_phase("9.9..AKQ", "8.8.9.T7", melds="3AC/-"),
        final_phase("9.9..AKQ", "8.8.9.T7"),
        final_phase("..987.87", "A.A.A.AT", melds="39D/-", trump="H"),
    ):
        value, moves = reference_solve(p)
        a = solve(p)
        assert a.value == value
        assert {str(m.move): m.value for m in a.moves} == moves
