"""Sampling throughput: a 200-world best-move query at tricks 1, 5 and 9 of Brisque deals,
with one and with two worker processes, side by side in the same run.

Each query is the view of the player to move in a seeded deal played on by random moves
to the given trick.  Reported: median seconds per query and worlds per second, and the
two-worker speed-up.

Run:  python benchmarks/bench_sampling.py [--deals 5] [--worlds 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from solver.analysis.sampling import analyse
from solver.play.dealing import random_position


def views_at(trick: int, count: int) -> list:
    out, seed = [], 0
    while len(out) < count:
        p = random_position(1000 + seed, "brisque", trick)
        seed += 1
        if not p.is_over() and p.trick_number == trick and not p.in_window:
            out.append(p.view(p.turn))
    return out


def run(deals: int = 5, worlds: int = 200, tricks=(1, 5, 9)) -> list[dict]:
    rows = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        pool.submit(int, 0).result()  # start the workers before timing
        for trick in tricks:
            views = views_at(trick, deals)
            row = {"trick": trick, "worlds": worlds, "deals": deals}
            for label, kwargs in (("1 worker", {}), ("2 workers", {"executor": pool, "workers": 2})):
                times, per_world = [], []
                for v in views:
                    t0 = time.perf_counter()
                    a = analyse(v, worlds=worlds, seed=7, **kwargs)
                    dt = time.perf_counter() - t0
                    times.append(dt)
                    per_world.append(a.worlds / dt)
                    row["method"] = a.world_method
                row[label] = {
                    "median_s": statistics.median(times),
                    "worlds_per_s": statistics.median(per_world),
                }
            row["speedup"] = row["1 worker"]["median_s"] / row["2 workers"]["median_s"]
            rows.append(row)
    return rows


def report(rows: list[dict]) -> str:
    lines = [
        f"{'trick':>5} {'per world':>10} {'1 worker s':>11} {'worlds/s':>9} "
        f"{'2 workers s':>12} {'worlds/s':>9} {'speed-up':>9}"
    ]
    for r in rows:
        one, two = r["1 worker"], r["2 workers"]
        lines.append(
            f"{r['trick']:>5} {r['method']:>10} {one['median_s']:>11.3f} {one['worlds_per_s']:>9.0f} "
            f"{two['median_s']:>12.3f} {two['worlds_per_s']:>9.0f} {r['speedup']:>8.2f}x"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = run(a.deals, a.worlds)
    print(json.dumps(rows) if a.json else report(rows))


if __name__ == "__main__":
    main()
