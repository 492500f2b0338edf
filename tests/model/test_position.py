"""Position mechanics: push/pop, apply, copy, equality, views and hidden information."""

import random
import re

import pytest
from helpers import NOTATION_EXAMPLES, make, names

import solver
from solver import HiddenInformationError, Position, PositionError, parse_move
from solver.errors import ArgumentError, ArgumentTypeError, NotationError
from solver.model.rules import Rules
from solver.play.dealing import deal


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite", "petite(draw=yes)"])
def test_push_pop_restores_the_exact_bpn(game):
    for seed in range(25):
        p = deal(seed, game)
        rng = random.Random(seed)
        history = [p.bpn()]
        while not p.is_over():
            m = rng.choice(p.legal_moves())
            p.push(m)
            history.append(p.bpn())
            p.pop()  # take back and replay: same position
            assert p.bpn() == history[-2]
            p.push(m)
            assert p.bpn() == history[-1]
        assert len(p.move_stack) == len(history) - 1
        for expected in reversed(history[:-1]):
            p.pop()
            assert p.bpn() == expected
        with pytest.raises(PositionError):
            p.pop()


def test_pop_restores_hidden_state_too():
    # after pop, the same moves lead to the same positions (talon order, shown cards, counters)
    p = deal(11, "briscan")
    rng = random.Random(3)
    moves = []
    while not p.is_over():
        moves.append(rng.choice(p.legal_moves()))
        p.push(moves[-1])
    end = p.bpn()
    views = (p.view(0).bpn(), p.view(1).bpn())
    for _ in moves:
        p.pop()
    assert p.bpn() == deal(11, "briscan").bpn()
    for m in moves:
        p.push(m)
    assert p.bpn() == end and (p.view(0).bpn(), p.view(1).bpn()) == views


def test_apply_and_copy_leave_the_original_alone():
    p = Position(NOTATION_EXAMPLES[0])
    q = p.apply("KD")
    assert p.bpn() == NOTATION_EXAMPLES[0]
    assert q.bpn() == NOTATION_EXAMPLES[1]
    assert q.move_stack == []
    c = p.copy()
    c.push("7S")
    assert p.bpn() == NOTATION_EXAMPLES[0] and c.bpn() != p.bpn()
    assert p == Position(NOTATION_EXAMPLES[0]) and hash(p) == hash(Position(NOTATION_EXAMPLES[0]))
    assert p != q


def test_illegal_moves_are_refused_without_side_effects():
    p = Position(NOTATION_EXAMPLES[1])  # a must answer KD in the final phase
    assert {str(m) for m in p.legal_moves()} == {"AS", "KS", "9S", "9H", "7H", "9C"}
    for bad in ("AH", "x", "pass", "+mS", "KD"):
        with pytest.raises(PositionError) as info:
            p.push(bad)
        assert "illegal move" in str(info.value)
        assert p.bpn() == NOTATION_EXAMPLES[1]
    assert not p.is_legal(parse_move("AH")) and p.is_legal(parse_move("AS"))


def test_no_move_after_the_end():
    p = Position(make("brisque", "A...", "...7", "H", turn="a", score="130:0"))
    p.push("AS")
    p.push("7C")
    assert p.is_over() and p.legal_moves() == []
    with pytest.raises(PositionError):
        p.push("AS")


# ---------------------------------------------------------------- views
def test_view_hides_the_opponent_and_the_talon_order():
    p = deal(4)
    for who, other in ((0, 1), (1, 0)):
        v = p.view(who)
        assert v.hands[who] == p.hands[who] and v.unknown[who] == 0
        assert v.hands[other] == 0 and v.unknown[other] == 6
        assert v.talon is None and v.talon_count == 19 and v.turnup == p.turnup
        fields = v.bpn().split()
        assert fields[3] == "19"
        assert fields[1].split("/")[other] == "?6"
        assert v.problems() == [] and v.has_hidden and not p.has_hidden
    with pytest.raises(HiddenInformationError):
        p.view(1).legal_moves()  # a to move, a's hand hidden in b's view
    assert p.view(0).legal_moves() == p.legal_moves()


