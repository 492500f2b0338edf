"""BPN, cards, moves and rules notation: the examples of NOTATION.md and canonical printing."""

import json
import re
import subprocess
import sys

import pytest
from helpers import NOTATION_EXAMPLES, OUTSIDE, ROOT, names

import solver
from solver import (
    BPNError,
    NotationError,
    Position,
    Rules,
    RulesError,
    card_str,
    format_hand,
    parse_card,
    parse_hand,
    parse_move,
)
from solver.errors import ArgumentError


# ---------------------------------------------------------------- the three examples
@pytest.mark.parametrize("bpn", NOTATION_EXAMPLES[:2])
def test_examples_are_canonical(bpn):
    p = Position(bpn)
    assert p.problems() == []
    assert p.bpn() == bpn
    assert repr(p) == f"Position({bpn!r})"


def test_third_example_prints_in_trick_order():
    # NOTATION.md writes the out field 'JT..Q8.AK'; canonical order is A T K Q J 9 8 7.
    given = NOTATION_EXAMPLES[2]
    p = Position(given)
    assert p.problems() == []
    canonical = p.bpn()
    assert canonical == given.replace("JT..Q8.AK", "TJ..Q8.AK")
    assert Position(canonical).bpn() == canonical
    assert Position(canonical) == p


def test_examples_state():
    first, second, third = (Position(b) for b in NOTATION_EXAMPLES)
    assert (first.trick_number, first.turn, first.in_final_phase) == (11, 1, True)
    assert first.score == [52, 35] and first.talon_count == 0 and first.turnup == -1
    assert names(first.hands[1]) == {"7S", "KD", "QD", "9D", "AC", "7C"}
    assert card_str(second.trick) == "KD" and second.turn == 0 and second.leader == 1
    # second is first after b leads KD
    first.push("KD")
    assert first.bpn() == NOTATION_EXAMPLES[1]
    assert third.trick_number == 4 and third.talon_count == 13 and card_str(third.turnup) == "9C"
    assert third.unknown == [0, 6] and third.tricks == [2, 1] and third.has_hidden
    assert third.hand_size("b") == 6


# ---------------------------------------------------------------- canonical printing
def test_bpn_input_is_liberal_output_canonical():
    liberal = "BRISQUE ka9.79..9/7..qk9.7a d 0 JQT8.8ATKQJ.JAT78.TKQJ8 - B 52:35"
    assert Position(liberal).bpn() == NOTATION_EXAMPLES[0]
    tens = "brisque AK9.97..9/7..KQ9.A7 D 0 10QJ8.A10KQJ8.A10J87.10KQJ8 - b 52:35"
    assert Position(tens).bpn() == NOTATION_EXAMPLES[0]


def test_optional_fields_print_in_fixed_order():
    b = (
        "briscan .Q.T98.T/T.AJ87.. 7D 8SKHQCAC7C AKQJ97.T9.AKQJ.KJ98 - a 126:0 "
        "tricks=8:0 melds=mD+at/- exchanged=a taken=8D"
    )
    p = Position(b)
    assert p.problems() == []
    assert p.bpn() == b
    shuffled = (
        "briscan .Q.T98.T/T.AJ87.. 7D 8SKHQCAC7C AKQJ97.T9.AKQJ.KJ98 - a 126:0 "
        "taken=8D exchanged=a melds=mD+at/- tricks=8:0"
    )
    assert Position(shuffled).bpn() == b


def test_default_optional_fields_are_omitted():
    b = NOTATION_EXAMPLES[0] + " tricks=0:0 final=0:0 melds=-/- game=0:0"
    assert Position(b).bpn() == NOTATION_EXAMPLES[0]


