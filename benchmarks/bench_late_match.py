"""Duplicate matches that start late in the deal, where two players differ only there.

Two players that make the same decisions until a few talon tricks are left (the world search
``chance`` and the default ``quick`` one: the same search until two talon tricks are left)
play the same moves until then in both deals of a pair, so a full duplicate match spends most
of its time on play that cannot tell them apart.  Here each deal pair starts at the first
trick with ``--tricks`` talon tricks left, of a seeded deal played up to there by the greedy
player with a quarter of its moves at random (both hands and the talon's order fixed by the
deal), and is played to its end twice, seats swapped, as ``brisque match`` plays a pair.  The
records are those of ``brisque match --records`` (``start`` is the late position), written
as each pair ends; a run cut short goes on from them.  The summary is the harness's
(:func:`benchmarks.harness.matches.summary`): the mean margin a deal over the pairs without a
game-winning event with its 95% interval, the game wins of each side, the combined figure.

Run:  python -m benchmarks.bench_late_match --game brisque --pairs 2000 --think 0.1s
      [--tricks 2] [--workers 2] [--first pimc:{think}@chance] [--second pimc:{think}]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.harness import matches, result_files
from benchmarks.harness.records import read_records
from benchmarks.harness.result_files import RESULTS
from solver.engine.quick import talon_tricks_left
from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import deal
from solver.play.match import deal_seed, play_pair_from
from solver.play.players import GreedyPlayer

RANDOM_SHARE = 0.25  # of the prefix's moves, the rest greedy


def late_start(seed: int, rules: Rules, tricks_left: int) -> Position | None:
    """The deal of ``seed`` played by the greedy player with a quarter of random moves to the
    start of the first trick with ``tricks_left`` talon tricks left; None if the deal ended
    before, or stands in Brisque's last-pickup window.

    >>> p = late_start(3, Rules(), 2)
    >>> p is not None and p.talon_count == 3 and p.trick < 0
    True
    """
    p = deal(seed, rules)
    rng, greedy = random.Random(seed ^ 0x1A7E), GreedyPlayer()
    while not p.is_over() and (talon_tricks_left(p) > tricks_left or p.trick >= 0):
        moves = p.legal_moves()
        p.push(rng.choice(moves) if rng.random() < RANDOM_SHARE else greedy.choose(p))
    if p.is_over() or p.in_window or talon_tricks_left(p) != tricks_left:
        return None
    p.clear_stack()
    return p


def play_pair(task: tuple[str, str, str, int, int, int]) -> list[dict[str, Any]]:
    """Worker: one late start played twice, seats swapped (the records of ``brisque match``)."""
    first, second, rules_text, seed, pair, tricks = task
    start = late_start(seed, Rules.parse(rules_text), tricks)
    if start is None:
        return []
    return [dict(record) for record, _ in play_pair_from(start, first, second, seed, pair)]


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Play the pairs not yet in the records file (none with ``--from-records``), then
    summarise every pair in it."""
    first, second = args.first.format(think=args.think), args.second.format(think=args.think)
    path = Path(args.records or RESULTS / f"late-match-{args.game}-{args.think}.jsonl")
    done = {r["pair"] for r in read_records(path, warn=True)} if path.exists() else set()
    if args.from_records:
        done = set(range(args.pairs))
    tasks = [
        (first, second, args.game, deal_seed(args.seed, i), i, args.tricks)
        for i in range(args.pairs)
        if i not in done
    ]
    t0, played = time.perf_counter(), 0
    with ProcessPoolExecutor(max(1, args.workers)) as pool, path.open("a") as out:
        for records in pool.map(play_pair, tasks, chunksize=4):
            for r in records:
                out.write(json.dumps(r) + "\n")
            out.flush()
            played += 1
            if played % 50 == 0:
                print(f"{played}/{len(tasks)} pairs, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    s = matches.summary(read_records(path))
    s.update(start=f"{args.tricks} talon tricks left", think=args.think, records=str(path))
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="brisque")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--think", default="0.1s")
    ap.add_argument("--tricks", type=int, default=2, help="talon tricks left at the start")
    ap.add_argument("--first", default="pimc:{think}@chance")
    ap.add_argument("--second", default="pimc:{think}")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--records", help="JSON Lines file of the records (default under benchmarks/results)")
    ap.add_argument(
        "--from-records", action="store_true", help="summarise the records file only, play nothing"
    )
    args = ap.parse_args()
    summary = run(args)
    command = (
        f"python -m benchmarks.bench_late_match --game {args.game} --pairs {args.pairs} --think {args.think}"
        f" --tricks {args.tricks} --workers {args.workers}"
    )
    result_files.write(f"late-match-{args.game}-{args.think}.json", {"command": command, **summary})
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
