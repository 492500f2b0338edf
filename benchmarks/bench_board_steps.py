"""The board's step-through: each next position of a line analysed by the kept worker (its
table warm from the position before), against the same analysis from a cleared table.

For each seeded Brisque deal, a line of best moves from the position with ``--talon``
talon tricks left (each move the best of an exact solve), ``--steps`` positions long.
Every position is analysed as the board analyses it (``solver.board.jobs.Jobs``, the kept
exact-solve worker, ``--seconds`` a position) and, for comparison, by a bounded solve from
a cleared table with the same time (what a one-off worker does).  The values must be the
same; the node counts and the solves' own times (the answers' ``seconds``: the board's
wall time per analysis also holds its worker's round trip and 50 ms polls) are reported per
step and in total, the first position of each line (cold in both) left out of the totals.

Run:  python -m benchmarks.bench_board_steps [--seeds 1-5] [--talon 6] [--steps 8]
          [--seconds 30] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any

from benchmarks.harness.timing import timed
from solver.bench.suites import machine
from solver.board.jobs import Job, Jobs, Quotas
from solver.engine.results import Limit
from solver.engine.solving import BOUNDED_TABLE_BITS, Solver, solve
from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import positions_with_talon_left


def line_of(p: Position, steps: int) -> list[Position]:
    """``p`` and the positions after each best move, ``steps`` in all (fewer if it ends)."""
    line = [p.copy()]
    while len(line) < steps and not line[-1].is_over():
        q = line[-1].copy()
        q.push(solve(q, every_move=False, pv=False).best[0])
        if q.is_over():
            break
        line.append(q)
    return line


def analyse_on_board(jobs: Jobs, q: Position, seconds: float) -> Job:
    """``q`` analysed by the board's kept worker, ``seconds`` at most, the job when done."""
    return jobs.wait(jobs.start(q.bpn(), seconds=seconds).id, timeout=seconds + 30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--talon", type=int, default=6, help="talon tricks left at the first position")
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    jobs = Jobs(Quotas(max_running=1, max_seconds=args.seconds))
    cold = Solver(Rules(), BOUNDED_TABLE_BITS)
    rows: list[dict[str, Any]] = []
    try:
        for seed in seeds:
            start = positions_with_talon_left(args.talon, 1, Rules(), first_seed=seed)[0]
            for step, q in enumerate(line_of(start, args.steps)):
                job, board_s = timed(analyse_on_board, jobs, q, args.seconds)
                cold.engine.clear()
                c, cold_s = timed(cold.solve, q, limit=Limit(seconds=args.seconds))
                a = job.answer or {}
                exact = a.get("method") == "exact" and c.exact
                row = {
                    "seed": seed,
                    "step": step,
                    "exact": exact,
                    "same_value": not exact or a.get("value") == int(c.value),
                    "board_nodes": a.get("nodes"),
                    "cold_nodes": c.nodes,
                    # the solve's own time (the answer's seconds), and the wall time of the
                    # board's analysis (the worker's round trip and the 50 ms polls included)
                    "board_solve_s": a.get("seconds"),
                    "cold_solve_s": round(c.seconds, 4),
                    "board_wall_s": round(board_s, 3),
                    "cold_wall_s": round(cold_s, 3),
                }
                rows.append(row)
                print(json.dumps(row), flush=True)
    finally:
        jobs.close()
    later = [r for r in rows if r["step"] > 0 and r["exact"]]  # (the first of a line is cold in both)
    summary = {
        "machine": machine(),
        "positions": len(rows),
        "later_positions": len(later),
        "median_node_ratio_later": round(
            statistics.median(r["board_nodes"] / r["cold_nodes"] for r in later), 3
        )
        if later
        else None,
        "total_nodes_later": [sum(r["board_nodes"] for r in later), sum(r["cold_nodes"] for r in later)],
        "total_solve_seconds_later": [
            round(sum(r["board_solve_s"] for r in later), 3),
            round(sum(r["cold_solve_s"] for r in later), 3),
        ],
        "median_solve_time_ratio_later": round(
            statistics.median(r["board_solve_s"] / r["cold_solve_s"] for r in later), 3
        )
        if later
        else None,
        "same_values": all(r["same_value"] for r in rows),
    }
    print(json.dumps(summary) if args.json else f"summary: {summary}")
    return 0 if summary["same_values"] else 1


if __name__ == "__main__":
    sys.exit(main())
