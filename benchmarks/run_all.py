"""Run every benchmark of the project and rewrite BENCHMARKS.md (tables and PNG plots).

A thin layer over the suites of ``brisque bench`` (``solver.bench``), run through the
package as installed; this script only lays their figures out as the report:

* the standard suites (``solver.bench.suites``: final phase, deep search by talon tricks
  left, sampling, the batch path, and the signature): ``--bench-only`` runs them alone and
  rewrites their section only;
* the research suites (``solver.bench.research``): ``reference`` (final-phase throughput,
  the engine against the reference solver), ``enhancements`` (deep search by talon tricks
  left, each search enhancement added one at a time, side by side in the same run),
  ``sampling-workers`` (200-world queries at tricks 1, 5 and 9, one and two workers) and
  ``matches`` (PIMC, 100 worlds, against random, greedy and the clairvoyant player, and
  against greedy in Briscan, duplicate deal pairs).  Matches take long: their results are
  stored in benchmarks/results/ and ``--reuse-matches`` takes them from there.
  ``--whole-deals`` adds the suite ``whole-deals`` (30 whole deals, one thread and two) and
  rewrites its section.

The raw results of a run are kept in benchmarks/results/last-run.json, and
``--from-results`` rebuilds BENCHMARKS.md and the plot from them without running anything.
Sections of BENCHMARKS.md that this script does not write (such as the build comparison of
``compare_builds.py``) are kept as they are, after the ones it writes.  The plot needs
matplotlib, the optional extra ``bench``: ``pip install '.[bench]'``.

Run:  python benchmarks/run_all.py [--quick] [--reuse-matches] [--match-deals 500] [--whole-deals]
      python benchmarks/run_all.py --bench-only [--quick]
      python benchmarks/run_all.py --from-results [benchmarks/results/last-run.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import plots  # noqa: E402

from solver.bench import research  # noqa: E402
from solver.bench.suites import SUITES, machine, markdown  # noqa: E402
from solver.bench.suites import run as run_suites  # noqa: E402

ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
LAST_RUN = os.path.join(RESULTS, "last-run.json")
REPORT = os.path.join(ROOT, "BENCHMARKS.md")
DEEP_PLOT = os.path.join(HERE, "deep.png")


def progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def match_name(a: str, b: str, rules: str) -> str:
    return f"match-{a.replace(':', '')}-{b}-{rules}"


def run_matches(deals: int, reuse: bool) -> list[dict]:
    """The suite ``matches``, each match's summary and records kept in benchmarks/results/
    as it ends; with ``reuse``, a match kept there is not played again."""
    from solver.formats.records import write_records

    os.makedirs(RESULTS, exist_ok=True)
    stored = {}
    for spec in research.MATCHES:
        path = os.path.join(RESULTS, match_name(*spec) + ".json")
        if reuse and os.path.exists(path) and os.path.getsize(path):
            with open(path) as f:
                stored[spec] = json.loads(f.read().strip().splitlines()[-1])

    def keep(summary: dict, records: list) -> None:
        name = match_name(summary["first"], summary["second"], summary["rules"])
        write_records(os.path.join(RESULTS, name + ".jsonl"), records)
        with open(os.path.join(RESULTS, name + ".json"), "w") as f:
            f.write(json.dumps(summary) + "\n")

    missing = tuple(spec for spec in research.MATCHES if spec not in stored)
    played = (
        research.matches(deals=deals, progress=progress, on_match=keep, only=missing)["matches"]
        if missing
        else []
    )
    new = dict(zip(missing, played))
    return [stored[spec] if spec in stored else new[spec] for spec in research.MATCHES]


def _ci(s: dict) -> str:
    lo, hi = s["ci95"]
    return "n/a" if lo is None else f"[{lo:+.1f}, {hi:+.1f}]"


def write_report(
    machine: str,
    final: dict,
    deep: dict,
    sampling: list,
    matches: list,
    cap: float,
    date: str | None = None,
    notes: dict | None = None,
) -> str:
    """The sections of BENCHMARKS.md written from a run's raw results; ``notes``: a sentence
    to add to a section (``sampling``), kept in the raw results."""
    notes = notes or {}
    lines = [
        "# Benchmarks",
        "",
        f"Written by `python benchmarks/run_all.py` on {date or time.strftime('%Y-%m-%d')}.",
        "",
        f"Machine: {machine}. One process per measurement unless a table says two workers; "
        "times are wall-clock on an otherwise idle machine unless noted.",
        "",
    ]
    f = final
    lines += [
        "## Final phase: engine against the reference",
        "",
        f"{f['positions']} seeded Brisque positions at the start of the final phase (6 cards each, "
        f"reached by random play), table 2^{f['table_bits']}, measured in the same run "
        f"(`brisque bench --suite reference`).",
        "",
        "| solver | µs per position | positions/s | nodes per position | nodes/s |",
        "|---|---:|---:|---:|---:|",
        f"| engine, value (one batch call) | {f['engine_value_us']:.1f} | {f['engine_value_positions_per_s']:.0f} "
        f"| {f['engine_nodes_per_position']:.0f} | {f['engine_nodes_per_s'] / 1e6:.1f} M |",
        f"| engine, every move's value | {f['engine_every_move_us']:.1f} | {1e6 / f['engine_every_move_us']:.0f} | | |",
        f"| reference, every move's value ({f['reference_positions']} positions) | "
        f"{f['reference_every_move_us']:.0f} | {f['reference_positions_per_s']:.1f} | | |",
        "",
        f"Ratios: every move's value costs {f['every_move_over_value']:.2f}x the value alone; the engine is "
        f"{f['speedup_value_vs_reference']:.0f}x faster than the reference for the value and "
        f"{f['speedup_every_move_vs_reference']:.0f}x for every move's value. Values agree: "
        f"{f['values_agree']}.",
        "",
    ]
    lines += [
        "## Deep double-dummy search",
        "",
        f"Brisque positions with k talon tricks left (k = 10 is the whole deal), "
        f"{deep['positions']} seeded positions per k, exact value from a fresh table, "
        f"CPU cap {cap:g} s per solve ({deep.get('cap_best', cap):g} s with every enhancement; "
        f"a capped solve counts as the cap). Each configuration "
        f"adds one enhancement to the one above, measured one after the other in the same run "
        f"(`brisque bench --suite enhancements`).",
        "",
    ]
    best = list(deep["configs"].values())[-1]
    by_k = {r["k"]: r for r in best}
    for k, target in ((5, "20 ms"), (10, "10 s (aim 1 s)")):
        if k in by_k:
            r = by_k[k]
            lines.append(
                f"- k = {k}: median {r['median_ms']:.1f} ms, p90 {r['p90_ms']:.1f} ms, "
                f"{r['unfinished']}/{r['positions']} capped; target {target}."
            )
    plain = {r["k"]: r for r in list(deep["configs"].values())[0]}
    lines += [
        "",
        "Every enhancement against plain alpha-beta, same run (median ms; a capped "
        "median is a lower bound, so its ratio too):",
        "",
        "| k | plain alpha-beta | every enhancement | ratio |",
        "|---:|---:|---:|---:|",
    ]
    for k, r in sorted(by_k.items()):
        if k in plain:
            q = plain[k]
            capped = "≥ " if q["unfinished"] * 2 > q["positions"] else ""
            lines.append(
                f"| {k} | {capped}{q['median_ms']:.2f} | {r['median_ms']:.2f} | "
                f"{capped}{q['median_ms'] / max(r['median_ms'], 1e-9):.1f}x |"
            )
    lines += [
        "",
        "![deep search: median ms by k, one line per configuration](benchmarks/deep.png)",
        "",
        "Plot: median milliseconds per solve by k (log scale), one line per configuration "
        "(named in the legend, in the order of the tables below); an open marker is a median "
        "at the CPU cap, a lower bound.",
        "",
    ]
    for name, rows in deep["configs"].items():
        lines += [
            f"**{name}**",
            "",
            "| k | median ms | p90 ms | median nodes | p90 nodes | capped |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows:
            lines.append(
                f"| {r['k']} | {r['median_ms']:.2f} | {r['p90_ms']:.2f} | {r['median_nodes']:.0f} "
                f"| {r['p90_nodes']:.0f} | {r['unfinished']}/{r['positions']} |"
            )
        lines.append("")
    lines += [
        "## Sampling (hidden cards)",
        "",
        "A 200-world best-move query on the view of the player to move, median over seeded "
        "deals, one and two worker processes side by side (`brisque bench --suite sampling-workers`). "
        "Each world gets the quick search of the run (`world_search`: exact with at most four "
        "talon tricks left since issue 13, two before; earlier four tricks to the fitted horizon "
        "evaluation, three to the hand-made heuristic before)."
        + (" " + notes["sampling"] if "sampling" in notes else ""),
        "",
        "| trick | world search | 1 worker: s | worlds/s | 2 workers: s | worlds/s | speed-up |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in sampling:
        one, two = r["1 worker"], r["2 workers"]
        lines.append(
            f"| {r['trick']} | {r['method']} | {one['median_s']:.3f} | {one['worlds_per_s']:.0f} "
            f"| {two['median_s']:.3f} | {two['worlds_per_s']:.0f} | {r['speedup']:.2f}x |"
        )
    lines.append("")
    if matches:
        lines += [
            "## Playing strength: duplicate matches",
            "",
            "Every deal is played twice with the seats swapped (`brisque match`, seed 1, two "
            "workers). Mean margin per deal for the first player with a 95% confidence interval "
            "from the pair means; a game-winning event counts ±10000 (so a single one moves the "
            "mean by 10000 / deals). Records are in `benchmarks/results/`; with "
            "`--reuse-matches` (as for this report) the stored results of an earlier run are "
            "shown, since the matches take about 35 minutes.",
            "",
            "| game | first | second | deal pairs | mean margin | 95% CI | won | lost | drawn | share won (Wilson 95%) | events first/second |",
            "|---|---|---|---:|---:|---|---:|---:|---:|---|---|",
        ]
        for s in matches:
            wlo, whi = s["won_share_ci95"]
            lines.append(
                f"| {s['rules']} | {s['first']} | {s['second']} | {s['pairs']} | {s['mean_margin']:+.1f} "
                f"| {_ci(s)} | {s['won']} | {s['lost']} | {s['drawn']} | {s['won'] / s['deals']:.3f} "
                f"[{wlo:.3f}, {whi:.3f}] | {s['game_wins_first']}/{s['game_wins_second']} |"
            )
        lines.append("")
    return "\n".join(lines)


BENCH_SECTION = "## `brisque bench`: the standard suites"


def bench_section(result: dict, date: str) -> str:
    """The section of the ``brisque bench`` suites, from :func:`solver.bench.suites.run`'s result."""
    return "\n".join(
        [
            BENCH_SECTION,
            "",
            f"Written by `python benchmarks/run_all.py` on {date} from `solver.bench` (the same "
            "suites and figures as `brisque bench --json`, on the positions shipped with the "
            "package). The signature is the total node count of the final-phase and deep "
            "suites: deterministic, the same on every machine until the search changes "
            "(`tests/test_bench.py` pins it).",
            "",
            markdown(result),
            "",
        ]
    )


