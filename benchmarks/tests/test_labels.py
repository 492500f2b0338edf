"""The labels of the learned network (benchmarks/training/labels.py): searches to the network
or exact values, and the seeds of each level.

The lab's tests run from the repository's root (``.ci/run``):
``python -m pytest -p no:cacheprovider -n 0 benchmarks/tests``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.training import labels
from solver.engine import Solver
from solver.model.position import Position
from solver.model.rules import Rules


def test_bootstrapped_labels_are_searches_to_the_network_and_exact_where_they_reach_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(labels, "DATA", tmp_path)
    # one talon trick left: a search four tricks deep reaches the final phase, so the label
    # is the exact value
    assert labels.make_labels("brisque", 1, 6, 1, depth=4) == 6
    deep = labels.read_labels("brisque", 1)
    exact_file = tmp_path / "exact"
    exact_file.mkdir()
    monkeypatch.setattr(labels, "DATA", exact_file)
    labels.make_labels("brisque", 1, 6, 1)
    exact = labels.read_labels("brisque", 1)
    assert [r["raw"] for r in deep] == [r["raw"] for r in exact]
    assert all(r["depth"] == 4 and r["network"] == labels.network_id("brisque") for r in deep)
    assert all("depth" not in r for r in exact)
    # at 6 talon tricks left, the search's value, from a cleared table (the same whatever ran before)
    monkeypatch.setattr(labels, "DATA", tmp_path)
    assert labels.make_labels("brisque", 6, 3, 1, depth=4) == 3
    solver = Solver(Rules.parse("brisque"), horizon="learned")
    for r in labels.read_labels("brisque", 6):
        assert r["seed"] >= labels.first_seed(6)
        solver.load(Position(r["bpn"]))
        solver.engine.clear()
        solver.engine.set_limits(depth=4)
        assert solver.engine.value() == r["raw"]
        solver.engine.clear_limits()
    # a file holds one kind of label
    with pytest.raises(SystemExit, match="holds exact labels"):
        monkeypatch.setattr(labels, "DATA", exact_file)
        labels.make_labels("brisque", 1, 8, 1, depth=4)


def test_labels_beyond_a_levels_first_hundred_thousand_take_seeds_no_other_level_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(labels, "DATA", tmp_path)
    monkeypatch.setattr(labels, "FIRST_LABELS", 3)  # (100,000 in the files: 3 to see the seam)
    # the labels made in two runs (an interrupted one, then more) are those made at once
    assert labels.make_labels("brisque", 2, 2, 1) == 2
    assert labels.make_labels("brisque", 2, 5, 1) == 5
    twice = labels.read_labels("brisque", 2)
    once = tmp_path / "once"
    once.mkdir()
    monkeypatch.setattr(labels, "DATA", once)
    assert labels.make_labels("brisque", 2, 5, 2) == 5
    assert labels.read_labels("brisque", 2) == twice
    seeds = [r["seed"] for r in twice]
    first, own = labels.seed_blocks(2)[0][0], labels.seed_blocks(2)[1][0]
    assert all(s in first for s in seeds[:3]) and seeds[3] == own.start and seeds[3:] == sorted(seeds[3:])
    # the own seeds of levels 1 to 4 are apart from every other block of every level
    blocks = [b for level in range(1, 12) for b, _ in labels.seed_blocks(level)]
    for level in range(1, 5):
        own = labels.seed_blocks(level)[1][0]
        assert all(b == own or max(b.start, own.start) >= min(b.stop, own.stop) for b in blocks)