def test_view_keeps_declared_cards():
    # b has shown the heart marriage: a's view of b is '.KQ..+?4' (as in NOTATION.md)
    p = Position(make("brisque", "9.7.K9.K9", "KQ7.KQ.A.", "TS", talon=17, turn="b"))
    p.push("+mH")
    v = p.view("a")
    assert v.bpn().split()[1].split("/")[1] == ".KQ..+?4"
    assert names(v.hands[1]) == {"KH", "QH"}
    assert Position(v.bpn()).bpn() == v.bpn() and v.problems() == []
    # the other player's own view is complete, and the talon order is hidden from both
    assert p.view("b").hands[1] == p.hands[1]
    assert p.view("b").bpn().split()[3] == "17"


def test_view_keeps_the_card_taken_by_the_exchange():
    p = Position(make("brisque", "KQ7.KQ.A.", "9.7.K9.K9", "TS", talon=17, turn="a"))
    p.push("x")
    v = p.view("b")
    assert names(v.hands[0]) == {"TS"} and v.unknown[0] == 5
    assert "taken=TS" in v.bpn()


def test_view_is_the_whole_position_once_the_talon_is_empty():
    p = Position(NOTATION_EXAMPLES[0])
    assert p.view("a").bpn() == p.bpn() == p.view("b").bpn()


def test_playing_for_a_hidden_hand():
    v = Position(NOTATION_EXAMPLES[2]).view("a")
    v.push("AS")  # a leads; b's hand is hidden
    with pytest.raises(HiddenInformationError):
        v.legal_moves()
    with pytest.raises(HiddenInformationError):
        v.push("KS")  # a's card, visible: b cannot hold it
    v.push("QS")  # any unseen card is possible
    # a won the trick; both drew from the hidden talon
    assert v.trick == -1 and v.turn == 0 and v.talon_count == 11
    assert v.unknown == [1, 6] and v.hand_size("a") == 6
    assert v.problems() == []
    v.pop()
    v.pop()
    assert v.bpn() == Position(NOTATION_EXAMPLES[2]).bpn()


def test_a_partly_hidden_hand_may_play_its_known_cards():
    # a knows five of his cards; the sixth (drawn from a hidden talon) is unknown
    v = Position("brisque AK.T9.J.+?1/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1")
    assert v.problems() == []
    v.push("AS")  # a known card
    assert v.hands[0] & 1 << 7 == 0 and v.unknown[0] == 1 and v.trick == 7
    v.pop()
    v.push("7H")  # or an unseen one
    assert v.unknown[0] == 0 and v.hand_size("a") == 5
    with pytest.raises(HiddenInformationError):
        v.push("9C")  # the turnup cannot be in a hand


def _trick10_view(hand_b: str) -> Position:
    """b's view of trick 10 (spades trumps, turnup KS); a has led AH, b answers 7H and loses."""
    full = Position(
        make(
            "brisque",
            "Q.KQ.A.A",
            hand_b,
            "KS",
            talon="7S" if "7" not in hand_b.split(".")[0] else "9S",
            trick="AH",
            turn="b",
        )
    )
    assert full.problems() == []
    v = full.view("b")
    v.push("7H")
    return v


def test_view_at_the_last_pickup_with_a_hidden_hand():
    v = _trick10_view("9.7.K9.K9")  # the 7S is unseen: a may have drawn it
    assert v.in_window and v.turn == 0 and v.unknown[0] == 6
    with pytest.raises(HiddenInformationError):
        v.legal_moves()
    with pytest.raises(HiddenInformationError):
        v.push("QH")  # no card may be played at the last pickup
    passed = v.apply("pass")
    assert "KS" in names(passed.hands[1]) and passed.unknown[0] == 6
    assert passed.in_final_phase and passed.problems() == []
    exchanged = v.apply("x")
    assert names(exchanged.hands[0]) == {"KS"} and exchanged.unknown[0] == 5
    assert "7S" in names(exchanged.hands[1]) and exchanged.exchanged == 0
    assert exchanged.in_final_phase and exchanged.problems() == []


