"""Two builds compared by the instructions they execute (valgrind's callgrind), not by time.

Instruction counts do not depend on what else the machine is doing, so they settle small
differences that timing on a shared machine cannot.  For each build and workload one process
runs under ``valgrind --tool=callgrind``, once with the solves and once without (interpreter
start, imports, BPN parsing); the difference is the solves' cost.  Workloads, on positions
generated once by the build this script imports (as in compare_builds.py):

* ``k5``: 10 Brisque positions with 5 talon tricks left, value only, a fresh table each;
* ``k7``: 3 positions with 7 talon tricks left (each takes about a minute under callgrind);
* ``final``: 1000 positions at the start of the final phase: roots built, one batch call.

Run:  python -m benchmarks.count_instructions --baseline /tmp/baseline --candidate . [--json]
(needs valgrind; each build compiled in place)
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = {"k5": (5, 10), "k7": (7, 3), "final": (0, 1000)}


def runner(build: str, bpn_file: str, workload: str, solve: bool) -> None:
    """Inside valgrind: load the build at ``build`` and run one workload."""
    # an editable install's import hook would serve modules from another tree: remove it
    sys.meta_path[:] = [
        f
        for f in sys.meta_path
        if "__editable__" not in getattr(f, "__module__", "")
        and "__editable__" not in getattr(type(f), "__module__", "")
    ]
    import solver  # (the build's: its tree is the runner's PYTHONPATH)
    from solver import Position, Rules

    assert os.path.abspath(solver.__file__).startswith(os.path.abspath(build)), solver.__file__
    # (imported by name: the package before the redesign, solver.search, is not in this tree)
    try:
        seam = importlib.import_module("solver.engine.seam")
        new_engine, engine_root = seam.new_engine, seam.engine_root
    except ImportError:  # the package before the redesign
        search = importlib.import_module("solver.search")
        new_engine, engine_root = search.new_engine, search.engine_state
    with open(bpn_file) as f:
        ps = [Position(b) for b in json.load(f)[workload]]
    eng = new_engine(Rules(), 14 if workload == "final" else 22)
    nodes = 0
    if solve and workload == "final":
        nodes = sum(eng.solve_batch([engine_root(p) for p in ps])[1])
    elif solve:
        for p in ps:
            eng.clear()
            eng.load(engine_root(p))
            n0 = eng.nodes
            eng.value()
            nodes += eng.nodes - n0
    print(nodes)


def instructions(build: str, bpn_file: str, workload: str, solve: bool) -> tuple[int, int]:
    """(instructions, nodes) of one process under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={tmp}/out",
            sys.executable,
            os.path.abspath(__file__),
            "--runner",
            build,
            bpn_file,
            workload,
            "1" if solve else "0",
        ]
        env = {**os.environ, "PYTHONPATH": build}  # (the runner imports this build's solver)
        res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp)
    if res.returncode != 0:
        raise SystemExit(f"{build} {workload}: {res.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", res.stderr)
    if not found:
        raise SystemExit(f"{build} {workload}: no instruction count in valgrind's output")
    return int(found.group(1)), int(res.stdout.strip() or 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--runner", nargs=4, metavar=("BUILD", "BPNS", "WORKLOAD", "SOLVE"), help=argparse.SUPPRESS
    )
    ap.add_argument("--baseline", default="/tmp/baseline", help="source tree of the first build")
    ap.add_argument("--candidate", default=os.path.dirname(HERE), help="source tree of the second build")
    ap.add_argument("--workloads", default="k5,k7,final", help="comma-separated: k5, k7, final")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.runner:
        build, bpns, workload, solve = a.runner
        runner(build, bpns, workload, solve == "1")
        return
    # (here, not at the top: the runner runs this file with only its build's solver to import)
    from benchmarks.harness.positions import positions_with_talon_left
    from solver import Rules

    names = [w for w in a.workloads.split(",") if w]
    data = {w: [p.bpn() for p in positions_with_talon_left(*WORKLOADS[w], Rules())] for w in names}
    rows = []
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    try:
        for w in names:
            row: dict[str, Any] = {"workload": w}
            for label, build in (("baseline", a.baseline), ("candidate", a.candidate)):
                total, nodes = instructions(build, f.name, w, True)
                bare, _ = instructions(build, f.name, w, False)
                row[label] = total - bare
                row[f"{label}_nodes"] = nodes
                print(f"{w} {label}: {total - bare:,} instructions, {nodes} nodes", file=sys.stderr)
            row["ratio"] = row["candidate"] / row["baseline"]
            rows.append(row)
    finally:
        os.unlink(f.name)
    if a.json:
        print(json.dumps(rows))
        return
    print(f"{'workload':<8} {'baseline':>16} {'candidate':>16} {'ratio':>7}  nodes equal")
    for r in rows:
        same = r["baseline_nodes"] == r["candidate_nodes"]
        print(f"{r['workload']:<8} {r['baseline']:>16,} {r['candidate']:>16,} {r['ratio']:>7.3f}  {same}")


if __name__ == "__main__":
    main()
