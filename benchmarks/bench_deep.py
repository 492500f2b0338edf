"""Deep double-dummy search: time and nodes by number of talon tricks left.

For k = 0..10 talon tricks left (k = 10 is the whole Brisque deal from trick 1), seeded
deals are played on by random legal moves to the start of trick 11 - k and the value of
the position (talon order known) is solved exactly with a fresh table, under a CPU-time cap
per solve.  A solve that hits the cap is counted as unfinished and its time as the cap.

The measurement is benchmarks.research.deep_levels (``python -m benchmarks.research --suite
enhancements`` runs it for each enhancement); this script runs the default search alone.

Run:  python -m benchmarks.bench_deep [--positions 20] [--max-k 10] [--cap 10] [--json]
"""

from __future__ import annotations

import argparse
import json

from benchmarks.research import deep_levels


def run(
    positions: int = 20,
    max_k: int = 10,
    cap: float = 10.0,
    table_bits: int = 22,
    features: dict | None = None,
) -> list[dict]:
    """The levels of the research suite ``enhancements``, for one
    configuration (benchmarks.research.deep_levels)."""
    return deep_levels(positions, max_k, cap, features, table_bits)


def report(rows: list[dict], cap: float) -> str:
    lines = [
        f"{'k':>3} {'median ms':>11} {'p90 ms':>11} {'median nodes':>13} {'p90 nodes':>12}  unfinished (cap {cap:g} s)"
    ]
    for r in rows:
        lines.append(
            f"{r['k']:>3} {r['median_ms']:>11.2f} {r['p90_ms']:>11.2f} {r['median_nodes']:>13.0f} "
            f"{r['p90_nodes']:>12.0f}  {r['unfinished']}/{r['positions']}"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--max-k", type=int, default=10)
    ap.add_argument("--cap", type=float, default=10.0, help="CPU seconds per solve")
    ap.add_argument("--table-bits", type=int, default=22)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = run(a.positions, a.max_k, a.cap, a.table_bits)
    print(json.dumps(rows) if a.json else report(rows, a.cap))


if __name__ == "__main__":
    main()
