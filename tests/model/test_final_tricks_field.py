"""The final-phase trick count is Briscan's alone (read in every game, no part of a position
of another), and a Brisque line's end says which tricks it counts."""

import pytest

from solver import Position, solve
from solver.analysis.text_reports import pv_by_trick
from solver.play.dealing import deal

P = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
BRISCAN = "briscan .AKQJ.KQ./AT..AT.K D 0 - - a 60:40 tricks=6:5 final=1:1 melds=3KH/mD"


def _play(p: Position, *moves: str) -> Position:
    for text in moves:
        (m,) = [m for m in p.legal_moves() if str(m) == text]
        p.push(m)
    return p


def test_brisque_final_phase_tricks_leave_no_final_field():
    p = _play(Position(P), "QD", "9C")
    assert "final=" not in p.bpn()
    assert p == Position(p.bpn())


def test_briscan_still_counts_final_phase_tricks():
    p = Position(BRISCAN)
    m = p.legal_moves()[0]
    p.push(m)
    p.push(p.legal_moves()[0])
    assert "final=" in p.bpn()
    assert sum(p.final) == 3


def test_a_brisque_line_without_recorded_tricks_says_they_are_the_lines():
    p = Position(P)
    rows = pv_by_trick(p, solve(p).pv)
    assert rows[-1].startswith("  end: score ") and "tricks in this line 1:5" in rows[-1]


def test_both_answer_paths_drop_a_brisque_final_field(tmp_path):
    import json
    import subprocess
    import sys

    line = P + " final=0:1"
    out = subprocess.run(
        [sys.executable, "-m", "solver.cli", "solve", "-"],
        input=line + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["bpn"] == P
    assert Position(line).bpn() == P


@pytest.mark.parametrize("game", ["brisque", "petite"])
@pytest.mark.parametrize("final", ["-1:0", "1:0", "16:16"])
def test_a_final_field_outside_briscan_is_read_and_left_out(game, final):
    start = deal(3, game)
    p = Position(f"{start.bpn()} final={final}")
    assert p.final == [0, 0] and p.problems() == start.problems() == [] and p.bpn() == start.bpn()


@pytest.mark.parametrize(
    "bpn",
    [
        P + " final=-1:0",
        P + " final=0:1",
        "petite ..9.AK8/AQ7.9.. TH 21 ..Q7. - b 0:3 tricks=0:1 final=-2:0",
        BRISCAN,
        BRISCAN.replace("final=1:1", "final=-1:1"),  # (impossible: said both times)
        BRISCAN.replace("final=1:1", "final=2:1"),
        BRISCAN.replace(" final=1:1", ""),
    ],
)
def test_the_position_printed_back_has_the_same_problems(bpn):
    p = Position(bpn)
    again = Position(p.bpn())
    assert again.problems() == p.problems() and again.bpn() == p.bpn()
