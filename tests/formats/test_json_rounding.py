"""Every float value of a JSON answer is rounded to 3 decimals by one helper (puzzles
--json gave 13.017857142857142, line --json 3.8499999999999996)."""

import json
import re

from helpers import POSITIONS

from solver.model.numbers import JSON_DIGITS, json_number
from solver.play.match import run_match

V = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
SHARES = {"p_win", "p_loss", "probability", "exploitability", "seconds", "work_seconds", "won_share_ci95"}


def floats(obj, key=None):
    """(key, float) of every float in a JSON answer but the shares and times."""
    if isinstance(obj, float) and key not in SHARES:
        yield key, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k not in SHARES:
                yield from floats(v, k)
    elif isinstance(obj, list):
        for v in obj:
            yield from floats(v, key)


def assert_rounded(text):
    for line in text.splitlines():
        for key, x in floats(json.loads(line)):
            assert round(x, JSON_DIGITS) == x, (key, x)
            assert not re.search(r"\d\.\d{4,}", json.dumps(x)), (key, x)


def test_the_helper():
    assert json_number(13.017857142857142) == 13.018
    assert json_number(3.8499999999999996) == 3.85
    assert json_number(None) is None and json_number(7) == 7


def test_puzzles_json_rounds_sampled_values(invoke):
    r = invoke("puzzles", POSITIONS / "hidden-cards.bpd", "--json")
    assert '"value"' in r.output
    assert_rounded(r.output)


def test_line_and_analyse_json_round_alike(invoke):
    r = invoke("line", V, "9H", "--worlds", 20, "--json")
    assert r.exit_code == 0, r.output
    assert_rounded(r.output)
    r = invoke("analyse", V, "--worlds", 20, "--json")
    assert r.exit_code == 0, r.output
    assert_rounded(r.output)


def test_match_json_rounds_shares_and_times(brisque, tmp_path):
    r = brisque("match", "greedy", "random", "--deals", "3", "--seed", "2", "--json")
    s = json.loads(r.stdout)
    for x in [*s["won_share_ci95"], s["seconds_per_deal_first"], s["seconds_per_deal_second"]]:
        assert round(x, 6) == x
    assert s["won_share_ci95"][0] == round(
        run_match("greedy", "random", 3, seed=2).summary["won_share_ci95"][0], 6
    )
