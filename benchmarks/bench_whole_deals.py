"""Whole Brisque deals solved exactly: the distribution of times and nodes (issue 17).

For each seeded deal (talon order known, from trick 1), the exact value from a cold table,
on one thread and then on ``--threads`` threads sharing the table (``Engine.set_threads``),
side by side, deal by deal.  Prints one JSON line a deal and a summary: the median, p90 and
slowest time, the share of deals under 1 s and under 5 s, and nodes per second (nodes
against time).  The issue's target: median at most 1 s, p90 at most 5 s, none above 60 s.

Run:  python benchmarks/bench_whole_deals.py [--seeds 1-30] [--threads 2] [--table-bits 22]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from solver.bench.suites import machine
from solver.engine import Solver
from solver.engine.seam import engine_root
from solver.play.dealing import deal


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))]


def summary(times: list[float], nodes: list[int]) -> dict:
    return {
        "median_s": round(statistics.median(times), 3),
        "p90_s": round(percentile(times, 0.9), 3),
        "slowest_s": round(max(times), 3),
        "share_under_1s": round(sum(t < 1 for t in times) / len(times), 3),
        "share_under_5s": round(sum(t < 5 for t in times) / len(times), 3),
        "over_60s": sum(t > 60 for t in times),
        "median_nodes": statistics.median(nodes),
        "nodes_per_s": round(sum(nodes) / sum(times)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-30")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--table-bits", type=int, default=22)
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    one = Solver(table_bits=args.table_bits).engine
    many = Solver(table_bits=args.table_bits).engine
    many.set_threads(args.threads)
    rows = []
    for seed in range(lo, hi + 1):
        root = engine_root(deal(seed, "brisque"))
        row: dict = {"seed": seed}
        for name, eng in (("one", one), ("threads", many)):
            eng.clear()
            eng.load(root)
            n0 = eng.nodes
            t0 = time.perf_counter()
            row[f"value_{name}"] = eng.value()
            row[f"{name}_s"] = round(time.perf_counter() - t0, 3)
            row[f"nodes_{name}"] = eng.nodes - n0
        row["same_value"] = row["value_one"] == row["value_threads"]
        row["speedup"] = round(row["one_s"] / row["threads_s"], 2)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(
        json.dumps(
            {
                "machine": machine(),
                "deals": len(rows),
                "threads": args.threads,
                "one_thread": summary([r["one_s"] for r in rows], [r["nodes_one"] for r in rows]),
                "on_threads": summary([r["threads_s"] for r in rows], [r["nodes_threads"] for r in rows]),
                "median_speedup": statistics.median(r["speedup"] for r in rows),
                "total_speedup": round(sum(r["one_s"] for r in rows) / sum(r["threads_s"] for r in rows), 2),
                "median_node_overhead": round(
                    statistics.median(r["nodes_threads"] / r["nodes_one"] for r in rows), 3
                ),
                "all_same": all(r["same_value"] for r in rows),
            }
        )
    )


if __name__ == "__main__":
    main()
