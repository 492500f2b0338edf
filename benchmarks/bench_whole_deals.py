"""Whole Brisque deals solved exactly: the distribution of times and nodes.

For each seeded deal (talon order known, from trick 1), the exact value from a cold table,
on one thread and then on ``--threads`` threads sharing the table (``Engine.set_threads``),
side by side, deal by deal.  Prints one JSON line a deal and a summary: the median, p90 and
slowest time, the share of deals under 1 s and under 5 s, and nodes per second (nodes
against time).  The target: median at most 1 s, p90 at most 5 s, none above 60 s.

The measurement is the research suite ``whole-deals``
(``benchmarks/research.py``); this script runs it on other seeds and prints it a deal a line.

Run:  python -m benchmarks.bench_whole_deals [--seeds 1-30] [--threads 2] [--table-bits 22]
"""

from __future__ import annotations

import argparse
import json

from benchmarks.research import whole_deals
from solver.bench.suites import machine


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-30")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--table-bits", type=int, default=22)
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    r = whole_deals(
        seeds=range(lo, hi + 1),
        threads=args.threads,
        table_bits=args.table_bits,
        on_deal=lambda row: print(json.dumps(row), flush=True),
    )
    keep = (
        "threads",
        "one_thread",
        "on_threads",
        "median_speedup",
        "total_speedup",
        "median_node_overhead",
        "all_same",
    )
    print(json.dumps({"machine": machine(), "deals": r["positions"], **{k: r[k] for k in keep}}))


if __name__ == "__main__":
    main()
