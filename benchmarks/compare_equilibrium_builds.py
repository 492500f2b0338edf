"""The equilibrium solver of two checkouts side by side: each solves the same seeded
subgames in its own process, the two alternating, and the median of the repeats is
compared (with the game values, which must be the same).

Run from the repository's root:
      python -m benchmarks.compare_equilibrium_builds BEFORE_CHECKOUT AFTER_CHECKOUT briscan 1,5,15 3

A checkout needs its compiled modules in solver/native/ (copy them from a built one).  The
subgames are made here, by this checkout's lab, and given to both as BPNs.
"""

from __future__ import annotations

import json
import statistics

from benchmarks.bench_equilibrium import petite_ending, positions
from benchmarks.harness.builds import in_build
from benchmarks.harness.console import parser

# a checkout's process: its own solver (its tree is the process's PYTHONPATH) solves the
# subgames given as BPNs on standard input, a warm-up first
SCRIPT = r"""
import sys, time, json
from solver.analysis.equilibrium import equilibrium
from solver.engine.solving import shared_solver
from solver.model.position import Position
from solver.model.rules import Rules
job = json.load(sys.stdin)
equilibrium(Position(job["warm_up"]))
shared_solver(Rules.parse(job["game"]))
out = {}
for s, bpn in job["positions"]:
    p = Position(bpn)
    t = time.perf_counter(); a = equilibrium(p); out[s] = (round(time.perf_counter() - t, 3), a.game_value)
print(json.dumps(out))
"""


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("before", help="the checkout before")
    ap.add_argument("after", help="the checkout after")
    ap.add_argument("game")
    ap.add_argument("seeds", help="the subgames' seeds, a comma between two")
    ap.add_argument("repeats", type=int)
    a = ap.parse_args()
    trees = {"before": a.before, "after": a.after}
    game, seeds, repeats = a.game, a.seeds, a.repeats
    runs: dict[str, list[dict[str, list[float]]]] = {name: [] for name in trees}
    job = json.dumps(
        {
            "game": game,
            "warm_up": petite_ending(1).bpn(),
            "positions": [(s, p.bpn()) for s, p in positions(game, [int(x) for x in seeds.split(",")])],
        }
    )
    for _ in range(repeats):
        for name, root in trees.items():
            runs[name].append(in_build(root, SCRIPT, stdin=job))
    for s in seeds.split(","):
        before = statistics.median(r[s][0] for r in runs["before"])
        after = statistics.median(r[s][0] for r in runs["after"])
        same = abs(runs["before"][0][s][1] - runs["after"][0][s][1]) < 1e-6
        row = {
            "game": game,
            "seed": int(s),
            "before": before,
            "after": after,
            "ratio": round(before / after, 2),
        }
        print(json.dumps({**row, "same_value": same}))


if __name__ == "__main__":
    main()
