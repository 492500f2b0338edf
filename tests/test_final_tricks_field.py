"""The final-phase trick count is Briscan's alone, and a Brisque line's end says which
tricks it counts (new-user trial, session 15)."""

from solver import Position, solve
from solver.analysis.report import pv_by_trick

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
