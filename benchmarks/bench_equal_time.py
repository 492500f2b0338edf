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
import signal
import sys
from pathlib import Path
from typing import Any

from benchmarks.harness import matches
from benchmarks.harness.records import read_records
from benchmarks.harness.result_files import RESULTS
from solver.play.match import run_match

BEFORE = "pimc:{think}@linear"  # the default player before the learned network, at the budget
MATCHES = {
    "horizon": "pimc:{think}",  # the default: three tricks to the learned network
    "inference": "pimc:{think}@linear+infer",
    "both": "pimc:{think}+infer",
}


def summarise(records: list[dict[str, Any]], timing: dict[str, float] | None = None) -> dict[str, Any]:
    """The match's summary (:func:`benchmarks.harness.matches.summary`) and each side's
    thinking time a deal."""
    s = matches.summary(records)
    if timing:
        s.update(timing)
    return s


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
            records = read_records(path)
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
        try:
            print(json.dumps(matches.paired(read_records(args.paired[0]), read_records(args.paired[1]))))
        except ValueError as e:
            raise SystemExit(f"--paired: {e}") from None
        return
    # a kill (SIGTERM) ends the match as Ctrl-C does: the pairs played and their thinking
    # times are kept, and the next run goes on from them
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    out_path = RESULTS / f"equal-time-{args.game}.json"
    results = json.loads(out_path.read_text()) if out_path.exists() else {}
    if args.from_records:
        for item in args.from_records:
            name, _, file = item.partition("=")
            recs = read_records(Path(file))
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
