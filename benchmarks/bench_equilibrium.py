"""The equilibrium solver's speed on seeded public subgames (against its targets).

Positions: Petite Brisque with two cards each on lead, and the start of the last talon trick
in Briscan and Brisque (seeded deals played on by seeded random moves), solved whole: both
hands hidden, every consistent deal.  A first solve outside the timing loads scipy and
HiGHS, and each game's engine (its table) is made before its positions are timed.  Wall and CPU seconds are both given, so that a solver using more than one core
would show.

This machine's speed varies from minute to minute (a plain Python loop by up to half as
much again), so with ``--repeat N`` each subgame is solved N times and its median time is
the figure; every time is in ``walls``.

Run:  python -m benchmarks.bench_equilibrium [--seeds 1-10] [--games petite,briscan,brisque] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

from benchmarks.bench_strategy_fusion import last_talon_trick
from benchmarks.harness.timing import repeat
from solver.analysis.equilibrium import equilibrium
from solver.engine.solving import shared_solver
from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import deal


def petite_ending(seed: int) -> Position:
    """Petite Brisque, two cards each, on lead (seeded random play)."""
    p = deal(seed, "petite")
    rng = random.Random(seed)
    while p.hand_size(0) > 2 or p.trick >= 0:
        p.push(rng.choice(p.legal_moves()))
    p.clear_stack()
    return p


def positions(game: str, seeds: list[int]) -> list[tuple[int, Position]]:
    out: list[tuple[int, Position]] = []
    for s in seeds:
        p = petite_ending(s) if game == "petite" else last_talon_trick(s, game)
        if p is not None:
            out.append((s, p))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-10", help="a range such as 1-10")
    ap.add_argument("--games", default="petite,briscan,brisque")
    ap.add_argument("--repeat", type=int, default=1, help="solves a subgame, the median timed")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    warm = petite_ending(1)
    equilibrium(warm)  # loads scipy and HiGHS
    for game in args.games.split(","):
        shared_solver(Rules.parse(game))  # (its engine and table, made once, outside the timing)
        rows: list[dict[str, Any]] = []
        for seed, p in positions(game, list(range(lo, hi + 1))):
            run = repeat(lambda: equilibrium(p), args.repeat)  # noqa: B023  (called at once)
            a = run.values[-1]
            walls = [round(s, 3) for s in run.seconds]
            cpus = [round(s, 3) for s in run.cpu_seconds]
            row: dict[str, Any] = {
                "game": game,
                "seed": seed,
                "deals": a.deals,
                "leaves": a.leaves,
                "wall": statistics.median(walls),
                "cpu": statistics.median(cpus),
                "walls": walls,
                "exploitability": a.exploitability,
                "mixed_root": len(a.best) > 1,
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
        medians = [r["wall"] for r in rows]
        print(
            json.dumps(
                {
                    "game": game,
                    "positions": len(rows),
                    "median_wall": round(statistics.median(medians), 2),
                    "p90_wall": sorted(medians)[max(0, -(-9 * len(medians) // 10) - 1)],
                    "max_wall": max(medians),
                    "median_cpu": round(statistics.median(r["cpu"] for r in rows), 2),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