def test_view_skips_the_last_pickup_when_the_seven_is_seen():
    v = _trick10_view("7.7.K9.K9")  # b holds the 7S: a cannot exchange
    assert not v.in_window and v.turnup == -1
    assert "KS" in names(v.hands[1]) and v.problems() == []


P = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


def test_move_repr_round_trips():
    p = solver.Position(P)
    for m in p.legal_moves():
        assert eval(repr(m), {"Move": solver.Move}) == m
    assert solver.Move("7S") == p.legal_moves()[0] and solver.Move(32) == solver.Move("x")
    assert str(solver.Move("10h")) == "TH"


def test_is_legal_takes_what_push_takes():
    p = solver.Position(P)
    assert p.is_legal("7S") and not p.is_legal("AS")
    assert p.is_legal(int(solver.Move("7S"))) and p.is_legal(solver.Move("7S"))
    with pytest.raises(NotationError, match="'zz'"):
        p.is_legal("zz")


@pytest.mark.parametrize("code", [-5, 34, 39, 112, 200])
def test_a_code_that_is_no_move_is_refused(code):
    p = solver.Position(P)
    for call in (solver.Move, p.is_legal, p.push, p.apply):
        with pytest.raises(ArgumentError, match=rf"move={code}: no move has this code"):
            call(code)
    assert p.bpn() == P


@pytest.mark.parametrize("value", [0.5, 7.0, True, False, None, [7]])
def test_a_move_of_another_type_is_refused(value):
    p = solver.Position(P)
    for call in (solver.Move, p.is_legal, p.push, p.apply):
        with pytest.raises(
            ArgumentTypeError, match=rf"move={value!r}".replace("[", r"\[").replace(".", r"\.")
        ):
            call(value)
    assert p.bpn() == P


def test_value_of_a_deal_not_over_is_refused():
    p = solver.Position(P)
    with pytest.raises(solver.PositionError, match=r"the deal is not over in 'brisque AK9\.97\.\.9/"):
        p.value()
    with pytest.raises(solver.PositionError, match="not over"):
        p.value("a")


def test_value_of_a_finished_deal_is_its_margin():
    p = solver.Position(P)
    while not p.is_over():
        p.push(p.legal_moves()[0])
    assert p.value(0) == p.score[0] - p.score[1] and p.value(1) == -p.value(0)


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"trump": 9}, ArgumentError, "trump=9: expected a suit from 0 to 3"),
        ({"turn": 5}, ArgumentError, "turn=5: expected a seat: 'a' or 'b' (or 0 or 1)"),
        ({"turn": None}, ArgumentTypeError, "turn=None: expected a seat"),
        ({"turnup": 99}, ArgumentError, "turnup=99: expected -1 (none) or a card code from 0 to 31"),
        ({"talon": [99]}, ArgumentError, "talon[0]=99: expected a card code from 0 to 31"),
        ({"talon": "AS"}, ArgumentTypeError, "talon='AS': expected None or a list of card codes"),
        ({"trick": 40}, ArgumentError, "trick=40: expected -1 (none) or a card code"),
        ({"score": ("a", "b")}, ArgumentTypeError, "score[0]='a': expected whole numbers from -5000 to 5000"),
        ({"score": 5}, ArgumentTypeError, "score=5: expected a pair"),
        ({"hands": (-1, 0)}, ArgumentError, "hands[0]=-1: expected a card mask"),
        ({"hands": (1.5, 0)}, ArgumentTypeError, "hands[0]=1.5: expected a card mask"),
        ({"talon_count": -3}, ArgumentError, "talon_count=-3: expected a count of cards from 0 to 32"),
        ({"melds": ([99], [])}, ArgumentError, "melds[0]=99: expected meld indices"),
        ({"taken": 5}, ArgumentError, "taken=5: a card taken by the exchange needs exchanged"),
        ({"rules": 3}, ArgumentTypeError, "rules=3: expected a Rules or a rules string"),
    ],
)
def test_from_parts_refuses_bad_arguments(kwargs, error, words):
    with pytest.raises(error, match=re.escape(words)):
        solver.Position.from_parts(**kwargs)


