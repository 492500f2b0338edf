"""The research suites: the longer measurements behind BENCHMARKS.md.

Run from the repository's root:

    python -m benchmarks.research --suite whole-deals --quick
    python -m benchmarks.research --suite research --json > run.json

The standard suites (``brisque bench``, :mod:`solver.bench.suites`) check a build in a
minute and ship with the package; these answer a researcher's questions and take longer
(the whole ``enhancements`` suite takes hours, the ``matches`` suite about half an hour).
``benchmarks/run_all.py`` writes the report from them.  Their positions are seeded deals
played on by random moves (:mod:`solver.play.dealing`), the same on every machine:

* ``reference``: the compiled engine against the plain Python reference solver on
  positions at the start of Brisque's final phase (speed, and whether the values agree);
* ``enhancements``: the exact value by talon tricks left, every search enhancement added
  one at a time, each with a CPU cap per solve;
* ``whole-deals``: whole Brisque deals solved exactly on one thread and on two sharing one
  table, side by side deal by deal: the distribution, the speed-up and the node overhead;
* ``sampling-workers``: 200-world best-move queries at tricks 1, 5 and 9, one worker
  process against two;
* ``matches``: duplicate matches of PIMC against random, greedy and the clairvoyant player.

Each runner takes ``quick`` (a smoke run: a few positions) and ``progress`` (a function
that hears a line of text at each step, for stderr), and returns a dict with its ``name``
and ``positions`` and its figures.  ``research`` names them all:

>>> list(RESEARCH)
['reference', 'enhancements', 'whole-deals', 'sampling-workers', 'matches']
>>> chosen(["deep-levels"])
Traceback (most recent call last):
ValueError: no research suite 'deep-levels': expected one of reference, enhancements, whole-deals, sampling-workers, matches, research
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from benchmarks.harness.positions import views_at
from benchmarks.harness.timing import Progress, each, figures, percentile, spread, timed, to_stderr
from solver.bench.machine import machine

# the enhancements measured one at a time: each configuration adds one to the one above
# (the names are the rows of BENCHMARKS.md; the engine's default is the last one)
ENHANCEMENT_STEPS: tuple[tuple[str, dict[str, bool]], ...] = (
    ("plain alpha-beta", {}),
    ("+ forced declarations", dict(forced=True)),
    ("+ equivalent cards", dict(merge=True)),
    ("+ MTD(f) from a guess", dict(mtdf=True)),
    ("+ enhanced transposition cutoffs", dict(etc=True)),
    ("+ talon ordering: cheap leads, killer moves", dict(ordering=True)),
    ("+ value bounds: points left, sure trumps", dict(bounds=True)),
    ("+ plain card play of the last six tricks", dict(small=True)),
)


def _configs() -> dict[str, dict[str, bool]]:
    """Each configuration of the enhancements suite: plain alpha-beta first, every
    enhancement last (the engine's default).

    >>> configs = _configs()
    >>> list(configs) == [name for name, _ in ENHANCEMENT_STEPS]
    True
    >>> any(configs["plain alpha-beta"].values()), all(configs[BEST].values())
    (False, True)
    """
    features = dict(
        merge=False, forced=False, mtdf=False, etc=False, ordering=False, bounds=False, small=False
    )
    out = {}
    for name, step in ENHANCEMENT_STEPS:
        features = {**features, **step}
        out[name] = dict(features)
    return out


CONFIGS = _configs()
BEST = ENHANCEMENT_STEPS[-1][0]  # every enhancement: the engine's default
MATCHES = (  # (first, second, rules) of the matches suite
    ("pimc:100", "random", "brisque"),
    ("pimc:100", "greedy", "brisque"),
    ("pimc:100", "clairvoyant", "brisque"),
    ("pimc:100", "greedy", "briscan"),
)


def reference(
    quick: bool = False, progress: Progress = None, positions: int | None = None, table_bits: int = 14
) -> dict[str, Any]:
    """The engine (value in one batch, and every move's value) against the reference solver
    on ``positions`` positions at the start of Brisque's final phase (1000; 100 if quick)."""
    from solver.engine import Solver
    from solver.engine.reference import reference_values
    from solver.engine.seam import engine_root
    from solver.model.rules import Rules
    from solver.play.dealing import positions_with_talon_left

    rules = Rules()
    n = positions or (100 if quick else 1000)
    ps = positions_with_talon_left(0, n, rules)
    states = [engine_root(p) for p in ps]
    (values, nodes), t_value = timed(Solver(rules, table_bits).engine.solve_batch, states)
    _, t_every = timed(Solver(rules, table_bits).engine.solve_batch, states, every_move=True)
    if progress is not None:
        progress(f"reference: the engine took {t_value + t_every:.2f} s; now the reference solver")
    ref_values, t_ref = timed(lambda: [max(reference_values(p).values()) for p in ps])
    value_us, every_us, ref_us = (t / n * 1e6 for t in (t_value, t_every, t_ref))
    return {
        "name": "reference",
        "machine": machine(),
        "positions": n,
        "table_bits": table_bits,
        "engine_value_us": round(value_us, 2),
        "engine_value_positions_per_s": round(n / t_value),
        "engine_nodes_per_position": round(sum(nodes) / n, 1),
        "engine_nodes_per_s": round(sum(nodes) / t_value),
        "engine_every_move_us": round(every_us, 2),
        "every_move_over_value": round(every_us / value_us, 3),
        "reference_positions": n,
        "reference_every_move_us": round(ref_us, 1),
        "reference_positions_per_s": round(n / t_ref, 1),
        "speedup_value_vs_reference": round(ref_us / value_us, 1),
        "speedup_every_move_vs_reference": round(ref_us / every_us, 1),
        "values_agree": values == ref_values,
    }


def deep_levels(
    positions: int,
    max_k: int,
    cap: float,
    features: dict[str, bool] | None = None,
    table_bits: int = 22,
    progress: Progress = None,
) -> list[dict[str, Any]]:
    """The exact value of ``positions`` seeded Brisque positions with k = 0, 1, ... ``max_k``
    talon tricks left (10: the whole deal), each from a cleared table under a CPU cap of
    ``cap`` seconds (a capped solve counts as the cap).  It stops after a level where most
    solves hit the cap: a larger k would only hit it too.

    >>> rows = deep_levels(2, 10, 1e-6)  # (a cap no solve can meet)
    >>> len(rows) < 11, rows[-1]["unfinished"]
    (True, 2)
    """
    from solver.engine import Solver
    from solver.engine.seam import engine_root
    from solver.model.position import Position
    from solver.model.rules import Rules
    from solver.play.dealing import positions_with_talon_left

    rules = Rules()
    eng = Solver(rules, table_bits).engine
    if features:
        eng.set_features(**features)

    def prepare(p: Position) -> None:  # a cleared table, the cap set anew: not timed
        eng.clear_limits()
        eng.clear()
        eng.load(engine_root(p))
        eng.set_limits(seconds=cap)

    def solve(p: Position) -> tuple[int, bool]:  # the nodes it took, and whether the cap cut it
        n0 = eng.nodes
        eng.value()
        return eng.nodes - n0, eng.aborted

    rows = []
    for k in range(max_k + 1):
        run = each(solve, positions_with_talon_left(k, positions, rules), prepare=prepare)
        times = [cap if aborted else dt for (_, aborted), dt in zip(run.values, run.seconds)]
        nodes = [n for n, _ in run.values]
        capped = sum(aborted for _, aborted in run.values)
        ms = figures(times, 1000)
        rows.append(
            {
                "k": k,
                "positions": positions,
                "unfinished": capped,
                "median_ms": ms["median"],
                "p90_ms": ms["p90"],
                "median_nodes": statistics.median(nodes),
                "p90_nodes": percentile(nodes, 0.9),
            }
        )
        if progress is not None:
            progress(f"k={k}: median {rows[-1]['median_ms']:.2f} ms, {capped} of {positions} capped")
        if capped * 2 > positions:
            break
    return rows


def enhancements(
    quick: bool = False, progress: Progress = None, cap: float = 5.0, cap_best: float = 60.0
) -> dict[str, Any]:
    """:func:`deep_levels` for each configuration of :data:`CONFIGS`, one after the other in
    the same run: 10 positions a level up to the whole deal (4 positions to k = 3 if quick);
    ``cap_best`` seconds a solve for the last configuration (every enhancement)."""
    positions, max_k = (4, 3) if quick else (10, 10)
    configs = {}
    for name, features in CONFIGS.items():
        step = (
            None if progress is None else (lambda line, name=name: progress(f"enhancements, {name}: {line}"))
        )
        configs[name] = deep_levels(
            positions, max_k, cap_best if name == BEST else cap, features, progress=step
        )
    return {
        "name": "enhancements",
        "positions": positions,
        "configs": configs,
        "cap": cap,
        "cap_best": cap_best,
    }


QUICK_WHOLE_DEALS = (12, 21)  # (about 100 M nodes each, against 232 M and 175 M for deals 1 and 2)


def whole_deals(
    quick: bool = False,
    progress: Progress = None,
    seeds: Sequence[int] | None = None,
    threads: int = 2,
    table_bits: int = 22,
    on_deal: Callable[[dict[str, Any]], object] | None = None,
) -> dict[str, Any]:
    """Whole Brisque deals (talon order known, from trick 1) solved exactly from a cleared
    table on one thread, then on ``threads`` threads sharing the table, deal by deal
    (seeds 1 to 30; if quick, 12 and 21, two of the cheapest that end in a margin, not a game
    won outright).  ``on_deal`` hears each deal's row as it ends."""
    from solver.engine import Solver
    from solver.engine.seam import engine_root
    from solver.play.dealing import deal

    seeds = seeds or (QUICK_WHOLE_DEALS if quick else range(1, 31))
    one = Solver(table_bits=table_bits).engine
    many = Solver(table_bits=table_bits).engine
    many.set_threads(threads)
    rows = []
    for seed in seeds:
        root = engine_root(deal(seed, "brisque"))
        row: dict[str, Any] = {"seed": seed}
        for label, eng in (("one", one), ("threads", many)):
            eng.clear()
            eng.load(root)
            n0 = eng.nodes
            row[f"value_{label}"], seconds = timed(eng.value)
            row[f"{label}_s"] = round(seconds, 3)
            row[f"nodes_{label}"] = eng.nodes - n0
        row["same_value"] = row["value_one"] == row["value_threads"]
        row["speedup"] = round(row["one_s"] / max(row["threads_s"], 1e-9), 2)
        rows.append(row)
        if on_deal is not None:
            on_deal(row)
        if progress is not None:
            progress(
                f"whole deal {seed}: one thread {row['one_s']} s, {threads} threads {row['threads_s']} s "
                f"({len(rows)} of {len(seeds)})"
            )
    return {
        "name": "whole-deals",
        "positions": len(rows),
        "threads": threads,
        "median_s": round(statistics.median(r["one_s"] for r in rows), 3),
        "median_speedup": round(statistics.median(r["speedup"] for r in rows), 3),
        "total_speedup": round(
            sum(r["one_s"] for r in rows) / max(sum(r["threads_s"] for r in rows), 1e-9), 2
        ),
        "median_node_overhead": round(
            statistics.median(r["nodes_threads"] / r["nodes_one"] for r in rows), 3
        ),
        "all_same": all(r["same_value"] for r in rows),
        "one_thread": spread([r["one_s"] for r in rows], [r["nodes_one"] for r in rows]),
        "on_threads": spread([r["threads_s"] for r in rows], [r["nodes_threads"] for r in rows]),
        "deals": rows,
    }


def sampling_workers(
    quick: bool = False,
    progress: Progress = None,
    tricks: tuple[int, ...] = (1, 5, 9),
    deals: int | None = None,
    worlds: int | None = None,
) -> dict[str, Any]:
    """A best-move query of the player to move's view (PIMC, seed 7) at each trick of
    ``tricks`` of 5 seeded Brisque deals, 200 worlds (2 deals and 50 worlds if quick), with
    one worker process and with two, side by side: the median seconds and worlds a second."""
    from concurrent.futures import ProcessPoolExecutor

    from solver.analysis.sampling import SampledAnalysis, analyse

    deals = deals or (2 if quick else 5)
    worlds = worlds or (50 if quick else 200)
    rows = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        pool.submit(int, 0).result()  # (the workers started before the timing)
        for trick in tricks:
            views = views_at(trick, deals)
            row: dict[str, Any] = {"trick": trick, "worlds": worlds, "deals": deals}
            for label, executor, workers in (("1 worker", None, 1), ("2 workers", pool, 2)):
                run = each(
                    partial(analyse, worlds=worlds, seed=7, executor=executor, workers=workers),
                    views,
                )
                answers = [a for a in run.values if isinstance(a, SampledAnalysis)]
                assert len(answers) == len(views)  # (views with hidden cards: every answer sampled)
                row["method"] = answers[-1].world_method
                row[label] = {
                    "median_s": figures(run.seconds)["median"],
                    "worlds_per_s": statistics.median(a.worlds / dt for a, dt in zip(answers, run.seconds)),
                }
            row["speedup"] = row["1 worker"]["median_s"] / row["2 workers"]["median_s"]
            rows.append(row)
            if progress is not None:
                progress(f"sampling at trick {trick}: speed-up {row['speedup']:.2f}")
    return {"name": "sampling-workers", "positions": deals * len(tricks), "rows": rows}


def matches(
    quick: bool = False,
    progress: Progress = None,
    deals: int | None = None,
    on_match: Callable[[dict[str, Any], list[Any]], object] | None = None,
    only: tuple[tuple[str, str, str], ...] = MATCHES,
) -> dict[str, Any]:
    """The duplicate matches ``only`` (those of :data:`MATCHES` by default; seed 1, two
    worker processes), ``deals`` deal pairs each (500; 4 if quick).  ``on_match`` hears each
    match's summary and records as it ends (``benchmarks/run_all.py`` keeps them)."""
    from solver.play.match import run_match

    pairs = deals or (4 if quick else 500)
    out = []
    for a, b, rules in only:
        res, seconds = timed(run_match, a, b, pairs, seed=1, rules=rules, workers=2)
        res.summary["seconds"] = seconds
        if on_match is not None:
            on_match(res.summary, res.records)
        out.append(res.summary)
        if progress is not None:
            progress(f"match {a} against {b} ({rules}): {pairs} pairs in {res.summary['seconds']:.0f} s")
    return {"name": "matches", "positions": pairs * len(only), "matches": out}


RESEARCH: dict[str, Callable[..., dict[str, Any]]] = {  # name: runner(quick, progress)
    "reference": reference,
    "enhancements": enhancements,
    "whole-deals": whole_deals,
    "sampling-workers": sampling_workers,
    "matches": matches,
}


def summary(result: dict[str, Any]) -> list[str]:
    """Human lines for a research suite's result (``python -m benchmarks.research`` prints them).

    >>> summary({"name": "whole-deals", "positions": 2, "threads": 2, "median_speedup": 1.5,
    ...     "median_node_overhead": 1.2, "all_same": True,
    ...     "one_thread": {"median_s": 9.0, "p90_s": 20.0, "slowest_s": 31.0},
    ...     "on_threads": {"median_s": 6.0, "p90_s": 14.0, "slowest_s": 21.0}})[0]
    'one thread: median 9.0 s, p90 20.0 s, slowest 31.0 s'

    The enhancements' lines mark a level where a solve hit the CPU cap, and say so once:

    >>> row = {"k": 3, "median_ms": 1.0, "unfinished": 0}
    >>> summary({"name": "enhancements", "configs": {"plain alpha-beta": [row]}})
    ['plain alpha-beta: median ms k=3 1.00']
    >>> summary({"name": "enhancements", "configs": {"plain alpha-beta": [dict(row, unfinished=1)]}})
    ['plain alpha-beta: median ms k=3 1.00*', '(* some solves hit the CPU cap)']
    """
    name = result["name"]
    if name == "enhancements":
        lines = []
        for config, rows in result["configs"].items():
            by_k = ", ".join(
                f"k={r['k']} {r['median_ms']:.2f}" + ("*" if r["unfinished"] else "") for r in rows
            )
            lines.append(f"{config}: median ms {by_k}")
        capped = any(r["unfinished"] for rows in result["configs"].values() for r in rows)
        return [*lines, "(* some solves hit the CPU cap)"] if capped else lines
    if name == "reference":
        return [
            f"engine: {result['engine_value_us']} us a position for the value, "
            f"{result['engine_every_move_us']} us for every move's value",
            f"reference: {result['reference_every_move_us']} us a position "
            f"({result['speedup_value_vs_reference']}x the engine's value time); "
            f"values agree: {result['values_agree']}",
        ]
    if name == "whole-deals":
        one, many = result["one_thread"], result["on_threads"]
        return [
            f"one thread: median {one['median_s']} s, p90 {one['p90_s']} s, slowest {one['slowest_s']} s",
            f"{result['threads']} threads: median {many['median_s']} s, p90 {many['p90_s']} s, "
            f"slowest {many['slowest_s']} s",
            f"speed-up median {result['median_speedup']}, node overhead median "
            f"{result['median_node_overhead']}, same values: {result['all_same']}",
        ]
    if name == "sampling-workers":
        return [
            f"trick {r['trick']}: 1 worker {r['1 worker']['median_s']:.3f} s, 2 workers "
            f"{r['2 workers']['median_s']:.3f} s, speed-up {r['speedup']:.2f}"
            for r in result["rows"]
        ]
    if name == "matches":
        return [
            f"{s['rules']} {s['first']} against {s['second']}: {s['pairs']} pairs, mean margin {s['mean_margin']:+.1f}"
            for s in result["matches"]
        ]
    return []


def chosen(names: Sequence[str]) -> list[str]:
    """The suites that ``names`` asks for, each once, in their order (``research``: all)."""
    out: list[str] = []
    for n in names:
        for one in RESEARCH if n == "research" else (n,):
            if one not in RESEARCH:
                raise ValueError(
                    f"no research suite {one!r}: expected one of {', '.join((*RESEARCH, 'research'))}"
                )
            if one not in out:
                out.append(one)
    return out


def run(names: Sequence[str], quick: bool = False, progress: Progress = None) -> dict[str, Any]:
    """Run the research suites ``names``: the machine and each suite's figures."""
    return {
        "machine": machine(),
        "quick": quick,
        "suites": [RESEARCH[n](quick, progress) for n in chosen(names)],
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--suite",
        dest="suites",
        action="append",
        choices=[*RESEARCH, "research"],
        required=True,
        help="a suite to run (repeatable; research: all of them)",
    )
    ap.add_argument("--quick", action="store_true", help="a few positions of each suite: a smoke run")
    ap.add_argument("--json", action="store_true", help="one JSON object: machine, suites")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines on standard error")
    a = ap.parse_args(argv)
    result = run(a.suites, a.quick, None if a.quiet else to_stderr)
    if a.json:
        print(json.dumps(result))
        return
    print(f"Machine: {result['machine']}{' (quick)' if a.quick else ''}")
    for r in result["suites"]:
        print(f"  {r['name']:12} positions {r['positions']}")
        for line in summary(r):
            print(f"    {line}")


__all__ = [
    "BEST",
    "CONFIGS",
    "ENHANCEMENT_STEPS",
    "MATCHES",
    "RESEARCH",
    "deep_levels",
    "enhancements",
    "matches",
    "chosen",
    "run",
    "reference",
    "sampling_workers",
    "summary",
    "whole_deals",
]


if __name__ == "__main__":
    main()
