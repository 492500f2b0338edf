"""The ``brisque`` command, through click's CliRunner."""

import json
import subprocess
import sys

import pytest
from helpers import NOTATION_EXAMPLES, OUTSIDE

from solver import Position


def test_show_prints_a_picture(invoke):
    r = invoke("show", NOTATION_EXAMPLES[0])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.splitlines()[0] == "Brisque - trick 11 of 16, final phase"
    assert "Trump: ♦ (D)" in out
    assert "    ♠ A K 9" in out and "    ♦ K Q 9 (trump)" in out and "    ♣ A 7" in out
    assert "b (dealer): score 35, tricks not recorded  <- to act" in out
    assert "Legal moves for b: 7S 9D QD KD 7C AC +mD" in out
    assert "Valid: yes" in out
    assert f"BPN: {NOTATION_EXAMPLES[0]}" in out


def test_show_a_view_with_hidden_cards(invoke):
    r = invoke("show", NOTATION_EXAMPLES[2])
    assert r.exit_code == 0, r.output
    assert "+ 6 hidden cards" in r.stdout
    assert "Talon: 13 cards (order hidden)" in r.stdout
    assert "turnup 9♣ on the table" in r.stdout
    assert "Legal moves for a: KS AS 9H TH JD 8C" in r.stdout
    assert "BPN: brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1" in r.stdout


def test_show_malformed_bpn_quotes_the_field(invoke):
    bad = NOTATION_EXAMPLES[0].replace(" D 0 ", " D zz ")
    r = invoke("show", bad)
    assert r.exit_code == 2
    assert "bad talon field 'zz'" in r.stderr
    assert "expected" in r.stderr
    assert r.stdout == ""


def test_show_impossible_position_gives_the_reason(invoke):
    bad = NOTATION_EXAMPLES[0].replace("52:35", "52:36")
    r = invoke("show", bad)
    assert r.exit_code == 2
    assert "Valid: NO" in r.stdout
    assert "scores 52:36 add up to 88" in r.stdout


def test_show_json(invoke):
    r = invoke("show", "--json", NOTATION_EXAMPLES[1])
    assert r.exit_code == 0, r.output
    answer = json.loads(r.stdout)
    assert answer["bpn"] == NOTATION_EXAMPLES[1]
    assert answer["valid"] is True and answer["problems"] == []
    assert answer["turn"] == "a" and answer["trick"] == 11 and answer["over"] is False
    assert set(answer["legal"]) == {"AS", "KS", "9S", "9H", "7H", "9C"}


def test_show_json_impossible_and_hidden(invoke):
    r = invoke("show", "--json", NOTATION_EXAMPLES[0].replace("/7..", "/A.."))
    assert r.exit_code == 2
    answer = json.loads(r.stdout)
    assert answer["valid"] is False
    assert any("AS appears twice" in p for p in answer["problems"])
    hidden = Position(NOTATION_EXAMPLES[2]).view("a")
    hidden.push("AS")
    r = invoke("show", "--json", hidden.bpn())
    assert r.exit_code == 0 and json.loads(r.stdout)["legal"] is None


@pytest.mark.parametrize("rules", ["brisque", "briscan", "petite", "brisque(target=300)"])
def test_deal_is_deterministic(invoke, rules):
    a = invoke("deal", "--seed", "12", "--rules", rules)
    b = invoke("deal", "--seed", "12", "--rules", rules)
    c = invoke("deal", "--seed", "13", "--rules", rules)
    assert a.exit_code == b.exit_code == c.exit_code == 0
    assert a.stdout == b.stdout != c.stdout
    p = Position(a.stdout.strip())
    assert p.bpn().split()[0] == rules
    assert p.trick_number == 1 and p.problems() == [] and not p.has_hidden


def test_deal_briscan(invoke):
    r = invoke("deal", "--seed", "3", "--rules", "briscan")
    p = Position(r.stdout.strip())
    assert p.rules.game == "briscan" and p.hand_size("a") == 5 and p.talon_count == 21


@pytest.mark.parametrize(
    "rules, at", [("brisque", 5), ("brisque", 11), ("brisque", 16), ("briscan", 12), ("petite", 4)]
)
def test_deal_at_reaches_the_trick(invoke, rules, at):
    r = invoke("deal", "--seed", "7", "--rules", rules, "--at", str(at))
    assert r.exit_code == 0, r.output
    p = Position(r.stdout.strip())
    assert p.trick_number == at and p.problems() == []
    again = invoke("deal", "--seed", "7", "--rules", rules, "--at", str(at))
    assert again.stdout == r.stdout


