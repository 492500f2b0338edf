"""A duplicate match through a two-worker Dask cluster against two local worker
processes, side by side in one run (the target: the cluster's overhead at most 10%).

Both play the same seeded match (greedy against random, Brisque, 2000 deal pairs by
default); the records must be the same.  The runs alternate (local, cluster, local,
cluster, ...), and the cluster, a LocalCluster of two worker processes of one thread on
127.0.0.1, is started once before its runs (its start-up is reported apart).

Run:  python -m benchmarks.bench_cluster [--pairs 2000] [--repeat 3] [--players greedy,random]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from benchmarks.harness.timing import timed
from solver.bench.suites import machine
from solver.cluster import open_executor
from solver.play.match import run_match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", default="greedy,random")
    ap.add_argument("--rules", default="brisque")
    args = ap.parse_args()
    first, second = args.players.split(",")
    t0 = time.perf_counter()
    with open_executor("local:2") as cluster:
        started = time.perf_counter() - t0
        times: dict[str, list[float]] = {"local": [], "cluster": []}
        records = {}
        # (the two ways alternate, local then cluster: not the harness's loop, which times one
        # call over and over; each match is timed by its ``timed``)
        for _ in range(args.repeat):
            for name in ("local", "cluster"):
                if name == "local":
                    m, seconds = timed(
                        run_match, first, second, args.pairs, seed=1, rules=args.rules, workers=2
                    )
                else:
                    m, seconds = timed(
                        run_match, first, second, args.pairs, seed=1, rules=args.rules, executor=cluster
                    )
                times[name].append(round(seconds, 3))
                records[name] = m.records
                print(json.dumps({"run": name, "seconds": times[name][-1]}), flush=True)
    local, remote = statistics.median(times["local"]), statistics.median(times["cluster"])
    print(
        json.dumps(
            {
                "machine": machine(),
                "match": f"{first} vs {second}, {args.rules}, {args.pairs} deal pairs",
                "local_2_processes_s": local,
                "cluster_2_workers_s": remote,
                "overhead": round(remote / local - 1, 4),
                "cluster_start_s": round(started, 2),
                "times": times,
                "same_records": records["local"] == records["cluster"],
            }
        )
    )


if __name__ == "__main__":
    main()
