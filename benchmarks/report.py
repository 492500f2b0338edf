"""BENCHMARKS.md from the result files in benchmarks/results/, without running anything.

Every table says its machine, its date and the command that reproduces it; comparisons are
given side by side, as ratios.  The sources:

* ``last-run.json``: the research suites of ``run_all.py`` (final phase against the
  reference, deep search by enhancement, sampling on one and two workers, matches);
* ``bench-suites.json``: the standard suites of ``brisque bench`` and their signature;
* the files of the single benchmarks (``whole-deals-*.jsonl``, ``batch-path.json``,
  ``world-search-*.json``, ``equilibrium-speed.jsonl``, ...), read as they were written;
* ``report-figures.json``: the machines and dates of those files, and the figures kept only
  as tables (build comparisons, interrupts, budgets, strategy fusion).

The measurements behind each change, kept or not, are in docs/experiments/.

Run from the repository's root: ``python -m benchmarks.run_all --report-only`` (BENCHMARKS.md
rewritten from the result files alone).
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from benchmarks.harness.result_files import RESULTS, read
from benchmarks.harness.sections import Sections
from solver.bench.suites import side_figures, side_label

RAW_ROWS = (
    "The raw rows behind some tables are not kept in git, only the summaries the tables are written "
    "from; each command writes them again (run from the repository's root):",
    "",
    "- `ladder-<comparison>-<game>.jsonl`, the deal records of the world-search ladder: the command of "
    "its table, with `--records`;",
    "- `strategy-fusion-<game>.jsonl`, a line a state: "
    "`python -m benchmarks.bench_strategy_fusion --game G --states 300`;",
    "- `world-search-exact-<game>.jsonl`, the exact solves the world searches are scored against: "
    "`python -m benchmarks.bench_world_search --game G` (a cache: a second run reads it);",
    "- the exact values the linear horizon is fitted on (36,000 rows) and the learned network's "
    "labels: `python -m benchmarks.training.fit_horizon` and `python -m benchmarks.training.labels`, "
    "into `benchmarks/training/data/`.",
)
"""The paragraph that names the raw rows left out of git and the commands that write them."""


class Report(Sections):
    """The report's lines, built section by section from the results in ``results``."""

    def __init__(self, results: Path | str = RESULTS) -> None:
        super().__init__(read("report-figures.json", results), results)

    # -- sections --------------------------------------------------------------------------

    def headlines(self, run: dict[str, Any], bench: dict[str, Any]) -> None:
        f, deep = run["final"], run["deep"]
        best = {r["k"]: r for r in list(deep["configs"].values())[-1]}
        last = self.meta["whole_deals"]["runs"][-1]
        wd = self.whole_deals_stats(self.rows(last["file"]))
        batch = self.load("batch-path.json")
        eq = self.equilibrium_stats()
        ws = {r["search"]: r for r in self.load("world-search-brisque.json")["rows"] if r["k"] == "all"}
        m = {(s["first"], s["second"], s["rules"]): s for s in run["matches"]}
        horizon = {
            g: self.load(f"equal-time-{g}.json")["horizon"]
            for g in ("brisque", "briscan")
            if self.exists(f"equal-time-{g}.json")
        }
        rows = [
            [
                "`brisque bench` signature (nodes; the same on every machine)",
                f"{bench['signature']}",
                "AMD",
                bench["date"],
            ],
            [
                "final phase, value of a position (engine, one batch call)",
                f"{f['engine_value_us']:.1f} µs, {f['speedup_value_vs_reference']:.0f}x the reference",
                "AMD",
                "2026-11-30",
            ],
            [
                "deep search, 5 talon tricks left, median",
                f"{best[5]['median_ms']:.1f} ms",
                "AMD",
                "2026-11-30",
            ],
            [
                "whole deal, one thread / two threads, median",
                f"{wd['one'][0]:.2f} s / {wd['two'][0]:.2f} s (two threads {wd['speedup']:.2f}x)",
                last["machine"],
                last["date"],
            ],
            [
                "batch path `brisque solve -`, whole process",
                f"{batch['builds']['candidate']['us_per_position']} µs a position",
                "AMD",
                "2026-12-02",
            ],
            [
                "world search: exact best move, Brisque, 5-8 talon tricks left",
                f"default (learned:3) {ws['quick']['best']:.0%} (mean loss {ws['quick']['loss']:.2f} points, "
                f"{ws['quick']['ms_mean']:.1f} ms); before it (linear) {ws['linear']['best']:.0%} "
                f"({ws['linear']['loss']:.2f}); learned, four tricks {ws['learned']['best']:.0%} "
                f"({ws['learned']['loss']:.2f}, {ws['learned']['ms_mean']:.1f} ms)",
                "AMD",
                self.meta["runs"]["world-search-*.json"]["date"],
            ],
            [
                "equilibrium of the last talon trick, Brisque, median",
                f"{eq['brisque']['median']:.2f} s",
                "Intel",
                "2026-12-01",
            ],
            *(
                [
                    [
                        "today's default (the learned horizon) against the one before at equal time (0.1 s a decision), a deal",
                        ", ".join(
                            f"{g.capitalize()} {h['mean_margin']:+.2f} [{h['ci95'][0]:+.1f}, {h['ci95'][1]:+.1f}]"
                            for g, h in horizon.items()
                        ),
                        "AMD",
                        self.meta["runs"]["equal-time-*.json"]["date"],
                    ]
                ]
                if horizon
                else []
            ),
            [
                "PIMC 100 worlds against greedy, Brisque, per deal",
                f"{m[('pimc:100', 'greedy', 'brisque')]['mean_margin']:+.1f} points",
                "AMD",
                "2026-11-30",
            ],
        ]
        self.add("## Headlines", "")
        self.table(["figure", "value", "machine", "date"], rows)

    def bench(self, b: dict[str, Any]) -> None:
        self.add("## `brisque bench`: the standard suites", "")
        self.source(b["machine"], b["date"], "brisque bench --json", "bench-suites.json")
        self.add(
            "The positions ship with the package. The signature, the total node count of the "
            "final-phase and deep suites, is the same on every machine until the search changes "
            "(`tests/cli/test_bench.py` pins it).",
            "",
        )
        rows = []
        for r in b["suites"]:
            figs = {k: v for k, v in r.items() if k not in ("name", "positions", "levels", "sides")}
            rows.append([r["name"], r.get("positions", ""), ", ".join(f"{k} {v}" for k, v in figs.items())])
            for side in r.get("sides", []):  # (the chance suite: a game at a level)
                rows.append([f"{r['name']}, {side_label(side)}", side["positions"], side_figures(side)])
            for k, lv in r.get("levels", {}).items():
                rows.append(
                    [
                        f"{r['name']}, {k} talon tricks left",
                        lv["positions"],
                        f"median_ms {lv['median_ms']}, nodes {lv['nodes']}",
                    ]
                )
        self.table(["suite", "positions", "figures"], rows)
        self.add(f"Signature: {b['signature']}.", "")

    def final_phase(self, f: dict[str, Any], date: str) -> None:
        self.add("## Final phase: the engine against the reference solver", "")
        self.source(f["machine"], date, "python -m benchmarks.run_all (suite reference)", "last-run.json")
        self.add(
            f"{f['positions']} seeded Brisque positions at the start of the final phase, table 2^{f['table_bits']}. Values agree: {f['values_agree']}.",
            "",
        )
        self.table(
            ["solver", "µs a position", "positions/s", "ratio to the engine's value"],
            [
                [
                    "engine, value (one batch call)",
                    f"{f['engine_value_us']:.1f}",
                    f"{f['engine_value_positions_per_s']:.0f}",
                    "1",
                ],
                [
                    "engine, every move's value",
                    f"{f['engine_every_move_us']:.1f}",
                    f"{1e6 / f['engine_every_move_us']:.0f}",
                    f"{f['every_move_over_value']:.2f}",
                ],
                [
                    f"reference, every move's value ({f['reference_positions']} positions)",
                    f"{f['reference_every_move_us']:.0f}",
                    f"{f['reference_positions_per_s']:.1f}",
                    f"{f['speedup_value_vs_reference']:.0f}",
                ],
            ],
        )

    def deep(self, deep: dict[str, Any], cap: float, date: str, machine: str) -> None:
        self.add("## Deep double-dummy search, enhancement by enhancement", "")
        self.source(machine, date, "python -m benchmarks.run_all (suite enhancements)", "last-run.json")
        self.add(
            f"Brisque positions with k talon tricks left (k = 10: the whole deal), {deep['positions']} a level, "
            f"exact value from a fresh table, CPU cap {cap:g} s a solve ({deep.get('cap_best', 60):g} s with every "
            "enhancement). Median ms a solve; each column adds one enhancement to the one on its left; "
            "≥: the median is at the cap. The last column: plain alpha-beta over every enhancement.",
            "",
            "![deep search: median ms by k, one line per configuration](benchmarks/deep.png)",
            "",
        )
        configs = list(deep["configs"].items())
        ks = sorted({r["k"] for _, rows in configs for r in rows})
        by = [{r["k"]: r for r in rows} for _, rows in configs]
        short = [
            "plain",
            "+forced decl.",
            "+equiv. cards",
            "+MTD(f)",
            "+ETC",
            "+talon order",
            "+bounds",
            "+plain play",
        ]
        cols = ["k"] + [short[i] if i < len(short) else n for i, (n, _) in enumerate(configs)] + ["ratio"]

        def cell(r: dict[str, Any] | None) -> str:
            if r is None:
                return ""
            capped = "≥ " if r["unfinished"] * 2 > r["positions"] else ""
            return f"{capped}{r['median_ms']:.2f}"

        rows = []
        for k in ks:
            first, last = by[0].get(k), by[-1].get(k)
            ratio = f"{first['median_ms'] / max(last['median_ms'], 1e-9):.1f}x" if first and last else ""
            rows.append([k] + [cell(b.get(k)) for b in by] + [ratio])
        self.table(cols, rows)
        b = by[-1]
        self.add(
            "With every enhancement: "
            + "; ".join(
                f"k = {k}: median {b[k]['median_ms']:.1f} ms, p90 {b[k]['p90_ms']:.1f} ms, median nodes {b[k]['median_nodes']:.0f}"
                for k in (5, 8, 10)
                if k in b
            )
            + ". Per-configuration p90s and node counts are in the result file.",
            "",
        )

    @staticmethod
    def whole_deals_stats(rows: list[dict[str, Any]]) -> dict[str, Any]:
        """The distribution of a run of ``bench_whole_deals.py``: from its summary line (the
        last), as the script computed it."""
        s = next(r for r in rows if "one_thread" in r)
        one, two = s["one_thread"], s["on_threads"]
        return {
            "one": (one["median_s"], one["p90_s"], one["slowest_s"]),
            "two": (two["median_s"], two["p90_s"], two["slowest_s"]),
            "nodes_s": one["nodes_per_s"],
            "speedup": s["median_speedup"],
            "total": s["total_speedup"],
            "overhead": s["median_node_overhead"],
            "same": s["all_same"],
        }

    def whole_deals(self) -> None:
        wd = self.meta["whole_deals"]
        self.add("## Whole deals: one thread and two, build by build", "")
        self.add(
            f"*Command: `{wd['command']}` on each build; results: the file named in each row.* "
            "30 seeded Brisque deals from trick 1, talon order known, exact value from a cold table of "
            "2^22 entries, one thread then two threads sharing it. The machines' speed drifts from hour "
            "to hour (the nodes a second say how fast each ran): compare rows on the same machine, and "
            "read the ratio columns within a row. Targets: median 1 s, p90 5 s on one thread; 1.6x on two.",
            "",
        )
        rows = []
        for run in wd["runs"]:
            s = self.whole_deals_stats(self.rows(run["file"]))
            rows.append(
                [
                    f"{run['build']} ({run['commit']})",
                    run["machine"],
                    run["date"],
                    *self.whole_deals_cells(s),
                    f"`{run['file']}`",
                ]
            )
        latest = "whole-deals-latest.jsonl"  # (written by run_all.py --whole-deals)
        if self.exists(latest):
            s = self.whole_deals_stats(self.rows(latest))
            head = next(r for r in self.rows(latest) if "one_thread" in r)
            rows.append(
                [
                    "`python -m benchmarks.research --suite whole-deals`",
                    self.machine(head.get("machine", "?")),
                    head.get("date", "?"),
                    *self.whole_deals_cells(s),
                    "`whole-deals-latest.jsonl`",
                ]
            )
        self.table(
            [
                "build",
                "machine",
                "date",
                "one thread: median / p90 / slowest s",
                "two threads: median / p90 / slowest s",
                "speed-up, median",
                "speed-up, total",
                "node overhead",
                "nodes a second, one thread",
                "file",
            ],
            rows,
            left=3,
        )

    @staticmethod
    def whole_deals_cells(s: dict[str, Any]) -> list[str]:
        """The figures of a whole-deals run (:meth:`whole_deals_stats`) in the table's columns."""
        return [
            f"{s['one'][0]:.2f} / {s['one'][1]:.2f} / {s['one'][2]:.2f}",
            f"{s['two'][0]:.2f} / {s['two'][1]:.2f} / {s['two'][2]:.2f}",
            f"{s['speedup']:.2f}",
            f"{s['total']:.2f}",
            f"{s['overhead']:.2f}",
            f"{s['nodes_s'] / 1e6:.1f} M",
        ]

    def parallel(self) -> None:
        self.add("## One whole-deal solve on two cores: processes against threads", "")
        rows = []
        for name in ("parallel-solve.jsonl", "parallel-threads.jsonl"):
            m = self.meta["runs"][name]
            rs = [r for r in self.rows(name) if "one_core_s" in r]  # (not the summary)
            one = sum(r["one_core_s"] for r in rs)
            two = sum(r["parallel_s"] for r in rs)
            rows.append(
                [
                    m["label"],
                    m["machine"],
                    m["date"],
                    len(rs),
                    f"{statistics.median(r['speedup'] for r in rs):.2f}",
                    f"{one / two:.2f}",
                    f"{statistics.median(r['node_overhead'] for r in rs):.2f}",
                    f"`{name}`",
                ]
            )
        self.add(
            f"*Command: `{self.meta['runs']['parallel-solve.jsonl']['command']}` on each build.* Brisque deals 3 to 11, every root move's value; the speed-up is over one core in the same run.",
            "",
        )
        self.table(
            [
                "way",
                "machine",
                "date",
                "deals",
                "speed-up, median",
                "speed-up, total",
                "node overhead, median",
                "file",
            ],
            rows,
            left=3,
        )

    def batch_path(self) -> None:
        b = self.load("batch-path.json")
        self.section(
            "The batch path, `brisque solve -`", "batch-path.json", "batch-path.json", b.get("machine")
        )
        base, cand = b["builds"]["baseline"], b["builds"]["candidate"]
        self.add(
            f"{b['positions']:,} final-phase positions, whole process included, the builds alternating, {b['rounds']} runs each; the same answers: {b['same_answers']}.",
            "",
        )
        self.table(
            ["build", "median s", "µs a position", "candidate / baseline (median of pairs)"],
            [
                ["Python path (2a0a3c0)", base["median_s"], base["us_per_position"], ""],
                [
                    "native lane (a9e5a49)",
                    cand["median_s"],
                    f"**{cand['us_per_position']}**",
                    b["median_ratio"],
                ],
            ],
        )

    def sampling(self, rows: list[dict[str, Any]], machine: str, date: str, note: str) -> None:
        self.add("## Sampling: 200-world queries on one and two workers", "")
        self.source(machine, date, "python -m benchmarks.run_all (suite sampling-workers)", "last-run.json")
        if note:
            self.add(note, "")
        self.table(
            ["trick", "world search", "1 worker s", "2 workers s", "2 workers / 1"],
            [
                [
                    r["trick"],
                    r["method"],
                    f"{r['1 worker']['median_s']:.3f}",
                    f"{r['2 workers']['median_s']:.3f}",
                    f"{r['speedup']:.2f}x",
                ]
                for r in rows
            ],
        )

    def world_search(self) -> None:
        self.section(
            "World searches against the exact solve", "world-search-*.json", "world-search-<game>.json"
        )
        self.add(
            "200 seeded positions a game with 5 to 8 talon tricks left, every move solved exactly. `quick` is "
            "today's default, three tricks to the learned network with the game-win guard (the same search "
            "as `learned:3`, which gave the same figures); `linear` is the default before it (exact from "
            "four talon tricks left, four tricks to the fitted linear evaluation before, with the guard); "
            "`learned` is the same with the learned network at the horizon (docs/solver.md); `handmade:3` "
            "is the search before the fitted evaluation, `depth:5` five tricks to the linear one. Loss: "
            "points a decision against the exact best move; time: CPU ms a position, one process on a quiet "
            "machine, and its mean against `linear`'s. None gave up a game win or walked into a loss. Most "
            "positions have moves a point or two apart, and which one a network prefers changes from one "
            "training to the next: Brisque's network trained again with another seed (the same labels and "
            "settings) gives `quick` 76.5% and 1.32 points, `learned` 74.5% and 1.23, where the shipped "
            "one gives 69.5% and 1.78, 76.5% and 1.20 (docs/experiments/learned-horizon.md).",
            "",
        )
        rows = []
        for game in ("brisque", "briscan"):
            d = self.load(f"world-search-{game}.json")
            kept = (
                {w["search"]: w for w in d.get("win_set", [])} if isinstance(d.get("win_set"), list) else {}
            )
            every = {r["search"]: r for r in d["rows"] if r["k"] == "all"}
            for name in ("quick", "linear", "learned", "handmade:3", "depth:5"):
                r = every.get(name)
                if r is None:
                    continue
                w = kept.get(name)
                rows.append(
                    [
                        game,
                        name,
                        f"{r['best']:.1%}",
                        f"{r['loss']:.2f}",
                        f"{r['ms_median']:.2f}",
                        f"{r['ms_mean']:.2f}",
                        f"{r['ms_mean'] / every['linear']['ms_mean']:.2f}x",
                        f"{w['wins_kept']}/{w['positions']}" if w else "-",
                    ]
                )
        self.table(
            [
                "game",
                "world search",
                "exact best move",
                "mean loss",
                "ms median",
                "ms mean",
                "time / linear",
                "forced game wins kept",
            ],
            rows,
            left=2,
        )

    def chance_judgement(self) -> None:
        names = self.names("chance-judgement-*.json")
        if not names:
            return
        self.add("## Judgement against the expectimax", "")
        self.add(
            "Seeded positions reached by random play, both hands open and the talon face down, solved by the "
            'expectimax, where every draw is a chance event (docs/solver.md, "The talon as chance"). The '
            "choices scored against it: a best move of the double-dummy solve with the talon's true order; a "
            "best move of the double-dummy values averaged over every order of the talon (what averaging over "
            "worlds gives); the move of the chance world search (`pimc:0.1s@chance` on the position with the "
            "talon face down: the expectimax with at most two talon tricks left, the quick search before); "
            "and, where given, the expectimax with sampled chance nodes (one rotation of the face-down cards "
            "at each draw). Best: the share of positions where the choice is an expectimax-best move (every "
            "move it ties is one); lost: the mean points a decision it gives up against the expectimax best "
            "(ties scored at their worst), over the positions where no game can be won outright (those are "
            "counted apart: a game won is worth far more than points).",
            "",
        )
        rows = []
        for name in names:
            d = self.load(name)
            self.source(d["machine"], d["date"], d["command"], name)
            for r in d["rows"]:
                row = [r["game"], r["talon_tricks_left"], r["positions"], r["game_win_at_stake"]]
                for choice in ("double_dummy", "averaged", "world_search", "sampled"):
                    best, lost = r.get(f"{choice}_best"), r.get(f"{choice}_lost")
                    row += ["—", "—"] if best is None else [f"{best:.1f}%", f"{lost:.2f}"]
                rows.append(row)
        self.table(
            [
                "game",
                "talon tricks left",
                "positions",
                "a game win at stake",
                "double dummy: best",
                "lost",
                "averaged: best",
                "lost",
                "chance world search: best",
                "lost",
                "sampled expectimax: best",
                "lost",
            ],
            rows,
            left=1,
        )

    def late_matches(self) -> None:
        names = self.names("late-match-*.json")
        if not names:
            return
        self.add("## The chance world search in matches", "")
        self.add(
            "The chance world search (`pimc:T@chance`: each world's moves valued by the exact expectimax with "
            "at most two talon tricks left, docs/solver.md) against today's default (`pimc:T`), at equal "
            "thinking time a decision (T of work). The two players make the same decisions until two talon "
            "tricks are left, so each deal pair starts there: at the first trick with two talon tricks left "
            "of a seeded deal played by the greedy player with a quarter of random moves, then played to "
            "its end twice, seats swapped (`python -m benchmarks.bench_late_match`). Mean margin a deal for "
            "the chance search over the pairs without a game-winning event, with its 95% interval; the "
            "events apart; the combined figure (a game won counted for what it is worth, `win_worth` "
            "match) over every pair.",
            "",
        )
        rows = []
        for name in names:
            s = self.load(name)
            self.source(s["machine"], s["date"], s["command"], name)
            c = s["combined"]
            rows.append(
                [
                    s["rules"],
                    s["think"],
                    f"`{s['first']}`",
                    s["pairs"],
                    s["pairs_without_events"],
                    f"{s['mean_margin']:+.2f}",
                    "n/a" if s["ci95"][0] is None else f"[{s['ci95'][0]:+.2f}, {s['ci95'][1]:+.2f}]",
                    f"{s['game_wins_first']}/{s['game_wins_second']}",
                    f"{c['mean']:+.2f}",
                    "n/a" if c["ci95"][0] is None else f"[{c['ci95'][0]:+.2f}, {c['ci95'][1]:+.2f}]",
                ]
            )
        self.table(
            [
                "game",
                "thinking",
                "first",
                "deal pairs",
                "without events",
                "mean margin",
                "95% CI",
                "game wins first/second",
                "combined",
                "95% CI",
            ],
            rows,
            left=3,
        )

    def check_expectimax(self) -> None:
        names = self.names("check-expectimax-*.json")
        if not names:
            return
        self.add("## The compiled expectimax against the reference", "")
        self.add(
            "Every legal move's exact value with the draws by chance, by the compiled engine "
            "(`Engine.chance_move`, from cleared tables) and by the plain Python reference "
            "(`solver.engine.reference_chance`), on seeded positions reached by random play, both hands open. "
            "A disagreement is an engine bug; each is listed with its position. Seconds: each side's wall time "
            "over the positions, timed one position at a time in the same process (two positions at once with "
            "two workers, on a shared machine: compare the two sides, not the runs); with three talon tricks "
            "left, the positions that fitted in the minutes given.",
            "",
        )
        rows, wrong = [], []
        runs = sorted(
            ((self.load(n), n) for n in names),
            key=lambda r: (r[0]["talon_tricks_left"], r[0]["game"] != "brisque"),
        )
        for d, name in runs:
            self.source(d["machine"], d["date"], d["command"], name)
            rows.append(
                [
                    d["game"],
                    d["talon_tricks_left"],
                    f"{d['positions']:,}",
                    f"{d['moves']:,}",
                    d["game_win_at_stake"],
                    len(d["disagreements"]),
                    f"{1000 * d['compiled_s'] / max(1, d['positions']):.1f}",
                    f"{1000 * d['reference_s'] / max(1, d['positions']):.1f}",
                    f"{d['reference_over_compiled']:.1f}x" if d["reference_over_compiled"] else "-",
                ]
            )
            wrong += [
                f"- `{w['bpn']}`, {w['move']}: compiled {w['compiled']}, reference {w['reference']}"
                for w in d["disagreements"]
            ]
        self.table(
            [
                "game",
                "talon tricks left",
                "positions",
                "moves",
                "a game win at stake",
                "disagreements",
                "compiled ms a position",
                "reference ms a position",
                "reference / compiled",
            ],
            rows,
        )
        if wrong:
            self.add("Disagreements:", "", *wrong, "")

    def thinking(self) -> None:
        if not self.exists("thinking.json"):
            return
        d = self.load("thinking.json")
        self.section("The cost of thinking", "thinking.json", "thinking.json")
        self.add(
            "Thinking by time counts each sampled world in work seconds from what its search did "
            "(solver/analysis/thinking.py). Worlds of dealt positions solved by each world search, timed one "
            "by one in one process; the costs fitted by least squares for each game; the time they predict "
            "over the time measured, for each search (the costs shipped are these, rounded):",
            "",
        )
        fitted = d["fitted"]
        self.table(
            [
                "game",
                "a world µs",
                "exact node ns",
                "linear node ns",
                "learned node ns",
                "hand-made node ns",
                "network evaluation ns",
            ],
            [
                [
                    g,
                    f"{f['world'] * 1e6:.0f}",
                    f"{f['exact_node'] * 1e9:.0f}",
                    f"{f['linear'] * 1e9:.0f}",
                    f"{f['learned'] * 1e9:.0f}",
                    f"{f['handmade'] * 1e9:.0f}",
                    f"{f['evaluation'] * 1e9:.0f}",
                ]
                for g, f in fitted.items()
            ],
        )
        self.table(
            ["game", "world search", "worlds", "ms a world", "predicted / measured"],
            [
                [r["game"], r["search"], r["worlds"], f"{r['ms_per_world']:.2f}", f"{r['fitted_ratio']:.3f}"]
                for r in d["searches"]
            ],
            left=2,
        )
        if "inference" in d:
            self.add(
                "The inference's cost, fitted apart in CPU seconds of the process (the likelihood of each "
                "sampled world of positions reached by random play; a cost a move replayed in each history):",
                "",
            )
            self.table(
                ["game", "worlds", "ms a world", "µs a replayed move", "predicted / measured"],
                [
                    [
                        g,
                        f["worlds"],
                        f"{f['ms_per_world']:.2f}",
                        f"{f['inference_move'] * 1e6:.1f}",
                        f"{f['fitted_ratio']:.3f}",
                    ]
                    for g, f in d["inference"].items()
                ],
                left=1,
            )

    def equal_time(self) -> None:
        found = {g: f"equal-time-{g}.json" for g in ("brisque", "briscan")}
        found = {g: name for g, name in found.items() if self.exists(name)}
        if not found:
            return
        self.section(
            "Duplicate matches at equal thinking time", "equal-time-*.json", "equal-time-<game>.json"
        )
        self.add(
            "Both players think the same budget a decision (0.1 s, work seconds: docs/solver.md), "
            "against the default player before the learned network (`pimc:0.1s@linear`: exact in the last "
            "four talon tricks and four tricks to the linear horizon before, uniform worlds). Today's "
            "default, `pimc:0.1s`, searches each world three tricks deep to the learned network. Brisque's "
            "network was retrained twice since its first match (now 300,000 labels at level 5 and 200 epochs "
            "at rate 0.002; before it 150,000 and 100 epochs; first 60,000 and 40): the three matches are "
            "given, on the same deals (seed 35); the first was played as `pimc:0.1s@learned:3`, the same "
            "search before it became the default. Paired deal by deal, today's network scores +0.33 [-1.77, "
            "+2.42] a deal against the one before it (`python -m benchmarks.bench_equal_time --paired`, 781 pairs without an "
            "event in either match). Briscan's network is the "
            "one of its match. Mean margin a deal for the first player over the deal pairs without a "
            "game-winning event, with its 95% interval; the events apart; the combined figure counts every "
            "deal, a game won for what it is worth (`win_worth` match: the points the winner still needed, "
            "the target from a new game), with its 95% interval; and each side's CPU seconds a deal.",
            "",
        )
        rows = []
        for game, path in found.items():
            for s in self.load(path).values():
                c = s["combined"]
                t1, t2 = s.get("seconds_per_deal_first"), s.get("seconds_per_deal_second")
                rows.append(
                    [
                        game,
                        s.get("label", f"`{s['first']}`"),
                        s["pairs"],
                        s["pairs_without_events"],
                        f"{s['mean_margin']:+.2f}",
                        _ci(s),
                        f"{s['game_wins_first']}/{s['game_wins_second']}",
                        f"{c['mean']:+.2f}",
                        "n/a" if c["ci95"][0] is None else f"[{c['ci95'][0]:+.1f}, {c['ci95'][1]:+.1f}]",
                        _cpu(t1, t2, s.get("timed_deals"), 2 * s["pairs"]),
                    ]
                )
        self.table(
            [
                "game",
                "first (against pimc:0.1s@linear)",
                "deal pairs",
                "without events",
                "mean margin",
                "95% CI",
                "game wins first/second",
                "combined",
                "95% CI",
                "CPU s a deal",
            ],
            rows,
            left=2,
        )

    def strength(self, matches: list[dict[str, Any]]) -> None:
        self.add("## Playing strength: duplicate matches", "")
        m = self.meta["runs"]["match-*.json"]
        self.source(
            self.machines[m["machine"]],
            m["date"],
            "python -m benchmarks.run_all --reuse-matches (brisque match, seed 1, two workers)",
            "match-*.json",
        )
        self.add(
            "Every deal played twice with the seats swapped; mean margin a deal for the first player, 95% interval from the pair means; a game-winning event counts ±10000.",
            "",
        )
        rows = [
            [
                s["rules"],
                s["first"],
                s["second"],
                s["pairs"],
                f"{s['mean_margin']:+.1f}",
                _ci(s),
                f"{s['won'] / s['deals']:.3f}",
                f"{s['game_wins_first']}/{s['game_wins_second']}",
            ]
            for s in matches
        ]
        self.table(
            [
                "game",
                "first",
                "second",
                "deal pairs",
                "mean margin",
                "95% CI",
                "share won",
                "game wins first/second",
            ],
            rows,
            left=3,
        )
        self.add(
            "The new world search against the old (`pimc:N@handmade:3`), same worlds and equal time:", ""
        )
        self.run_source("ladder-*.json", "ladder-<comparison>-<game>.json")
        rows = []
        for cmp in ("same-worlds", "equal-time"):
            for game in ("brisque", "briscan"):
                s = self.load(f"ladder-{cmp}-{game}.json")
                rows.append(
                    [
                        game,
                        cmp.replace("-", " "),
                        s["first"],
                        s["second"],
                        s["pairs"],
                        s["pairs_without_events"],
                        f"{s['mean_margin']:+.2f}",
                        _ci(s),
                        f"{s['game_wins_first']}/{s['game_wins_second']}",
                        f"{s['seconds_per_deal_first'] / s['seconds_per_deal_second']:.2f}",
                    ]
                )
        self.table(
            [
                "game",
                "comparison",
                "first (new)",
                "second (old)",
                "deal pairs",
                "pairs without events",
                "mean margin (those pairs)",
                "95% CI",
                "game wins first/second",
                "thinking time first / second",
            ],
            rows,
            left=4,
        )

    def equilibrium_stats(self) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {}
        lines = self.rows("equilibrium-speed.jsonl")
        rows = [r for r in lines if "wall" in r]
        summary = {r["game"]: r for r in lines if "median_wall" in r}  # as the script computed them
        for game in ("petite", "briscan", "brisque"):
            s = summary[game]
            out[game] = {
                "n": s["positions"],
                "median": s["median_wall"],
                "p90": s["p90_wall"],
                "slowest": s["max_wall"],
                "mixed": sum(1 for r in rows if r["game"] == game and r.get("mixed_root")),
                "expl": max(r["exploitability"] for r in rows if r["game"] == game),
            }
        return out

    def equilibrium(self) -> None:
        self.section("The equilibrium of the late deal", "equilibrium-speed.jsonl", "equilibrium-speed.jsonl")
        self.add(
            "The whole public subgame (both hands hidden), seeded deals 1 to 20; each solve's figure is the median of three.",
            "",
        )
        targets = {"petite": "2 s", "briscan": "3 s", "brisque": "20 s (aim 5 s)"}
        where = {"petite": "two cards each", "briscan": "last talon trick", "brisque": "last talon trick"}
        rows = [
            [
                g,
                where.get(g, ""),
                int(s["n"]),
                f"{s['median']:.2f}",
                f"{s['p90']:.2f}",
                f"{s['slowest']:.2f}",
                targets.get(g, ""),
                int(s["mixed"]),
                f"{s['expl']:.0e}",
            ]
            for g, s in self.equilibrium_stats().items()
        ]
        self.table(
            [
                "game",
                "subgame",
                "seeds",
                "median s",
                "p90 s",
                "slowest s",
                "target",
                "mixed at the root",
                "exploitability, most",
            ],
            rows,
            left=2,
        )

    def tools(self) -> None:
        self.add("## The analysis tools", "")
        self.add(
            "A Dask cluster of two workers against two local processes, a greedy-against-random match of 2000 deal pairs (the cluster's worst case: 1.5 ms a pair); the same records every run.",
            "",
        )
        self.run_source("cluster-match.jsonl", "cluster-match.jsonl")
        rows = [
            [
                r["pairs_per_task"],
                r.get("local_pairs_per_task", r["pairs_per_task"]),
                r["local_2_processes_s"],
                r["cluster_2_workers_s"],
                f"{r['cluster_2_workers_s'] / r['local_2_processes_s']:.3f}",
                r["cluster_start_s"],
            ]
            for r in self.rows("cluster-match.jsonl")
            if "pairs_per_task" in r
        ]
        self.table(
            [
                "pairs a task, cluster",
                "local",
                "local s (median)",
                "cluster s (median)",
                "cluster / local",
                "cluster start s",
            ],
            rows,
            left=0,
        )
        self.add(
            "A whole deal's line analysed move by move (`brisque line --exact`, one table kept) against one whole-deal solve and against a full solve a move:",
            "",
        )
        self.run_source("line-warm.jsonl", "line-warm.jsonl")
        rows = [
            [r["seed"], r["moves"], r["whole_s"], r["line_s"], r["line_over_whole"], r["old_over_new"]]
            for r in self.rows("line-warm.jsonl")
            if "seed" in r
        ]
        self.table(
            ["deal", "moves", "whole-deal solve s", "line s", "line / solve", "full solve a move / line"],
            rows,
            left=0,
        )
        self.add(
            "The board's step-through: each position of a line of best moves on the kept worker's warm table against a cleared one (the first position of each line left out):",
            "",
        )
        self.run_source("board-steps-k*.jsonl", "board-steps-k*.jsonl")
        rows = []
        for name in self.names("board-steps-k*.jsonl"):
            rs = [r for r in self.rows(name) if r.get("step", 0) > 0]
            k = name[len("board-steps-k") : -len(".jsonl")]
            rows.append(
                [
                    k,
                    len(rs),
                    f"{sum(r['board_nodes'] for r in rs) / sum(r['cold_nodes'] for r in rs):.3f}",
                    f"{statistics.median(r['board_nodes'] / r['cold_nodes'] for r in rs):.3f}",
                    f"{statistics.median(r['board_solve_s'] / r['cold_solve_s'] for r in rs):.3f}",
                ]
            )
        self.table(
            [
                "talon tricks left at the start",
                "positions",
                "nodes warm / cleared, total",
                "median of the ratios",
                "solve time, median ratio",
            ],
            rows,
            left=0,
        )

    def play_load(self) -> None:
        """Games against the engine at once on one board, beside one game alone."""
        d = self.load("play-load.json")
        self.section("Games against the engine at once", "play-load.json", "play-load.json")
        self.add(
            f"One board (`brisque serve`, started on 127.0.0.1) and a client thread a game, each a deal of "
            f"{d['game'].capitalize()} at level {d['level']} (the engine thinks a tenth of a second a move "
            f"in at most {d['max_running']} worker processes; games beyond wait their turn, first come "
            "first served), the page's polls every 50 ms while the engine thinks, and the analysis "
            "board asked for a position every 0.2 s meanwhile. Milliseconds: median / 95th percentile "
            "/ most; the engine's answer is from the person's move to the engine's on the page.",
            "",
        )
        rows = []
        for r in d["rows"]:
            rows.append(
                [r["games"], f"{r['wall_s']:.1f}"]
                + [
                    f"{r[k]['p50']:g} / {r[k]['p95']:g} / {r[k]['max']:g}"
                    for k in ("poll_ms", "move_ms", "engine_ms", "analysis_ms")
                ]
            )
        self.table(
            ["games at once", "wall s", "poll", "move sent", "engine's answer", "analysis board"],
            rows,
            left=0,
        )
        self.add(
            f"With {d['rows'][1]['games']} games the poll's 95th percentile is {d['poll_p95_ratio']:g} times "
            f"one game's and the engine's median answer {d['engine_p50_ratio']:g} times: two cores "
            "shared by twenty games; the page never waits on the engine.",
            "",
        )

    def figures(self, ident: str) -> None:
        t = next(t for t in self.meta["tables"] if t["id"] == ident)
        self.add(f"## {t['title']}", "")
        if "machine" in t:  # (a table of the figures kept as a table: its own source)
            self.source(self.machines[t["machine"]], t["date"], t["command"], "report-figures.json")
        self.add(t["text"], "")
        self.table(t["columns"], t["rows"], left=t.get("left", 1))


