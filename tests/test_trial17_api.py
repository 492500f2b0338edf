"""Defects found by trying the package as a new user would (seventeenth round), each with the
input that showed it."""

from __future__ import annotations

import re

import pytest

import solver
from solver.errors import ArgumentError, ArgumentTypeError, NotationError

P = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


# ---- 3. Move(text) parses notation; is_legal takes what push takes; no code that is no move
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


# ---- 4. value() is the result of a finished deal: an unfinished one is an error
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


# ---- 8. svg takes a BPN string, and highlight/arrows as one string of moves
def test_svg_takes_a_bpn_string():
    from solver.svg import svg

    assert svg(P) == svg(solver.Position(P))
    with pytest.raises(ArgumentTypeError, match="p=42: expected a Position or a BPN string"):
        svg(42)  # type: ignore[arg-type]


def test_svg_reads_one_string_of_moves_as_analyse_line_does():
    from solver.model.svg import HIGHLIGHT
    from solver.svg import MarkError, svg

    assert svg(P, highlight="KD") == svg(P, highlight=["KD"]) != svg(P)
    assert svg(P, highlight="7S KD") == svg(P, highlight=["7S", "KD"])
    assert f'stroke="{HIGHLIGHT}"' in svg(P, highlight="KD")
    with pytest.raises(MarkError, match="highlight 'ZZ' is not a move"):
        svg(P, highlight="7S ZZ")
    with pytest.raises(MarkError, match="arrow 0.5 is not a move"):
        svg(P, arrows=[0.5])  # type: ignore[list-item]


# ---- 7. Rules(...) built directly takes the game's defaults and is checked as preset checks
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


# ---- 9. Position.from_parts checks each argument's type and range
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
