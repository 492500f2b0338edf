"""brisque bench (issue 17): the standard suites from the installed package, and the
signature that pins the search."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from solver.bench.suites import SUITES, positions, run

# The total node count of the final-phase and deep suites with the default build.  It
# changes exactly when the search changes: then check the change, and write the new one.
SIGNATURE = 9219537  # (8155362 before the final-phase tables were cut to fit the L2 cache)


def test_the_signature_of_the_default_build():
    r = run(["final-phase", "deep"])
    assert r["signature"] == SIGNATURE
    assert run(["deep", "final-phase"])["signature"] == SIGNATURE  # (any order, any run)


def test_the_positions_ship_with_the_package():
    assert len(positions("final-phase")) == 1000
    assert all(len(positions(f"deep-k{k}")) == 10 for k in (2, 3, 4, 5))
    assert run(["final-phase"])["signature"] is None  # (a part of the signed suite signs nothing)


def test_the_command_runs_compares_and_refuses(tmp_path):
    cmd = [sys.executable, "-m", "solver.cli", "bench", "--quick"]
    res = subprocess.run([*cmd, "--json"], capture_output=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    saved = json.loads(res.stdout)
    assert [s["name"] for s in saved["suites"]] == list(SUITES) and saved["signature"] > 0
    assert "cores" in saved["machine"]
    path = tmp_path / "run.json"
    path.write_text(res.stdout.decode())
    again = subprocess.run([*cmd, "--compare", str(path)], capture_output=True, cwd=tmp_path)
    assert again.returncode == 0 and b"(the same search)" in again.stdout and b"vs saved" in again.stdout
    for bad, words in [
        (["--compare", str(tmp_path / "none.json")], b"does not exist"),
        (["--suite", "nothing"], b"Invalid value"),
    ]:
        res = subprocess.run([*cmd, *bad], capture_output=True, cwd=tmp_path)
        assert res.returncode == 2 and words in res.stderr and b"Traceback" not in res.stderr
    (tmp_path / "bad.json").write_text("[1, 2]")
    res = subprocess.run([*cmd, "--compare", str(tmp_path / "bad.json")], capture_output=True, cwd=tmp_path)
    assert res.returncode == 2 and b"expected the JSON of brisque bench" in res.stderr
    whole = dict(saved, quick=False)
    (tmp_path / "whole.json").write_text(json.dumps(whole))
    res = subprocess.run([*cmd, "--compare", str(tmp_path / "whole.json")], capture_output=True, cwd=tmp_path)
    assert res.returncode == 2 and b"do not compare" in res.stderr


@pytest.mark.parametrize("name", ["nothing", ""])
def test_an_unknown_suite_is_refused(name):
    from solver.errors import ArgumentError

    with pytest.raises(ArgumentError, match="no benchmark suite"):
        run([name])
