"""`brisque solve`: the human report, --json, and one BPN a line on standard input."""

from __future__ import annotations

import json
import re

import pytest

from solver.engine.solving import solve
from solver.play.dealing import random_position

NOTATION_KEYS = {"bpn", "turn", "method", "value", "best", "moves", "pv", "win", "nodes", "seconds"}
NOTATION_JSON = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"
NOTATION_FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
FOUR_KINGS = "brisque K.K.K.K/87..7.7 S 0 ATQJ9.ATQJ987.ATQJ98.ATQJ98 - a 60:44"
WINDOW = "brisque 7..ATJ98./...ATJ98 AS 0 TKQJ98.ATKQJ987.KQ7.KQ7 - a 33:30"
PETITE = "petite .7..7/.A..8 AC 21 AKQ..AKQ. - a 20:16 tricks=2:1"
HIDDEN = "brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1"  # canonical form
HIDDEN_AS_IN_NOTATION = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def talon_bpn() -> str:
    return random_position(5, "brisque", 10).bpn()


MOVE_LINE = re.compile(r"^  (\S+)\s+([+-]\d+)(  best)?$")


def parse_report(text: str) -> tuple[dict[str, int], set[str]]:
    """The moves section of the human report: {move: value} and the moves marked best."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Moves, best first"))
    values, best = {}, set()
    for line in lines[start + 1 :]:
        m = MOVE_LINE.match(line)
        if not m:
            break
        values[m.group(1)] = int(m.group(2))
        if m.group(3):
            best.add(m.group(1))
    return values, best


@pytest.mark.parametrize("bpn", [NOTATION_JSON, NOTATION_FP, FOUR_KINGS, WINDOW, PETITE, "talon"])
def test_solve_report_lists_every_move_and_the_pv(invoke, bpn):
    bpn = talon_bpn() if bpn == "talon" else bpn
    res = invoke("solve", bpn)
    assert res.exit_code == 0, res.output
    a = solve(bpn)
    values, best = parse_report(res.stdout)
    assert values == {str(mv.move): mv.value for mv in a.moves}
    assert best == {str(m) for m in a.best}
    assert list(values.values()) == sorted(values.values(), reverse=True)  # best first
    assert f"Value for {a.turn}: {a.value:+d} (exact" in res.stdout
    assert "Principal variation:" in res.stdout
    pv_part = res.stdout.split("Principal variation:")[1]
    assert "end:" in pv_part  # played to the end of the deal


def test_solve_report_of_the_notation_example(invoke):
    res = invoke("solve", NOTATION_JSON)
    assert res.exit_code == 0
    assert "Value for a: -4 (exact)" in res.stdout
    values, best = parse_report(res.stdout)
    assert values["AS"] == -18 and best == {"KS", "9S", "9H", "7H", "9C"}


def test_solve_report_of_a_win(invoke):
    res = invoke("solve", FOUR_KINGS)
    assert res.exit_code == 0
    assert "Value for a: +10000" in res.stdout and "a wins the game" in res.stdout
    assert parse_report(res.stdout)[1] == {"+kK"}


def test_solve_json_is_one_object_in_the_notation_format(invoke):
    res = invoke("solve", NOTATION_JSON, "--json")
    assert res.exit_code == 0, res.output
    lines = res.stdout.strip().splitlines()
    assert len(lines) == 1
    d = json.loads(lines[0])
    assert set(d) == NOTATION_KEYS
    assert d["bpn"] == NOTATION_JSON and d["turn"] == "a" and d["method"] == "exact"
    assert d["value"] == -4 and d["win"] is None
    assert set(d["best"]) == {"KS", "9S", "9H", "7H", "9C"}
    assert {m["move"]: m["value"] for m in d["moves"]} == {
        "AS": -18,
        "KS": -4,
        "9S": -4,
        "9H": -4,
        "7H": -4,
        "9C": -4,
    }
    assert all(set(m) == {"move", "value"} for m in d["moves"])
    assert d["pv"] and d["pv"][0] in d["best"]
    assert isinstance(d["nodes"], int) and isinstance(d["seconds"], (int, float))


@pytest.mark.parametrize("bpn", [FOUR_KINGS, WINDOW, PETITE, "talon"])
def test_solve_json_matches_the_library(invoke, bpn):
    bpn = talon_bpn() if bpn == "talon" else bpn
    res = invoke("solve", "--json", bpn)
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    a = solve(bpn).to_dict()
    for key in ("bpn", "turn", "method", "value", "win", "moves"):
        assert d[key] == a[key], key
    assert set(d["best"]) == set(a["best"])


def test_solve_json_with_a_small_table(invoke):
    res = invoke("solve", "--json", "--table-bits", "8", NOTATION_FP)
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["value"] == 44 and set(d["best"]) == {"+mD", "7S", "9D", "7C", "AC"}


def test_solve_stdin_one_json_object_a_line(invoke):
    talon = talon_bpn()
    lines = [
        NOTATION_JSON,
        "",
        "# a comment",
        "not a position",
        PETITE,
        HIDDEN,
        talon,
        "brisque AK9.97..9/A..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
    ]
    res = invoke("solve", "-", input="\n".join(lines) + "\n")
    assert res.exit_code == 1
    out = [json.loads(line) for line in res.stdout.strip().splitlines()]
    assert len(out) == 6  # blank and comment lines are skipped
    assert [o["bpn"] for o in out] == [NOTATION_JSON, "not a position", PETITE, HIDDEN, talon, lines[-1]]
    good = [out[0], out[2], out[4]]
    for o in good:
        assert set(o) == NOTATION_KEYS
        assert o["value"] == solve(o["bpn"]).value
    assert out[0]["value"] == -4 and out[2]["value"] == 1
    bad = [out[1], out[3], out[5]]
    for o in bad:
        assert set(o) == {"bpn", "error"} and o["error"]
    assert "8 fields" in out[1]["error"]
    assert "hidden" in out[3]["error"] and "sampling" in out[3]["error"]
    assert "appears twice" in out[5]["error"]
    assert "3 lines could not be solved" in res.stderr


def test_solve_stdin_all_good_exits_zero(invoke):
    res = invoke("solve", "-", input=f"{NOTATION_JSON}\n{FOUR_KINGS}\n")
    assert res.exit_code == 0, res.output
    out = [json.loads(line) for line in res.stdout.strip().splitlines()]
    assert [o["value"] for o in out] == [-4, 10000]
    assert out[1]["win"] == "a"


def test_solve_hidden_cards_is_refused_with_the_input_quoted(invoke):
    res = invoke("solve", HIDDEN)
    assert res.exit_code != 0
    assert res.stdout == ""
    assert HIDDEN in res.stderr
    assert "hidden" in res.stderr and "sampling" in res.stderr


def test_solve_hidden_cards_quotes_the_input_as_given(invoke):
    res = invoke("solve", HIDDEN_AS_IN_NOTATION)
    assert res.exit_code != 0 and "sampling" in res.stderr
    assert HIDDEN_AS_IN_NOTATION in res.stderr


def test_solve_hidden_view_is_refused(invoke):
    view = random_position(3, "brisque", 5).view("a").bpn()
    res = invoke("solve", "--json", view)
    answer = json.loads(res.stdout)  # (with --json an error is a JSON object too)
    assert res.exit_code == 2 and answer["bpn"] == view and "sampling" in answer["error"]
    assert "sampling" in res.stderr and view in res.stderr


@pytest.mark.parametrize(
    "bpn,quoted",
    [
        ("brisque AK9.97..9/7..Q9.A7 D 0", "'brisque AK9.97..9/7..Q9.A7 D 0'"),
        ("brisque AX9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35", "'AX9.97..9'"),
        ("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD c 52:35", "'c'"),
        ("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52-35", "'52-35'"),
    ],
)
def test_solve_malformed_bpn_is_refused_with_the_field_quoted(invoke, bpn, quoted):
    res = invoke("solve", bpn)
    assert res.exit_code != 0
    assert res.stdout == ""
    assert quoted in res.stderr
    assert "expected" in res.stderr


def test_solve_impossible_position_is_refused(invoke):
    bpn = "brisque AK9.97..9/A..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    res = invoke("solve", bpn)
    assert res.exit_code != 0 and res.stdout == ""
    assert bpn in res.stderr and "AS appears twice" in res.stderr


# ---------------------------------------------------------------- progress on a terminal
TRICK_8 = "brisque 7.A.Q8.AQ/J9.8.AJ.K TC 7C8CJC9D7H ATKQ8.TKQJ9.TK7.9 - a 22:39 tricks=4:3"  # (deal 1 at 8)


def _solve_on(args: list[str], tmp_path, terminal: bool) -> tuple[str, str]:
    """The real command's standard output and error, the error on a pseudo-terminal (as a
    user sees it) or a pipe."""
    import os
    import pty
    import subprocess
    import sys

    command = [sys.executable, "-m", "solver.cli", "solve", *args]
    if not terminal:
        res = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert res.returncode == 0, res.stderr
        return res.stdout, res.stderr
    main_end, terminal_end = pty.openpty()
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=terminal_end, stdin=subprocess.DEVNULL, cwd=tmp_path
    ) as proc:
        os.close(terminal_end)
        err = b""
        while True:
            try:
                chunk = os.read(main_end, 4096)
            except OSError:  # (EIO: the command closed the terminal, on its end)
                break
            if not chunk:
                break
            err += chunk
        out = proc.stdout.read().decode() if proc.stdout else ""
        assert proc.wait(timeout=120) == 0, err
    os.close(main_end)
    return out, err.decode()


@pytest.mark.parametrize("workers", [[], ["--workers", "2"]])
def test_an_exact_solve_shows_its_progress_on_a_terminal(tmp_path, workers):
    moves = len(solve(TRICK_8).moves)
    out, err = _solve_on([TRICK_8, *workers], tmp_path, terminal=True)
    assert "Value for a: +4 (exact)" in out
    shown = [part.strip() for part in err.replace("\r\n", "\n").split("\r") if part.strip()]
    assert shown[0] == f"solving: 0 of {moves} moves, 0.0 M nodes, 0 s"
    assert re.fullmatch(rf"solving: {moves} of {moves} moves, \d+\.\d M nodes, \d+ s", shown[-1])
    assert len(shown) == moves + 1  # (one a root move)
    assert err.endswith("\n")  # (the line is left as it ends, the answer below it)


@pytest.mark.parametrize(
    "args, terminal",
    [
        ([TRICK_8], False),
        ([TRICK_8, "-q"], True),
        ([TRICK_8, "--json"], True),
        ([TRICK_8, "--nodes", "500"], True),
    ],
)
def test_no_progress_off_a_terminal_with_q_json_or_a_budget(args, tmp_path, terminal):
    out, err = _solve_on(args, tmp_path, terminal)
    assert err == "" and out
    if "--json" in args:
        assert json.loads(out)["value"] == 4


def test_solve_checks_a_position_once(invoke, monkeypatch: pytest.MonkeyPatch):
    # (the solver checks the position it is given: the command does not check it first too)
    from solver.model.position import Position

    calls: list[str] = []
    problems = Position.problems

    def counted(self: Position) -> list[str]:
        calls.append(self.bpn())
        return problems(self)

    monkeypatch.setattr(Position, "problems", counted)
    fp = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    res = invoke("solve", fp)
    assert res.exit_code == 0, res.output
    assert len(calls) == 1


@pytest.mark.parametrize(
    "bpn",
    [
        "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:36",  # (the points do not add up)
        "brisque AK9.97..9/?6 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:36",  # (and a hidden hand)
    ],
)
def test_solve_says_an_impossible_position_in_its_words(invoke, bpn: str):
    res = invoke("solve", bpn)
    assert res.exit_code == 2
    assert f"Error: impossible position {bpn!r}: " in res.stderr


# ----------------------------------------------------------------------------- a face-down talon
# docs/solver.md, "The talon as chance": three face-down cards, b's heart best at -74
CHANCE = "brisque AJ.KQ.7.8/T87.A87.. JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1"
CHANCE_VIEW = "brisque AJ.KQ.7.8/?6 JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1"  # (b's hand hidden)
CHANCE_KEYS = {
    "bpn", "turn", "method", "value", "value_exact", "best", "moves", "pv", "pv_ends",
    "win", "face_down", "exact", "stopped", "nodes", "seconds",
}  # fmt: skip


def test_solve_answers_a_face_down_talon_as_chance(invoke):
    res = invoke("solve", CHANCE)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[1].startswith("Method: expectimax: the talon's order unknown to both players; every draw")
    assert "Value for b: -74 (exact" in res.stdout
    rows = lines[lines.index("Moves, best first (expected final points margin for b):") + 1 :][:6]
    assert [row.split()[0] for row in rows] == ["7H", "8H", "7S", "8S", "TS", "AH"]
    assert rows[0].endswith("best") and rows[1].endswith("best") and not rows[2].endswith("best")
    assert rows[2].split()[1:] == ["-86", "2/3", "(-86.667)"] and rows[5].split()[1:] == ["-102"]
    assert "Principal variation, up to the next draw:" in res.stdout
    assert "  9: b 7H, " in res.stdout and "then a draw of the face-down cards" in res.stdout


def test_solve_json_of_a_face_down_talon(invoke):
    res = invoke("solve", "--json", CHANCE)
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert set(d) == CHANCE_KEYS and d["bpn"] == CHANCE and d["method"] == "expectimax"
    assert d["value"] == -74 and d["value_exact"] == "-74" and d["best"] == ["7H", "8H"]
    values = {m["move"]: (m["value"], m["value_exact"]) for m in d["moves"]}
    assert values["TS"] == (-86.667, "-260/3") and values["AH"] == (-102, "-102")
    assert d["pv"][0] == "7H" and d["pv_ends"] == "draw" and d["exact"] and d["stopped"] == "solved"


def test_solve_stdin_takes_a_face_down_talon_beside_a_known_one(invoke):
    res = invoke("solve", "-", input=f"{CHANCE}\n{NOTATION_FP}\n")
    assert res.exit_code == 0, res.output
    first, second = (json.loads(line) for line in res.stdout.strip().splitlines())
    assert first["method"] == "expectimax" and first["value_exact"] == "-74" and first["pv_ends"] == "draw"
    assert set(second) == NOTATION_KEYS and second["value"] == 44  # (the double-dummy answer as before)


def test_solve_a_face_down_talon_with_a_budget(invoke):
    res = invoke("solve", "--json", "--nodes", "1", CHANCE)
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["stopped"] == "budget" and d["exact"] is False and d["value"] is None
    assert all(m["value"] is None for m in d["moves"])


@pytest.mark.parametrize(
    "args,words",
    [
        ([CHANCE_VIEW], "brisque analyse"),
        ([CHANCE, "--depth", "2"], "--depth and --quick need the talon's order"),
        ([CHANCE, "--quick"], "--depth and --quick need the talon's order"),
        ([CHANCE, "--workers", "2"], "on one thread"),
    ],
)
def test_solve_a_face_down_talon_refuses_clearly(invoke, args, words):
    res = invoke("solve", *args)
    assert res.exit_code == 2 and res.stdout == ""
    assert words in res.stderr and "Traceback" not in res.stderr
    assert isinstance(res.exception, SystemExit)


def test_solve_stdin_refuses_a_hidden_hand_beside_a_face_down_talon(invoke):
    res = invoke("solve", "-", input=f"{CHANCE_VIEW}\n{CHANCE}\n")
    assert res.exit_code == 1
    bad, good = (json.loads(line) for line in res.stdout.strip().splitlines())
    assert set(bad) == {"bpn", "error"} and "brisque analyse" in bad["error"]
    assert good["method"] == "expectimax"
