"""Trial 17: ``line`` counts a game given up only when it is proven.

At b's turn the four queens are all still in the talon: the estimate of KS says b gives up a
won game, but its proven bounds leave the win open (an inaccuracy, not a mistake); for KD they
prove it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from solver.analysis.line import analyse_line, games_given_up

S5 = "brisque AJ.98.8.A/K.K.TK7.K JC TSJD9CQD9D7CQCQS7SAHADJHQH8STC 9.T7..8 - b 0:10 tricks=0:2"


def test_an_unproven_game_event_is_counted_apart():
    (ks,) = analyse_line(S5, "KS")
    assert ks.game is not None and not ks.exact and not ks.proven
    assert not ks.game_proven and ks.inaccuracy and not ks.mistake
    assert games_given_up([ks]) == {"a": 0, "b": 0}
    assert games_given_up([ks], proven=False) == {"a": 0, "b": 1}
    (kd,) = analyse_line(S5, "KD")
    assert kd.game_proven and kd.mistake
    assert games_given_up([kd]) == {"a": 0, "b": 1}
    assert games_given_up([kd], proven=False) == {"a": 0, "b": 0}


def test_the_command_says_which_game_events_are_proven(tmp_path: Path):
    def line(move: str, *extra: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "solver.cli", "line", S5, move, "-q", *extra]
        return subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=120)

    r = line("KS", "--json")
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["games_given_up"] == {"a": 0, "b": 0}
    assert answer["games_given_up_unproven"] == {"a": 0, "b": 1}
    assert answer["steps"][0]["game_proven"] is False and answer["steps"][0]["mistake"] is False
    text = line("KS").stdout
    assert "inaccuracy (estimate)" in text and "games given up by estimates, not proven: a 0, b 1" in text
    assert "games given up (not in the totals)" not in text
    text = line("KD").stdout
    assert "<-- gives up a won game" in text and "games given up (not in the totals): a 0, b 1" in text


def test_the_diagram_says_one_trick():
    from solver import Position
    from solver.svg import svg

    p = Position(
        "briscan J..AJ8.K/AT8.A..T 8H 7 KQ7.TKQJ9.TKQ7.Q9 - b 53:23 tricks=6:1 melds=mC/bp shown=b:8STSASAHTC declared=1"
    )
    drawing = svg(p)
    assert "b: 23 points, 1 trick " in drawing and "1 tricks" not in drawing
    assert "a: 53 points, 6 tricks" in drawing
