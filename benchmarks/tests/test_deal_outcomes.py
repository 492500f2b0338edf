"""The deal outcomes (benchmarks/training/deal_outcomes.py), from deal records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.tests.conftest import ROOT
from benchmarks.training import deal_outcomes
from solver.errors import RecordError
from solver.formats.records import DealRecord
from solver.play.table import Table


def test_the_outcomes_script_counts_finished_deals_of_new_games(tmp_path: Path) -> None:
    t = Table.new("petite", "a", 1, 5)
    while not t.position().is_over():
        t.engine_play(t.engine_choose()) if not t.persons_turn() else t.play(t.position().legal_moves()[0])
    done = t.records()[0]
    unfinished = DealRecord(start=done.start, moves=done.moves[:3])
    later = DealRecord(start=done.start + " game=1:0", moves=done.moves)
    assert deal_outcomes.outcome_of(done)[0] == "petite"
    for bad in (unfinished, later):
        with pytest.raises(RecordError):
            deal_outcomes.outcome_of(bad)
    src = tmp_path / "records.jsonl"
    src.write_text(done.to_json() + "\nnot json\n" + unfinished.to_json() + "\n" + done.to_json() + "\n")
    out = tmp_path / "outcomes.json"
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.training.deal_outcomes", str(src), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert "records.jsonl:2: skipped" in run.stderr and "records.jsonl:3: skipped" in run.stderr
    data = json.loads(out.read_text())
    assert list(data) == ["petite"] and sum(n for *_, n in data["petite"]["outcomes"]) == 2
