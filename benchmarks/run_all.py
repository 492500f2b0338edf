"""Run every benchmark of the project and rewrite BENCHMARKS.md (tables and PNG plots).

A thin layer over the suites of ``brisque bench`` (``solver.bench``), run through the
package as installed; this script only lays their figures out as the report:

* the standard suites (``solver.bench.suites``: final phase, deep search by talon tricks
  left, sampling, the batch path, and the signature): ``--bench-only`` runs them alone and
  rewrites their section only;
* the research suites (:mod:`benchmarks.research`): ``reference`` (final-phase throughput,
  the engine against the reference solver), ``enhancements`` (deep search by talon tricks
  left, each search enhancement added one at a time, side by side in the same run),
  ``sampling-workers`` (200-world queries at tricks 1, 5 and 9, one and two workers) and
  ``matches`` (PIMC, 100 worlds, against random, greedy and the clairvoyant player, and
  against greedy in Briscan, duplicate deal pairs).  Matches take long: their results are
  stored in benchmarks/results/ and ``--reuse-matches`` takes them from there.
  ``--whole-deals`` adds the suite ``whole-deals`` (30 whole deals, one thread and two) and
  rewrites its section.

The raw results of a run are kept in benchmarks/results/ (last-run.json for the research
suites, bench-suites.json for the standard ones, whole-deals-latest.jsonl), beside the files of
the single benchmarks (bench_*.py, compare_builds*.py).  BENCHMARKS.md is written from those
files alone by ``benchmarks/report.py``: ``--report-only`` rewrites it without running
anything (``--from DIR`` reads another directory of results).  The plot needs matplotlib, the
optional extra ``bench``: ``pip install '.[bench]'``.

Run:  python -m benchmarks.run_all [--quick] [--reuse-matches] [--match-deals 500] [--whole-deals]
      python -m benchmarks.run_all --bench-only [--quick]
      python -m benchmarks.run_all --report-only [--from benchmarks/results]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from benchmarks import plots, report, research
from benchmarks.harness import result_files
from benchmarks.harness.result_files import RESULTS, ROOT
from solver.bench.suites import SUITES, machine
from solver.bench.suites import run as run_suites

REPORT = ROOT / "BENCHMARKS.md"
DEEP_PLOT = ROOT / "benchmarks" / "deep.png"


def progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def match_name(a: str, b: str, rules: str) -> str:
    return f"match-{a.replace(':', '')}-{b}-{rules}"


def run_matches(deals: int, reuse: bool) -> list[dict[str, Any]]:
    """The suite ``matches``, each match's summary and records kept in benchmarks/results/
    as it ends; with ``reuse``, a match kept there is not played again."""
    from solver.formats.records import write_records

    stored = {}
    for spec in research.MATCHES:
        name = match_name(*spec) + ".json"
        if reuse and result_files.exists(name) and result_files.path(name).stat().st_size:
            # (a summary a line, as brisque match --json writes it: the last one is the match's)
            stored[spec] = result_files.read_rows(name)[-1]

    def keep(summary: dict[str, Any], records: list[Any]) -> None:
        name = match_name(summary["first"], summary["second"], summary["rules"])
        RESULTS.mkdir(parents=True, exist_ok=True)
        write_records(str(result_files.path(name + ".jsonl")), records)
        result_files.write_rows(name + ".json", [summary])

    missing = tuple(spec for spec in research.MATCHES if spec not in stored)
    played = (
        research.matches(deals=deals, progress=progress, on_match=keep, only=missing)["matches"]
        if missing
        else []
    )
    new = dict(zip(missing, played))
    return [stored[spec] if spec in stored else new[spec] for spec in research.MATCHES]


def save(name: str, data: dict[str, Any]) -> None:
    """Keep a run's raw results in benchmarks/results/ (first: the report is written from them)."""
    if name.endswith(".jsonl"):  # (the form of bench_whole_deals.py: deals, then the summary)
        summary = {k: v for k, v in data.items() if k != "deals"}
        result_files.write_rows(name, [*data.get("deals", []), summary])
    else:  # (the run's own machine and date are in ``data``)
        result_files.write(name, data, stamp=False)


def write_report(results: Path | str = RESULTS) -> str:
    """Rewrite BENCHMARKS.md from the result files in ``results``; the plot too when
    matplotlib is there."""
    if Path(results).resolve() == RESULTS:
        if importlib.util.find_spec("matplotlib"):
            plots.deep_plot(result_files.read("last-run.json")["deep"], str(DEEP_PLOT))
        else:
            progress("matplotlib missing: the plot benchmarks/deep.png is left as it is")
    text = report.build(results, result_files.today())
    REPORT.write_text(text, encoding="utf-8")
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
        "--report-only",
        action="store_true",
        help="run nothing: rewrite BENCHMARKS.md from the result files",
    )
    ap.add_argument(
        "--from",
        dest="results",
        default=RESULTS,
        metavar="DIR",
        help=f"the directory of result files for --report-only (default {RESULTS.relative_to(ROOT)})",
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
    date = result_files.today()
    if a.report_only:
        print(write_report(a.results))
        return
    if a.whole_deals_only:
        result = research.whole_deals(a.quick, progress)
        save("whole-deals-latest.jsonl", {**result, "machine": machine(), "date": date})
        print(write_report())
        return
    if a.bench_only:
        save("bench-suites.json", {**run_suites(quick=a.quick), "date": date})
        print(write_report())
        return
    plots.require_matplotlib()  # before hours of benchmarks, not after
    final = research.reference(a.quick, progress, positions=200 if a.quick else 1000)
    deep = research.enhancements(a.quick, progress, cap=a.cap, cap_best=a.cap_best)
    sampling = research.sampling_workers(a.quick, progress)["rows"]
    matches = [] if a.skip_matches else run_matches(4 if a.quick else a.match_deals, a.reuse_matches)
    bench = run_suites(list(SUITES), quick=a.quick)  # (the standard suites, as brisque bench)
    save(
        "last-run.json",
        {"final": final, "deep": deep, "sampling": sampling, "matches": matches, "cap": a.cap, "date": date},
    )
    save("bench-suites.json", {**bench, "date": date})
    if a.whole_deals:
        save(
            "whole-deals-latest.jsonl",
            {**research.whole_deals(a.quick, progress), "machine": machine(), "date": date},
        )
    print(write_report())


if __name__ == "__main__":
    main()
