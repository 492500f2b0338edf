"""Puzzle files (.bpd): reading, writing, malformed records, check_record, the collections of
positions/ and the ``brisque puzzles`` command (text and --json)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import NOTATION_EXAMPLES, OUTSIDE, POSITIONS, run_brisque
from hypothesis import given
from hypothesis import strategies as st

import solver
from solver import Position
from solver.analysis.puzzles import check_record
from solver.engine.solving import solve
from solver.errors import (
    PuzzleError,
)
from solver.formats.bpd import OPCODES, Record, format_record, parse_record, read_bpd, write_bpd
from solver.model.moves import parse_move

COLLECTIONS = sorted(POSITIONS.glob("*.bpd"))

FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # NOTATION.md, v 44
FP_RECORD = f'{FP} ; id "fp-001" ; bm +mD 7S 9D 7C AC ; v 44'
HIDDEN_TALON = NOTATION_EXAMPLES[2]  # (the talon not empty)
HIDDEN = "brisque AK.T9.J.8/?6 9C 13 TJ..Q8.AK - a 18:12 tricks=2:1"


def record_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of every record line of a file, computed without the library."""
    out = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        t = line.strip()
        if t and not t.startswith("#"):
            out.append((no, t))
    return out


def all_records():
    out = []
    for path in COLLECTIONS:
        for item in read_bpd(str(path)):
            out.append(pytest.param(item, id=f"{path.name}:{getattr(item, 'id', 'error')}"))
    return out


# ---------------------------------------------------------------------------- parsing and writing
def test_parse_record_fields():
    r = parse_record(FP_RECORD, "x.bpd:7")
    assert r.bpn == FP
    assert r.id == "fp-001"
    assert [str(m) for m in r.moves("bm")] == ["+mD", "7S", "9D", "7C", "AC"]
    assert r.int_op("v") == 44
    assert r.source == "x.bpd:7"
    assert r.position.bpn() == FP


def test_parse_format_parse_round_trip_on_every_collection_record():
    n = 0
    for path in COLLECTIONS:
        for no, text in record_lines(path):
            r1 = parse_record(text, f"{path}:{no}")
            line = format_record(r1)
            r2 = parse_record(line, f"{path}:{no}")
            assert r2 == r1, (text, line)
            assert format_record(r2) == line  # the canonical line is a fixed point
            n += 1
    assert n >= 130


def test_format_record_is_canonical():
    """Operations come out in the order of OPCODES, whatever the input order, and the BPN
    in its canonical form."""
    text = (
        f'{HIDDEN.replace("TJ..", "JT..")} ; c1 "second" ; seed 3 ; v -2 ; id "k" ; '
        f'worlds 8 ; am AS ; bm KS ; ev -1.5 ; evtol 2 ; pv 9H ; c0 "first"'
    )
    r = parse_record(text)
    line = format_record(r)
    assert line.startswith(HIDDEN + " ; ")
    ops = [part.strip().split(" ")[0] for part in line.split(" ; ")[1:]]
    assert ops == sorted(ops, key=OPCODES.index)
    assert set(ops) == {"c1", "seed", "v", "id", "worlds", "am", "bm", "ev", "evtol", "pv", "c0"}
    assert parse_record(line) == r


def test_quoted_strings_with_semicolons():
    text = f'{FP} ; id "a;b" ; c0 "x ; y ; z" ; c9 ";" ; v 44'
    r = parse_record(text)
    assert r.ops["id"] == "a;b"
    assert r.ops["c0"] == "x ; y ; z"
    assert r.ops["c9"] == ";"
    assert r.int_op("v") == 44
    again = parse_record(format_record(r))
    assert again == r
    assert again.ops["c0"] == "x ; y ; z"


def test_blank_and_comment_lines_are_ignored(tmp_path):
    assert parse_record("") is None
    assert parse_record("   \n") is None
    assert parse_record('# a comment ; id "x"') is None
    assert parse_record("   # indented comment") is None
    f = tmp_path / "c.bpd"
    f.write_text(f'# header\n\n   \n{FP_RECORD}\n# between\n\n{FP} ; id "two"\n', encoding="utf-8")
    items = read_bpd(str(f))
    assert [type(i) for i in items] == [Record, Record]
    assert [i.id for i in items] == ["fp-001", "two"]
    assert [i.source for i in items] == [f"{f}:4", f"{f}:7"]


def test_write_then_read_gives_the_same_records(tmp_path):
    for path in COLLECTIONS:
        records = read_bpd(str(path))
        assert all(isinstance(r, Record) for r in records)
        out = tmp_path / path.name
        write_bpd(str(out), records, header="copied\n\nfrom the collections")
        text = out.read_text(encoding="utf-8").splitlines()
        assert text[:3] == ["# copied", "#", "# from the collections"]
        back = read_bpd(str(out))
        assert len(back) == len(records)
        for a, b in zip(records, back):
            assert (a.bpn, a.ops) == (b.bpn, b.ops)
            assert format_record(a) == format_record(b)


def test_round_trip_keeps_every_opcode_kind(tmp_path):
    r = Record(
        bpn=HIDDEN,
        ops={
            "id": "with ; semicolon",
            "bm": [parse_move("KS")],
            "am": [parse_move("AS")],
            "v": -7,
            "ev": -3.25,
            "evtol": 0.5,
            "pv": [parse_move("KS"), parse_move("9C")],
            "worlds": 40,
            "seed": 12345,
            "c0": "zero",
            "c9": "nine ; last",
        },
    )
    f = tmp_path / "one.bpd"
    write_bpd(str(f), [r, r])
    back = read_bpd(str(f))
    assert len(back) == 2
    for b in back:
        assert b.bpn == r.bpn and b.ops == r.ops


def test_round_trip_keeps_the_precision_of_ev():
    """parse -> format -> parse must give the same record: an ev (or evtol) with more than six
    significant digits must not be rounded by the writer."""
    r1 = parse_record(f"{HIDDEN} ; ev 12.3456789 ; evtol 0.0012345678 ; worlds 40 ; seed 1")
    r2 = parse_record(format_record(r1))
    assert r2.float_op("ev") == 12.3456789
    assert r2.float_op("evtol") == 0.0012345678
    assert r2 == r1


_text = st.text(
    st.characters(min_codepoint=32, max_codepoint=0x2FF, blacklist_characters='"\n\r'), max_size=20
).map(str.strip)