def test_deal_view(invoke):
    r = invoke("deal", "--seed", "7", "--view", "b")
    assert r.exit_code == 0
    fields = r.stdout.split()
    assert fields[1].startswith("?6/") and fields[3] == "19"


@pytest.mark.parametrize(
    "rules, message",
    [
        ("bogus", "--rules 'bogus': unknown game: expected one of"),
        ("brisque(target=abc)", "--rules 'brisque(target=abc)': option target: 'abc' is not a whole number"),
        ("brisque(draw=yes)", "does not apply to brisque"),
        ("brisque(target=300", "closing ')'"),
    ],
)
def test_deal_bad_rules(invoke, rules, message):
    r = invoke("deal", "--seed", "1", "--rules", rules)
    assert r.exit_code != 0
    assert message in r.stderr
    assert r.stdout == ""


def test_deal_at_beyond_the_deal(invoke):
    r = invoke("deal", "--seed", "1", "--rules", "petite", "--at", "6")
    assert r.exit_code != 0 and "petite has 5 tricks" in r.stderr


def test_help_and_version(invoke):
    r = invoke("--help")
    assert r.exit_code == 0 and "show" in r.stdout and "deal" in r.stdout
    r = invoke("--version")
    assert r.exit_code == 0 and "brisque" in r.stdout


def test_undecodable_bytes_are_quoted_as_bytes(invoke):
    # a shell's $'\xff' reaches Python as the surrogate escape '\udcff': quote the byte
    bad = NOTATION_EXAMPLES[0].replace(" a ", " a\udcff ").replace(" b ", " b\udcff ")
    r = invoke("solve", bad)
    assert r.exit_code == 2
    assert "\\xff" in r.stderr
    assert "udcff" not in r.stderr
    r = invoke("solve", "--seconds", "\udcfe5", NOTATION_EXAMPLES[0])
    assert r.exit_code == 2
    assert "'\\xfe5'" in r.stderr and "udcfe" not in r.stderr


def _strict_json(text: str) -> dict:
    """``text`` read by a strict JSON reader: valid Unicode, which a lone surrogate (the
    escape "\\udcff") is not: re-encoded as UTF-8 it would raise."""
    obj = json.loads(text, strict=True)
    json.dumps(obj, ensure_ascii=False).encode("utf-8")  # (UnicodeEncodeError on a lone surrogate)
    return obj


def test_the_json_error_writes_a_byte_that_is_no_utf8_as_the_message_does(tmp_path):
    """The --json error object's "bpn" is the argument as given, but a byte that is no UTF-8
    is written as the four characters \\xff, as the message quotes it (it was the surrogate
    escape \\udcff, which strict JSON readers refuse); a line of "solve -" likewise (it was
    U+FFFD there)."""

    bad = NOTATION_EXAMPLES[0].replace(" b ", " b\xff ").encode("latin-1")  # (a shell's $'\xff')
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", "solve", bad, "--json"], capture_output=True, cwd=tmp_path
    )
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    obj = _strict_json(r.stdout.decode("utf-8"))
    assert obj["bpn"] == NOTATION_EXAMPLES[0].replace(" b ", " b\\xff ")
    assert obj["error"] == "bad turn field 'b\\xff': expected a or b"
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", "solve", "-"],
        input=bad + b"\n",
        capture_output=True,
        cwd=tmp_path,
    )
    assert r.returncode == 1 and b"Traceback" not in r.stderr
    obj = _strict_json(r.stdout.decode("utf-8"))
    assert obj["bpn"] == NOTATION_EXAMPLES[0].replace(" b ", " b\\xff ")
    assert obj["error"] == "line 1 is not UTF-8 text (invalid start byte)"


FULL = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"


HIDDEN = NOTATION_EXAMPLES[2]


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


def test_two_quoted_bpns_get_the_hint_to_give_them_a_line_each(brisque, tmp_path):
    # the hint said to quote the BPN, which was quoted
    r = brisque("solve", FULL, FULL)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "Got unexpected extra argument" in r.stderr
    assert "brisque solve takes one BPN: for several, give - and one BPN a line" in r.stderr
    assert "in quotes" not in r.stderr
    both = brisque("solve", "-", stdin=f"{FULL}\n{FULL}\n")  # (what the hint says works)
    assert both.returncode == 0 and both.stdout.count("\n") >= 2, both.stderr


def test_an_unquoted_bpn_still_gets_the_hint_to_quote_it(brisque, tmp_path):
    r = brisque("solve", *FULL.split(" "))
    assert r.returncode == 2 and "give it as one argument, in quotes" in r.stderr


