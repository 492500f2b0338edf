"""Fit the weights of the horizon evaluation on exact solves, and write them into the package.

A depth-limited search (the world search before the last talon tricks) scores the positions
at its horizon by a weighted sum of features that the engine computes
(``Engine.horizon_features``: card points, trumps, sure trump winners, the talon's points and
the order it will be drawn in, melds in hand, aces and tens, the exchange; docs/solver.md).
This script solves seeded positions exactly at the start of a trick with 0 to 5 talon
tricks left (random legal play from seeded deals; seeds 1,000,000 + 10,000 j, apart from the
test positions of bench_world_search.py), fits one least-squares weight row per number of
talon tricks left with numpy, reports the error on a held-out quarter beside the hand-made
heuristic's, and ships them (``solver.engine.evaluation.write_linear_weights``).  Rows
beyond the last fitted level repeat it.  The exact values are kept in
``benchmarks/training/data/horizon-train-<game>.jsonl`` (not kept in git), so a re-fit
does not solve again.

Run from the repository's root:
      python -m benchmarks.training.fit_horizon [--games brisque,briscan,petite(draw=yes)]
      [--per-level 2000] [--levels 0,1,2,3,4,5]       (needs numpy: pip install '.[bench]')
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from solver.engine import Solver
from solver.engine.evaluation import horizon_key, linear_weights, write_linear_weights
from solver.model.position import Position
from solver.model.rules import Rules
from solver.native.constants import WIN_THRESHOLD
from solver.native.engine import HORIZON_FEATURES, HORIZON_ROWS
from solver.play.dealing import random_position

DATA = Path(__file__).parent / "data"  # (the exact values: regenerated, not kept in git)
FIRST_SEED = 10**6


def slug(game: str) -> str:
    return game.replace("(", "-").replace(")", "").replace("=", "-")


def training_data(game: str, per_level: int, levels: list[int]) -> list[dict[str, Any]]:
    """Exact raw future values of seeded positions, from the cache or solved now (and kept)."""
    rules = Rules.parse(game)
    path = DATA / f"horizon-train-{slug(game)}.jsonl"
    rows = (
        [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []
    )
    have: dict[int, int] = {}
    for r in rows:
        have[r["j"]] = have.get(r["j"], 0) + 1
    solver = Solver(rules)
    solver.engine.set_horizon(None)
    path.parent.mkdir(parents=True, exist_ok=True)
    for j in levels:
        if have.get(j, 0) >= per_level:
            continue
        trick = rules.talon_tricks + 1 - j
        seed, n, t0 = FIRST_SEED + 10**4 * j, 0, time.time()
        with path.open("a") as f:
            while n < per_level:
                p = random_position(seed, rules, trick)
                seed += 1
                if p.is_over() or p.trick_number != trick or p.trick >= 0 or p.in_window:
                    continue
                n += 1
                if n <= have.get(j, 0):
                    continue  # already in the cache (the seeds run in the same order)
                solver.load(p)
                solver.engine.clear_limits()
                row = {"bpn": p.bpn(), "j": j, "raw": solver.engine.value()}
                rows.append(row)
                f.write(json.dumps(row) + "\n")
        print(
            f"{game}: {per_level} positions with {j} talon tricks left in {time.time() - t0:.0f} s",
            file=sys.stderr,
        )
    return rows


def fit(game: str, rows: list[dict[str, Any]]) -> list[list[float]]:
    """One weight row per level of talon tricks left; prints held-out errors."""
    solver = Solver(Rules.parse(game))
    by_level: dict[int, tuple[list[list[float]], list[float], list[float]]] = {}
    for r in rows:
        if abs(r["raw"]) >= WIN_THRESHOLD:
            continue  # a game won outright is not a margin to fit
        p = Position(r["bpn"])
        solver.load(p)
        level, feats = solver.engine.horizon_features()
        xs, ys, hs = by_level.setdefault(level, ([], [], []))
        xs.append(feats)
        ys.append(float(r["raw"]))
        solver.engine.set_horizon(None)
        solver.engine.set_limits(depth=0)  # depth 0 at a turn's start: the old heuristic
        hs.append(float(solver.engine.value(-(10**6) + 1, 10**6 - 1)))
        solver.engine.clear_limits()
    weights: list[list[float]] = []
    last: list[float] | None = None
    for level in range(HORIZON_ROWS):
        if level in by_level and len(by_level[level][1]) >= 100:
            x, y, h = (np.array(a, dtype=float) for a in by_level[level])
            cut = len(y) * 3 // 4
            w, *_ = np.linalg.lstsq(x[:cut], y[:cut], rcond=None)
            rmse = float(np.sqrt(np.mean((x[cut:] @ w - y[cut:]) ** 2)))
            old = float(np.sqrt(np.mean((h[cut:] - y[cut:]) ** 2)))
            versus = "the final phase is solved exactly" if level == 0 else f"hand-made {old:.1f}"
            print(
                f"{game} level {level}: {len(y)} positions, sd {y[cut:].std():.1f}, "
                f"held-out rmse fitted {rmse:.1f}, {versus}",
                file=sys.stderr,
            )
            w, *_ = np.linalg.lstsq(x, y, rcond=None)  # the weights kept: fitted on all
            last = [round(float(v), 3) + 0.0 for v in w]  # (+ 0.0: no -0.0)
        weights.append(last if last is not None else [0.0] * HORIZON_FEATURES)
    first = next((w for w in weights if any(w)), None)
    if first is None:
        raise SystemExit(f"{game}: no level has 100 positions to fit")
    return [w if any(w) else first for w in weights]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="brisque,briscan,petite(draw=yes)")
    ap.add_argument("--per-level", type=int, default=2000)
    ap.add_argument("--levels", default="0,1,2,3,4,5")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    out = {}
    for game in args.games.split(","):
        out[horizon_key(Rules.parse(game))] = fit(game, training_data(game, args.per_level, levels))
    path = write_linear_weights({**linear_weights(), **out})  # (the games not fitted now stay)
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
