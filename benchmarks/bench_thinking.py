"""The cost of thinking: what a second of thinking buys, by the work a world search does.

Thinking by time (``pimc:0.5s``, ``analyse --think 0.5``) counts the work of each world in
seconds of this machine's time, from what the search did, so that the same seed gives the
same answer whatever the machine's load and the number of workers
(solver/analysis/thinking.py):

    seconds = world + nodes * node + evaluations * evaluation

with a node's cost by the kind of search (exact, or to which horizon evaluation), and the
inference's cost for each move it replays in each history of a world.  This script
measures the costs: it solves sampled worlds of dealt positions (views of the player
to move, at every talon trick, in both games) with each world search, times each world in
one process, fits each game's costs by least squares, and reports, for every search, the
measured time against the time the fitted and the shipped costs predict (a ratio near 1
for every search, or the budget would favour one of them).  The inference is timed apart
(the likelihood of each sampled world of positions reached by random play, in CPU seconds
of this process, so that other work on the machine does not count), and its cost a
replayed move fitted through the origin; ``--inference-only`` refits that cost alone and
keeps the others.

Run:  python -m benchmarks.bench_thinking [--deals 12] [--worlds 10] [--inference-only] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from functools import partial

import numpy as np

from benchmarks.harness.result_files import RESULTS
from benchmarks.harness.timing import each
from solver.analysis.inference import History, log_likelihood, model_for
from solver.analysis.sampling import WorldResult, solve_world
from solver.analysis.thinking import COSTS, world_work
from solver.analysis.worlds import iter_worlds
from solver.engine.evaluation import HORIZONS
from solver.engine.quick import WorldSearch
from solver.engine.results import Limit
from solver.model.rules import Rules
from solver.play.dealing import deal, random_position

SEARCHES = ["linear", "learned", "learned:3", "linear:3", "handmade:3"]  # (quick is learned:3 in both games)
GAMES = ["brisque", "briscan"]


Row = tuple[float, int, int, bool]  # seconds, nodes, evaluations, exact


def solved(rules: Rules, limit: Limit | None, horizon: str, bpn: str) -> WorldResult:
    """One world (BPN) solved as an analysis's worker solves it (no time limit, no inference)."""
    result = solve_world(rules, bpn, limit, horizon)
    assert result is not None  # (a world search's limit is a depth, or none: no budget stops it)
    return result


def measure(game: str, search: str, deals: int, worlds: int) -> list[Row]:
    """(seconds, nodes, evaluations, exact) of every world solved by ``search``."""
    rules = Rules.parse(game)
    ws = WorldSearch.parse(search)
    rows: list[Row] = []
    for seed in range(deals):
        for trick in range(1, rules.talon_tricks + 1):
            p = random_position(1000 + seed, rules, trick)
            if p.is_over() or not p.rules.draws or p.talon_count == 0:
                continue
            v = p.view(p.turn)
            if len(v.legal_moves()) < 2:
                continue
            lim = ws.limit(v)
            bpns = [w.bpn() for w in itertools.islice(iter_worlds(v, seed), worlds)]
            run = each(partial(solved, rules, lim, ws.horizon(rules)), bpns)
            for dt, (_, nodes, evaluations, _) in zip(run.seconds, run.values, strict=True):
                rows.append((dt, nodes, evaluations, lim is None))
    return rows


def measure_inference(game: str, deals: int, worlds: int) -> list[tuple[float, int]]:
    """(CPU seconds, moves replayed) of the likelihood of each sampled world, at every
    talon trick of ``deals`` deals played on at random."""
    rules = Rules.parse(game)
    histories = model_for(game).histories
    rows: list[tuple[float, int]] = []
    for seed in range(deals):
        p = deal(2000 + seed, rules)
        rng = np.random.default_rng(seed)
        while not p.is_over() and p.talon_count:
            legal = p.legal_moves()
            if len(legal) > 1 and p.move_stack:
                h = History.of(p)
                if h.opponent_decisions:
                    sampled = itertools.islice(iter_worlds(p.view(p.turn), seed), worlds)
                    run = each(lambda w: log_likelihood(h, w, seed), sampled)  # noqa: B023  (called at once)
                    rows.extend((cpu, len(h.moves) * histories) for cpu in run.cpu_seconds)
            p.push(legal[int(rng.integers(len(legal)))])
    return rows


