"""The ``brisque`` command, through click's CliRunner."""

import json

import pytest
from click.testing import CliRunner
from helpers import NOTATION_EXAMPLES

from solver import Position
from solver.cli import main


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, list(args))

    return invoke


def test_show_prints_a_picture(run):
    r = run("show", NOTATION_EXAMPLES[0])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.splitlines()[0] == "Brisque - trick 11 of 16, final phase"
    assert "Trump: ♦ (D)" in out
    assert "    ♠ A K 9" in out and "    ♦ K Q 9 (trump)" in out and "    ♣ A 7" in out
    assert "b (dealer): score 35, tricks not recorded  <- to act" in out
    assert "Legal moves for b: 7S 9D QD KD 7C AC +mD" in out
    assert "Valid: yes" in out
    assert f"BPN: {NOTATION_EXAMPLES[0]}" in out


def test_show_a_view_with_hidden_cards(run):
    r = run("show", NOTATION_EXAMPLES[2])
    assert r.exit_code == 0, r.output
    assert "+ 6 hidden cards" in r.stdout
    assert "Talon: 13 cards (order hidden)" in r.stdout
    assert "turnup 9♣ on the table" in r.stdout
    assert "Legal moves for a: KS AS 9H TH JD 8C" in r.stdout
    assert "BPN: brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1" in r.stdout


def test_show_malformed_bpn_quotes_the_field(run):
    bad = NOTATION_EXAMPLES[0].replace(" D 0 ", " D zz ")
    r = run("show", bad)
    assert r.exit_code == 2
    assert "bad talon field 'zz'" in r.stderr
    assert "expected" in r.stderr
    assert r.stdout == ""


def test_show_impossible_position_gives_the_reason(run):
    bad = NOTATION_EXAMPLES[0].replace("52:35", "52:36")
    r = run("show", bad)
    assert r.exit_code == 2
    assert "Valid: NO" in r.stdout
    assert "scores 52:36 add up to 88" in r.stdout


def test_show_json(run):
    r = run("show", "--json", NOTATION_EXAMPLES[1])
    assert r.exit_code == 0, r.output
    answer = json.loads(r.stdout)
    assert answer["bpn"] == NOTATION_EXAMPLES[1]
    assert answer["valid"] is True and answer["problems"] == []
    assert answer["turn"] == "a" and answer["trick"] == 11 and answer["over"] is False
    assert set(answer["legal"]) == {"AS", "KS", "9S", "9H", "7H", "9C"}


def test_show_json_impossible_and_hidden(run):
    r = run("show", "--json", NOTATION_EXAMPLES[0].replace("/7..", "/A.."))
    assert r.exit_code == 2
    answer = json.loads(r.stdout)
    assert answer["valid"] is False
    assert any("AS appears twice" in p for p in answer["problems"])
    hidden = Position(NOTATION_EXAMPLES[2]).view("a")
    hidden.push("AS")
    r = run("show", "--json", hidden.bpn())
    assert r.exit_code == 0 and json.loads(r.stdout)["legal"] is None


@pytest.mark.parametrize("rules", ["brisque", "briscan", "petite", "brisque(target=300)"])
def test_deal_is_deterministic(run, rules):
    a = run("deal", "--seed", "12", "--rules", rules)
    b = run("deal", "--seed", "12", "--rules", rules)
    c = run("deal", "--seed", "13", "--rules", rules)
    assert a.exit_code == b.exit_code == c.exit_code == 0
    assert a.stdout == b.stdout != c.stdout
    p = Position(a.stdout.strip())
    assert p.bpn().split()[0] == rules
    assert p.trick_number == 1 and p.problems() == [] and not p.has_hidden


def test_deal_briscan(run):
    r = run("deal", "--seed", "3", "--rules", "briscan")
    p = Position(r.stdout.strip())
    assert p.rules.game == "briscan" and p.hand_size("a") == 5 and p.talon_count == 21


@pytest.mark.parametrize(
    "rules, at", [("brisque", 5), ("brisque", 11), ("brisque", 16), ("briscan", 12), ("petite", 4)]
)
def test_deal_at_reaches_the_trick(run, rules, at):
    r = run("deal", "--seed", "7", "--rules", rules, "--at", str(at))
    assert r.exit_code == 0, r.output
    p = Position(r.stdout.strip())
    assert p.trick_number == at and p.problems() == []
    again = run("deal", "--seed", "7", "--rules", rules, "--at", str(at))
    assert again.stdout == r.stdout


def test_deal_view(run):
    r = run("deal", "--seed", "7", "--view", "b")
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
def test_deal_bad_rules(run, rules, message):
    r = run("deal", "--seed", "1", "--rules", rules)
    assert r.exit_code != 0
    assert message in r.stderr
    assert r.stdout == ""


def test_deal_at_beyond_the_deal(run):
    r = run("deal", "--seed", "1", "--rules", "petite", "--at", "6")
    assert r.exit_code != 0 and "petite has 5 tricks" in r.stderr


def test_help_and_version(run):
    r = run("--help")
    assert r.exit_code == 0 and "show" in r.stdout and "deal" in r.stdout
    r = run("--version")
    assert r.exit_code == 0 and "brisque" in r.stdout


def test_undecodable_bytes_are_quoted_as_bytes(run):
    # a shell's $'\xff' reaches Python as the surrogate escape '\udcff': quote the byte
    bad = NOTATION_EXAMPLES[0].replace(" a ", " a\udcff ").replace(" b ", " b\udcff ")
    r = run("solve", bad)
    assert r.exit_code == 2
    assert "\\xff" in r.stderr
    assert "udcff" not in r.stderr
    r = run("solve", "--seconds", "\udcfe5", NOTATION_EXAMPLES[0])
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
    import subprocess
    import sys

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
