"""The batch path end to end: ``brisque solve -`` on many BPN lines, whole process included,
for two builds side by side.

The lines are Brisque positions at the start of the final phase (6 cards each), the
positions of ``bench_final_phase`` (random play from seeded deals), written once to a file.
Each build runs the command as a new process (``python -m solver.cli solve -`` with
``PYTHONPATH=DIR`` and an editable install's import hook removed, so that every ``solver``
module comes from DIR; once untimed first, to write its bytecode), the builds taking turns, the order swapped every round (A B, B A,
...), so that a slow spell of the machine falls on both alike.  Reported per build: each
run's seconds, the median, the microseconds a position, and the median of the paired
candidate/baseline ratios.  The answers of the two builds must agree line for line, but for
``seconds`` and ``nodes`` (the node count depends on the table's size and what it holds);
any difference is reported and the exit status is 1.

Run:  python -m benchmarks.bench_batch_path --baseline /tmp/old --candidate . [--positions 10000]
          [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.harness.positions import start_of_final_phase
from benchmarks.harness.timing import timed
from solver.bench.suites import machine
from solver.model.rules import Rules

# the command of a build: its solver from DIR only (an editable install's hook removed)
RUNNER = (
    "import sys\n"
    "sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in "
    "getattr(f, '__module__', '') + getattr(type(f), '__module__', '')]\n"
    "import solver, os\n"
    "assert os.path.realpath(solver.__file__).startswith(os.path.realpath(sys.argv[1])), solver.__file__\n"
    "from solver.cli import main\n"
    "sys.argv = ['brisque', 'solve', '-']\n"
    "main()\n"
)


def run_build(build: Path, lines: Path, out: Path) -> float:
    """Seconds of one ``brisque solve -`` of the build over the file of lines, in the
    environment of a user's shell: compiled bytecode written and used, standard output
    buffered (PYTHONDONTWRITEBYTECODE and PYTHONUNBUFFERED, which some sandboxes set, unset)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")}
    env["PYTHONPATH"] = str(build)
    with lines.open("rb") as stdin, out.open("wb") as stdout:
        _, seconds = timed(
            subprocess.run,
            [sys.executable, "-c", RUNNER, str(build)],
            stdin=stdin,
            stdout=stdout,
            env=env,
            check=True,
        )
    return seconds


def answers(path: Path) -> list[dict[str, Any]]:
    """The answers of a run, without the fields that may differ (seconds, nodes)."""
    rows = []
    for line in path.read_text().splitlines():
        d = json.loads(line)
        d.pop("seconds", None)
        d.pop("nodes", None)
        rows.append(d)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", type=Path, required=True)
    ap.add_argument("--candidate", type=Path, required=True)
    ap.add_argument("--positions", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    lines = work / "positions.txt"
    lines.write_text("".join(p.bpn() + "\n" for p in start_of_final_phase(args.positions, Rules())))
    builds = {"baseline": args.baseline.resolve(), "candidate": args.candidate.resolve()}
    # (the builds take turns, the order swapped every round: not the harness's loop, which
    # times one call over and over; each run is timed by its ``timed``)
    times: dict[str, list[float]] = {name: [] for name in builds}
    for name, build in builds.items():  # (a first run writes the bytecode: not timed)
        run_build(build, lines, work / f"{name}.jsonl")
    for r in range(args.rounds):
        order = list(builds) if r % 2 == 0 else list(builds)[::-1]
        for name in order:
            times[name].append(run_build(builds[name], lines, work / f"{name}.jsonl"))
            print(f"round {r + 1}: {name} {times[name][-1]:.3f} s", file=sys.stderr)
    same = answers(work / "baseline.jsonl") == answers(work / "candidate.jsonl")
    ratios = [c / b for b, c in zip(times["baseline"], times["candidate"])]
    result = {
        "machine": machine(),
        "positions": args.positions,
        "rounds": args.rounds,
        "builds": {
            name: {
                "path": str(builds[name]),
                "seconds": [round(t, 3) for t in times[name]],
                "median_s": round(statistics.median(times[name]), 3),
                "us_per_position": round(statistics.median(times[name]) / args.positions * 1e6, 1),
            }
            for name in builds
        },
        "median_ratio": round(statistics.median(ratios), 3),
        "same_answers": same,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"machine: {result['machine']}")
        for name, b in result["builds"].items():
            print(f"{name}: {b['seconds']} s, median {b['median_s']} s, {b['us_per_position']} us a position")
        print(f"candidate/baseline, median of paired ratios: {result['median_ratio']}; same answers: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
