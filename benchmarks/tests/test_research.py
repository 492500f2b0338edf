"""The research suites (benchmarks/research.py): their runners, and ``python -m
benchmarks.research`` run from the repository's root, each on a few positions."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from benchmarks.research import (
    BEST,
    CONFIGS,
    ENHANCEMENT_STEPS,
    MATCHES,
    deep_levels,
    enhancements,
    matches,
    reference,
)
from benchmarks.tests.conftest import ROOT


def _research(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m benchmarks.research ARGS`` from the root: its exit status, stdout and stderr."""
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.research", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_the_reference_suite_agrees_with_the_engine() -> None:
    lines: list[str] = []
    r = reference(quick=True, progress=lines.append, positions=40)
    assert r["positions"] == 40 and r["values_agree"] is True
    assert r["speedup_value_vs_reference"] > 1 and r["engine_nodes_per_position"] > 0
    assert lines and "reference" in lines[0]


def test_each_enhancement_is_measured_and_the_last_is_the_default() -> None:
    assert list(CONFIGS) == [name for name, _ in ENHANCEMENT_STEPS] and BEST == ENHANCEMENT_STEPS[-1][0]
    assert not any(CONFIGS["plain alpha-beta"].values()) and all(CONFIGS[BEST].values())
    r = enhancements(quick=True)
    assert list(r["configs"]) == list(CONFIGS)
    for rows in r["configs"].values():
        assert [row["k"] for row in rows] == [0, 1, 2, 3] and all(row["unfinished"] == 0 for row in rows)
    plain, best = r["configs"]["plain alpha-beta"][-1], r["configs"][BEST][-1]
    assert best["median_nodes"] < plain["median_nodes"]
    # every enhancement is the engine's default: the same nodes as the deep suite's search
    default = deep_levels(4, 3, 60.0)
    assert [row["median_nodes"] for row in default] == [row["median_nodes"] for row in r["configs"][BEST]]


def test_the_whole_deals_suite_from_the_command() -> None:
    res = _research("--suite", "whole-deals", "--quick", "--json")
    assert res.returncode == 0, res.stderr
    (r,) = json.loads(res.stdout)["suites"]
    assert r["name"] == "whole-deals" and [d["seed"] for d in r["deals"]] == [12, 21]
    assert r["all_same"] is True and all(d["nodes_one"] > 1_000_000 for d in r["deals"])
    assert r["one_thread"]["slowest_s"] >= r["one_thread"]["median_s"] > 0
    assert res.stderr.count("whole deal") == 2  # (progress on stderr, a line a deal)


def test_the_matches_suite_plays_the_chosen_matches() -> None:
    heard: list[tuple[dict[str, Any], int]] = []
    r = matches(deals=1, only=MATCHES[:1], on_match=lambda s, records: heard.append((s, len(records))))
    (summary,) = r["matches"]
    assert (summary["first"], summary["second"], summary["rules"]) == MATCHES[0]
    assert summary["pairs"] == 1 and heard == [(summary, 2)]  # (a deal pair: two records)


def test_quiet_silences_the_progress_lines() -> None:
    """Progress lines go to standard error, a line a step; -q drops them."""
    loud = _research("--suite", "reference", "--quick")
    quiet = _research("--suite", "reference", "--quick", "-q")
    assert loud.returncode == quiet.returncode == 0, loud.stderr + quiet.stderr
    assert "reference" in loud.stderr and quiet.stderr == ""
    assert "reference" in quiet.stdout