def fit_inference(deals: int, worlds: int) -> dict[str, dict[str, float]]:
    """Each game's cost a replayed move (through the origin: no history, no cost), with the
    time the fitted and the shipped costs predict over the time measured."""
    out = {}
    for game in GAMES:
        measure_inference(game, 1, 2)  # (warms the tables and the caches)
        rows = measure_inference(game, deals, worlds)
        t = np.array([r[0] for r in rows])
        n = np.array([r[1] for r in rows], dtype=float)
        a = float(t @ n / (n @ n))
        out[game] = {
            "inference_move": a,
            "worlds": len(rows),
            "ms_per_world": 1000 * float(t.mean()),
            "fitted_ratio": float(a * n.sum() / t.sum()),
            "shipped_ratio": float(COSTS[game].inference_move * n.sum() / t.sum()),
        }
        print(f"{game} inference: {len(rows)} worlds, {a * 1e6:.1f} µs a replayed move", file=sys.stderr)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--worlds", type=int, default=10)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--inference-only", action="store_true", help="refit the inference's cost alone")
    args = ap.parse_args()
    path = RESULTS / "thinking.json"
    if args.inference_only:
        result = json.loads(path.read_text())
        result["inference"] = fit_inference(args.deals, args.worlds)
        path.write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps(result["inference"], indent=1))
        return
    data: dict[tuple[str, str], list[Row]] = {}
    for game in GAMES:
        for search in SEARCHES:
            # a first pass warms the tables, the network and the caches of the process
            measure(game, search, 1, 2)
            data[game, search] = measure(game, search, args.deals, args.worlds)
            print(f"{game} {search}: {len(data[game, search])} worlds", file=sys.stderr)
    fitted: dict[str, dict[str, float]] = {}
    columns = ["world", "exact_node", *HORIZONS, "evaluation"]
    for game in GAMES:
        x, y = [], []
        for search in SEARCHES:
            horizon = WorldSearch.parse(search).horizon(Rules.parse(game))
            for t, n, e, exact in data[game, search]:
                row = [1.0] + [0.0] * (len(columns) - 1)
                row[columns.index("exact_node" if exact else horizon)] = n
                row[-1] = e
                x.append(row)
                y.append(t)
        # plain least squares: a budget sums worlds' times, so the long worlds must be right
        # (relative errors fitted the typical world better and the totals worse: by 0.58 to 1.03)
        fit, *_ = np.linalg.lstsq(np.array(x), np.array(y), rcond=None)
        fitted[game] = dict(zip(columns, map(float, fit)))
    table = []
    for (game, search), rs in data.items():
        horizon = WorldSearch.parse(search).horizon(Rules.parse(game))
        f = fitted[game]
        measured = sum(r[0] for r in rs)
        predicted = sum(
            f["world"] + f["exact_node" if exact else horizon] * n + f["evaluation"] * e
            for _, n, e, exact in rs
        )
        shipped = sum(world_work(game, horizon, exact, n, e) for _, n, e, exact in rs)
        table.append(
            {
                "game": game,
                "search": search,
                "worlds": len(rs),
                "ms_per_world": 1000 * measured / len(rs),
                "fitted_ratio": predicted / measured,
                "shipped_ratio": shipped / measured,
            }
        )
    result = {"fitted": fitted, "searches": table, "inference": fit_inference(args.deals, args.worlds)}
    RESULTS.mkdir(exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")
    if args.json:
        print(json.dumps(result))
        return
    for game, f in fitted.items():
        print(f"{game}: " + ", ".join(f"{k} {v * 1e9:.0f} ns" for k, v in f.items()))
    print(f"{'game':8} {'search':11} {'worlds':>6} {'ms/world':>9} {'fitted':>7} {'shipped':>8}")
    for r in table:
        print(
            f"{r['game']:8} {r['search']:11} {r['worlds']:6d} {r['ms_per_world']:9.2f} "
            f"{r['fitted_ratio']:7.3f} {r['shipped_ratio']:8.3f}"
        )


if __name__ == "__main__":
    main()