def test_from_parts_takes_seats_as_the_rest_of_the_api_does():
    a, b = solver.Position.from_parts(turn="a"), solver.Position.from_parts(turn="B")
    assert (a.turn, b.turn) == (0, 1) and b.bpn().split()[6] == "b"
    assert solver.Position.from_parts(exchanged="b", taken=0).exchanged == 1


def test_what_from_parts_accepts_problems_names_and_bpn_reads_back():
    import random

    rng = random.Random(17)
    for _ in range(300):
        game = rng.choice(["brisque", "briscan", "petite"])
        kwargs: dict = dict(
            hands=(rng.getrandbits(32), rng.choice([0, (1 << 32) - 1])),
            unknown=(rng.randint(0, 32), 0),
            trump=rng.randrange(4),
            turnup=rng.randint(-1, 31),
            out=rng.getrandbits(32),
            trick=rng.randint(-1, 31),
            turn=rng.choice("ab"),
            score=(rng.randint(-5000, 5000), 5000),
            tricks=(-16, rng.randint(0, 16)),
            melds=([rng.randrange(72)], []),
            declared=16,
            game=(10**6, -(10**6)),
            drawn=rng.getrandbits(32),
        )
        if game == "petite":
            kwargs["talon_count"] = rng.randint(0, 32)
        else:
            kwargs["talon"] = [rng.randrange(32) for _ in range(rng.randint(0, 32))]
        p = solver.Position.from_parts(game, **kwargs)
        assert isinstance(p.problems(), list)  # (names the problems, never raises)
        again = solver.Position(p.bpn())
        assert again.bpn() == p.bpn() and isinstance(again.problems(), list)


def test_copy_and_deepcopy_of_a_position_agree_on_the_move_stack():
    # copy.copy dropped the move stack, copy.deepcopy kept it
    import copy

    from solver.model.position import Position

    p = Position(P)
    p.push("KD")
    p.push(p.legal_moves()[0])
    for q in (copy.copy(p), copy.deepcopy(p), p.copy(stack=True)):
        assert q.move_stack == p.move_stack and q.bpn() == p.bpn()
        q.pop()
        q.pop()
        assert q.bpn() == P
        assert len(p.move_stack) == 2 and p.bpn() != P  # (the copy's pops leave p alone)
    assert p.copy().move_stack == []  # (the cheap copy, as documented)
    p.pop()
    p.pop()
    assert p.bpn() == P


def test_pop_returns_the_move_taken_back():
    # pop() returned None; python-chess's Board.pop() returns the move
    from solver.model.moves import Move
    from solver.model.position import Position

    p = Position(P)
    first = p.legal_moves()[0]
    p.push(first)
    second = p.legal_moves()[-1]
    p.push(second)
    assert p.pop() == second and isinstance(second, Move)
    assert p.pop() == first


@pytest.mark.parametrize("field, value", [("turn", 5), ("trick", 40), ("turnup", 99), ("trump", 7)])
def test_fields_set_out_of_range_are_problems_not_crashes(field, value):
    p = Position(GOOD)
    setattr(p, field, value)
    probs = p.problems()
    assert len(probs) == 1 and probs[0].startswith(f"{field} {value}")


def test_a_position_needs_a_bpn():
    from solver.errors import ArgumentError

    with pytest.raises(ArgumentError, match="needs a BPN string"):
        Position()
    assert not Position.empty(Rules()).is_valid()