def test_a_folder_given_as_a_position_gets_a_hint(brisque):
    r = brisque("solve", OUTSIDE)
    assert r.returncode == 2 and f"{OUTSIDE!r} is a folder: give the position itself" in r.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, view",
    [
        (["--seed", "7", "--at", "11"], None),
        (["--seed", "7", "--rules", "briscan(target=300)", "--view", "turn"], "a"),
        (["--seed", "3", "--rules", "petite", "--at", "4", "--view", "b"], "b"),
    ],
)
def test_deal_answers_in_json_as_the_other_commands_do(brisque, args, view):
    # brisque deal had no --json ("No such option '--json'"), unlike every query command
    plain = brisque("deal", *args)
    res = brisque("deal", *args, "--json")
    assert res.returncode == 0 and plain.returncode == 0, res.stderr
    answer = json.loads(res.stdout)
    assert answer["bpn"] == plain.stdout.strip()
    assert answer["seed"] == int(args[1]) and answer["view"] == view
    at = int(args[args.index("--at") + 1]) if "--at" in args else 1
    assert answer["trick"] == at
    shown = json.loads(brisque("show", answer["bpn"], "--json").stdout)
    assert answer["turn"] == shown["turn"] and answer["trick"] == shown["trick"]
    rules = args[args.index("--rules") + 1] if "--rules" in args else "brisque"
    assert answer["rules"] == rules and answer["bpn"].startswith(rules + " ")


def test_a_progress_line_wipes_a_longer_one_before_it():
    # "\r120/400 worlds" over "\r90 worlds, best KS +3.0 +- 1.2" left "+- 1.2" behind
    import io

    from solver.cli.output import StatusLine

    out = io.StringIO()
    line = StatusLine(True, out)
    line.show("90 worlds, best KS +3.0 +- 1.2")
    line.show("120/400 worlds")
    screen = out.getvalue().split("\r")[-1]
    assert screen.strip() == "120/400 worlds" and len(screen) == len("90 worlds, best KS +3.0 +- 1.2")
    line.clear()
    assert out.getvalue().endswith("\r") and out.getvalue().split("\r")[-2].strip() == ""
    quiet = io.StringIO()
    off = StatusLine(False, quiet)
    off.show("1/2 worlds")
    off.end()
    assert quiet.getvalue() == ""


@pytest.mark.parametrize(
    "args",
    [
        ["analyse", HIDDEN, "--worlds", "20"],
        ["match", "greedy", "random", "--deals", "1"],
        ["puzzles", "--", "-"],
    ],
    ids=["analyse", "match", "puzzles"],
)
def test_no_progress_line_is_written_where_standard_error_is_no_terminal(brisque, args, tmp_path):
    if args[0] == "puzzles":
        bpd = tmp_path / "one.bpd"
        bpd.write_text(f"{NOTATION_EXAMPLES[0]} ; v 44\n")
        args = ["puzzles", str(bpd)]
    r = brisque(*args)
    assert r.returncode == 0, r.stderr
    assert "\r" not in r.stderr and r.stderr == ""


@pytest.mark.slow
def test_a_file_given_as_a_position_gets_a_hint(brisque, tmp_path):
    # `brisque solve lines.txt` said only "bad BPN 'lines.txt'"
    lines = tmp_path / "lines.txt"
    lines.write_text(NOTATION_EXAMPLES[0] + "\n")
    r = brisque("solve", str(lines))
    assert r.returncode == 2 and f"to solve each line use `brisque solve - < {lines}`" in r.stderr
    r = brisque("analyse", str(lines))
    assert r.returncode == 2 and f"`brisque analyse - < {lines}`" in r.stderr
    puzzles = tmp_path / "mine.bpd"
    puzzles.write_text(NOTATION_EXAMPLES[0] + " ; v 44\n")
    assert f"`brisque puzzles {puzzles}`" in brisque("solve", str(puzzles)).stderr
    assert "looks like" not in brisque("solve", "nothing-here.txt").stderr  # (no such file: no hint)


def test_an_unquoted_bpn_gets_a_hint_to_quote_it(brisque, tmp_path):
    for command in ("solve", "line"):
        res = brisque.raw(command, *GOOD.split(" "), cwd=tmp_path)
        assert res.returncode == 2 and b"in quotes" in res.stderr, res.stderr


def test_a_finished_deal_is_solved_to_its_result(brisque, tmp_path):
    from solver.engine import solve
    from solver.play.dealing import deal

    p = deal(5, "petite")
    while not p.is_over():
        p.push(p.legal_moves()[0])
    a = solve(p)
    assert a.value == p.value() and a.moves == [] and a.best == [] and a.exact
    res = brisque.raw("solve", p.bpn(), "--json", cwd=tmp_path)
    assert res.returncode == 0 and json.loads(res.stdout)["value"] == int(p.value())
