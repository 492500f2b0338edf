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
    assert lines[-1] == "1/2 solved" and "Traceback" not in r.stderr