def _cpu(first: float | None, second: float | None, timed: int | None, deals: int) -> str:
    """Each side's CPU seconds a deal; over how many deals when a killed segment went untimed."""
    if first is None or second is None:
        return "-"
    text = f"{first:.2f} / {second:.2f}"
    if timed is not None and timed < deals:
        text += f" ({timed:,} of {deals:,} deals timed)"
    return text


def _ci(s: dict[str, Any]) -> str:
    lo, hi = s["ci95"]
    return "n/a" if lo is None else f"[{lo:+.1f}, {hi:+.1f}]"


def build(results: Path | str = RESULTS, written: str | None = None) -> str:
    """The text of BENCHMARKS.md from the result files in ``results``."""
    r = Report(results)
    run = r.load("last-run.json")
    bench = r.load("bench-suites.json")
    run_date = r.meta["runs"]["last-run.json"]["date"]
    machine = run["final"]["machine"]
    r.add(
        "# Benchmarks",
        "",
        f"Written by `python -m benchmarks.run_all --report-only`{' on ' + written if written else ''} from the result "
        "files in `benchmarks/results/`; nothing is rerun. Each table names its machine, its date and the "
        "command that reproduces it. Two machines, both shared (their speed drifts by up to 2x over a day, "
        "so compare times within a table, and node counts, which are deterministic, across tables):",
        "",
    )
    for k, v in r.machines.items():
        r.add(f"- **{k}**: {v}")
    r.add(
        "",
        "The measurements behind each change of the engine, kept or not, with their verdicts and commits, "
        "are in [docs/experiments/](docs/experiments/).",
        "",
    )
    r.add(*RAW_ROWS, "")
    r.headlines(run, bench)
    r.bench(bench)
    r.final_phase(run["final"], run_date)
    r.deep(run["deep"], run["cap"], run_date, machine)
    r.whole_deals()
    r.parallel()
    r.figures("builds")
    r.batch_path()
    r.figures("batch-python")
    r.sampling(run["sampling"], machine, run_date, (run.get("notes") or {}).get("sampling", ""))
    r.world_search()
    r.chance_judgement()
    r.check_expectimax()
    r.late_matches()
    r.thinking()
    r.equal_time()
    r.strength(run["matches"])
    r.equilibrium()
    r.figures("strategy-fusion")
    r.figures("interrupts")
    r.figures("budget")
    r.tools()
    r.play_load()
    return "\n".join(r.lines).rstrip() + "\n"
