"""Two builds side by side on deep exact solves, where the builds may search differently.

``compare_builds.py`` holds two builds to the same node counts (a change of speed alone);
this script is for a change of the search itself, such as a table's size: the values must
be the same, the node counts may differ, and both are reported.  For each position (Brisque,
``k`` talon tricks left, talon order known: ``--k 10`` is the whole deal from trick 1, the
deal of each seed; below 10 the positions of ``positions_with_talon_left``), each build
solves the value from a cold table of 2^22 entries in a process of its own (``PYTHONPATH=DIR``,
an editable install's hook removed, every ``solver`` module checked to come from DIR), the
order of the builds swapped from one position to the next, so that a slow spell of the
machine falls on both alike.  One JSON line a position, then the median of the paired
candidate/baseline time ratios and of the node ratios.  Exit status 1 if a value differs.

Run:  python -m benchmarks.compare_builds_deep --baseline /tmp/old --candidate . [--k 10]
          [--seeds 1-10] [--threads 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from typing import Any

from benchmarks.harness.builds import in_build
from solver.bench.suites import machine

RUNNER = r"""
import json, os, sys, time
sys.meta_path[:] = [f for f in sys.meta_path
                    if '__editable__' not in getattr(f, '__module__', '') + getattr(type(f), '__module__', '')]
import solver
assert os.path.realpath(solver.__file__).startswith(os.path.realpath(sys.argv[3])), solver.__file__
from solver.engine import Solver
from solver.engine.seam import engine_root
from solver.model.rules import Rules
from solver.play.dealing import deal, positions_with_talon_left
k, seed, threads = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[4])
p = deal(seed, Rules()) if k == 10 else positions_with_talon_left(k, 1, Rules(), first_seed=seed)[0]
s = Solver(Rules(), 22)
if threads > 1:
    s.engine.set_threads(threads)
s.engine.load(engine_root(p))
t = time.perf_counter()
v = s.engine.value()
print(json.dumps({"seconds": time.perf_counter() - t, "nodes": s.engine.nodes, "value": v}))
"""


def solve_in(build: str, k: int, seed: int, threads: int = 1) -> dict[str, Any]:
    """One position's solve (seconds, nodes, value) by the build in the checkout ``build``."""
    result: dict[str, Any] = in_build(build, RUNNER, str(k), str(seed), build, str(threads))
    return result


def seeds_of(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--candidate", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--k", type=int, default=10, help="talon tricks left (10: the whole deal)")
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--threads", type=int, default=1, help="threads of each solve (one table shared)")
    ap.add_argument("--json", action="store_true", help="the summary as one JSON line")
    args = ap.parse_args()
    a, b = os.path.abspath(args.baseline), os.path.abspath(args.candidate)
    time_ratios, node_ratios, same = [], [], True
    for i, seed in enumerate(seeds_of(args.seeds)):
        res = {
            build: solve_in(build, args.k, seed, args.threads) for build in ((a, b) if i % 2 == 0 else (b, a))
        }
        same &= res[a]["value"] == res[b]["value"]
        time_ratios.append(res[b]["seconds"] / res[a]["seconds"])
        node_ratios.append(res[b]["nodes"] / res[a]["nodes"])
        row = {"k": args.k, "seed": seed, "threads": args.threads, "baseline": res[a], "candidate": res[b]}
        print(json.dumps(row), flush=True)
    summary = {
        "machine": machine(),
        "k": args.k,
        "threads": args.threads,
        "positions": len(time_ratios),
        "median_time_ratio": round(statistics.median(time_ratios), 3),
        "median_node_ratio": round(statistics.median(node_ratios), 3),
        "same_values": same,
    }
    print(json.dumps(summary) if args.json else f"summary: {summary}", flush=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
