"""The check of the compiled expectimax against the reference (check_expectimax), and its
section of the report."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.check_expectimax import check, report, run, summary
from benchmarks.harness import result_files
from benchmarks.report import Report
from solver.play.dealing import positions_with_talon_left


def test_a_position_is_checked_move_by_move() -> None:
    (p,) = positions_with_talon_left(2, 1, "briscan", first_seed=5)
    row = check(p.bpn())
    assert row["moves"] == len(p.legal_moves()) and row["disagreements"] == []
    assert row["compiled_s"] > 0 and row["reference_s"] > 0 and row["nodes"] > 0


def test_two_workers_check_the_same_positions_with_the_same_nodes() -> None:
    # (each position from cleared tables: its nodes do not depend on which process had it)
    one = run("brisque", 2, positions=6, first_seed=40)
    two = run("brisque", 2, positions=6, first_seed=40, workers=2)
    assert one["positions"] == two["positions"] == 6 and one["disagreements"] == two["disagreements"] == []
    assert one["moves"] == two["moves"] and one["compiled_nodes"] == two["compiled_nodes"]


def test_no_position_is_begun_once_the_minutes_are_out() -> None:
    assert run("briscan", 2, positions=3, minutes=0)["positions"] == 0
    assert run("briscan", 2, positions=3, minutes=0, workers=2)["positions"] == 0


def _row(bpn: str, wrong: list[dict[str, str]]) -> dict[str, object]:
    return {"bpn": bpn, "moves": 2, "disagreements": wrong, "game_win_at_stake": False,
            "compiled_s": 0.5, "reference_s": 2.0, "nodes": 7}  # fmt: skip


def test_a_disagreement_is_listed_with_its_position() -> None:
    wrong = {"move": "AS", "compiled": "3", "reference": "7/2"}
    s = summary("brisque", 2, 0, 1, [_row("X", []), _row("Y", [wrong])], wall=3.0)
    assert s["disagreements"] == [{"bpn": "Y", **wrong}] and s["positions"] == 2 and s["moves"] == 4
    assert s["reference_over_compiled"] == 4.0
    assert "Y ; AS: compiled 3, reference 7/2" in report(s)


def test_the_report_section_reads_the_result_files(tmp_path: Path) -> None:
    meta = {"machines": {"M": "a machine, 2 cores"}, "runs": {}}
    (tmp_path / "report-figures.json").write_text(json.dumps(meta))
    wrong = {"move": "AS", "compiled": "3", "reference": "7/2"}
    s = summary("briscan", 3, 0, 2, [_row("Y", [wrong])], wall=3.0)
    result_files.write("check-expectimax-briscan-3.json", {"command": "python -m x", **s}, directory=tmp_path)
    r = Report(tmp_path)
    r.check_expectimax()
    text = "\n".join(r.lines)
    assert "## The compiled expectimax against the reference" in text
    assert "| briscan | 3 | 1 | 2 | 0 | 1 | 500.0 | 2000.0 | 4.0x |" in text
    assert "- `Y`, AS: compiled 3, reference 7/2" in text
