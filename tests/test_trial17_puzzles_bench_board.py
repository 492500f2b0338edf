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
