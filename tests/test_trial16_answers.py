"""Defects found by a new user's trial (session 16), each with the input that showed it."""

from __future__ import annotations

import json

from click.testing import CliRunner

from solver.analysis.line import analyse_line
from solver.cli import main
from solver.engine.api import solve
from solver.engine.results import Limit

# b declares the four kings at once (+kK): a game won outright, proven within any budget
KINGS = "brisque AJ.98.8.A/K.K.TK7.K JC TSJD9CQD9D7CQCQS7SAHADJHQH8STC 9.T7..8 - b 0:10 tricks=0:2"


def run(*args: object):
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, [str(a) for a in args])


# ------------------------------------------------------------ 1. bounds that meet are exact


def test_a_bounded_solve_whose_bounds_meet_is_exact():
    for limit in (Limit(nodes=1000), Limit(depth=4)):
        a = solve(KINGS, limit=limit)
        assert a.method == "bounded" and a.lower == a.upper
        assert a.exact and a.win == "b" and a.value.won
        d = a.to_dict()
        assert d["exact"] is True and d["win"] == "b" and d["lower"] == d["upper"] == d["value"] == 10000
        assert d["method"] == "bounded" and d["stopped"] in ("budget", "depth")
        # the best moves are those proven to win; each move's entry says what is proven of it
        assert "+kK" in d["best"]
        for mv in d["moves"]:
            assert mv["exact"] == (mv["lower"] == mv["upper"])
            if mv["move"] in d["best"]:
                assert mv["exact"] and mv["value"] == 10000


def test_the_text_of_a_bounded_solve_whose_bounds_meet_reads_as_an_exact_answer():
    r = run("solve", KINGS, "--nodes", "1000")
    assert r.exit_code == 0, r.output
    assert "Value for b: +10000 (proven, b wins the game)" in r.stdout
    assert "estimated" not in r.stdout and "search not finished" not in r.stdout
    d = json.loads(run("solve", KINGS, "--depth", "4", "--json").stdout)
    assert d["exact"] is True and d["win"] == "b"


def test_an_unfinished_bounded_solve_still_says_estimated():
    start = "brisque Q9.Q9..Q7/.87.KJ9.J TS 8DKHAHKCJSKS8SASTH7SACQDTC9CTD8CJHAD7D - - a 0:0"
    a = solve(start, limit=Limit(nodes=1000))
    assert a.lower != a.upper and not a.exact and a.win is None
    assert a.to_dict()["exact"] is False


def test_a_line_move_winning_the_game_at_once_is_exact():
    (step,) = analyse_line(KINGS, ["+kK"])
    assert step.exact and step.loss == 0 and not step.inaccuracy
    r = run("line", KINGS, "+kK")
    assert r.exit_code == 0 and "(estimate)" not in r.stdout, r.stdout


def test_a_line_move_giving_up_a_proven_game_win_is_a_proven_mistake():
    # KC, against +kK: the game-win guard proves KC wins no game (its upper bound +9999)
    (step,) = analyse_line(KINGS, ["KC"])
    assert step.game == "gives up a won game"
    assert step.proven and step.mistake and not step.inaccuracy
    a = solve(KINGS, limit=Limit(depth=4))
    kc = next(mv for mv in a.moves if str(mv.move) == "KC")
    assert int(kc.upper) == 9999 and not kc.upper.won


# ------------------------------------------------------------ 2. one world: no standard error

HIDDEN = "brisque K8.K7..T9/?6 QC 11 A.9.TKQJ7.8 - a 11:19 tricks=1:3"
HIDDEN_LINE = "brisque ?6/J8..7.AJ8 AD 3 AK97.AT987.TKJ98.Q7 - b 17:38 tricks=3:5"


