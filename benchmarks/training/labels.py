"""Labels for the learned horizon evaluation: seeded positions and their values.

Each label is a position at the start of a trick with ``level`` talon tricks left (random
legal play from a seeded deal, as ``solver.play.dealing.random_position``; the seeds of
``seed_blocks(level)``, apart from the world-search test positions, seeds below 10,000)
and its future value for the player to move
(``Engine.value``: a game won outright reads beyond ``WIN_THRESHOLD``):

* **exact** (the default): an exact solve, about 6 ms with 4 talon tricks left, 16 with 5;
* **bootstrapped** (``--depth D``): a search D tricks deep to the network shipped in the
  package, for the deeper levels, whose exact solves take seconds (a horizon three tricks
  from the first trick of a deal lies there).  With D = 4 the label's error against the
  exact value is about 6 points where the network's own is 10 (level 5,
  docs/experiments/learned-horizon.md).  The row names its depth and the network that
  scored its horizon (the first 12 hex digits of the SHA-256 of the weights file).

The rows go to ``benchmarks/training/data/labels-<game>-<level>.jsonl``, one JSON object a line, in seed
order; a second run continues where the file ends, so an interrupted run keeps what it
finished and the same command always gives the same file.  A file holds one kind of label.

Run from the repository's root:
      python -m benchmarks.training.labels --game brisque --levels 1,2,3,4 --count 100000 [--workers 2]
      python -m benchmarks.training.labels --game brisque --levels 6,7 --count 60000 --depth 4
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.training import arguments

if TYPE_CHECKING:  # (imported where used: a worker process loads the engine once it is one)
    from solver.engine.solving import Solver

DATA = Path(__file__).parent / "data"
# labels of levels 1 to 5: seeds LABEL_SEED + 100,000 L on (the test positions use 0..9,999)
LABEL_SEED = 3_000_000
DEEP_LABEL_SEED = 10_000_000  # a million seeds a level from DEEP_LABEL_SEED + 1,000,000 L
SEEDS_PER_LEVEL = 100_000 * 10  # a level's stream may run over a million seeds (skips included)
FIRST_LABELS = 100_000  # the labels of levels 1 to 4 from first_seed; the rest from seeds of their own


def first_seed(level: int) -> int:
    """The first seed of a level's labels.  Levels 1 to 5 keep the streams their labels were
    made from; the deeper levels, added later, have a million seeds each, apart from every
    other level's deals (a deal's positions at two levels are one game a few tricks apart).

    >>> first_seed(5), first_seed(6)
    (3500000, 16000000)
    """
    return LABEL_SEED + 100_000 * level if level <= 5 else DEEP_LABEL_SEED + SEEDS_PER_LEVEL * level


def seed_blocks(level: int) -> list[tuple[range, int]]:
    """The seeds of a level's labels, in order: each block with the number of labels the file
    holds once the block is done.  Levels 1 to 4 take their first 100,000 labels from
    ``first_seed`` on, as they always did (the last few seeds are the next level's first),
    and any more from a million seeds of their own, ``DEEP_LABEL_SEED + SEEDS_PER_LEVEL *
    level`` on, which no other level's labels use; level 5 and more, all from ``first_seed``.

    >>> seed_blocks(4)
    [(range(3400000, 4400000), 100000), (range(14000000, 15000000), 1100000)]
    >>> seed_blocks(5)
    [(range(3500000, 4500000), 1000000)]
    """
    first = first_seed(level)
    stream = range(first, first + SEEDS_PER_LEVEL)
    if level > 4:
        return [(stream, SEEDS_PER_LEVEL)]
    own = DEEP_LABEL_SEED + SEEDS_PER_LEVEL * level
    return [(stream, FIRST_LABELS), (range(own, own + SEEDS_PER_LEVEL), FIRST_LABELS + SEEDS_PER_LEVEL)]


def slug(game: str) -> str:
    """A file-name form of a rules string: ``petite(draw=yes)`` -> ``petite-draw-yes``."""
    return game.replace("(", "-").replace(")", "").replace("=", "-").replace(",", "-")


def label_path(game: str, level: int) -> Path:
    return DATA / f"labels-{slug(game)}-{level}.jsonl"


_SOLVER: Solver | None = None  # (the worker process's solver, kept from label to label)


def network_id(game: str) -> str:
    """The network shipped for ``game``: the first 12 hex digits of its file's SHA-256."""
    from solver.engine.evaluation import shipped_network_path

    path = shipped_network_path(game)
    if not path.is_file():
        raise SystemExit(f"labels.py: --depth needs the network of {game}, and none is shipped ({path})")
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def _label(args: tuple[str, int, int, int]) -> dict[str, Any] | None:
    """The label of one seed, or None when that seed's position is not a start of a trick at
    ``level`` (the deal ended, or Brisque's last-pickup window).  ``depth`` 0: exact; else a
    search that many tricks deep to the shipped network."""
    global _SOLVER
    from solver.engine import Solver
    from solver.model.rules import Rules
    from solver.play.dealing import random_position

    game, level, seed, depth = args
    rules = Rules.parse(game)
    if _SOLVER is None or _SOLVER.rules != rules:
        _SOLVER = Solver(rules, horizon="learned") if depth else Solver(rules)
    trick = rules.talon_tricks + 1 - level
    p = random_position(seed, rules, trick)
    if p.is_over() or p.trick_number != trick or p.trick >= 0 or p.in_window:
        return None
    _SOLVER.load(p)
    if depth:
        _SOLVER.engine.clear()  # (each label searched from a clean table: the same value whatever ran before)
        _SOLVER.engine.set_limits(depth=depth)
    else:
        _SOLVER.engine.clear_limits()
    row = {"seed": seed, "level": level, "bpn": p.bpn(), "raw": _SOLVER.engine.value()}
    if depth:
        _SOLVER.engine.clear_limits()
        row["depth"] = depth
    return row


def read_labels(game: str, level: int) -> list[dict[str, Any]]:
    path = label_path(game, level)
    if not path.exists():
        return []
    text = path.read_text()
    if text and not text.endswith("\n"):  # a run cut in the middle of a line: drop that line
        text = text[: text.rfind("\n") + 1]
        path.write_text(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def make_labels(game: str, level: int, count: int, workers: int, depth: int = 0) -> int:
    """Extend the level's file to ``count`` labels (exact, or ``depth`` tricks to the shipped
    network); returns how many it holds."""
    have = read_labels(game, level)
    if have and have[0].get("depth", 0) != depth:

        def kind(d: int) -> str:
            return f"searched {d} tricks deep" if d else "exact"

        raise SystemExit(
            f"labels.py: {label_path(game, level)} holds {kind(have[0].get('depth', 0))} labels, "
            f"not {kind(depth)} ones: one kind a file"
        )
    net = network_id(game) if depth else None
    if have and depth and have[0].get("network") != net:
        raise SystemExit(
            f"labels.py: {label_path(game, level)} was labelled with network {have[0].get('network')}, "
            f"and the package ships {net}: remove the file or ship that network again"
        )
    if len(have) >= count:
        return len(have)
    DATA.mkdir(parents=True, exist_ok=True)
    n, t0 = len(have), time.time()
    last = have[-1]["seed"] if have else -1
    with label_path(game, level).open("a") as f:
        for block, upto in seed_blocks(level):
            if n >= min(count, upto):  # (this block's labels are in the file)
                continue
            start = last + 1 if last in block else block.start
            seeds = ((game, level, s, depth) for s in range(start, block.stop))
            # a pool a block: leaving its ``with`` stops the seeds it took on beyond the last label
            with multiprocessing.Pool(workers) as pool:
                for row in pool.imap(_label, seeds, chunksize=16):
                    if row is None:
                        continue
                    if net:
                        row["network"] = net
                    f.write(json.dumps(row) + "\n")
                    n += 1
                    if n % 1000 == 0:
                        f.flush()
                        print(f"{game} level {level}: {n} labels ({time.time() - t0:.0f} s)", file=sys.stderr)
                    if n >= min(count, upto):
                        break
                else:
                    raise SystemExit(f"labels.py: level {level} has no seeds left after {n} labels")
    return n


def main() -> None:
    ap = arguments.parser(__doc__)
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--depth",
        type=int,
        default=0,
        help="label by a search this many tricks deep to the shipped network (bootstrapping); 0: exact",
    )
    args = ap.parse_args()
    for level in arguments.levels(args.levels):
        n = make_labels(args.game, level, args.count, args.workers, args.depth)
        print(f"{args.game} level {level}: {n} labels in {label_path(args.game, level)}", file=sys.stderr)


if __name__ == "__main__":
    main()