@given(
    ident=_text,
    comment=_text,
    v=st.integers(-10000, 10000),
    worlds=st.integers(1, 10**6),
    ev=st.integers(-20000, 20000).map(lambda x: x / 100),
    tol=st.integers(0, 1000).map(lambda x: x / 10),
)
def test_round_trip_property(ident, comment, v, worlds, ev, tol):
    r = Record(
        bpn=FP,
        ops={
            "id": ident,
            "bm": [parse_move("+mD"), parse_move("7S")],
            "v": v,
            "ev": ev,
            "evtol": tol,
            "worlds": worlds,
            "seed": v + 10**6,
            "c3": comment,
        },
    )
    back = parse_record(format_record(r))
    assert back.ops == r.ops
    assert back.bpn == r.bpn


# ---------------------------------------------------------------------------- malformed records
MALFORMED = {
    "bad BPN": ("brisque AK9.97..9/7..KQ9.A7 Z 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 ; v 1", "trump"),
    "bad BPN fields": ("brisque XX ; v 1", "BPN"),
    "unknown opcode": (f'{FP} ; id "u" ; foo 3', "foo"),
    "bad integer": (f"{FP} ; v forty", "v"),
    "bad float": (f"{FP} ; ev 1.2.3", "ev"),
    "bad move": (f"{FP} ; bm ZZ", "ZZ"),
    "no move": (f"{FP} ; am", "am"),
    "unquoted string": (f"{FP} ; id fp-9", "id"),
    "unterminated quote": (f'{FP} ; id "open ; v 44', "unterminated"),
    "duplicate opcode": (f"{FP} ; v 44 ; v 44", "twice"),
    "empty operation": (f"{FP} ; ; v 44", "empty"),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_parse_record_refuses_malformed(kind):
    text, word = MALFORMED[kind]
    with pytest.raises(PuzzleError) as exc:
        parse_record(text, "bad.bpd:12")
    msg = str(exc.value)
    assert msg.startswith("bad.bpd:12: "), msg
    assert word.lower() in msg.lower(), msg


def test_unquoted_string_error_says_a_quoted_string_is_expected():
    with pytest.raises(PuzzleError) as exc:
        parse_record(f"{FP} ; c2 hello", "f.bpd:1")
    msg = str(exc.value)
    assert "quoted string" in msg
    assert "expected moves" not in msg, f"misleading message for a string operand: {msg}"


def _mixed_file(tmp_path) -> tuple[Path, list[int], list[str]]:
    """Good records from the collection around one line of every malformed kind."""
    good = [text for _, text in record_lines(POSITIONS / "brisque-endgames.bpd")[:3]]
    lines = ["# mixed file", "", good[0]]
    bad_lines = []
    for kind in sorted(MALFORMED):
        lines.append(MALFORMED[kind][0])
        bad_lines.append(len(lines))
    lines += ["", good[1], "# comment", good[2]]
    f = tmp_path / "mixed.bpd"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ids = [parse_record(t).id for t in good]
    return f, bad_lines, ids


def test_read_bpd_reports_errors_in_place_and_keeps_the_others(tmp_path):
    f, bad_lines, ids = _mixed_file(tmp_path)
    items = read_bpd(str(f))
    assert len(items) == 3 + len(MALFORMED)
    errors = [i for i in items if isinstance(i, PuzzleError)]
    records = [i for i in items if isinstance(i, Record)]
    assert len(errors) == len(MALFORMED)
    for err, no in zip(errors, bad_lines):
        assert str(err).startswith(f"{f}:{no}: "), str(err)
    assert [r.id for r in records] == ids
    assert isinstance(items[0], Record) and isinstance(items[-1], Record)
    for r in records:
        assert check_record(r).ok


def test_cli_puzzles_runs_the_other_records(invoke, tmp_path):
    f, bad_lines, ids = _mixed_file(tmp_path)
    res = invoke("puzzles", "-q", f)
    assert res.exit_code == 1
    out = res.stdout.splitlines()
    errors = [ln for ln in out if ln.startswith("ERROR")]
    assert len(errors) == len(MALFORMED)
    for ln, no in zip(errors, bad_lines):
        assert f"{f}:{no}:" in ln, ln
    oks = [ln for ln in out if ln.startswith("ok")]
    assert [ln.split()[1] for ln in oks] == ids
    total = 3 + len(MALFORMED)
    assert out[-1] == f"3 of {total} solved, {len(MALFORMED)} unreadable"


def test_cli_puzzles_json_with_errors(invoke, tmp_path):
    f, bad_lines, ids = _mixed_file(tmp_path)
    res = invoke("puzzles", "--json", f)
    assert res.exit_code == 1
    objs = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert objs[-1] == {
        "summary": True,
        "solved": 3,
        "total": 3 + len(MALFORMED),
        "unchecked": 0,
        "failed": 0,
        "unreadable": len(MALFORMED),
    }
    body = objs[:-1]
    assert len(body) == 3 + len(MALFORMED)
    assert [o["id"] for o in body if o["ok"]] == ids
    errs = [o for o in body if not o["ok"]]
    assert len(errs) == len(MALFORMED)
    for o, no in zip(errs, bad_lines):
        assert f"{f}:{no}:" in o["error"]


def test_cli_puzzles_impossible_position_is_a_failure_not_a_crash(invoke, tmp_path):
    """A well-formed but impossible position must be reported (FAIL) and counted; the
    command must not die with a traceback."""
    impossible = FP.replace("TKQJ8 - b", "TKQ8 - b")  # the jack of clubs is nowhere
    assert Position(impossible).problems()
    f = tmp_path / "imp.bpd"
    f.write_text(f'{FP_RECORD}\n{impossible} ; id "imp" ; v 44\n', encoding="utf-8")
    verdict = check_record(read_bpd(str(f))[1])
    assert not verdict.ok and "impossible" in verdict.failures[0]
    res = invoke("puzzles", "-q", f)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code == 1
    out = res.stdout.splitlines()
    assert out[0].startswith("ok") and "fp-001" in out[0]
    assert any("imp" in ln and not ln.startswith("ok") for ln in out[1:-1])
    assert out[-1] == "1 of 2 solved, 1 failed"


def test_cli_puzzles_lines_up_long_ids(invoke, tmp_path):
    f = tmp_path / "ids.bpd"
    long_id = "brisque-endgame-with-a-long-name-0042"
    records = [FP_RECORD, FP_RECORD.replace("fp-001", long_id), FP_RECORD.replace("v 44", "v 45")]
    f.write_text("\n".join(records) + "\n", encoding="utf-8")
    res = invoke("puzzles", "-q", f)
    lines = res.stdout.splitlines()[:3]
    assert [ln.split()[:2] for ln in lines] == [["ok", "fp-001"], ["ok", long_id], ["FAIL", "fp-001"]]
    assert len({ln.index(" value ") for ln in lines}) == 1, lines  # (one column, after the longest id)
    assert f"{long_id} value" in lines[1]


# ---------------------------------------------------------------------------- check_record
def _first(name: str) -> Record:
    return read_bpd(str(POSITIONS / name))[0]


def test_check_record_accepts_the_notation_example():
    v = check_record(parse_record(FP_RECORD))
    assert v.ok, v.failures
    assert v.answer.value == 44


def test_check_record_detects_a_wrong_bm():
    r = _first("brisque-endgames.bpd")
    a = solve(r.position)
    worse = next(mv.move for mv in a.moves if mv.value < a.value)
    r.ops["bm"] = [worse]
    v = check_record(r)
    assert not v.ok
    assert len(v.failures) == 1 and v.failures[0].startswith(f"bm {worse}")


def test_check_record_detects_an_am_that_is_best():
    r = _first("brisque-endgames.bpd")
    best = r.moves("bm")[0]
    r.ops["am"] = [best]
    v = check_record(r)
    assert not v.ok
    assert v.failures == [f"am {best}: it is a best move"]
    a = solve(r.position)
    r.ops["am"] = [next(mv.move for mv in a.moves if mv.value < a.value)]
    assert check_record(r).ok


def test_check_record_detects_a_wrong_v():
    r = _first("petite-deals.bpd")
    right = r.int_op("v")
    r.ops["v"] = right + 1
    v = check_record(r)
    assert not v.ok
    assert v.failures == [f"v {right + 1}: the value is {right}"]


def test_check_record_detects_an_ev_outside_evtol():
    r = _first("hidden-cards.bpd")
    ev, tol = r.float_op("ev"), r.float_op("evtol")
    value = check_record(r).answer.value
    assert abs(value - ev) <= tol
    r.ops["ev"] = value + tol + 1.0
    bad = check_record(r)
    assert not bad.ok
    assert len(bad.failures) == 1 and bad.failures[0].startswith("ev ")
    r.ops["ev"] = value - tol / 2
    assert check_record(r).ok
    r.ops["ev"] = value - tol - 0.5
    assert not check_record(r).ok


def test_check_record_reports_every_failure_at_once():
    r = _first("brisque-endgames.bpd")
    best = r.moves("bm")[0]
    r.ops["am"] = [best]
    r.ops["v"] = r.int_op("v") - 3
    v = check_record(r)
    assert not v.ok and len(v.failures) == 2


# ---------------------------------------------------------------------------- the collections
def test_the_collections_exist():
    names = {p.name for p in COLLECTIONS}
    assert {
        "brisque-endgames.bpd",
        "briscan-endgames.bpd",
        "petite-deals.bpd",
        "double-dummy.bpd",
        "hidden-cards.bpd",
    } <= names


@pytest.mark.parametrize("path", COLLECTIONS, ids=[p.name for p in COLLECTIONS])
def test_collection_file_is_well_formed(path):
    items = read_bpd(str(path))
    errors = [str(i) for i in items if isinstance(i, PuzzleError)]
    assert not errors
    assert len(items) == len(record_lines(path))
    ids = [r.id for r in items]
    assert len(set(ids)) == len(ids), "duplicate ids"
    for r in items:
        assert "id" in r.ops and r.moves("bm"), r.source
        assert not r.position.problems(), (r.source, r.position.problems())
        assert not r.position.is_over()
        legal = {int(m) for m in r.position.legal_moves()} if not r.position.has_hidden else None
        if legal is not None:
            assert {int(m) for m in r.moves("bm")} <= legal
        if r.moves("pv"):  # the principal variation replays from the position
            q = r.position.copy()
            for m in r.moves("pv"):
                assert q.is_legal(m), (r.source, str(m))
                q.push(m)


@pytest.mark.parametrize("record", all_records())
def test_every_collection_record_checks(record):
    assert isinstance(record, Record), str(record)
    verdict = check_record(record)
    assert verdict.ok, (record.source, verdict.failures)
    assert verdict.checked  # (every bundled record states what to check: no free "solved")
    if not record.position.has_hidden:  # and independently of check_record
        a = solve(record.position)
        assert a.value == record.int_op("v")
        assert {int(m) for m in record.moves("bm")} <= {int(m) for m in a.best}


def _kinds(name: str) -> list[Record]:
    return read_bpd(str(POSITIONS / name))


def test_brisque_endgames_are_sixty_final_phase_positions():
    recs = _kinds("brisque-endgames.bpd")
    assert all(r.position.rules.game == "brisque" for r in recs)
    final = [r for r in recs if r.position.in_final_phase]
    not_final = [r.id for r in recs if not r.position.in_final_phase]
    assert len(final) >= 60 and not not_final, (
        f"{len(final)} final-phase records; not in the final phase (turnup still on the table, "
        f"Brisque's last-pickup window): {not_final}"
    )
    assert all(r.int_op("v") is not None and not r.position.has_hidden for r in recs)


def test_briscan_endgames():
    recs = _kinds("briscan-endgames.bpd")
    assert len(recs) >= 20
    for r in recs:
        p = r.position
        assert p.rules.game == "briscan"
        assert p.in_final_phase and p.turnup < 0 and p.talon_count == 0
        assert not p.has_hidden and r.int_op("v") is not None


def test_petite_deals():
    recs = _kinds("petite-deals.bpd")
    assert len(recs) >= 10
    for r in recs:
        p = r.position
        assert p.rules.game == "petite"
        assert p.trick_number == 1 and p.out == 0  # whole deals, from the first lead
        assert not p.has_hidden and r.int_op("v") is not None


def test_double_dummy_talon_phase_positions():
    recs = _kinds("double-dummy.bpd")
    assert len(recs) >= 20
    for r in recs:
        p = r.position
        assert p.rules.game == "brisque"
        assert p.turnup >= 0 and p.talon_count > 0  # talon phase
        assert p.talon is not None and len(p.talon) == p.talon_count  # order known
        assert not p.has_hidden and r.int_op("v") is not None
        assert not r.bpn.split()[3].isdigit()


def test_hidden_card_positions():
    recs = _kinds("hidden-cards.bpd")
    assert len(recs) >= 20
    for r in recs:
        p = r.position
        assert p.has_hidden
        assert p.unknown[0] + p.unknown[1] > 0 or p.talon is None
        for op in ("ev", "evtol", "worlds", "seed"):
            assert op in r.ops, (r.id, op)
        assert r.float_op("evtol") > 0 and r.int_op("worlds") >= 1


@pytest.fixture(scope="module")
def cli_all(invoke):
    return invoke("puzzles", "-q", *COLLECTIONS)


def test_cli_puzzles_on_every_collection(cli_all):
    total = sum(len(record_lines(p)) for p in COLLECTIONS)
    assert total >= 130
    assert cli_all.exit_code == 0, cli_all.stdout[-2000:]
    out = cli_all.stdout.splitlines()
    assert out[-1] == f"{total} of {total} solved"
    body = out[:-1]
    assert len(body) == total
    assert all(ln.startswith("ok ") for ln in body)
    expected_ids = [parse_record(t).id for p in COLLECTIONS for _, t in record_lines(p)]
    assert [ln.split()[1] for ln in body] == expected_ids


@pytest.mark.parametrize("path", COLLECTIONS, ids=[p.name for p in COLLECTIONS])
def test_cli_puzzles_json_one_object_per_record(invoke, path):
    res = invoke("puzzles", "--json", path)
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    n = len(record_lines(path))
    assert len(lines) == n + 1
    objs = [json.loads(ln) for ln in lines]
    assert objs[-1] == {
        "summary": True,
        "solved": n,
        "total": n,
        "unchecked": 0,
        "failed": 0,
        "unreadable": 0,
    }
    records = read_bpd(str(path))
    for o, r in zip(objs[:-1], records):
        assert o["id"] == r.id and o["bpn"] == r.bpn and o["ok"] is True and o["failures"] == []
        assert o["source"] == r.source
        assert o["method"] == ("pimc" if r.position.has_hidden else "exact")
        assert {str(m) for m in r.moves("bm")} <= set(o["best"])
        if r.int_op("v") is not None:
            assert o["value"] == r.int_op("v")
        else:
            assert abs(o["value"] - r.float_op("ev")) <= r.float_op("evtol") + 1e-9


def test_cli_puzzles_failure_line_and_exit_code(invoke, tmp_path):
    f = tmp_path / "wrong.bpd"
    f.write_text(f'{FP} ; id "wrong" ; v 45\n{FP_RECORD}\n', encoding="utf-8")
    res = invoke("puzzles", "-q", f)
    assert res.exit_code == 1
    out = res.stdout.splitlines()
    assert out[0].startswith("FAIL") and "wrong" in out[0] and "v 45: the value is 44" in out[0]
    assert out[1].startswith("ok")
    assert out[-1] == "1 of 2 solved, 1 failed"


def test_cli_puzzles_keeps_its_columns_however_many_best_moves(invoke, tmp_path):
    """The best moves number from one to a whole hand and its declarations: they come last,
    so that a line with five or more of them (b's five here: 15 characters) pushes no column
    out of line; a 14-wide best column before the value did."""
    few = next(r for r in read_bpd(str(POSITIONS / "brisque-endgames.bpd")) if len(solve(r.bpn).best) == 1)
    f = tmp_path / "best.bpd"
    records = [FP_RECORD, format_record(few), FP_RECORD.replace("v 44", "v 45")]
    f.write_text("\n".join(records) + "\n", encoding="utf-8")
    lines = invoke("puzzles", "-q", f).stdout.splitlines()[:3]
    assert [ln.split()[0] for ln in lines] == ["ok", "ok", "FAIL"]
    assert len({ln.index(" value ") for ln in lines}) == 1, lines
    assert len({ln.index(" best ") for ln in lines}) == 1, lines
    assert lines[0].endswith(" value +44     best 7S 9D 7C AC +mD"), lines[0]
    assert lines[2].endswith(f"best 7S 9D 7C AC +mD  {f}:3: v 45: the value is 44"), lines[2]


def _line_within(stream, seconds: float) -> str | None:
    """The next line of ``stream`` if it comes within ``seconds``, else None."""
    import select

    ready, _, _ = select.select([stream], [], [], seconds)
    return stream.readline() if ready else None


def test_cli_puzzles_from_a_pipe_answers_each_record_before_the_input_ends(tmp_path):
    """``brisque puzzles -`` checks each record as it is read: a pipe that writes one record
    and waits gets that record's line at once (it used to read to the end first, to size the
    id column); a longer id later widens the column from there on."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "puzzles", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(f'{FP} ; id "one" ; v 44\n')
        proc.stdin.flush()
        first = _line_within(proc.stdout, 60)  # (stdin still open: the pipe has not ended)
        assert first is not None, "no line before the end of the input"
        assert first.split() == ["ok", "one", "value", "+44", "best", "7S", "9D", "7C", "AC", "+mD"]
        assert first.index(" value ") == len("ok    ") + 10  # (the id column: 10 wide)
        long_id = "a-record-with-a-long-identifier"
        more = f'not a record\n{FP} ; id "{long_id}" ; v 45\n{FP} ; id "two" ; bm +mD\n'
        out, err = proc.communicate(more, timeout=120)  # (and the end of the input)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    rest = out.splitlines()
    assert rest[0].startswith("ERROR  stdin:2: bad BPN 'not a record'")
    assert rest[1].startswith(f"FAIL  {long_id} value +44 ") and rest[1].endswith("v 45: the value is 44")
    assert rest[2].startswith("ok    two ") and rest[2].index(" value ") == rest[1].index(" value ")
    assert (
        rest[-1] == "2 of 4 solved, 1 failed, 1 unreadable"
        and proc.returncode == 1
        and "Traceback" not in err
    )


def test_check_records_with_an_executor_gives_each_verdict_before_the_next_record_is_read():
    """With an executor, records from an iterator (a pipe) are read and sent in a thread:
    the first verdict comes while the reader still waits for the second record."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from solver.analysis.puzzles import check_records

    released = threading.Event()
    bad = PuzzleError("stdin:2: not a record")

    def records():
        yield parse_record(f'{FP} ; id "one" ; v 44')
        yield bad
        assert released.wait(60), "the first verdict waited for the next record"
        yield parse_record(f'{FP} ; id "two" ; v 45')

    seen = []
    with ThreadPoolExecutor(2) as pool:
        verdicts = check_records(records(), executor=pool, before=lambda r: seen.append(r.id))
        r, v = next(verdicts)
        assert not released.is_set() and r.id == "one" and v.ok
        assert next(verdicts) == (bad, "stdin:2: not a record")
        released.set()
        (r, v), *more = list(verdicts)
    assert r.id == "two" and not v.ok and more == []
    assert seen == ["one", "two"]


def test_a_file_name_that_is_not_utf8_is_quoted_as_its_byte_in_json(tmp_path):
    """A record's ``source`` is the file's name: an undecodable byte of it is written as the
    text ``\\xff`` (as in error messages), not as a lone surrogate a strict reader refuses."""
    import subprocess
    import sys

    name = b"p\xff.bpd"
    (tmp_path / os.fsdecode(name)).write_text(
        "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35 ; v -4\nnonsense\n"
    )
    proc = subprocess.run(
        [sys.executable.encode(), b"-m", b"solver.cli", b"puzzles", b"--json", name],
        cwd=tmp_path,
        capture_output=True,
    )
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout.decode("utf-8")  # (strict: every byte valid)
    objs = [json.loads(ln) for ln in out.splitlines()]
    sources = [o["source"] for o in objs if "source" in o]
    assert sources == ["p\\xff.bpd:1", "p\\xff.bpd:2"]
    for o in objs:
        json.dumps(o, ensure_ascii=False).encode("utf-8")  # no lone surrogate anywhere


# ---------------------------------------------------------------------------- messages a user acts on
HC_001 = "brisque ?6/J.8.K8.KQ 7D 1 AK97.ATKQJ97.A9.AJ987 - b 41:28 tricks=5:4 exchanged=b taken=KD"
# (every consistent world enumerated: +mC -37.43, JS -58.00)

# the first bytes of an ELF program: NUL bytes, and bytes that are not UTF-8 on many lines
BINARY = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x03\x00>\x00" + b"\xd0\xff\n\x80\x00\n" * 200


def test_a_binary_file_is_one_error_and_the_other_files_still_run(invoke, tmp_path):
    """A program given by mistake (``brisque puzzles /bin/ls``) is one "not a text file"
    error naming the file, not an error for every "line" of it; the other files are checked
    and the exit status says something went wrong."""
    binary = tmp_path / "program"
    binary.write_bytes(BINARY)
    good = tmp_path / "good.bpd"
    good.write_text(FP_RECORD + "\n", encoding="utf-8")
    assert [str(e) for e in read_bpd(str(binary))] == [
        f"{binary}:1: not a text file (it holds a NUL byte): expected UTF-8 text, one puzzle "
        "record a line, 'BPN ; op operand ; ...'"
    ]
    res = invoke("puzzles", "-q", binary, good)
    out = res.stdout.splitlines()
    assert res.exit_code == 1
    assert [ln for ln in out if ln.startswith("ERROR")] == [out[0]]
    assert out[0].startswith(f"ERROR  {binary}:1: not a text file")
    assert out[1].startswith("ok    fp-001")
    assert out[-1] == "1 of 2 solved, 1 unreadable"


def test_a_binary_standard_input_is_one_error():
    """Read as it comes (``-``), the records before the first NUL byte are checked, then one
    error ends the input."""
    import subprocess
    import sys

    data = f"{FP_RECORD}\n".encode() + BINARY
    proc = subprocess.run(
        [sys.executable, "-m", "solver.cli", "puzzles", "-"],
        input=data,
        capture_output=True,
        timeout=120,
        cwd=tempfile.gettempdir(),  # (from the checkout, python -m would find the unbuilt source)
    )
    out = proc.stdout.decode().splitlines()
    assert out[0].startswith("ok    fp-001")
    assert out[1].startswith("ERROR  stdin:2: not a text file")
    assert out[2:] == ["1 of 2 solved, 1 unreadable"] and proc.returncode == 1


def test_cli_puzzles_fail_lines_give_file_and_line(invoke, tmp_path):
    f = tmp_path / "wrong.bpd"
    impossible = FP.replace("TKQJ8 - b", "TKQ8 - b")
    f.write_text(f'{FP_RECORD}\n{FP} ; id "wrong" ; v 45\n{impossible} ; id "imp" ; v 44\n', encoding="utf-8")
    out = invoke("puzzles", "-q", f).stdout.splitlines()
    assert out[1].startswith("FAIL  wrong ")
    assert out[1].endswith(f"best 7S 9D 7C AC +mD  {f}:2: v 45: the value is 44"), out[1]
    assert out[2].startswith("FAIL  imp ") and f"  {f}:3: impossible position: " in out[2], out[2]


def test_a_malformed_record_is_named_by_its_id_when_it_can_be_read(invoke, tmp_path):
    with pytest.raises(PuzzleError) as exc:
        parse_record(f'{FP} ; id "fp-9" ; v forty', "f.bpd:3")
    assert exc.value.id == "fp-9"
    assert str(exc.value).startswith("f.bpd:3: record \"fp-9\": bad operand for v 'forty'")
    with pytest.raises(PuzzleError) as exc:  # (an id that does not parse: no id to give)
        parse_record(f"{FP} ; id fp-9 ; v 44", "f.bpd:3")
    assert exc.value.id is None and str(exc.value).startswith("f.bpd:3: operation id 'fp-9'")
    f = tmp_path / "bad.bpd"
    f.write_text(f'{FP_RECORD}\nbrisque XX ; id "broken" ; v 1\n{FP} ; v 44 ; v 44\n', encoding="utf-8")
    out = invoke("puzzles", "-q", f).stdout.splitlines()
    assert out[1].startswith(f'ERROR  {f}:2: record "broken": bad BPN')
    assert out[2].startswith(f"ERROR  {f}:3: opcode v given twice")
    objs = [json.loads(ln) for ln in invoke("puzzles", "--json", f).stdout.splitlines()]
    assert [(o["id"], o["source"]) for o in objs[1:3]] == [("broken", f"{f}:2"), (None, f"{f}:3")]


def test_the_summary_tells_failed_records_from_unreadable_ones(invoke, tmp_path):
    f = tmp_path / "mixed.bpd"
    f.write_text(
        f"{FP_RECORD}\n{FP} ; v 45\nnot a record\n{FP} ; v 44 ; v 44\n{FP} ; v 44\n", encoding="utf-8"
    )
    res = invoke("puzzles", "-q", f)
    assert res.exit_code == 1
    assert res.stdout.splitlines()[-1] == "2 of 5 solved, 1 failed, 2 unreadable"
    summary = json.loads(invoke("puzzles", "--json", f).stdout.splitlines()[-1])
    assert summary == {"summary": True, "solved": 2, "total": 5, "unchecked": 0, "failed": 1, "unreadable": 2}


def test_a_bm_that_is_not_best_gives_its_value_against_the_best():
    v = check_record(parse_record(f"{FP} ; bm KD"))
    assert v.failures == ["bm KD: KD is worth +4, the best moves 7S 9D 7C AC +mD are worth +44"]
    v = check_record(parse_record(f"{HC_001} ; bm JS ; worlds 40 ; seed 48"))
    assert v.failures == ["bm JS: JS is worth -58.00, the best move +mC -37.43"]


def test_a_trailing_semicolon_ends_a_record():
    """EPD records end with ';': the empty operation after a last ';' is ignored; two ';' in
    a row are still an error."""
    assert parse_record(FP_RECORD + " ;", "x.bpd:1") == parse_record(FP_RECORD, "x.bpd:1")
    assert parse_record(FP_RECORD + ";") == parse_record(FP_RECORD)
    assert parse_record(FP + " ;").ops == {}
    with pytest.raises(PuzzleError, match="empty operation"):
        parse_record(f"{FP} ; ; v 44")


def test_a_duplicate_id_is_warned_of_with_both_places(invoke, tmp_path):
    a, b = tmp_path / "a.bpd", tmp_path / "b.bpd"
    a.write_text(f"# one\n{FP_RECORD}\n", encoding="utf-8")
    b.write_text(f'{FP} ; id "other" ; v 44\n{FP_RECORD}\n', encoding="utf-8")
    res = invoke("puzzles", "-q", a, b)
    assert res.exit_code == 0  # (a warning: both records are checked, and hold)
    assert res.stderr.splitlines() == [f'warning: id "fp-001" at {b}:2 was already given at {a}:2']
    assert res.stdout.splitlines()[-1] == "3 of 3 solved"
    objs = [json.loads(ln) for ln in invoke("puzzles", "--json", a, b).stdout.splitlines()]
    assert "duplicate_of" not in objs[0] and "duplicate_of" not in objs[1]
    assert objs[2]["duplicate_of"] == f"{a}:2"


def test_a_pipe_given_as_a_file_is_read(tmp_path):
    """``brisque puzzles <(...)`` names a pipe: looking for a NUL byte must not need to seek
    back to its start."""
    import threading

    fifo = tmp_path / "pipe.bpd"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w", encoding="utf-8") as f:
            f.write(FP_RECORD + "\n")

    writer = threading.Thread(target=write)
    writer.start()
    try:
        items = read_bpd(str(fifo))
    finally:
        writer.join(timeout=30)
    assert [(type(i).__name__, i.id) for i in items] == [("Record", "fp-001")]


@pytest.mark.parametrize(
    "operation, message",
    [
        (
            "v 4.5",
            "bad operand for v '4.5': '4.5' is not a whole number: expected a whole number from -10000 to 10000",
        ),
        (
            "worlds x",
            "bad operand for worlds 'x': 'x' is not a whole number: expected a whole number from 1 to",
        ),
        ("ev abc", "bad operand for ev 'abc': 'abc' is not a number: expected a number such as -37.43"),
        ("ev inf", "bad operand for ev 'inf': 'inf' is not a finite number"),
    ],
)
def test_a_bad_number_operand_says_once_what_was_expected(operation, message):
    bpn = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    with pytest.raises(PuzzleError) as err:
        parse_record(f"{bpn} ; {operation}")
    assert str(err.value).startswith(message)
    assert str(err.value).count("expected") <= 1 and "convert" not in str(err.value)


RECORD = {
    "pair": 0,
    "deal_seed": 0,
    "first_at": "a",
    "players": ["random", "greedy"],
    "start": "brisque AKJ..QJ.K/7.T9.K8.9 JC AD9STDQS8CTS9DJHTC8HQHAH7D7H8SKHQCAC7C - - a 0:0",
    "moves": ["KS", "7S"],
}


VIEW = "brisque ?6/TJ97.Q.8. QC AH A8.TKJ97.TKQJ97.AKJ98 - b 29:34 tricks=4:5"


HIDDEN_SAMPLED = "brisque ?6/J.8.K8.KQ 7D 1 AK97.ATKQJ97.A9.AJ987 - b 41:28 tricks=5:4 exchanged=b taken=KD"


SAMPLING = "worlds 40 ; seed 48"  # (its sampled value: -37.4286, printed -37.43)


def _failures(ops: str) -> list[str]:
    from solver.analysis.puzzles import check_record

    return check_record(parse_record(f"{HIDDEN_SAMPLED} ; {ops}")).failures


GOOD = "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35"


def test_errors_inside_a_record_name_the_file_and_the_record(invoke, tmp_path):
    bad = [dict(RECORD, start="foo"), dict(RECORD, moves=["ZZ"]), dict(RECORD, moves=["KS", "AS"])]
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in bad), encoding="utf-8")
    for k, words in enumerate(["bad BPN 'foo'", "bad move 'ZZ'", "move 2 (AS) is not legal"], 1):
        r = invoke("line", "--record", path, "--deal", k, "-q")
        assert r.exit_code == 2 and f"{path}: record {k}: {words}" in r.stderr, r.output


