"""Final-phase throughput: the compiled engine against the plain Python reference.

The same seeded set of Brisque positions at the start of the final phase (6 cards
each, reached by random play from seeded deals) is solved by:

* the engine in one batch call (value only, table shared across the batch),
* the engine giving every move's value (one call per position),
* the reference solver (every move's value: that is all it knows how to do).

Run:  python benchmarks/bench_final_phase.py [--positions 1000] [--table-bits 14] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from bench_deep import positions_with_talon_left

from solver.bench.suites import machine  # (one description of the machine for every benchmark)
from solver.engine import Solver
from solver.engine.reference import reference_values
from solver.engine.seam import engine_root
from solver.model.rules import Rules


def start_of_final_phase(count: int, rules: Rules) -> list:
    """``count`` positions at the first lead of the final phase, seeds 0, 1, 2, ..."""
    return positions_with_talon_left(0, count, rules)


def run(positions: int = 1000, table_bits: int = 14, reference_positions: int | None = None) -> dict:
    rules = Rules()
    ps = start_of_final_phase(positions, rules)
    states = [engine_root(p) for p in ps]

    solver = Solver(rules, table_bits)
    t0 = time.perf_counter()
    values, nodes = solver.engine.solve_batch(states)
    t_batch = time.perf_counter() - t0

    solver_all = Solver(rules, table_bits)
    t0 = time.perf_counter()
    all_values, all_nodes = solver_all.engine.solve_batch(states, every_move=True)
    t_every = time.perf_counter() - t0

    ref_ps = ps[: reference_positions or positions]
    t0 = time.perf_counter()
    ref_values = [max(reference_values(p).values()) for p in ref_ps]
    t_ref = time.perf_counter() - t0
    agree = all(v == r for v, r in zip(values, ref_values))

    n = len(ps)
    per_pos = t_batch / n
    ref_per_pos = t_ref / len(ref_ps)
    every_per_pos = t_every / n
    return {
        "machine": machine(),
        "positions": n,
        "table_bits": table_bits,
        "engine_value_us": per_pos * 1e6,
        "engine_value_positions_per_s": n / t_batch,
        "engine_nodes_per_position": sum(nodes) / n,
        "engine_nodes_per_s": sum(nodes) / t_batch,
        "engine_every_move_us": every_per_pos * 1e6,
        "every_move_over_value": every_per_pos / per_pos,
        "reference_positions": len(ref_ps),
        "reference_every_move_us": ref_per_pos * 1e6,
        "reference_positions_per_s": len(ref_ps) / t_ref,
        "speedup_value_vs_reference": ref_per_pos / per_pos,
        "speedup_every_move_vs_reference": ref_per_pos / every_per_pos,
        "values_agree": agree,
    }


def report(r: dict) -> str:
    return "\n".join(
        [
            f"Machine: {r['machine']}",
            f"{r['positions']} Brisque positions at the start of the final phase (6 cards each), "
            f"table 2^{r['table_bits']}",
            f"engine, value (batch):   {r['engine_value_us']:9.1f} us/position  "
            f"{r['engine_value_positions_per_s']:10.0f} positions/s  "
            f"{r['engine_nodes_per_position']:7.0f} nodes/position  {r['engine_nodes_per_s'] / 1e6:5.2f} M nodes/s",
            f"engine, every move:      {r['engine_every_move_us']:9.1f} us/position  "
            f"({r['every_move_over_value']:.2f}x the value alone)",
            f"reference, every move:   {r['reference_every_move_us']:9.1f} us/position  "
            f"{r['reference_positions_per_s']:10.1f} positions/s  ({r['reference_positions']} positions)",
            f"ratio reference/engine:  {r['speedup_value_vs_reference']:9.0f}x (value)  "
            f"{r['speedup_every_move_vs_reference']:.0f}x (every move)",
            f"values agree: {r['values_agree']}",
        ]
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument(
        "--reference-positions",
        type=int,
        default=None,
        help="solve only the first N with the reference (default: all)",
    )
    ap.add_argument("--table-bits", type=int, default=14)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    r = run(a.positions, a.table_bits, a.reference_positions)
    print(json.dumps(r) if a.json else report(r))


if __name__ == "__main__":
    main()
