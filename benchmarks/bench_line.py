"""A whole deal's line analysed move by move against one whole-deal solve (warm
tables along a line, at most twice one solve).

For each seeded Brisque deal (talon order known): a greedy-against-greedy line played to the
end, then, each with a fresh table (the shared solver let go), (1) one solve of the deal's
start with every root move's value, as ``brisque solve`` gives it, and (2) ``analyse_line``
of the whole line, exact at every move (``auto_limit=False``), as ``brisque line --exact``
runs it: the shared solver's table kept from move to move, and each move judged by
``Solver.judge`` (the value, the played move's value and the best moves) instead of every
move's exact value.  With ``--old`` the line is also analysed the previous way (a full
solve a move, warm table), side by side.

Run:  python -m benchmarks.bench_line [--seeds 1-8] [--old]
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from benchmarks.harness.timing import timed
from solver.analysis.line import Step, analyse_line
from solver.engine.solving import forget_shared_solvers, solve
from solver.model.moves import Move
from solver.model.position import Position
from solver.play.dealing import deal, play_deal
from solver.play.players import make_player


def old_line(p: Position, moves: list[Move], steps: list[Step]) -> None:
    """The line analysed the previous way, a full solve a move (its answers checked against
    the judged ones)."""
    q = p.copy()
    for m, step in zip(moves, steps, strict=True):
        a = solve(q, pv=False)
        assert a.value == step.best_value and a.move_value(m) == step.move_value
        q.push(m)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-8")
    ap.add_argument("--old", action="store_true", help="also the previous way: a full solve a move")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    ratios: list[float] = []
    for seed in range(lo, hi + 1):
        p = deal(seed, "brisque")
        moves = play_deal(p, [make_player("greedy"), make_player("greedy")]).moves
        forget_shared_solvers()  # (a cold table for each timing, as a new process has)
        _, whole = timed(solve, p)
        forget_shared_solvers()  # (a cold table for each timing, as a new process has)
        steps, line = timed(analyse_line, p, moves, auto_limit=False)
        row: dict[str, Any] = {
            "seed": seed,
            "moves": len(moves),
            "whole_s": round(whole, 3),
            "line_s": round(line, 3),
        }
        row["line_over_whole"] = round(line / whole, 2)
        if args.old:
            forget_shared_solvers()  # (a cold table for each timing, as a new process has)
            _, old = timed(old_line, p, moves, steps)
            row["old_line_s"] = round(old, 3)
            row["old_over_new"] = round(row["old_line_s"] / line, 2)
        ratios.append(line / whole)
        print(json.dumps(row), flush=True)
    print(json.dumps({"deals": len(ratios), "median_line_over_whole": round(statistics.median(ratios), 2),
                      "max_line_over_whole": round(max(ratios), 2)}))  # fmt: skip


if __name__ == "__main__":
    main()