def test_rules_field_prints_options_in_fixed_order_and_only_non_defaults():
    r = Rules.parse("brisque(exchange_points=10,target=300)")
    assert str(r) == "brisque(target=300,exchange_points=10)"
    assert str(Rules.parse("brisque(target=500,exchange=yes)")) == "brisque"
    assert str(Rules.parse("petite(draw=yes)")) == "petite(draw=yes)"
    assert Rules.parse("petite(draw=yes)") == Rules.preset("petite", draw=True)
    assert str(Rules.parse(" Briscan ( target = 300 ) ")) == "briscan(target=300)"
    b = NOTATION_EXAMPLES[0].replace("brisque", "brisque(exchange_points=10,target=300)", 1)
    assert Position(b).bpn().split()[0] == "brisque(target=300,exchange_points=10)"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AS", "AS"),
        ("10h", "TH"),
        ("th", "TH"),
        ("Q♥", "QH"),
        ("q♥", "QH"),
        ("7♣", "7C"),
        ("a♠", "AS"),
        ("9♦", "9D"),
        (" KD ", "KD"),
    ],
)
def test_card_input_forms(text, expected):
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "A", "1H", "11H", "AX", "ZS", "ASS", "10", "♥Q"])
def test_bad_cards(text):
    with pytest.raises(NotationError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AS", "AS"),
        ("10h", "TH"),
        ("x", "x"),
        ("X", "x"),
        ("pass", "pass"),
        ("PASS", "pass"),
        ("+mh", "+mH"),
        ("+MH", "+mH"),
        ("+kk", "+kK"),
        ("+kt", "+kT"),
        ("+k10", "+kT"),
        ("+3ks", "+3KS"),
        ("+5ah", "+5AH"),
        ("+4th", "+4TH"),
        ("+410h", "+4TH"),
        ("+AT", "+at"),
        ("+bc", "+bc"),
        ("+BP", "+bp"),
        ("q♥", "QH"),
    ],
)
def test_move_input_forms(text, expected):
    assert str(parse_move(text)) == expected
    assert parse_move(expected) == parse_move(text)


@pytest.mark.parametrize(
    "text",
    ["", "+", "+m", "+mX", "+kZ", "+6AS", "+2AS", "+3AX", "+58S", "+49S", "+bz", "xx", "passs", "AS AH"],
)
def test_bad_moves(text):
    with pytest.raises(NotationError) as info:
        parse_move(text)
    assert "expected" in str(info.value)


def test_hand_form():
    assert format_hand(parse_hand("ka.qk.7.8")) == "AK.KQ.7.8"
    assert format_hand(parse_hand("10A...")) == "AT..."
    assert format_hand(0) == "..."
    for bad in ("AK.KQ.7", "AK.KQ.7.8.9", "AX...", "AA..."):
        with pytest.raises(NotationError):
            parse_hand(bad)


# ---------------------------------------------------------------- malformed BPN: quote the field
@pytest.mark.parametrize(
    "bpn, quoted",
    [
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b", "got 7"),
        ("brisk AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", "'brisk'"),
        ("brisque(target=x) AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", "target"),
        ("brisque AK9.97..9 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", "'AK9.97..9'"),
        ("brisque AK9.97..9/7..KQ9.X7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", "'7..KQ9.X7'"),
        ("brisque AK9.97..9/7..KQ9.A7 Z 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", "'Z'"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0x TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", "'0x'"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87 - b 52:35", "'TQJ8.ATKQJ8.ATJ87'"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 K b 52:35", "'K'"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - c 52:35", "'c'"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52-35", "'52-35'"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 foo=1", "'foo=1'"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 melds=mZ/-", "melds=mZ/-"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 tricks=1:1 tricks=1:1", "twice"),
        ("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 taken=AD", "taken=AD"),
        ("petite 9...Q7/.8.K.J JD 7S8S - - a 0:0", "'7S8S'"),
    ],
)
def test_malformed_bpn_quotes_the_field(bpn, quoted):
    with pytest.raises(BPNError) as info:
        Position(bpn)
    assert quoted in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "brisk",
        "brisque(target=0)",
        "brisque(draw=yes)",
        "brisque(target=300",
        "brisque(target)",
        "petite(quartet_win=deal)",
        "brisque(target=300,target=400)",
        "brisque(exchange=maybe)",
        "briscan(objective=points)",
    ],
)
def test_bad_rules(text):
    with pytest.raises(RulesError) as info:
        Rules.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    "field, reason",
    [
        ("brisk", "unknown game: expected one of brisque, briscan, petite"),
        ("brisque(target=x)", "option target: 'x' is not a whole number"),
        ("brisque(target=300", "expected 'game(option=value,...)' with a closing ')'"),
    ],
)
def test_bad_rules_field_of_a_bpn_is_quoted_once(field, reason):
    bpn = NOTATION_EXAMPLES[0].replace("brisque", field, 1)
    with pytest.raises(BPNError) as info:
        Position(bpn)
    message = str(info.value)
    assert message.startswith(f"bad rules field {field!r}: {reason}")
    assert message.count(repr(field)) == 1 and "bad rules '" not in message


