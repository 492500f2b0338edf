"""The terminal picture of a position (solver.formats.picture.picture)."""

import os
import subprocess
import sys

import pytest
from helpers import NOTATION_EXAMPLES, make, play_random

from solver import Position
from solver.formats.picture import picture


def test_picture_of_the_first_example():
    lines = picture(Position(NOTATION_EXAMPLES[0])).splitlines()
    assert lines[0] == "Brisque - trick 11 of 16, final phase"
    assert lines[-1] == f"BPN: {NOTATION_EXAMPLES[0]}"
    assert "Valid: yes" in lines


def test_picture_names_the_phase_and_the_trick():
    second = picture(Position(NOTATION_EXAMPLES[1]))
    assert "Trick: b led K♦" in second and "Legal moves for a:" in second
    talon = picture(Position(NOTATION_EXAMPLES[2]))
    assert talon.startswith("Brisque - trick 4 of 16, talon phase")
    window = Position(make("brisque", "7.KQ.A.A9", "9.7.K9.K", "KS", turn="a"))
    assert "last-pickup window" in picture(window).splitlines()[0]
    assert "Legal moves for a: x pass" in picture(window)


def test_picture_of_other_games_and_options():
    b = "petite 9...Q7/.8.K.J JD 21 Q.Q9.9. - a 3:3 tricks=1:1"
    pic = picture(Position(b))
    assert pic.startswith("Petite Brisque - trick 3 of 5, no drawing")
    assert "Talon: 21 dead cards" in pic
    r = picture(Position(NOTATION_EXAMPLES[0].replace("brisque", "brisque(target=300)", 1)))
    assert "Rules: brisque(target=300)" in r


def test_picture_of_a_finished_deal():
    p = play_random(2, "brisque")
    pic = picture(p)
    assert "deal over" in pic.splitlines()[0]
    assert "Result:" in pic and "Legal moves" not in pic
    margin = p.score[0] - p.score[1]
    if p.win < 0 and margin:
        assert f"margin for a {margin:+d}" in pic


def test_picture_of_an_impossible_position_lists_the_problems():
    pic = picture(Position(NOTATION_EXAMPLES[0].replace("/7..", "/A..")))
    assert "Valid: NO" in pic
    assert "  - card AS appears twice" in pic


def test_picture_with_a_hidden_hand_to_act():
    v = Position(NOTATION_EXAMPLES[2]).view("a")
    v.push("AS")
    pic = picture(v)
    assert "Legal moves for b: unknown (hand hidden)" in pic
    assert "+ 6 hidden cards" in pic


def test_picture_says_when_brisque_tricks_are_not_recorded():
    """A Brisque BPN need not record the tricks taken (no tricks= key after completed tricks):
    the picture says so, not "tricks 0"; recorded tricks, and none taken yet, are counted."""
    seats = [
        ln
        for ln in picture(Position(NOTATION_EXAMPLES[0])).splitlines()
        if "(non-dealer)" in ln or "(dealer)" in ln
    ]
    assert [ln.split(", ")[1].removesuffix("  <- to act") for ln in seats] == ["tricks not recorded"] * 2
    recorded = picture(Position("brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1"))
    assert "  a (non-dealer): score 18, tricks 2  <- to act" in recorded.splitlines()
    assert "  b (dealer): score 12, tricks 1" in recorded.splitlines()
    petite = picture(Position("petite .J9.8.9/?4 8H 21 8...Q - a 3:0 tricks=1:0"))
    assert "  b (dealer): score 0, tricks 0" in petite.splitlines()  # (recorded: it always is)


def test_picture_shows_the_suits_a_player_has_shown_out_of():
    """void= (suits shown out of) is part of what the player to move knows: shown in the
    hidden hand, where an empty suit is otherwise not drawn."""
    lines = picture(Position("petite A..J.K/?3 8D 21 KJ.T.Q. - a 13:6 tricks=1:1 void=b:D")).splitlines()
    b = lines.index("  b (dealer): score 6, tricks 1")
    assert lines[b + 1 : b + 3] == ["    ♦ - (trump, shown out)", "    + 3 hidden cards"]
    a = lines.index("  a (non-dealer): score 13, tricks 1  <- to act")
    assert not any("shown out" in ln for ln in lines[a:b])


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


@pytest.mark.slow
def test_counts_of_one_are_singular(brisque):
    # "1 tricks deep", "1 deal pairs"
    r = brisque("match", "greedy", "random", "--deals", "1")
    assert "1 deal pair (2 deals)" in r.stdout and "1 deal pairs" not in r.stdout
    deal = brisque("deal", "--seed", "3").stdout.strip()
    r = brisque("solve", deal, "--depth", "1")
    assert "1 trick deep" in r.stdout and "1 tricks" not in r.stdout
    r = brisque("show", "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
    assert "Talon: 0 cards" in r.stdout


def test_a_share_shows_as_all_or_none_only_when_it_is():
    # a share of 99.6% printed as 100%, one of 0.4% as 0%
    from solver.analysis.sampling import SampledMove
    from solver.formats.words import percent, proportion
    from solver.model.moves import parse_move

    assert [percent(x) for x in (0.0, 0.004, 0.5, 0.996, 1.0)] == ["0%", "<1%", "50%", ">99%", "100%"]
    assert [percent(x, 1) for x in (0.0004, 0.9996)] == ["<0.1%", ">99.9%"]
    assert [proportion(x) for x in (0.0004, 0.9996, 1.0)] == ["<0.001", ">0.999", "1.000"]
    mv = SampledMove(move=parse_move("AS"), value=1.0, stderr=0.1, p_win=0.996, p_loss=0.004, margin=3.0)
    text = mv.describe("a")
    assert "a wins the game in >99% of worlds" in text and "b wins the game in <1% of worlds" in text


def test_the_picture_falls_back_to_letters_on_a_terminal_without_card_symbols(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "solver.cli", "show", GOOD],
        capture_output=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert b"Trump: D\n" in done.stdout.replace(b"\r\n", b"\n") and b"    S A K 9" in done.stdout


def test_a_hidden_hand_is_not_drawn_as_four_voids():
    from solver.formats.picture import picture

    text = picture(Position("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"))
    b_part = text.split("b (dealer)")[1].split("Legal moves")[0]
    assert " -" not in b_part and "+ 6 hidden cards" in b_part
