"""Budgeted solves against the exact solve: what a budget that suffices costs, and how good
the answer is when it does not.

For each position (Brisque, k talon tricks left, the positions of ``bench_deep``; k = 10
is the whole deal), measured one after the other, each with a fresh solver:

* the exact solve (every move's value), its nodes and time;
* the budgeted solve with a node budget far beyond need, its nodes and time against the
  exact solve's (the cost of the budget machinery itself);
* the budgeted solve with ``--fractions`` of the exact solve's nodes as its budget: whether
  its best move is an exact best move, and how far its estimate lies from the exact value
  (a game win counts as its margin of 10000: reported apart, as the share of positions
  where the answer's proven interval holds the exact value, which must be all).

Run with the tree to measure on ``sys.path`` (``PYTHONPATH=/tmp/baseline`` for another
build), so that two builds can be run on the same positions:

    python -m benchmarks.bench_budget [--k 6 7] [--positions 8] [--fractions 0.01 0.1 0.5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from typing import Any

from benchmarks.harness.positions import positions_with_talon_left
from benchmarks.harness.timing import timed
from solver import Rules, deal
from solver.engine import Analysis, Limit, Solver
from solver.model.position import Position


def _timed(p: Position, limit: Limit | None) -> tuple[Analysis, float]:
    """The solve of ``p`` under ``limit`` by a fresh solver (made before the clock starts)."""
    return timed(Solver(p.rules).solve, p, pv=False, limit=limit)


def measure(p: Position, fractions: list[float]) -> dict[str, Any]:
    exact, t_exact = _timed(p, None)
    ample, t_ample = _timed(p, Limit(nodes=10**13))
    row: dict[str, Any] = {
        "bpn": p.bpn(),
        "exact_value": int(exact.value),
        "exact_nodes": exact.nodes,
        "exact_ms": round(t_exact * 1000, 1),
        "ample_exact": ample.exact and ample.value == exact.value,
        "ample_nodes_ratio": round(ample.nodes / max(1, exact.nodes), 3),
        "ample_time_ratio": round(t_ample / t_exact, 3),
    }
    best = {str(m) for m in exact.best}
    for f in fractions:
        a, _ = _timed(p, Limit(nodes=max(1, int(exact.nodes * f))))
        row[f"f{f}"] = {
            "best_ok": str(a.best[0]) in best,
            "error": abs(int(a.value) - int(exact.value)),
            "holds": a.lower is not None and a.upper is not None and a.lower <= exact.value <= a.upper,
            "exact": a.exact,
        }
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--k", type=int, nargs="+", default=[6, 7])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--fractions", type=float, nargs="+", default=[0.01, 0.1, 0.5])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import solver

    out: dict[str, Any] = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "tree": os.path.dirname(os.path.dirname(os.path.abspath(solver.__file__))),
    }
    for k in args.k:
        ps = (
            [deal(s) for s in range(1, args.positions + 1)]
            if k >= 10
            else positions_with_talon_left(k, args.positions, Rules())
        )
        rows: list[dict[str, Any]] = []
        for i, p in enumerate(ps):
            rows.append(measure(p, args.fractions))
            print(f"k={k} {i + 1}/{len(ps)}", file=sys.stderr, flush=True)
        summary: dict[str, Any] = {
            "positions": len(rows),
            "ample_all_exact": all(r["ample_exact"] for r in rows),
            "ample_nodes_ratio_median": statistics.median(float(r["ample_nodes_ratio"]) for r in rows),
            "ample_time_ratio_median": statistics.median(float(r["ample_time_ratio"]) for r in rows),
            "ample_time_ratio_total": round(
                sum(float(r["ample_time_ratio"]) * float(r["exact_ms"]) for r in rows)
                / sum(float(r["exact_ms"]) for r in rows),
                3,
            ),
        }
        for f in args.fractions:
            cells = [r[f"f{f}"] for r in rows]
            ordinary = [c["error"] for c in cells if c["error"] < 5000]
            summary[f"f{f}"] = {
                "best_ok": sum(1 for c in cells if c["best_ok"]),
                "exact": sum(1 for c in cells if c["exact"]),
                "holds": sum(1 for c in cells if c["holds"]),
                "median_error": statistics.median(ordinary) if ordinary else None,
                "game_errors": len(cells) - len(ordinary),
            }
        out[f"k{k}"] = {"summary": summary, "rows": rows}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for k in args.k:
            print(f"k = {k}:", json.dumps(out[f"k{k}"]["summary"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
