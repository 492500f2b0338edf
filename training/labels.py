"""Exact labels for the learned horizon evaluation: seeded positions and their exact values.

Each label is a position at the start of a trick with ``level`` talon tricks left (random
legal play from a seeded deal, as ``solver.play.dealing.random_position``; seeds
``LABEL_SEED + 100,000 * level`` on, apart from the world-search test positions, seeds below
10,000) and its exact future value for the player to move (``Engine.value``: a game won
outright reads beyond ``WIN_THRESHOLD``).  The rows go to
``training/data/labels-<game>-<level>.jsonl``, one JSON object a line, in seed order; a
second run continues where the file ends, so an interrupted run keeps what it finished and
the same command always gives the same file.

Run:  python training/labels.py --game brisque --levels 1,2,3,4 --count 100000 [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Iterator
from pathlib import Path

DATA = Path(__file__).parent / "data"
LABEL_SEED = 3_000_000  # labels of level L: seeds LABEL_SEED + 100,000 L on (the test positions use 0..9,999)
SEEDS_PER_LEVEL = 100_000 * 10  # a level's stream may run over a million seeds (skips included)


def slug(game: str) -> str:
    """A file-name form of a rules string: ``petite(draw=yes)`` -> ``petite-draw-yes``."""
    return game.replace("(", "-").replace(")", "").replace("=", "-").replace(",", "-")


def label_path(game: str, level: int) -> Path:
    return DATA / f"labels-{slug(game)}-{level}.jsonl"


_SOLVER = None


def _label(args: tuple[str, int, int]) -> dict | None:
    """The label of one seed, or None when that seed's position is not a start of a trick at
    ``level`` (the deal ended, or Brisque's last-pickup window)."""
    global _SOLVER
    from solver.engine import Solver
    from solver.model.rules import Rules
    from solver.play.dealing import random_position

    game, level, seed = args
    rules = Rules.parse(game)
    if _SOLVER is None or _SOLVER.rules != rules:
        _SOLVER = Solver(rules)
    trick = rules.talon_tricks + 1 - level
    p = random_position(seed, rules, trick)
    if p.is_over() or p.trick_number != trick or p.trick >= 0 or p.in_window:
        return None
    _SOLVER.load(p)
    _SOLVER.engine.clear_limits()
    return {"seed": seed, "level": level, "bpn": p.bpn(), "raw": _SOLVER.engine.value()}


def read_labels(game: str, level: int) -> list[dict]:
    path = label_path(game, level)
    if not path.exists():
        return []
    text = path.read_text()
    if text and not text.endswith("\n"):  # a run cut in the middle of a line: drop that line
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def make_labels(game: str, level: int, count: int, workers: int) -> int:
    """Extend the level's file to ``count`` labels; returns how many it holds."""
    have = read_labels(game, level)
    if len(have) >= count:
        return len(have)
    first = LABEL_SEED + 100_000 * level
    seed = have[-1]["seed"] + 1 if have else first
    DATA.mkdir(parents=True, exist_ok=True)
    n, t0 = len(have), time.time()

    def seeds() -> Iterator[tuple[str, int, int]]:
        for s in range(seed, first + SEEDS_PER_LEVEL):
            yield (game, level, s)

    with label_path(game, level).open("a") as f, multiprocessing.Pool(workers) as pool:
        for row in pool.imap(_label, seeds(), chunksize=16):
            if row is None:
                continue
            f.write(json.dumps(row) + "\n")
            n += 1
            if n % 1000 == 0:
                f.flush()
                print(f"{game} level {level}: {n} labels ({time.time() - t0:.0f} s)", file=sys.stderr)
            if n >= count:
                pool.terminate()
                break
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="brisque")
    ap.add_argument("--levels", default="1,2,3,4")
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    for level in (int(x) for x in args.levels.split(",")):
        n = make_labels(args.game, level, args.count, args.workers)
        print(f"{args.game} level {level}: {n} labels in {label_path(args.game, level)}", file=sys.stderr)


if __name__ == "__main__":
    main()