WHOLE_SECTION = "## Whole deals: `brisque bench --suite whole-deals`"


def whole_deals_section(result: dict, date: str) -> str:
    """The section of the research suite ``whole-deals``: the distribution on one thread and
    on two, and the deals one by one."""
    lines = [
        WHOLE_SECTION,
        "",
        f"Written by `python benchmarks/run_all.py` on {date}. Machine: {result.get('machine', 'not recorded')}. "
        "Each seeded Brisque deal (talon order known, from trick 1) solved exactly from a cleared table "
        f"of 2^22 entries, on one thread and then on {result['threads']} threads sharing it, deal by deal. "
        "The issue's target: median at most 1 s, p90 at most 5 s, none above 60 s; 1.6x on two threads.",
        "",
        "| | median | p90 | slowest | under 1 s | under 5 s | above 60 s | median nodes | nodes a second |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, key in (("one thread", "one_thread"), (f"{result['threads']} threads", "on_threads")):
        d = result[key]
        lines.append(
            f"| {label} | {d['median_s']} s | {d['p90_s']} s | {d['slowest_s']} s | {d['share_under_1s']:.0%} "
            f"| {d['share_under_5s']:.0%} | {d['over_60s']} | {d['median_nodes'] / 1e6:.1f} M | {d['nodes_per_s'] / 1e6:.1f} M |"
        )
    lines += [
        "",
        f"Speed-up of {result['threads']} threads: median {result['median_speedup']}, over the total time "
        f"{result['total_speedup']}; node overhead median {result['median_node_overhead']}; the same values "
        f"on both: {result['all_same']}.",
        "",
        "| deal | value | one thread s | nodes | threads s | nodes | speed-up |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["deals"]:
        lines.append(
            f"| {r['seed']} | {r['value_one']} | {r['one_s']} | {r['nodes_one'] / 1e6:.0f} M | {r['threads_s']} "
            f"| {r['nodes_threads'] / 1e6:.0f} M | {r['speedup']} |"
        )
    return "\n".join(lines) + "\n"


def replace_section(path: str, header: str, text: str) -> None:
    """Rewrite the ``## `` section ``header`` of the report at ``path`` (or add it at the end)."""
    with open(path) as f:
        report = f.read()
    parts = re.split(r"(?m)^(?=## )", report)
    for i, part in enumerate(parts):
        if part.splitlines() and part.splitlines()[0].strip() == header:
            parts[i] = text.rstrip() + "\n\n"
            break
    else:
        parts.append("\n" + text.rstrip() + "\n")
    with open(path, "w") as f:
        f.write("".join(parts).rstrip() + "\n")


WRITTEN = (
    BENCH_SECTION,
    "## Final phase: engine against the reference",
    "## Deep double-dummy search",
    "## Sampling (hidden cards)",
    "## Playing strength: duplicate matches",
)


def kept_sections(path: str, written: tuple[str, ...] = WRITTEN) -> str:
    """The ``## `` sections of the report at ``path`` that are not rewritten (``written``)."""
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        text = f.read()
    sections = re.split(r"(?m)^(?=## )", text)[1:]  # [0] is the title and preamble
    kept = [s.rstrip() for s in sections if s.splitlines()[0].strip() not in written]
    return "\n\n".join(kept)


def report_date(path: str) -> str | None:
    """The date on the "Written by" line of the report at ``path``, if any."""
    if os.path.exists(path):
        with open(path) as f:
            m = re.search(r"Written by `python benchmarks/run_all.py` on (\d{4}-\d\d-\d\d)", f.read())
        if m:
            return m.group(1)
    return None


def write_outputs(raw: dict) -> str:
    """Draw the plot and rewrite BENCHMARKS.md from the raw results of a run."""
    plots.deep_plot(raw["deep"], DEEP_PLOT)
    final = raw["final"]
    text = write_report(
        final["machine"],
        final,
        raw["deep"],
        raw["sampling"],
        raw["matches"],
        raw["cap"],
        raw.get("date") or report_date(REPORT),
        raw.get("notes"),
    )
    if raw.get("bench"):
        text += "\n" + bench_section(raw["bench"], raw.get("date") or time.strftime("%Y-%m-%d"))
    # (a run without the standard suites, such as an old raw file, keeps their section)
    extra = kept_sections(REPORT, WRITTEN if raw.get("bench") else WRITTEN[1:])
    with open(REPORT, "w") as f:
        f.write(text + ("\n" + extra + "\n" if extra else "\n"))
    if raw.get("whole_deals"):
        replace_section(
            REPORT, WHOLE_SECTION, whole_deals_section(raw["whole_deals"], raw.get("date") or "?")
        )
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small samples (a smoke run)")
    ap.add_argument("--reuse-matches", action="store_true")
    ap.add_argument("--skip-matches", action="store_true")
    ap.add_argument("--match-deals", type=int, default=500)
    ap.add_argument("--cap", type=float, default=5.0, help="CPU seconds per deep solve")
    ap.add_argument(
        "--cap-best",
        type=float,
        default=60.0,
        help="CPU seconds per deep solve with every enhancement (to k = 10)",
    )
    ap.add_argument(
        "--from-results",
        nargs="?",
        const=LAST_RUN,
        default=None,
        metavar="JSON",
        help="run nothing: rebuild BENCHMARKS.md and the plot from kept raw results "
        f"(default {os.path.relpath(LAST_RUN, ROOT)})",
    )
    ap.add_argument(
        "--bench-only",
        action="store_true",
        help="run the standard suites of brisque bench alone and rewrite their section only",
    )
    ap.add_argument(
        "--whole-deals", action="store_true", help="also run the suite whole-deals (about 10 minutes)"
    )
    ap.add_argument(
        "--whole-deals-only",
        action="store_true",
        help="run the suite whole-deals alone and rewrite its section only",
    )
    a = ap.parse_args()
    if a.whole_deals_only:
        result = research.whole_deals(a.quick, progress)
        result["machine"] = machine()
        section = whole_deals_section(result, time.strftime("%Y-%m-%d"))
        replace_section(REPORT, WHOLE_SECTION, section)
        print(section)
        return
    if a.bench_only:
        section = bench_section(run_suites(quick=a.quick), time.strftime("%Y-%m-%d"))
        replace_section(REPORT, BENCH_SECTION, section)
        print(section)
        return
    plots.require_matplotlib()  # before hours of benchmarks, not after
    if a.from_results:
        with open(a.from_results) as f:
            print(write_outputs(json.load(f)))
        return
    date = time.strftime("%Y-%m-%d")
    final = research.reference(a.quick, progress, positions=200 if a.quick else 1000)
    deep = research.enhancements(a.quick, progress, cap=a.cap, cap_best=a.cap_best)
    sampling = research.sampling_workers(a.quick, progress)["rows"]
    matches = [] if a.skip_matches else run_matches(4 if a.quick else a.match_deals, a.reuse_matches)
    bench = run_suites(list(SUITES), quick=a.quick)  # (the standard suites, as brisque bench)
    raw = {
        "final": final,
        "deep": deep,
        "sampling": sampling,
        "matches": matches,
        "cap": a.cap,
        "date": date,
        "bench": bench,
    }
    if a.whole_deals:
        raw["whole_deals"] = {**research.whole_deals(a.quick, progress), "machine": machine()}
    os.makedirs(RESULTS, exist_ok=True)
    with open(LAST_RUN, "w") as f:  # kept first: the report can be rebuilt from it
        json.dump(raw, f)
    print(write_outputs(raw))


if __name__ == "__main__":
    main()