def test_a_puzzle_takes_the_engines_line_with_the_exchange(brisque, tmp_path: Path):
    (tmp_path / "x.bpd").write_text(f'{VIEW} ; id "pv-x" ; pv 7S x\n')
    r = brisque("puzzles", "x.bpd", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok") and "1 of 1 solved" in r.stdout


@pytest.mark.parametrize(
    ("operand", "op", "expected"),
    [("v +44", "v", 44), ("ev +44.5", "ev", 44.5), ("evtol +0.5", "evtol", 0.5), ("worlds +3", "worlds", 3)],
)
def test_a_leading_plus_is_accepted(operand, op, expected):
    r = parse_record(f"{FP} ; {operand}")
    assert r.ops[op] == expected


@pytest.mark.parametrize("operand", ["v ++44", "v +-4", "v +"])
def test_a_plus_sign_without_a_number_is_still_refused(operand):
    with pytest.raises(PuzzleError, match="expected a whole number"):
        parse_record(f"{FP} ; {operand}")


def test_a_signed_whole_number_is_never_said_not_to_be_one():
    from solver.model.ranges import whole_number

    with pytest.raises(ValueError) as e:
        whole_number("+44", 0, 100)  # (where no '+' is taken: BPN's numbers)
    assert "not a whole number" not in str(e.value) and "'+' sign" in str(e.value)


def test_puzzles_checks_a_signed_v(brisque, tmp_path):
    (tmp_path / "p.bpd").write_text(f'{FP} ; id "plus" ; v +44\n{FP} ; id "minus" ; v -44\n')
    r = brisque("puzzles", "p.bpd", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("ok    plus"), lines
    assert lines[1].startswith("FAIL  minus") and "v -44: the value is 44" in lines[1], lines
    assert "Traceback" not in r.stderr


def test_the_printed_ev_passes_without_evtol():
    from solver.analysis.puzzles import check_record

    v = check_record(parse_record(f"{HIDDEN_SAMPLED} ; ev -37.43 ; {SAMPLING}"))
    assert v.ok and v.checked and f"{v.answer.value:+.2f}" == "-37.43", v.failures
    assert abs(v.answer.value - -37.43) > 1e-3  # (not equal: it passes by rounding)


@pytest.mark.parametrize(
    ("ops", "failure"),
    [
        ("ev -37.42", "ev -37.42 at 2 decimals: the expected value is -37.43"),
        ("ev -37.430", "ev -37.430 at 3 decimals: the expected value is -37.429"),
        ("ev -37.43 ; evtol 0", "ev -37.43 +- 0: the expected value is -37.429"),
        ("ev -37.4 ; evtol 0.01", "ev -37.4 +- 0.01: the expected value is -37.43"),
        ("ev -38", "ev -38 at 0 decimals: the expected value is -37.43"),
    ],
)
def test_ev_fails_at_its_precision_or_evtol(ops, failure):
    assert _failures(f"{ops} ; {SAMPLING}") == [failure]


def test_explicit_evtol_keeps_its_meaning():
    assert _failures(f"ev -37.43 ; evtol 0.01 ; {SAMPLING}") == []
    assert _failures(f"ev -37 ; evtol 0.5 ; {SAMPLING}") == []


def test_ev_precision_survives_a_round_trip():
    from solver.formats.bpd import format_record

    r = parse_record(f"{HIDDEN_SAMPLED} ; ev -37.430 ; evtol +0.50")
    assert "ev -37.430 ; evtol 0.50" in format_record(r)
    assert parse_record(format_record(r)).decimals("ev") == 3


def test_v_on_a_sampled_record_fails_saying_to_use_ev():
    (failure,) = _failures("v -37")
    assert failure.startswith("v -37: v is the exact value") and "hidden cards" in failure
    assert "use ev" in failure and "-37.43" in failure and "-37.428" not in failure


def test_puzzles_cli_on_the_reported_file(brisque, tmp_path):
    (tmp_path / "h.bpd").write_text(
        f'{HIDDEN_SAMPLED} ; id "h-noevtol" ; ev -37.43 ; {SAMPLING}\n{HIDDEN_SAMPLED} ; id "h-v" ; v -37\n'
    )
    r = brisque("puzzles", "h.bpd", cwd=tmp_path)
    lines = r.stdout.splitlines()
    assert r.returncode == 1 and lines[0].startswith("ok    h-noevtol"), (r.stdout, r.stderr)
    assert lines[1].startswith("FAIL  h-v") and "v is the exact value" in lines[1]
    assert lines[-1] == "1 of 2 solved, 1 failed" and "Traceback" not in r.stderr


@pytest.mark.parametrize("ev", ["1e300", "-1e-40", "1_000.5"])
def test_an_ev_in_any_float_form_is_checked_and_quoted_as_written(ev):
    (failure,) = _failures(f"ev {ev} ; {SAMPLING}")
    assert failure.startswith(f"ev {ev} at ") and len(failure) < 120, failure


def test_an_unreadable_record_gives_its_source_in_json(brisque, tmp_path):
    # {"ok": false, "error": ...} had the file and line only inside the message, so that a
    # script could not line it up with the records as it can the others (their "source")
    path = tmp_path / "mine.bpd"
    path.write_bytes(
        b"# composed\n"
        + FP.encode()
        + b' ; id "one" ; v 44\n'
        + FP.encode()
        + b' ; id "two" ; v x\n'
        + FP.encode()
        + b' ; id "caf\xe9" ; v 44\n'
        + FP.encode()
        + b' ; id "four" ; v 44\n'
    )
    res = brisque("puzzles", str(path), "--json")
    assert res.returncode == 1
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r.get("source") for r in rows[:-1]] == [f"{path}:{n}" for n in (2, 3, 4, 5)]
    assert [r["ok"] for r in rows[:-1]] == [True, False, False, True]
    assert "v 'x'" in rows[1]["error"] and "not UTF-8" in rows[2]["error"]
    assert rows[-1] == {
        "summary": True,
        "solved": 2,
        "total": 4,
        "unchecked": 0,
        "failed": 0,
        "unreadable": 2,
    }


def test_puzzle_files_answer_every_good_record(brisque, tmp_path):
    bpd = tmp_path / "mixed.bpd"
    bpd.write_bytes(
        b"\xef\xbb\xbf"
        + GOOD.encode()
        + b" ; v -4\n"  # a byte-order mark first
        + GOOD.encode()
        + b' ; id "caf\xe9"\n'  # latin-1
        + GOOD.replace("brisque", "brisque(game=petite)", 1).encode()
        + b" ; v -4\n"
        + GOOD.encode()
        + b" ; ev nan\n"
        + GOOD.encode()
        + b" ; ev inf ; evtol inf\n"
        + GOOD.encode()
        + b" ; bm 9S\n"
    )
    items = read_bpd(str(bpd))
    assert [type(i).__name__ for i in items] == [
        "Record",
        "PuzzleError",
        "PuzzleError",
        "PuzzleError",
        "PuzzleError",
        "Record",
    ]
    assert "not UTF-8" in str(items[1]) and "finite" in str(items[3]) and "finite" in str(items[4])
    res = brisque.raw("puzzles", str(bpd), cwd=tmp_path)
    assert res.returncode == 1 and b"Traceback" not in res.stderr
    assert b"2 of 6 solved, 4 unreadable" in res.stdout


def test_an_empty_puzzle_file_is_an_error(brisque, tmp_path):
    empty = tmp_path / "empty.bpd"
    empty.write_text("# nothing here\n")
    res = brisque.raw("puzzles", str(empty), cwd=tmp_path)
    assert res.returncode == 2 and b"no puzzle records" in res.stderr and b"Traceback" not in res.stderr


@pytest.mark.parametrize("operand", ["ev nan", "evtol nan", "ev inf ; evtol inf", "ev -inf"])
def test_non_finite_puzzle_operands_are_refused(operand):
    with pytest.raises(PuzzleError, match="finite"):
        parse_record(f"{GOOD} ; {operand}")


def test_a_bm_that_is_illegal_says_so():
    v = check_record(parse_record(f"{FP} ; bm AH"))
    assert not v.ok and v.failures == ["bm AH: illegal in this position (legal: 7S 9D QD KD 7C AC +mD)"]
    v = check_record(parse_record(f"{FP} ; am AH ; bm QD"))
    assert v.failures[0].startswith("bm QD: QD is worth +4, the best moves") and v.failures[1].startswith(
        "am AH: illegal"
    )


def test_the_engine_pv_passes_and_a_shorter_one_too():
    a = solver.solve(FP)
    line = " ".join(str(m) for m in a.pv)
    assert check_record(parse_record(f"{FP} ; pv {line}")).ok
    assert check_record(parse_record(f"{FP} ; pv {' '.join(line.split()[:3])}")).ok


def test_an_illegal_pv_move_is_reported_where_it_is():
    v = check_record(parse_record(f"{FP} ; v 44 ; pv +mD AC AC"))
    assert v.failures == ["pv move 3 AC: illegal after +mD AC (legal: 9C)"]  # (a must follow in clubs)


def test_a_pv_move_that_is_not_best_is_reported_with_the_value_it_gives():
    # b's QD breaks his marriage (+4); a's KS throws points after 7S (+58 for b)
    v = check_record(parse_record(f"{FP} ; pv QD"))
    assert v.failures == [
        "pv move 1 QD: not a best move in this position: the value for b becomes +4 instead of +44"
    ]
    v = check_record(parse_record(f"{FP} ; pv 7S KS"))
    assert v.failures == [
        "pv move 2 KS: not a best move after 7S: the value for b becomes +58 instead of +44"
    ]


def test_a_hidden_card_pv_is_checked_for_its_first_move_and_legality():
    r = next(x for x in read_bpd(str(POSITIONS / "hidden-cards.bpd")) if x.id == "hc-001")
    base = r.bpn + " ; worlds 40 ; seed 48"
    assert check_record(parse_record(base + " ; pv +mC JS")).ok  # (a's reply: hidden, may be held)
    v = check_record(parse_record(base + " ; pv JS"))
    assert v.failures == ["pv move 1 JS: JS is worth -58.00, the best move +mC -37.43"]
    v = check_record(parse_record(base + " ; pv +mC QS"))
    assert v.failures[0].startswith("pv move 2 QS: illegal after +mC (legal: JS 8H 8D KD QC KC)")


def test_a_record_without_expectation_is_not_counted_as_solved(invoke, tmp_path):
    f = tmp_path / "mixed.bpd"
    f.write_text(f'{FP} ; id "plain"\n{FP} ; id "real" ; v 44\n', encoding="utf-8")
    v = check_record(read_bpd(str(f))[0])
    assert v.ok and not v.checked
    res = invoke("puzzles", "-q", f)
    assert res.exit_code == 0
    out = res.stdout.splitlines()
    assert out[0].startswith("--    plain") and "not checked: no bm, am, pv, v or ev" in out[0]
    assert out[1].startswith("ok    real")
    assert out[-1] == "1 of 1 solved, 1 not checked (no bm, am, pv, v or ev)"
    objs = [json.loads(ln) for ln in invoke("puzzles", "--json", f).stdout.splitlines()]
    assert [o["checked"] for o in objs[:-1]] == [False, True]
    assert objs[-1] == {
        "summary": True,
        "solved": 1,
        "total": 1,
        "unchecked": 1,
        "failed": 0,
        "unreadable": 0,
    }


def test_puzzles_read_standard_input(invoke):
    lines = f'{FP} ; id "one" ; v 44\n# a comment\n{FP} ; id "two" ; v 45\n'
    res = invoke("puzzles", "-", input=lines)
    assert res.exit_code == 1
    out = res.stdout.splitlines()
    assert (
        out[0].startswith("ok    one")
        and out[1].startswith("FAIL  two")
        and "v 45: the value is 44" in out[1]
    )
    assert out[-1] == "1 of 2 solved, 1 failed"
    objs = [json.loads(ln) for ln in invoke("puzzles", "--json", "-", input=lines).stdout.splitlines()]
    assert [o["source"] for o in objs[:-1]] == ["stdin:1", "stdin:3"]


def test_puzzles_from_a_pipe_in_a_real_process():
    r = subprocess.run(
        [sys.executable, "-m", "solver.cli", "puzzles", "-"],
        input=f"{FP} ; bm +mD ; pv +mD AC\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=OUTSIDE,
    )
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "1 of 1 solved", r.stderr


# ---- operands out of range (from the .bpd's evtol and seed to the puzzles command)


def test_negative_evtol_is_a_malformed_record():
    with pytest.raises(PuzzleError, match=r"evtol '-3'.*out of range"):
        parse_record(f"{HIDDEN_TALON} ; ev 44 ; evtol -3")
    assert parse_record(f"{HIDDEN_TALON} ; ev 44 ; evtol 0").float_op("evtol") == 0.0


def test_negative_seed_operand_is_out_of_range():
    with pytest.raises(PuzzleError) as e:
        parse_record(f"{HIDDEN_TALON} ; bm 9H ; seed -1")
    assert "'-1' is out of range" in str(e.value) and "not a whole number" not in str(e.value)
    with pytest.raises(PuzzleError, match="not a whole number"):
        parse_record(f"{HIDDEN_TALON} ; bm 9H ; seed x1")


def test_puzzles_cli_reports_the_operand(tmp_path):
    f = tmp_path / "bad.bpd"
    f.write_text(f"{HIDDEN_TALON} ; ev 44 ; evtol -3\n")
    r = run_brisque("puzzles", str(f), cwd=OUTSIDE)
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Traceback" not in out
    assert "evtol '-3'" in out and "out of range" in out
