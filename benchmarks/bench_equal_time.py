"""Duplicate matches at equal thinking time: the learned horizon (today's default player),
the inference, and both, each against the default player before the learned network (PIMC
with the quick search to the linear horizon, ``@linear``).

Both players of a match think the same budget a decision (``pimc:0.1s``: seconds of work,
solver/analysis/thinking.py), so the better player is the one that spends it better.  For
each match the summary gives, for the first player:

* the mean margin a deal over the deal pairs without a game-winning event, with its 95%
  interval (Student's t over the pair means);
* the game-winning events of each side, counted apart;
* the combined figure: every deal's result with a game won counted for what it is worth
  (``win_worth`` ``match``: the points the winner still needed, the target from a new game),
  its mean a deal over all pairs, with its 95% interval;
* each side's thinking time (CPU seconds a deal, measured) and their ratio, which shows that
  the budget of work is equal time in fact.

The records are written to ``--records DIR`` as each pair ends (JSON Lines, as
``brisque match --records``), and a run cut short goes on from them (the same seed's pairs
from the first one missing); ``--from-records`` summarises records already played instead
of playing (a match of 1,000 pairs takes about 70 minutes of one core at 0.1 s).  The
summaries go to ``benchmarks/results/equal-time-<game>.json``.

Two matches on the same deals (the same seed), whose first players differ, compare best deal
by deal: ``--paired A B`` prints the mean of the first player's pair means in A less those in
B over the pairs that neither match ended with a game-winning event, with its 95% interval.
The players are deterministic, so the differences are the players' alone: far tighter than
the two matches' intervals side by side.

Run:  python -m benchmarks.bench_equal_time --game brisque [--deals 1000] [--think 0.1s]
      [--matches horizon,inference,both] [--workers 2] [--records DIR]
      python -m benchmarks.bench_equal_time --game brisque --from-records horizon=FILE ...
      python -m benchmarks.bench_equal_time --paired RECORDS_A RECORDS_B
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import statistics
import sys
from pathlib import Path
from typing import Any

from benchmarks.harness.records import complete_pairs, read_records
from benchmarks.harness.results import RESULTS
from solver.analysis.ranking import RankingRule
from solver.model.position import Position
from solver.model.value import Value
from solver.play.match import duplicate_summary, run_match, t95

BEFORE = "pimc:{think}@linear"  # the default player before the learned network, at the budget
MATCHES = {
    "horizon": "pimc:{think}",  # the default: three tricks to the learned network
    "inference": "pimc:{think}@linear+infer",
    "both": "pimc:{think}+infer",
}


def deal_value(rec: dict[str, Any]) -> Value:
    """The deal's result for the first player of the match."""
    first = "ab".index(rec["first_at"])
    if rec.get("win") is not None:
        return Value.game_won("ab".index(rec["win"]), first)
    return Value.margin(rec["margin_first"], first)


