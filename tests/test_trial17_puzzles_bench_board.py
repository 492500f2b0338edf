"""Trial 17: puzzle operands as the tool prints them (a signed ``v +44``, an ``ev`` copied at
its printed precision), ``v`` refused on a sampled record, and the board's and the bench's
inputs checked as strictly as the rest."""

from __future__ import annotations

import subprocess
import sys

import pytest

from solver.errors import PuzzleError
from solver.formats.bpd import parse_record

FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # exact value +44 for b


def _cli(*args: str, cwd: object, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``brisque ARGS`` run from ``cwd`` (outside the checkout)."""
    return subprocess.run(
        [sys.executable, "-m", "solver.cli", *args], capture_output=True, text=True, cwd=cwd, input=stdin
    )


# --- defect 2: a leading '+' on numeric operands -------------------------------------------


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
    from solver.model.limits import whole_number

    with pytest.raises(ValueError) as e:
        whole_number("+44", 0, 100)  # (where no '+' is taken: BPN's numbers)
    assert "not a whole number" not in str(e.value) and "'+' sign" in str(e.value)


def test_puzzles_checks_a_signed_v(tmp_path):
    (tmp_path / "p.bpd").write_text(f'{FP} ; id "plus" ; v +44\n{FP} ; id "minus" ; v -44\n')
    r = _cli("puzzles", "p.bpd", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("ok    plus"), lines
    assert lines[1].startswith("FAIL  minus") and "v -44: the value is 44" in lines[1], lines
    assert "Traceback" not in r.stderr


# --- defect 1: ev at its written precision, v refused on a sampled record --------------------

HIDDEN = "brisque ?6/J.8.K8.KQ 7D 1 AK97.ATKQJ97.A9.AJ987 - b 41:28 tricks=5:4 exchanged=b taken=KD"
SAMPLING = "worlds 40 ; seed 48"  # (its sampled value: -37.4286, printed -37.43)


def _failures(ops: str) -> list[str]:
    from solver.analysis.puzzles import check_record

    return check_record(parse_record(f"{HIDDEN} ; {ops}")).failures


def test_the_printed_ev_passes_without_evtol():
    from solver.analysis.puzzles import check_record

    v = check_record(parse_record(f"{HIDDEN} ; ev -37.43 ; {SAMPLING}"))
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

    r = parse_record(f"{HIDDEN} ; ev -37.430 ; evtol +0.50")
    assert "ev -37.430 ; evtol 0.50" in format_record(r)
    assert parse_record(format_record(r)).decimals("ev") == 3


def test_v_on_a_sampled_record_fails_saying_to_use_ev():
    (failure,) = _failures("v -37")
    assert failure.startswith("v -37: v is the exact value") and "hidden cards" in failure
    assert "use ev" in failure and "-37.43" in failure and "-37.428" not in failure


def test_puzzles_cli_on_the_reported_file(tmp_path):
    (tmp_path / "h.bpd").write_text(
        f'{HIDDEN} ; id "h-noevtol" ; ev -37.43 ; {SAMPLING}\n{HIDDEN} ; id "h-v" ; v -37\n'
    )
    r = _cli("puzzles", "h.bpd", cwd=tmp_path)
    lines = r.stdout.splitlines()
    assert r.returncode == 1 and lines[0].startswith("ok    h-noevtol"), (r.stdout, r.stderr)
    assert lines[1].startswith("FAIL  h-v") and "v is the exact value" in lines[1]
    assert lines[-1] == "1 of 2 solved, 1 failed" and "Traceback" not in r.stderr


# --- defect 5: the board's API names an unknown key, takes seed, refuses worlds with every card known


@pytest.fixture(scope="module")
def board():
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from test_board import Board  # (the real server, `brisque serve` on 127.0.0.1)

    b = Board("--max-running", "2", "--max-seconds", "20")
    assert b.url.startswith("http://127.0.0.1:")
    yield b
    b.stop()


BOARD_FULL = "petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3"


@pytest.mark.parametrize(
    ("path", "data", "key"),
    [
        ("/api/analyses", {"bpn": HIDDEN, "sede": 5}, "'sede'"),
        ("/api/analyses", {"bpn": BOARD_FULL, "world": 20}, "'world'"),
        ("/api/play", {"bpn": BOARD_FULL, "move": "KC", "pov": "a"}, "'pov'"),
    ],
)
def test_an_unknown_key_is_a_400_naming_it(board, path, data, key):
    status, answer = board.post(path, data)
    assert status == 400, answer
    assert f"unknown key {key}" in answer["error"] and "expected the keys 'bpn'" in answer["error"]


def test_seed_is_taken_and_gives_the_cli_answer(board, tmp_path):
    import json

    status, job = board.post("/api/analyses", {"bpn": HIDDEN, "worlds": 20, "seed": 5})
    assert status == 202, job
    done = board.wait(job["id"])
    assert done["state"] == "done", done
    r = _cli("analyse", HIDDEN, "--worlds", "20", "--seed", "5", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    cli = json.loads(r.stdout)
    assert done["answer"]["value"] == cli["value"] and done["answer"]["seed"] == 5 == cli["seed"]


@pytest.mark.parametrize("seed", [-1, 2**63, "5", 1.5, True])
def test_a_bad_seed_is_a_400_naming_it(board, seed):
    status, answer = board.post("/api/analyses", {"bpn": HIDDEN, "seed": seed})
    assert status == 400 and answer["error"].startswith("seed=") and "from 0 to" in answer["error"], answer


@pytest.mark.parametrize("key", ["worlds", "seed"])
def test_worlds_or_seed_with_every_card_known_is_refused(board, key):
    status, answer = board.post("/api/analyses", {"bpn": BOARD_FULL, key: 20})
    assert status == 400, answer
    assert answer["error"].startswith(f"{key}=20: every card of this position is known"), answer


def test_the_page_sends_only_bpn_to_analyses():
    """The page's own request: refusing worlds on an exact position cannot break it."""
    from pathlib import Path

    js = (Path(__file__).resolve().parent.parent / "solver/board/static/board.js").read_text()
    assert 'api("POST", "/api/analyses", { bpn })' in js


# --- defect 6: bench --compare says when nothing was compared and refuses malformed entries


def _bench(tmp_path, saved: str, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "saved.json").write_text(saved)
    return _cli("bench", "--suite", "batch", "--quick", "-q", "--compare", "saved.json", *extra, cwd=tmp_path)


@pytest.mark.parametrize(
    ("saved", "words"),
    [
        ('{"quick": true, "suites": [1, "x"]}', "suites[0] is 1: expected an object"),
        (
            '{"quick": true, "suites": [{"name": "batch", "seconds": NaN}]}',
            "suites[0] ('batch'): seconds nan",
        ),
        (
            '{"quick": true, "suites": [{"name": "batch", "seconds": -0.5}]}',
            "seconds -0.5: expected a number 0",
        ),
        (
            '{"quick": true, "suites": [{"name": "deep"}, {"name": "batch", "nodes": "9"}]}',
            "suites[1] ('batch')",
        ),
        ('{"quick": true, "suites": [{"seconds": 1}]}', "suites[0] has name None"),
    ],
)
def test_a_malformed_saved_entry_is_refused_naming_file_and_entry(tmp_path, saved, words):
    r = _bench(tmp_path, saved)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "cannot compare with 'saved.json'" in r.stderr and words in r.stderr, r.stderr
    assert r.stdout == "" and "Traceback" not in r.stderr  # (refused before the run)


@pytest.mark.parametrize("suites", ["[]", '[{"name": "deep", "nodes": 5}]'])
def test_nothing_to_compare_is_said(tmp_path, suites):
    r = _bench(tmp_path, f'{{"quick": true, "suites": {suites}}}')
    assert r.returncode == 0, r.stderr
    assert "vs saved: nothing to compare with 'saved.json': the suites run (batch) are not in it" in r.stdout
    assert ("it holds deep" if "deep" in suites else "it holds no suite") in r.stdout


def test_nothing_to_compare_with_json_is_said_on_stderr(tmp_path):
    import json

    r = _bench(tmp_path, '{"quick": true, "suites": [{"name": "deep", "nodes": 5}]}', "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["compare"] == [] and out["compare_missing"] == ["batch"]
    assert "nothing to compare with 'saved.json'" in r.stderr


def test_a_comparison_still_gives_its_ratios(tmp_path):
    r = _bench(tmp_path, '{"quick": true, "suites": [{"name": "batch", "seconds": 0.01, "bytes": -1}]}')
    assert r.returncode == 0, r.stderr
    assert "vs saved: batch seconds: " in r.stdout and "nothing to compare" not in r.stdout


@pytest.mark.parametrize("ev", ["1e300", "-1e-40", "1_000.5"])
def test_an_ev_in_any_float_form_is_checked_and_quoted_as_written(ev):
    (failure,) = _failures(f"ev {ev} ; {SAMPLING}")
    assert failure.startswith(f"ev {ev} at ") and len(failure) < 120, failure
