"""World searches against the exact solve, on seeded double-dummy positions.

The quick search that each sampled world gets (solver.engine.quick) is measured here: on positions with 5 to 8 talon tricks left, played to by random legal moves
from seeded deals (every card known), each candidate search picks a move and is scored
against every move's exact value:

* **best**: the share of positions where it picked an exact best move;
* **loss**: the mean points lost per decision (exact best minus exact value of the pick),
  over the positions where neither is a game won or lost;
* **missed wins**: positions the exact solve wins outright where the pick does not;
  **walked into**: picks that lose the game outright where some move does not;
* **ms**: CPU milliseconds per position (median and mean), one process.

The exact values are slow (seconds at 8 talon tricks), so they are kept in
``benchmarks/results/world-search-exact-<game>.jsonl`` and computed only for positions not
there yet.  The fitted evaluation is trained on other seeds (``benchmarks/training/fit_horizon.py``),
so the test positions are never fitted.

Run:  python -m benchmarks.bench_world_search [--game brisque] [--per-level 50]
      [--levels 5,6,7,8] [--searches quick,depth:3,...] [--exact-only] [--json]
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from benchmarks.harness.console import Column, parser, text_table
from benchmarks.harness.result_files import RESULTS
from benchmarks.harness.timing import each, figures, timed
from benchmarks.training.fit_horizon import slug
from solver.engine import Solver
from solver.engine.quick import WorldSearch
from solver.engine.solving import shared_solver
from solver.model.moves import Move
from solver.model.outright import game_win_possible
from solver.model.position import Position
from solver.model.rules import Rules
from solver.native.constants import WIN_THRESHOLD, WIN_VALUE
from solver.play.dealing import positions_with_talon_left, random_position

FIRST_SEED = 0  # test positions: seeds 0, 1, ...; fitted evaluations train on other seeds


# The candidates (solver.engine.quick.WorldSearch): "quick" (the default world search:
# learned:3 in Brisque and Briscan), "learned" and "linear" (exact late and four tricks
# before, to the learned network or the fitted linear weights: "linear" was the default),
# "depth:N" (N tricks to the fitted linear evaluation, with the game-win guard),
# "handmade:N" (N tricks to the hand-made heuristic, no guard: the world search before
# the fitted evaluation, but for the exact final phase) and "exact".
WORLD_SEARCHES = ["quick", "learned", "linear", "handmade:3", "handmade:4", "depth:3", "depth:4", "depth:5"]


def run_world_search(p: Position, name: str) -> Move:
    """The move that the named world search picks on the perfect-information ``p`` (with the
    horizon evaluation the search names, on a table cleared as each sampled world's is)."""
    search = WorldSearch.parse(name)
    solver = shared_solver(p.rules, horizon=search.horizon(p.rules))
    solver.engine.clear()
    return solver.solve(p, pv=False, limit=search.limit(p)).best[0]


def test_positions(rules: Rules, k: int, count: int) -> list[Position]:
    """``count`` seeded positions at the start of a trick with ``k`` talon tricks left."""
    return positions_with_talon_left(k, count, rules, first_seed=FIRST_SEED + 1000 * k)  # a stream a level


def win_positions(rules: Rules, levels: list[int], count: int) -> list[Position]:
    """``count`` seeded positions (5 to 8 talon tricks left, spread over ``levels``) where the
    player to move can force a game win: found by an exact zero-window test at the root."""
    solver = Solver(rules)
    out: list[Position] = []
    seed = 10**7
    while len(out) < count and seed < 10**7 + 2000 * count:  # (a game may have none)
        k = levels[len(out) % len(levels)]
        p = random_position(seed, rules, rules.talon_tricks + 1 - k)
        seed += 1
        if p.is_over() or p.trick >= 0 or p.in_window or not game_win_possible(p, p.turn):
            continue
        solver.load(p)
        solver.engine.clear_limits()
        if solver.engine.value(WIN_THRESHOLD - 1, WIN_THRESHOLD) >= WIN_THRESHOLD:
            out.append(p)
    return out


def score_wins(name: str, positions: list[Position]) -> dict[str, Any]:
    """Whether the search's pick keeps the forced game win, on every position of the set."""
    judge = Solver(positions[0].rules)
    kept = 0
    for p in positions:
        pick = run_world_search(p, name)
        judge.load(p)
        judge.engine.clear_limits()
        kept += judge.engine.child_search(int(pick), WIN_THRESHOLD - 1, WIN_THRESHOLD) >= WIN_THRESHOLD
    return {"search": name, "positions": len(positions), "wins_kept": kept}


def exact_cache(game: str) -> Path:
    return RESULTS / f"world-search-exact-{slug(game)}.jsonl"


def load_exact(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                out[rec["bpn"]] = rec["moves"]
    return out


def ensure_exact(positions: list[Position], path: Path) -> dict[str, dict[str, int]]:
    """Every move's exact value of each position, from the cache or solved now (and kept)."""
    known = load_exact(path)
    solver: Solver | None = None
    path.parent.mkdir(parents=True, exist_ok=True)
    todo = [p for p in positions if p.bpn() not in known]
    for i, p in enumerate(todo):
        solver = solver or Solver(p.rules)
        a, seconds = timed(solver.solve, p, pv=False)
        moves = {str(mv.move): int(mv.value) for mv in a.moves}
        known[p.bpn()] = moves
        with path.open("a") as f:  # appended one by one: an interrupted run keeps its work
            f.write(json.dumps({"bpn": p.bpn(), "moves": moves, "seconds": round(seconds, 4)}) + "\n")
        print(f"exact {i + 1}/{len(todo)}: {seconds:.2f} s", file=sys.stderr)
    return known


def score(name: str, positions: list[Position], exact: dict[str, dict[str, int]]) -> dict[str, Any]:
    """One candidate search on every position: the figures of the module docstring (its
    times in CPU seconds, after a warm-up call: the solver made, the network loaded)."""
    run = each(lambda p: str(run_world_search(p, name)), positions, warmup=1)
    best = loss_n = missed = walked = 0
    losses: list[int] = []
    for p, pick in zip(positions, run.values):
        values = exact[p.bpn()]
        top = max(values.values())
        got = values[pick]
        best += got == top
        if top >= WIN_VALUE and got < WIN_VALUE:
            missed += 1
        if got <= -WIN_VALUE < top:
            walked += 1
        if abs(top) < WIN_VALUE and abs(got) < WIN_VALUE:
            losses.append(top - got)
            loss_n += 1
    ms = figures(run.cpu_seconds, 1000)
    return {
        "search": name,
        "positions": len(positions),
        "best": best / len(positions),
        "loss": statistics.fmean(losses) if losses else 0.0,
        "missed_wins": missed,
        "walked_into": walked,
        "ms_median": ms["median"],
        "ms_mean": ms["mean"],
    }


COLUMNS = (
    Column("k", ">3"),
    Column("search", "<28"),
    Column("n", ">4", "positions"),
    Column("best", ">6", lambda r: f"{100 * r['best']:.1f}%"),
    Column("loss", ">6.2f"),
    Column("missed", ">6", "missed_wins"),
    Column("walked", ">6", "walked_into"),
    Column("ms med", ">7.2f", "ms_median"),
    Column("ms mean", ">7.2f", "ms_mean"),
)


def report(game: str, rows: list[dict[str, Any]]) -> str:
    return "\n".join([f"{game}: world searches against the exact solve", *text_table(COLUMNS, rows)])


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--game", default="brisque")
    ap.add_argument("--per-level", type=int, default=50)
    ap.add_argument("--levels", default="5,6,7,8")
    ap.add_argument("--searches", default=",".join(WORLD_SEARCHES))
    ap.add_argument("--exact-only", action="store_true", help="only fill the cache of exact values")
    ap.add_argument(
        "--win-set",
        type=int,
        default=0,
        help="also N positions with a forced game win: does each search keep it?",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rules = Rules.parse(args.game)
    levels = [int(x) for x in args.levels.split(",")]
    by_level = {k: test_positions(rules, k, args.per_level) for k in levels}
    exact = ensure_exact([p for ps in by_level.values() for p in ps], exact_cache(args.game))
    if args.exact_only:
        return
    rows = []
    names = [s for s in args.searches.split(",") if s]
    for k in levels + [0]:
        ps = by_level[k] if k else [p for ps in by_level.values() for p in ps]
        for name in names:
            row = score(name, ps, exact)
            row["k"] = k if k else "all"
            rows.append(row)
            print(report(args.game, [row]).splitlines()[-1], file=sys.stderr)
    out: dict[str, Any] = {"game": args.game, "rows": rows}
    if args.win_set:
        wins = win_positions(rules, levels, args.win_set)
        out["win_set"] = [score_wins(name, wins) for name in names] if wins else []
        for r in out["win_set"]:
            print(
                f"forced game wins kept by {r['search']}: {r['wins_kept']}/{r['positions']}", file=sys.stderr
            )
    (RESULTS / f"world-search-{args.game}.json").write_text(json.dumps(out, indent=1) + "\n")
    text = report(args.game, rows)
    for r in out.get("win_set", []):
        text += f"\nforced game wins kept by {r['search']}: {r['wins_kept']}/{r['positions']}"
    print(json.dumps(out, indent=1) if args.json else text)


if __name__ == "__main__":
    main()
