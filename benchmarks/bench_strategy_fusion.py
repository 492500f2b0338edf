"""Strategy fusion measured: PIMC against the exact equilibrium of the last talon trick.

For seeded public states of the last talon trick (a deal played on by seeded random moves
to the start of its last talon trick; the player to move holds his actual hand), the
equilibrium solver (``solver.analysis.equilibrium``) gives the public subgame's equilibrium
and PIMC's strategy (each information set's move of best mean double-dummy value over the
consistent deals, every deal alike).  Per state it records:

* **in support**: PIMC's move with the actual hand is played by the equilibrium;
* **loss**: what that move loses against the equilibrium opponent (``pimc_loss``, points);
* **PIMC exploitability**: both players' best-response gains against PIMC's whole strategy
  in the public subgame (NashConv, points; the equilibrium's is about 0);
* **mixed**: the equilibrium mixes with the actual hand at the root, and the share of the
  information sets it reaches where it mixes (both players).

The answers go to ``benchmarks/results/strategy-fusion-<game>.jsonl``, one line a state, and
a rerun goes on from the states already there (an interrupted run keeps what it finished).

Run:  python -m benchmarks.bench_strategy_fusion --game briscan [--states 300] [--summary]
      [--shard K/N]  (N processes, one a core, each taking every Nth state)
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.harness.result_files import RESULTS
from solver.analysis.equilibrium import equilibrium
from solver.analysis.public import entry_move
from solver.model.position import Position
from solver.play.dealing import random_position

MIXED = 1e-6  # a move played with at least this probability is in the support


def last_talon_trick(seed: int, game: str) -> Position | None:
    """The start of the last talon trick of the seeded deal ``seed`` (random legal play), or
    None when the deal ends before it."""
    trick = 11 if game in ("briscan", "petite(draw=yes)") else 10
    p = random_position(seed, game, trick)
    if p.is_over() or p.trick >= 0 or p.talon_count != 1:
        return None
    return p


def own_reach(strategy: dict[Any, dict[int, float]], key: Any) -> float:
    """The probability that the player's own moves lead to information set ``key``: the
    product of his earlier choices on its history (his decisions are the prefixes of the
    history that are his information sets)."""
    seat, hand, hist = key
    reach = 1.0
    for k in range(len(hist)):
        earlier = strategy.get((seat, hand, hist[:k]))
        if earlier is not None:
            reach *= earlier.get(entry_move(hist[k]), 0.0)
    return reach


def measure(p: Position) -> dict[str, Any]:
    """One state's line of the table (module docstring)."""
    a = equilibrium(p, strategies=True)
    assert a.strategy is not None and a.pimc_move is not None
    reached = mixed = 0
    for key, probs in a.strategy.items():
        if len(probs) < 2 or own_reach(a.strategy, key) <= MIXED:
            continue
        reached += 1
        mixed += sum(q > MIXED for q in probs.values()) > 1
    return {
        "bpn": p.bpn(),
        "deals": a.deals,
        "leaves": a.leaves,
        "seconds": round(a.seconds, 3),
        "game_value": round(a.game_value, 4),
        "value": a.value,
        "exploitability": a.exploitability,
        "pimc_move": str(a.pimc_move),
        "in_support": a.pimc_move in a.best,
        "pimc_loss": a.pimc_loss,
        "pimc_exploitability": a.pimc_exploitability,
        "mixed_root": len(a.best) > 1,
        "infosets": reached,
        "mixed_infosets": mixed,
    }


def run(game: str, states: int, out: Path, shard: tuple[int, int] = (0, 1)) -> None:
    done: dict[int, dict[str, Any]] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            try:
                row = json.loads(line)
                done[row["seed"]] = row
            except (json.JSONDecodeError, KeyError):
                print(f"skipping a corrupt line of {out}: {line[:60]!r}", file=sys.stderr)
    seed = 0
    mine = sum(1 for s in done if s % shard[1] == shard[0])
    with out.open("a") as f:  # (one short line a write: shards can share the file)
        while mine < (states + shard[1] - 1 - shard[0]) // shard[1]:
            seed += 1
            if seed in done or seed % shard[1] != shard[0]:
                continue
            p = last_talon_trick(seed, game)
            if p is None:
                continue
            t = time.perf_counter()
            row = {"seed": seed, "game": game, **measure(p)}
            done[seed] = row
            mine += 1
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(
                f"{game} seed {seed}: {len(done)}/{states}, {time.perf_counter() - t:.1f} s, "
                f"loss {row['pimc_loss']:.3f}, PIMC exploitability {row['pimc_exploitability']:.3f}",
                file=sys.stderr,
            )


def _mean(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{m:.3f} ± {se:.3f}"


def summary(game: str, out: Path, states: int) -> dict[str, Any]:
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    rows = sorted({r["seed"]: r for r in rows}.values(), key=lambda r: r["seed"])[:states]
    n = len(rows)
    return {
        "game": game,
        "states": n,
        "pimc_in_support": f"{sum(r['in_support'] for r in rows)}/{n}",
        "pimc_loss_per_decision": _mean([r["pimc_loss"] for r in rows]),
        "states_with_loss": sum(r["pimc_loss"] > 1e-6 for r in rows),
        "max_loss": round(max(r["pimc_loss"] for r in rows), 3),
        "pimc_exploitability": _mean([r["pimc_exploitability"] for r in rows]),
        "equilibrium_exploitability_max": max(r["exploitability"] for r in rows),
        "mixed_at_root": f"{sum(r['mixed_root'] for r in rows)}/{n}",
        "mixed_infosets": f"{sum(r['mixed_infosets'] for r in rows)}/{sum(r['infosets'] for r in rows)}",
        "seconds_median": round(statistics.median(r["seconds"] for r in rows), 2),
        "seconds_max": round(max(r["seconds"] for r in rows), 2),
        "deals_median": statistics.median(r["deals"] for r in rows),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="briscan", help="brisque, briscan or petite(draw=yes)")
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--summary", action="store_true", help="only summarise the results file")
    ap.add_argument(
        "--shard", default="0/1", help="K/N: this process takes the states whose number is K mod N"
    )
    args = ap.parse_args()
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"strategy-fusion-{args.game.split('(')[0]}.jsonl"
    if not args.summary:
        k, n = (int(x) for x in args.shard.split("/"))
        run(args.game, args.states, out, (k, n))
    print(json.dumps(summary(args.game, out, args.states), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