def combined(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The mean a deal with a game won counted for what it is worth (module text), and its
    95% interval over the pair means."""
    rank = RankingRule.parse("match")
    means = [
        statistics.fmean(rank.number(deal_value(r), Position(r["start"])) for r in pair.values())
        for pair in complete_pairs(records).values()
    ]
    mean = statistics.fmean(means)
    half = t95(len(means) - 1) * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else None
    return {
        "win_worth": "match",
        "mean": mean,
        "ci95": [None, None] if half is None else [mean - half, mean + half],
    }


def summarise(records: list[dict[str, Any]], timing: dict[str, float] | None = None) -> dict[str, Any]:
    pairs = complete_pairs(records)
    s = duplicate_summary([[int(deal_value(pair[at])) for at in "ab"] for _, pair in sorted(pairs.items())])
    s["first"], s["second"] = (
        records[0]["players"][0 if records[0]["first_at"] == "a" else 1],
        records[0]["players"][1 if records[0]["first_at"] == "a" else 0],
    )
    s["rules"] = Position(records[0]["start"]).rules.game
    s["combined"] = combined(records)
    if timing:
        s.update(timing)
    return s


def read(path: Path) -> list[dict[str, Any]]:
    """The deal records of ``path`` (a line cut short by an interrupted run is skipped)."""
    return read_records(path)


def play(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """Play the match ``name``, going on from the records already in ``--records`` (the
    pairs complete there are not played again; the thinking times are kept beside them)."""
    first = MATCHES[name].format(think=args.think)
    second = BEFORE.format(think=args.think)
    records: list[dict[str, Any]] = []
    spent = {"deals": 0, "seconds_first": 0.0, "seconds_second": 0.0}
    path = timing_path = None
    if args.records is not None:
        args.records.mkdir(parents=True, exist_ok=True)
        path = args.records / f"{args.game}-{name}-{args.think}.jsonl"
        timing_path = path.with_suffix(".timing.json")
        if path.exists():
            records = read(path)
            counts: dict[int, int] = {}
            for r in records:
                counts[r["pair"]] = counts.get(r["pair"], 0) + 1
            first_missing = next(p for p in range(len(counts) + 1) if counts.get(p) != 2)
            records = [r for r in records if r["pair"] < first_missing]
            path.write_text("".join(json.dumps(r) + "\n" for r in records))
            if timing_path.exists():
                spent = json.loads(timing_path.read_text())
    start = len(records) // 2
    sink = path.open("a") if path is not None else None

    def keep(pair: list[Any]) -> None:
        if sink is not None:
            for rec in pair:
                sink.write(json.dumps(rec) + "\n")
            sink.flush()

    try:
        if start < args.deals:
            m = run_match(
                first,
                second,
                args.deals - start,
                seed=args.seed,
                rules=args.game,
                workers=args.workers,
                on_pair=keep,
                first_pair=start,
            )
            records += [dict(r) for r in m.records]
            n = len(m.records)
            spent["deals"] += n
            spent["seconds_first"] += m.timing["seconds_per_deal_first"] * n
            spent["seconds_second"] += m.timing["seconds_per_deal_second"] * n
            if timing_path is not None:
                timing_path.write_text(json.dumps(spent) + "\n")
            if m.interrupted:
                raise SystemExit(f"{name}: stopped after {len(records) // 2} pairs; run again to go on")
    finally:
        if sink is not None:
            sink.close()
    return summarise(records, per_deal(spent))


def paired(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """Match ``a``'s first player against match ``b``'s, pair by pair over the same deals (module
    text): the mean difference of their pair means, its 95% interval, and how many pairs.

    >>> rec = lambda pair, at, m: {"pair": pair, "first_at": at, "deal_seed": pair, "margin_first": m}
    >>> a = [rec(0, "a", 10), rec(0, "b", 6), rec(1, "a", 0), rec(1, "b", 4)]
    >>> b = [rec(0, "a", 4), rec(0, "b", 4), rec(1, "a", 2), rec(1, "b", -2)]
    >>> r = paired(a, b); r["pairs"], r["mean"]
    (2, 3.0)
    """
    pa, pb = complete_pairs(a), complete_pairs(b)
    diffs = []
    for k in sorted(set(pa) & set(pb)):
        if pa[k]["a"]["deal_seed"] != pb[k]["a"]["deal_seed"]:
            raise SystemExit(f"--paired: pair {k} was dealt from seed {pa[k]['a']['deal_seed']} in one "
                             f"match and {pb[k]['a']['deal_seed']} in the other: expected the same deals")  # fmt: skip
        if any(m[k][at].get("win") is not None for m in (pa, pb) for at in "ab"):
            continue
        diffs.append(
            statistics.fmean(int(deal_value(pa[k][at])) for at in "ab")
            - statistics.fmean(int(deal_value(pb[k][at])) for at in "ab")
        )
    if len(diffs) < 2:
        raise SystemExit(f"--paired: {len(diffs)} pairs without events in both matches; expected 2 or more")
    mean = statistics.fmean(diffs)
    half = t95(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return {"pairs": len(diffs), "mean": mean, "ci95": [mean - half, mean + half]}


def per_deal(spent: dict[str, Any]) -> dict[str, Any] | None:
    """Each side's thinking time a deal from the sidecar's totals (None if nothing timed)."""
    if not spent["deals"]:
        return None
    return {
        "seconds_per_deal_first": spent["seconds_first"] / spent["deals"],
        "seconds_per_deal_second": spent["seconds_second"] / spent["deals"],
        "timed_deals": spent["deals"],  # (a segment killed by SIGKILL is not timed)
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="brisque", choices=["brisque", "briscan"])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--think", default="0.1s")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--matches", default="horizon,inference,both")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--records", type=Path, default=None, help="directory for the deal records")
    ap.add_argument("--from-records", nargs="*", default=[], metavar="NAME=FILE")
    ap.add_argument("--paired", nargs=2, type=Path, default=None, metavar=("RECORDS_A", "RECORDS_B"))
    args = ap.parse_args()
    if args.paired:
        print(json.dumps(paired(read(args.paired[0]), read(args.paired[1]))))
        return
    # a kill (SIGTERM) ends the match as Ctrl-C does: the pairs played and their thinking
    # times are kept, and the next run goes on from them
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    out_path = RESULTS / f"equal-time-{args.game}.json"
    results = json.loads(out_path.read_text()) if out_path.exists() else {}
    if args.from_records:
        for item in args.from_records:
            name, _, file = item.partition("=")
            recs = read(Path(file))
            # the thinking times: this script's sidecar, or brisque match --json's summary
            sidecar, cli = Path(file).with_suffix(".timing.json"), Path(file).with_suffix(".json")
            timing = None
            if sidecar.exists():
                timing = per_deal(json.loads(sidecar.read_text()))
            elif cli.exists() and cli.read_text().strip():
                timing = {
                    k: v for k, v in json.loads(cli.read_text()).items() if k.startswith("seconds_per_deal")
                }
            results[name] = summarise(recs, timing)
            print(name, json.dumps(results[name]), file=sys.stderr)
    else:
        for name in args.matches.split(","):
            results[name] = play(name, args)
            print(name, json.dumps(results[name]), file=sys.stderr)
    out_path.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