# ---------------------------------------------------------------- more worked examples (docs/notation.md)
def test_double_dummy_position_and_its_view():
    dd = "brisque 9.AQ.8.Q7/.K8.J9.KJ TS JSKS8SASTH7SACQDTC9CTD8CJHAD7D Q.97.K. - a 7:0 tricks=2:0"
    p = Position(dd)
    assert p.problems() == [] and p.bpn() == dd and not p.has_hidden
    assert p.view("a").bpn() == "brisque 9.AQ.8.Q7/?6 TS 15 Q.97.K. - a 7:0 tricks=2:0"


def test_last_pickup_example():
    window = "brisque T8.AJ7..7/9.KQ.97. JC 0 AKQJ7.T98.ATKQJ8.ATKQ98 - a 29:59 tricks=3:7"
    p = Position(window)
    assert p.problems() == [] and p.in_window
    assert [str(m) for m in p.legal_moves()] == ["x", "pass"]
    assert p.apply("x").bpn() == (
        "brisque T8.AJ7..J/9.KQ.97.7 C 0 AKQJ7.T98.ATKQJ8.ATKQ98 - a 29:59 tricks=3:7 exchanged=a taken=JC"
    )
    assert p.apply("pass").bpn() == (
        "brisque T8.AJ7..7/9.KQ.97.J C 0 AKQJ7.T98.ATKQJ8.ATKQ98 - a 29:59 tricks=3:7"
    )


def test_briscan_example_and_view():
    b = (
        "briscan .Q.T98.T/T.AJ87.. 7D 8SKHQCAC7C AKQJ97.T9.AKQJ.KJ98 - a 126:0 tricks=8:0 "
        "melds=mD+at/- exchanged=a taken=8D"
    )
    p = Position(b)
    assert p.problems() == [] and p.bpn() == b
    assert p.view("b").bpn().split()[1] == "..8.+?4/T.AJ87.."


def test_petite_example():
    b = "petite 9...Q7/.8.K.J JD 21 Q.Q9.9. - a 3:3 tricks=1:1"
    p = Position(b)
    assert p.problems() == [] and p.bpn() == b
    p.push("9S")
    assert [str(m) for m in p.legal_moves()] == ["KD"]  # no spade: must trump


# ---------------------------------------------------------------- void= and shown=: each seat once
VOID_BASE = "petite A..J.K/?3 8D 21 KJ.T.Q. - a 13:6 tricks=1:1"  # docs/notation.md's void example


@pytest.mark.parametrize(
    "field, expected",
    [
        ("void=b:D,b:H", "seat b is given twice: expected each seat once, with all its suits (void=b:HD)"),
        (
            "void=a:S,b:D,a:H",
            "seat a is given twice: expected each seat once, with all its suits (void=a:SH,b:D)",
        ),
        ("void=b:DD", "suit D is given twice for b: expected each suit once (void=b:D)"),
        ("void=b:d♦", "suit D is given twice for b: expected each suit once (void=b:D)"),
        ("shown=a:AS,a:KC", "seat a is given twice: expected each seat once, with all its cards"),
        ("shown=a:ASAS", "AS is given twice for a: expected each card once"),
    ],
)
def test_a_seat_or_a_suit_named_twice_is_malformed_not_merged(field, expected):
    """A strict parser reads one spelling of a fact (as a card listed twice in a hand is an
    error): ``void=b:D,b:H`` was read as ``void=b:HD`` without a word."""
    with pytest.raises(BPNError) as info:
        Position(f"{VOID_BASE} {field}")
    assert str(info.value) == f"bad optional field {field!r}: {expected}"


@pytest.mark.parametrize(
    "field, canonical",
    [("void=b:HD", "void=b:HD"), ("void=b:DH", "void=b:HD"), ("void=b:h,a:s", "void=a:S,b:H")],
)
def test_void_takes_its_seats_and_suits_in_any_order_once_each(field, canonical):
    assert Position(f"{VOID_BASE} {field}").bpn() == f"{VOID_BASE} {canonical}"


MELD_BASE = "brisque Q.KQ.Q.Q+?1/97.T.T.A8 JH 3 ATKJ8.98.AK987.KJ97 - a 82:6 tricks=5:3"


