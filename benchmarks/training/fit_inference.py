"""Fit the opponent model of the inference (solver/analysis/inference.py) on self-play records.

The records are deal records as ``brisque match --records`` writes them.  Every decision
with a choice made while the talon lasts (when worlds are sampled at all) is a sample: the
one-trick look-ahead values of the legal moves in the true position, and the move played.
The first ``--train`` share of the deal pairs fits BETA and FLOOR (a grid, the mean
log-probability of the moves played); the other pairs are held out and measure:

* the mean log-probability of the move played, against uniform over the legal moves;
* the log-likelihood of the opponent's true hand: at decision points of the held-out deals
  (every ``--every``-th decision of each player while the talon lasts), ``--worlds`` worlds
  sampled from the player's view and the true world are weighed by the model; the figure is
  log(w_true / mean w), 0 for uniform weights, positive when the inference favours the truth;
  with the share of points where it is positive and the worlds' effective sample size.

Run from the repository's root:
      python -m benchmarks.training.fit_inference --records deals.jsonl [--train 0.5] [--worlds 40]
      [--every 3] [--limit 200] [--ship]

The report goes to ``benchmarks/training/data/inference-<game>.json``; ``--ship`` ships the fitted
settings with the package (``solver.engine.evaluation.write_inference_settings``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from itertools import islice
from pathlib import Path
from typing import Any

from benchmarks.harness.records import read_records
from solver.analysis.inference import (
    VALUE_CAP,
    History,
    Model,
    effective_worlds,
    log_likelihood,
    move_probability,
    scored_decision,
)
from solver.analysis.worlds import iter_worlds
from solver.engine.evaluation import write_inference_settings
from solver.engine.solving import Solver
from solver.model.moves import as_move
from solver.model.position import Position

DATA = Path(__file__).parent / "data"
BETAS = [0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5]
FLOORS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3]

Sample = tuple[dict[int, int], int]


def live(p: Position) -> bool:
    """Whether a decision here is one the inference scores: worlds are sampled (talon left)."""
    return p.rules.draws and p.talon_count > 0


def decisions(records: list[dict[str, Any]], model: Model) -> list[Sample]:
    """The samples of every record (module text)."""
    out: list[Sample] = []
    for rec in records:
        p = Position(rec["start"])
        solver = Solver(p.rules, table_bits=12, horizon=model.horizon)
        for text in rec["moves"]:
            m = as_move(text)
            if live(p) and scored_decision(p.legal_moves(), model):
                solver.engine.clear()
                found, _ = solver.look_ahead(p, model.depth)
                out.append(({mv: max(-VALUE_CAP, min(VALUE_CAP, int(v))) for mv, v in found.items()}, int(m)))
            p.push(m)
    return out


def mean_log(samples: list[Sample], model: Model) -> float:
    return statistics.fmean(math.log(move_probability(v, m, model)) for v, m in samples)


def true_hand(
    records: list[dict[str, Any]], model: Model, worlds: int, every: int
) -> list[tuple[float, list[float]]]:
    """(the true world's log-likelihood, the sampled worlds') at the decision points of
    ``records``."""
    out = []
    for r, rec in enumerate(records):
        p = Position(rec["start"])
        start = p.copy()
        moves = [as_move(t) for t in rec["moves"]]
        seen = [0, 0]
        for k, m in enumerate(moves):
            me = p.turn
            if live(p) and k and len(p.legal_moves()) > 1:
                seen[me] += 1
                if seen[me] % every == 0:
                    h = History.from_play(start, moves[:k], me)
                    if h.opponent_decisions:
                        lls = [
                            log_likelihood(h, w, r, model)[0] for w in islice(iter_worlds(h.view, r), worlds)
                        ]
                        out.append((log_likelihood(h, p, r, model)[0], lls))
            p.push(m)
    return out


TEMPERS = [0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0]


def log_ratios(points: list[tuple[float, list[float]]], temper: float) -> list[float]:
    """log(w_true / mean w) at each point, the weights the likelihoods to the power ``temper``."""
    out = []
    for truth, lls in points:
        xs = [temper * x for x in lls + [truth]]
        top = max(xs)
        mean = math.fsum(math.exp(x - top) for x in xs) / len(xs)
        out.append(temper * truth - top - math.log(mean))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=Path, required=True)
    ap.add_argument("--train", type=float, default=0.5, help="share of the deal pairs fitted on")
    ap.add_argument("--worlds", type=int, default=40)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--scope", default="all", choices=["all", "melds"])
    ap.add_argument("--histories", type=int, default=Model().histories)
    ap.add_argument("--limit", type=int, default=200, help="held-out deals measured for the true hand")
    ap.add_argument("--ship", action="store_true", help="ship the fitted settings with the package")
    args = ap.parse_args()
    records = read_records(args.records)
    if not records:
        sys.exit(f"{args.records}: no records")
    game = Position(records[0]["start"]).rules.game
    pairs = sorted({rec["pair"] for rec in records})
    cut = pairs[int(len(pairs) * args.train)]
    train = [rec for rec in records if rec["pair"] < cut]
    held = [rec for rec in records if rec["pair"] >= cut]
    base = Model(scope=args.scope, histories=args.histories)
    fit_samples, held_samples = decisions(train, base), decisions(held, base)
    print(f"{game}: {len(fit_samples)} decisions fitted on, {len(held_samples)} held out", file=sys.stderr)
    grid = {(b, f): mean_log(fit_samples, Model(b, f, scope=args.scope)) for b in BETAS for f in FLOORS}
    beta, floor = max(grid, key=grid.__getitem__)
    model = Model(beta, floor, scope=args.scope, histories=args.histories)
    uniform = statistics.fmean(-math.log(len(v)) for v, _ in held_samples)
    held_log = mean_log(held_samples, model)
    points = true_hand(held[: args.limit], model, args.worlds, args.every)
    by_temper = {t: log_ratios(points, t) for t in TEMPERS}
    temper = max(by_temper, key=lambda t: statistics.fmean(by_temper[t]))
    ratios = by_temper[temper]
    report = {
        "game": game,
        "records": str(args.records),
        "decisions_fitted": len(fit_samples),
        "decisions_held_out": len(held_samples),
        "beta": beta,
        "floor": floor,
        "held_out_log_probability": held_log,
        "uniform_log_probability": uniform,
        "temper": temper,
        "true_hand_points": len(points),
        "true_hand_log_ratio": statistics.fmean(ratios) if points else None,
        "true_hand_log_ratio_by_temper": {str(t): statistics.fmean(v) for t, v in by_temper.items()},
        "true_hand_positive_share": sum(x > 0 for x in ratios) / len(points) if points else None,
        "effective_worlds_mean": statistics.fmean(
            effective_worlds([temper * x for x in lls]) for _, lls in points
        )
        if points
        else None,
        "worlds": args.worlds,
    }
    DATA.mkdir(exist_ok=True)
    (DATA / f"inference-{game}.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    if args.ship:
        path = write_inference_settings(game, {"beta": beta, "floor": floor, "temper": temper})
        print(f"wrote {path}", file=sys.stderr)
    else:
        print(f"ship with --ship: {game} beta={beta}, floor={floor}, temper={temper}")


if __name__ == "__main__":
    main()
