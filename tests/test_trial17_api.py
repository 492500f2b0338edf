"""Defects found by trying the package as a new user would (seventeenth round), each with the
input that showed it."""

from __future__ import annotations

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