@pytest.mark.parametrize(
    "field, expected",
    [
        ("drawn=KHKH", "KH is given twice: expected each card once"),
    ],
)
def test_a_drawn_card_named_twice_is_malformed(field, expected):
    """``drawn=KHKH`` was read as one card (a declaration given twice in ``melds=`` is read,
    and the validity check names it: tests/model/test_validity.py)."""
    with pytest.raises(BPNError) as info:
        Position(f"{MELD_BASE} {field}")
    assert str(info.value) == f"bad optional field {field!r}: {expected}"


def test_brisque_show_refuses_a_seat_named_twice_in_void(invoke):

    r = invoke("show", f"{VOID_BASE} void=b:D,b:H")
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit)
    assert "bad optional field 'void=b:D,b:H': seat b is given twice" in r.output
    assert "Traceback" not in r.output


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


KD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"  # the JSON example of the docs


def _json_example(text: str) -> dict:
    block = re.search(r"## JSON answers.*?```json\n(.*?)```", text, re.S)
    assert block
    return json.loads(block.group(1))


@pytest.mark.parametrize(
    "parse", [solver.parse_move, solver.parse_moves, solver.parse_card, solver.parse_hand]
)
@pytest.mark.parametrize("text", [None, 3])
def test_parsers_refuse_what_is_not_text_quoting_it(parse, text):
    # parse_move(None) was "AttributeError: 'NoneType' object has no attribute 'strip'"
    with pytest.raises(ArgumentError, match=rf"^bad \w+ {text}: expected .*, as text"):
        parse(text)


@pytest.mark.parametrize(
    "bpn, field",
    [
        (GOOD + " final=2147483648:0", "final"),
        (GOOD + " declared=2147483648", "declared"),
        (GOOD + " tricks=17:0", "tricks"),
        (GOOD.replace("52:35", "9" * 4300 + ":35"), "score"),
        (GOOD.replace("52:35", "20000:20"), "score"),
        (GOOD.replace("AK9.97..9", "AK9.97..9+?" + "9" * 4300), "hand"),
        (GOOD + " game=" + "9" * 30 + ":0", "game"),
    ],
)
def test_huge_numbers_are_refused_when_parsed(bpn, field):
    with pytest.raises(BPNError, match=field) as info:
        Position(bpn)
    assert "out of range" in str(info.value) and len(str(info.value)) < 600  # quoted, but short


def test_petite_brisque_scores_need_not_be_recorded():
    from solver.engine import solve
    from solver.play.dealing import deal

    p = deal(5, "petite")
    while tuple(p.score) == (0, 0) or p.trick >= 0:  # points taken, at the start of a trick
        p.push(p.legal_moves()[0])
    fields = p.bpn().split(" ")
    fields[7] = "0:0"  # the score field
    unrecorded = Position(" ".join(fields))
    assert unrecorded.problems() == [] and solve(unrecorded).value == solve(p).value
    # with points that count, the message names only what the game has
    counted = Position(" ".join(fields).replace("petite", "petite(objective=margin)", 1))
    assert any("the card points out give" in m for m in counted.problems())


def test_the_json_example_of_the_notation_is_the_engine_answer():
    documented = _json_example((ROOT / "docs" / "notation.md").read_text(encoding="utf-8"))
    r = subprocess.run(  # (a fresh process: the node count of a cold table)
        [sys.executable, "-m", "solver.cli", "solve", KD, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=OUTSIDE,
    )
    real = json.loads(r.stdout)
    assert real.pop("seconds") >= 0 and documented.pop("seconds") >= 0  # (times vary)
    assert real == documented


CHANCE = "brisque AJ.KQ.7.8/T87.A87.. JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1"  # a talon face down


def test_the_expectimax_json_example_of_the_notation_is_the_engine_answer():
    text = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    block = re.search(r"The talon as chance \(`\"expectimax\"`\).*?```json\n(.*?)```", text, re.S)
    assert block
    documented = json.loads(block.group(1))
    r = subprocess.run(  # (a fresh process: the node count of cold tables)
        [sys.executable, "-m", "solver.cli", "solve", CHANCE, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=OUTSIDE,
    )
    real = json.loads(r.stdout)
    assert real.pop("seconds") >= 0 and documented.pop("seconds") >= 0  # (times vary)
    assert real == documented
