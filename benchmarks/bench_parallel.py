"""One whole-deal solve on the two cores against one core, side by side (the target: at
least 1.6x, the same values; the node overhead of the threads).

For each seeded Brisque deal (talon order known), the exact solve with every root move's
value, first on one thread (``solve``, a fresh table) and then on two threads sharing one
table (``parallel_solve(workers=2)``, that is ``solve(threads=2)``; a fresh table too),
the values and best moves compared.  The nodes on two threads are both threads' (the
thread that did not finish first included).  Before the threads shared one table, the
second solve shared the root's moves among worker processes (results/parallel-solve.jsonl).

Run:  python -m benchmarks.bench_parallel [--seeds 3-14] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from benchmarks.harness.timing import timed
from solver.analysis.parallel import parallel_solve
from solver.bench.suites import machine
from solver.engine.solving import forget_shared_solvers, solve
from solver.play.dealing import deal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="3-14")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    rows: list[dict[str, Any]] = []
    for seed in range(lo, hi + 1):
        p = deal(seed, "brisque")
        forget_shared_solvers()  # (a cold table, as a new process has)
        one, t_one = timed(solve, p)
        forget_shared_solvers()  # (a cold table for the threads too)
        two, t_two = timed(parallel_solve, p, workers=args.workers)
        same = one.value == two.value and [int(m.value) for m in one.moves] == [
            int(m.value) for m in two.moves
        ]
        row = {
            "seed": seed,
            "one_core_s": round(t_one, 3),
            "parallel_s": round(t_two, 3),
            "speedup": round(t_one / t_two, 2),
            "nodes_one": one.nodes,
            "nodes_parallel": two.nodes,
            "node_overhead": round(two.nodes / max(one.nodes, 1), 3),
            "same_values": same,
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    total_one = sum(r["one_core_s"] for r in rows)
    total_two = sum(r["parallel_s"] for r in rows)
    print(
        json.dumps(
            {
                "machine": machine(),
                "deals": len(rows),
                "workers": args.workers,
                "median_speedup": statistics.median(r["speedup"] for r in rows),
                "total_speedup": round(total_one / total_two, 2),
                "median_node_overhead": statistics.median(r["node_overhead"] for r in rows),
                "all_same": all(r["same_values"] for r in rows),
            }
        )
    )


if __name__ == "__main__":
    main()
