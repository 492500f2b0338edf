"""The validity check names what is wrong with a well-formed but impossible position."""

import pytest
from helpers import NOTATION_EXAMPLES, make

from solver import Position, PositionError

FIRST = NOTATION_EXAMPLES[0]  # brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35
THIRD = NOTATION_EXAMPLES[2]
BRISCAN = (
    "briscan .Q.T98.T/T.AJ87.. 7D 8SKHQCAC7C AKQJ97.T9.AKQJ.KJ98 - a 126:0 "
    "tricks=8:0 melds=mD+at/- exchanged=a taken=8D"
)


def problems(bpn: str) -> str:
    return " | ".join(Position(bpn).problems())


@pytest.mark.parametrize("bpn", NOTATION_EXAMPLES + [BRISCAN])
def test_valid_positions_have_no_problems(bpn):
    p = Position(bpn)
    assert p.problems() == [] and p.is_valid()
    assert p.validate() is p


@pytest.mark.parametrize(
    "bpn, fragments",
    [
        # a card twice
        (
            FIRST.replace("/7..KQ9.A7", "/A..KQ9.A7"),
            ["card AS appears twice", "the hand of a and in the hand of b"],
        ),
        (FIRST.replace("TQJ8.ATKQJ8", "ATQJ8.ATKQJ8"), ["card AS appears twice", "out"]),
        (FIRST.replace(" - b ", " AS b "), ["card AS appears twice", "the trick"]),
        # a card missing
        (FIRST.replace("AK9.97..9/", "AK9.97../"), ["cards missing: 9C"]),
        # wrong hand sizes for the trick number
        (
            FIRST.replace("AK9.97..9/7..KQ9.A7", "AK9.97../7..KQ9.A79"),
            ["the hand of a has 5 cards at trick 11", "expected 6", "the hand of b has 7 cards"],
        ),
        (NOTATION_EXAMPLES[1].replace(" KD a ", " - a "), ["cards missing: KD", "the hand of b has 5 cards"]),
        # talon count wrong
        (THIRD.replace(" 13 ", " 12 "), ["talon of 12 cards at trick 4: expected 13"]),
        (THIRD.replace(" 13 ", " 15 ").replace("?6", "?4"), ["talon of 15 cards at trick 4: expected 13"]),
        # negative score
        (FIRST.replace("52:35", "87:0").replace(" 87:0", " 87:0 tricks=-1:11"), ["tricks -1:11 is negative"]),
        (FIRST.replace("52:35", "92:-5"), ["score 92:-5 is negative"]),
        # tricks that do not add up (Briscan)
        (BRISCAN.replace("tricks=8:0", "tricks=7:0"), ["tricks 7:0 do not add up to the 8 completed"]),
        (BRISCAN.replace("tricks=8:0", "tricks=5:4"), ["tricks 5:4 do not add up to the 8 completed"]),
        # scores that do not add up (Brisque); Briscan: less than the points taken
        (FIRST.replace("52:35", "52:36"), ["scores 52:36 add up to 88", "give 87"]),
        (THIRD.replace("18:12", "18:2"), ["scores 18:2 add up to 20", "give 30"]),
        (BRISCAN.replace("126:0", "100:0"), ["scores 100:0 add up to 100, less than the 126"]),
        # phase and turnup
        (THIRD.replace(" 9C ", " C "), ["the turnup is taken", "not exhausted at trick 4"]),
        (
            FIRST.replace(" D 0 ", " 8D 0 ")
            .replace("AK9.97..9/7..KQ9.A7", "AK9.97../7..KQ9.A")
            .replace(".TKQJ8 ", ".TKQJ987 "),
            ["the turnup 8D is on the table in the final phase"],
        ),
        # declarations
        (FIRST + " melds=mD/-", ["+mD of a but QD is not in a's hand nor played"]),
        (FIRST.replace("52:35", "52:75") + " melds=-/mD+mD", ["+mD declared twice"]),
        (FIRST + " melds=-/3KD", ["+3KD is not a declaration of Brisque"]),
        (FIRST + " melds=-/kA", ["+kA is not a declaration of Brisque"]),
        # the exchange
        (THIRD + " exchanged=a", ["exchanged=a but the turnup 9C is not the 7 of trumps"]),
        (FIRST + " exchanged=b taken=AS", ["taken=AS is not a trump other than the 7"]),
        (
            FIRST.replace("brisque", "brisque(exchange=no)") + " exchanged=b taken=QD",
            ["the rules forbid the exchange"],
        ),
        # counts
        (FIRST.replace("TQJ8.ATKQJ8", "TQJ8.ATKQJ"), ["19 cards out", "even number"]),
    ],
)
def test_problems_are_named(bpn, fragments):
    text = problems(bpn)
    for f in fragments:
        assert f in text, f"{f!r} not in {text!r}"


def test_validate_raises_with_every_problem():
    bad = FIRST.replace("/7..KQ9.A7", "/A..KQ9.A7")
    with pytest.raises(PositionError) as info:
        Position(bad).validate()
    assert "impossible position" in str(info.value) and "AS appears twice" in str(info.value)
    assert not Position(bad).is_valid()


def test_briscan_declaration_of_the_exchanged_seven_stays_valid():
    # Regression: b declared the club sequence 9-8-7 (clubs trumps), then exchanged the 7C for
    # the turnup QC.  The 7C lies on the table, yet the declaration was legal.
    b = (
        "briscan AQ.A9..J/J...AQ98 7C 7HKSQDQH8H T987.TKJ.ATKJ987.TK - b 30:87 tricks=5:3 "
        "melds=-/39C exchanged=b taken=QC declared=1"
    )
    assert Position(b).problems() == []


def test_last_pickup_window_needs_the_seven():
    # The window (talon 0, turnup still on the table) with a to act but no 7 of trumps in a's hand
    window = make("brisque", "Q.KQ.A.A9", "9.7.K9.K", "KS", turn="a")
    assert "does not hold the 7 of trumps 7S" in problems(window)
    ok = make("brisque", "7.KQ.A.A9", "9.7.K9.K", "KS", turn="a")
    assert Position(ok).problems() == [] and Position(ok).in_window


def test_no_window_in_briscan():
    b = make("briscan", "7.KQ.A.9", "9.7.K9.", "KS", turn="a")
    assert "in briscan the loser of trick 11 takes it at once" in problems(b)


def test_declarations_before_the_first_trick():
    b = make("brisque", "KQ7.KQ.A.", "9.7.K9.K9", "TS", talon=19, turn="a", score="40:0", extra="melds=mS/-")
    assert "declarations before the first trick is completed" in problems(b)


def test_petite_turnup_stays_on_the_table():
    b = "petite 9...Q7/.8.K.J D 21 Q.Q9.9. - a 3:3 tricks=1:1"
    assert "the turnup must stay on the table" in problems(b)
    assert Position(b.replace(" D ", " JD ")).problems() == []


def test_too_many_tricks():
    b = "petite .../... JD 21 AKQJ.AKQJ.AKQ.AT9 - a 75:0 tricks=7:0"
    assert "7 tricks completed: a deal of petite has 5" in problems(b)


def test_hidden_hands_count_towards_the_pack():
    assert Position(THIRD).problems() == []
    assert "holds 33 cards instead of 32" in problems(THIRD.replace("?6", "?7"))