def test_one_sampled_world_has_no_standard_error():
    from solver.analysis.sampling import analyse

    a = analyse(HIDDEN, worlds=1, seed=0)
    assert a.worlds == 1 and not a.enumerated and a.stderr is None
    d = a.to_dict()
    assert d["stderr"] is None and all(mv["stderr"] is None for mv in d["moves"])
    worst = min(a.moves, key=lambda mv: mv.value)
    loss, se = a.paired_loss(worst.move)
    assert loss > 0 and se is None
    assert "stderr" in a._repr_html_()  # (the notebook table shows "?", no TypeError)
    r = run("analyse", HIDDEN, "--worlds", "1", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["stderr"] is None
    # two worlds have one
    assert analyse(HIDDEN, worlds=2, seed=0).stderr is not None


def test_a_line_from_one_sampled_world_flags_no_mistake():
    (step,) = analyse_line(HIDDEN_LINE, ["8S"], worlds=1)
    assert step.loss > 0 and step.loss_stderr is None and step.sampled
    assert not step.mistake and step.inaccuracy
    r = run("line", HIDDEN_LINE, "8S", "--worlds", "1")
    assert r.exit_code == 0, r.output
    assert "mistake" not in r.stdout and "+- 0.0" not in r.stdout
    assert "(sampled, one world: no standard error)" in r.stdout and "inaccuracy" in r.stdout
    d = json.loads(run("line", HIDDEN_LINE, "8S", "--worlds", "1", "--json").stdout)
    assert d["steps"][0]["mistake"] is False and d["steps"][0]["loss_stderr"] is None


# ------------------------------------------------------------ 3, 4. show --svg marks


def test_a_highlight_with_nothing_to_ring_is_refused():
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
        r = run("show", KINGS, "--svg", "--highlight", mark)
        assert r.exit_code == 2 and f"--highlight {words}" in r.stderr, r.output
    # what can be ringed still is: a card in a hand, the turnup, a declaration in hand
    for mark in ("KS", "JC", "+kK", "AS"):
        assert f'stroke="{HIGHLIGHT}"' in svg(p, highlight=[mark])
        assert run("show", KINGS, "--svg", "--highlight", mark).exit_code == 0


def test_a_bad_svg_move_names_its_option():
    r = run("show", KINGS, "--svg", "--arrow", "ZZ")
    assert r.exit_code == 2 and "--arrow 'ZZ' is not a move (expected a card such as TH)" in r.stderr
    r = run("show", KINGS, "--svg", "--highlight", "QQ")
    assert r.exit_code == 2 and "--highlight 'QQ' is not a move" in r.stderr
    r = run("show", KINGS, "--svg", "--arrow", "9S")  # (a card in no hand, refused as before)
    assert r.exit_code == 2 and "--arrow 9S: expected a card in a hand" in r.stderr


# ------------------------------------------------------------ 6. errors inside a deal record

RECORD = {
    "pair": 0,
    "deal_seed": 0,
    "first_at": "a",
    "players": ["random", "greedy"],
    "start": "brisque AKJ..QJ.K/7.T9.K8.9 JC AD9STDQS8CTS9DJHTC8HQHAH7D7H8SKHQCAC7C - - a 0:0",
    "moves": ["KS", "7S"],
}


def test_errors_inside_a_record_name_the_file_and_the_record(tmp_path):
    bad = [dict(RECORD, start="foo"), dict(RECORD, moves=["ZZ"]), dict(RECORD, moves=["KS", "AS"])]
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in bad), encoding="utf-8")
    for k, words in enumerate(["bad BPN 'foo'", "bad move 'ZZ'", "move 2 (AS) is not legal"], 1):
        r = run("line", "--record", path, "--deal", k, "-q")
        assert r.exit_code == 2 and f"{path}: record {k}: {words}" in r.stderr, r.output


# ------------------------------------------------------------ 7. tree: the format of -o FILE

FINAL = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


def test_the_tree_format_follows_the_output_extension(tmp_path):
    heads = {"dot": "digraph", "graphml": "<?xml", "json": "{", "gexf": "<?xml"}
    for ext, head in heads.items():
        out = tmp_path / f"tree.{ext}"
        r = run("tree", FINAL, "-o", out, "-q")
        assert r.exit_code == 0, r.output
        text = out.read_text(encoding="utf-8")
        assert text.startswith(head), (ext, text[:40])
        assert ("<gexf" in text) == (ext == "gexf") and ("<graphml" in text) == (ext == "graphml")
    other = tmp_path / "tree.txt"  # (an extension that names no format: graphml, as before)
    assert run("tree", FINAL, "-o", other, "-q").exit_code == 0 and "<graphml" in other.read_text()
    same = tmp_path / "same.dot"
    assert run("tree", FINAL, "-o", same, "--format", "dot", "-q").exit_code == 0


def test_a_tree_format_contradicting_the_extension_is_refused(tmp_path):
    out = tmp_path / "tree.dot"
    r = run("tree", FINAL, "-o", out, "--format", "graphml")
    assert r.exit_code == 2 and "--format graphml contradicts the extension" in r.stderr, r.output
    assert not out.exists()
    assert "extension" in run("tree", "--help").stdout
