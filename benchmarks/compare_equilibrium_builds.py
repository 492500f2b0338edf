"""The equilibrium solver of two checkouts side by side: each solves the same seeded
subgames in its own process, the two alternating, and the median of the repeats is
compared (with the game values, which must be the same).

Run:  python benchmarks/compare_equilibrium_builds.py BEFORE_CHECKOUT AFTER_CHECKOUT briscan 1,5,15 3

A checkout needs its compiled modules in solver/native/ (copy them from a built one).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile

SCRIPT = r"""
import sys, time, json
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + "/benchmarks")
from bench_equilibrium import positions, petite_ending
from solver.analysis.equilibrium import equilibrium
from solver.engine.api import shared_solver
from solver.model.rules import Rules
equilibrium(petite_ending(1))
game, seeds = sys.argv[2], [int(x) for x in sys.argv[3].split(",")]
shared_solver(Rules.parse(game))
out = {}
for s, p in positions(game, seeds):
    t = time.perf_counter(); a = equilibrium(p); out[s] = (round(time.perf_counter() - t, 3), a.game_value)
print(json.dumps(out))
"""


def main() -> None:
    trees = {"before": sys.argv[1], "after": sys.argv[2]}
    game, seeds, repeats = sys.argv[3], sys.argv[4], int(sys.argv[5])
    runs: dict[str, list[dict[str, list[float]]]] = {name: [] for name in trees}
    away = tempfile.mkdtemp()  # (outside both checkouts: each imports its own solver)
    for _ in range(repeats):
        for name, root in trees.items():
            o = subprocess.run(
                [sys.executable, "-c", SCRIPT, root, game, seeds], capture_output=True, text=True, cwd=away
            )
            if o.returncode:
                sys.exit(o.stderr)
            runs[name].append(json.loads(o.stdout))
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
