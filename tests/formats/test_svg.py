"""Card diagrams in SVG: what they show, their hooks, errors, and the command."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import solver
from solver import svg as public
from solver.engine.solving import solve
from solver.errors import ArgumentError, ArgumentTypeError
from solver.model.bits import cards_of
from solver.model.cards import card_str
from solver.model.position import Position
from solver.model.svg import svg
from solver.play.dealing import deal, random_position

NS = "{http://www.w3.org/2000/svg}"
FINAL = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


def cards(tree: ET.Element, where: str = "card") -> list[ET.Element]:
    return [g for g in tree.iter(f"{NS}g") if g.get("class") == where]


@pytest.mark.parametrize("seed", range(6))
def test_every_card_in_play_is_drawn_once_and_moves_are_the_legal_ones(seed):
    p = random_position(seed, ["brisque", "briscan", "petite"][seed % 3], 1 + 2 * seed)
    tree = ET.fromstring(svg(p))
    shown = [g.get("data-card") for g in cards(tree) if g.get("data-seat")]
    expected = [card_str(c) for i in (0, 1) for c in cards_of(p.hands[i])]
    assert sorted(shown) == sorted(expected)
    moves = sorted(g.get("data-move") for g in cards(tree) if g.get("data-move"))
    legal = sorted(str(m) for m in p.legal_moves() if int(m) < 32) if not p.is_over() else []
    assert moves == legal
    assert tree.get("data-bpn") == p.bpn()
    if p.trick >= 0:
        assert card_str(p.trick) in [g.get("data-card") for g in cards(tree) if not g.get("data-seat")]


def test_hidden_cards_are_face_down_and_the_seat_below_is_chosen():
    p = deal(3)
    view = p.view("b")
    tree = ET.fromstring(svg(view, pov="b"))
    assert len(cards(tree, "back")) == 6 + 1  # a's hidden hand and the talon
    assert all(g.get("data-seat") == "b" for g in cards(tree) if g.get("data-seat"))
    # b at the bottom: his cards lie below a's backs
    ys = [float(g.get("transform").split(",")[1].rstrip(")")) for g in cards(tree) if g.get("data-seat")]
    assert min(ys) > 40
    top = ET.fromstring(svg(view, pov="a"))
    ys = [float(g.get("transform").split(",")[1].rstrip(")")) for g in cards(top) if g.get("data-seat")]
    assert max(ys) < 20


def test_highlights_and_arrows_mark_the_chosen_moves():
    p = Position(FINAL)
    tree = ET.fromstring(svg(p, highlight=["KD"], arrows=["AC"]))
    ringed = {
        g.get("data-card")
        for g in cards(tree)
        if any(r.get("stroke") == "#f2b705" for r in g.iter(f"{NS}rect"))
    }
    assert ringed == {"KD", "AC"}
    arrows = [e for e in tree.iter(f"{NS}line") if e.get("class") == "arrow"]
    assert [a.get("data-move") for a in arrows] == ["AC"]


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"size": 0}, "size=0"),
        ({"size": 10**9}, "from 16 to"),
        ({"size": "big"}, "size='big'"),
        ({"pov": "c"}, "pov='c'"),
        ({"highlight": ["QQ"]}, "'QQ' is not a move"),
        ({"arrows": [999]}, "999 is not a move"),
        ({"arrows": ["AH"]}, "arrow AH: expected a card in a hand"),
        ({"arrows": ["x"]}, "arrow x"),
        ({"highlight": ["pass"]}, "no card to ring"),
    ],
)
def test_bad_options_are_refused_in_words(kwargs, words):
    with pytest.raises(ArgumentError, match=words.replace("(", r"\(")):
        svg(Position(FINAL), **kwargs)


def test_notebooks_show_positions_and_answers():
    p = Position(FINAL)
    assert p._repr_svg_().startswith("<svg") and public.svg(p) == svg(p)
    assert p.bpn() in p._repr_html_()
    a = solve(p)
    html = a._repr_html_()
    assert html.count("<tr>") == 1 + len(a.moves)  # the header, then one row a move
    for m in a.moves:
        assert f"<td>{m.move}</td>" in html
    assert 'class="arrow"' in html  # the best moves drawn


def test_an_impossible_position_is_drawn_with_its_reasons(tmp_path):
    bad = "petite 7.../8... D 0 - - a 0:0"
    res = subprocess.run(
        [sys.executable, "-m", "solver.cli", "show", bad, "--svg"], capture_output=True, cwd=tmp_path
    )
    assert res.returncode == 2 and res.stdout.startswith(b"<svg") and b"impossible position" in res.stderr


@pytest.mark.slow
def test_the_command_writes_the_diagram(tmp_path):
    out = tmp_path / "d.svg"
    run = [sys.executable, "-m", "solver.cli", "show", FINAL]
    res = subprocess.run([*run, "--svg", "-o", str(out), "--arrow", "AC"], capture_output=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    tree = ET.parse(out).getroot()
    assert tree.get("data-bpn") == Position(FINAL).bpn()
    printed = subprocess.run(
        [*run, "--svg", "--pov", "a", "--size", "300"], capture_output=True, cwd=tmp_path
    )
    assert printed.returncode == 0 and ET.fromstring(printed.stdout).get("width") == "300"
    for bad, words in [
        (["--svg", "--size", "5"], b"16"),
        (["-o", str(out)], b"add --svg"),
        (["--svg", "--highlight", "QQ"], b"is not a move"),
        (["--svg", "-o", str(tmp_path / "no" / "d.svg")], b"no folder"),
    ]:
        res = subprocess.run([*run, *bad], capture_output=True, cwd=tmp_path)
        assert res.returncode == 2 and words in res.stderr and b"Traceback" not in res.stderr, bad


# b declares the four kings at once (+kK): a game won outright, proven within any budget
KINGS = "brisque AJ.98.8.A/K.K.TK7.K JC TSJD9CQD9D7CQCQS7SAHADJHQH8STC 9.T7..8 - b 0:10 tricks=0:2"


P = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


def test_a_highlight_with_nothing_to_ring_is_refused(invoke):
    import pytest

    from solver.errors import ArgumentError
    from solver.model.position import Position
    from solver.model.svg import HIGHLIGHT
    from solver.svg import MarkError, svg

    p = Position(KINGS)  # 9S is out; the 7 of trumps (7C) is in the talon: no exchange
    for mark, words in (("9S", "9S: the card is already played"), ("x", "x: no exchange to ring")):
        with pytest.raises(MarkError, match=f"svg: highlight {words}") as info:
            svg(p, highlight=[mark])
        assert isinstance(info.value, ArgumentError) and info.value.option == "highlight"
        r = invoke("show", KINGS, "--svg", "--highlight", mark)
        assert r.exit_code == 2 and f"--highlight {words}" in r.stderr, r.output
    # what can be ringed still is: a card in a hand, the turnup, a declaration in hand
    for mark in ("KS", "JC", "+kK", "AS"):
        assert f'stroke="{HIGHLIGHT}"' in svg(p, highlight=[mark])
        assert invoke("show", KINGS, "--svg", "--highlight", mark).exit_code == 0


def test_a_bad_svg_move_names_its_option(invoke):
    r = invoke("show", KINGS, "--svg", "--arrow", "ZZ")
    assert r.exit_code == 2 and "--arrow 'ZZ' is not a move (expected a card such as TH)" in r.stderr
    r = invoke("show", KINGS, "--svg", "--highlight", "QQ")
    assert r.exit_code == 2 and "--highlight 'QQ' is not a move" in r.stderr
    r = invoke("show", KINGS, "--svg", "--arrow", "9S")  # (a card in no hand, refused as before)
    assert r.exit_code == 2 and "--arrow 9S: expected a card in a hand" in r.stderr


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
