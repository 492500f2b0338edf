"""Sampling throughput: a 200-world best-move query at tricks 1, 5 and 9 of Brisque deals,
with one and with two worker processes, side by side in the same run.

Each query is the view of the player to move in a seeded deal played on by random moves
to the given trick.  Reported: median seconds per query and worlds per second, and the
two-worker speed-up.

The measurement is the research suite ``sampling-workers``
(``benchmarks/research.py``).

Run:  python -m benchmarks.bench_sampling [--deals 5] [--worlds 200] [--json]
"""

from __future__ import annotations

import argparse
import json

from benchmarks.research import sampling_workers


def run(deals: int = 5, worlds: int = 200) -> list[dict]:
    """The rows of the research suite ``sampling-workers``."""
    return sampling_workers(deals=deals, worlds=worlds)["rows"]


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
