"""Deep double-dummy search: time and nodes by number of talon tricks left.

For k = 0..10 talon tricks left (k = 10 is the whole Brisque deal from trick 1), seeded
deals are played on by random legal moves to the start of trick 11 - k and the value of
the position (talon order known) is solved exactly with a fresh table, under a CPU-time cap
per solve.  A solve that hits the cap is counted as unfinished and its time as the cap.

Run:  python benchmarks/bench_deep.py [--positions 20] [--max-k 10] [--cap 10] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from solver.engine import Solver
from solver.engine.seam import engine_root
from solver.model.rules import Rules
from solver.play.dealing import positions_with_talon_left  # (other benchmarks import it from here)


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    i = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[i]


# Enhancements measured on their own: each configuration adds one to the previous.  (The
# table layout, a small final-phase table, two-entry buckets and huge pages, serves all.)
_STEPS = [
    ("plain alpha-beta", {}),
    ("+ forced declarations", dict(forced=True)),
    ("+ equivalent cards", dict(merge=True)),
    ("+ MTD(f) from a guess", dict(mtdf=True)),
    ("+ enhanced transposition cutoffs", dict(etc=True)),
    ("+ talon ordering: cheap leads, killer moves", dict(ordering=True)),
    ("+ value bounds: points left, sure trumps", dict(bounds=True)),
    ("+ plain card play of the last six tricks", dict(small=True)),
]
CONFIGS: dict[str, dict] = {}
_features = dict(merge=False, forced=False, mtdf=False, etc=False, ordering=False, bounds=False, small=False)
for _name, _step in _STEPS:
    _features = {**_features, **_step}
    CONFIGS[_name] = dict(_features)
BEST = _STEPS[-1][0]  # every enhancement: the engine's default


def run(
    positions: int = 20,
    max_k: int = 10,
    cap: float = 10.0,
    table_bits: int = 22,
    stop_after_unfinished: bool = True,
    features: dict | None = None,
) -> list[dict]:
    rules = Rules()
    rows = []
    solver = Solver(rules, table_bits)
    eng = solver.engine
    if features:
        eng.set_features(**features)
    for k in range(0, max_k + 1):
        times, nodes, unfinished = [], [], 0
        for p in positions_with_talon_left(k, positions, rules):
            eng.clear()
            eng.load(engine_root(p))
            eng.set_limits(seconds=cap)
            n0 = eng.nodes
            t0 = time.perf_counter()
            eng.value()
            dt = time.perf_counter() - t0
            if eng.aborted:
                unfinished += 1
                dt = cap
            times.append(dt)
            nodes.append(eng.nodes - n0)
            eng.clear_limits()
        rows.append(
            {
                "k": k,
                "positions": positions,
                "unfinished": unfinished,
                "median_ms": statistics.median(times) * 1000,
                "p90_ms": percentile(times, 0.9) * 1000,
                "median_nodes": statistics.median(nodes),
                "p90_nodes": percentile(nodes, 0.9),
            }
        )
        if stop_after_unfinished and unfinished * 2 > positions:
            break  # most solves hit the cap: larger k would only hit it too
    return rows


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
