"""Count how deals end between good players, for the chance of winning a whole game
(solver/analysis/game_chance.py): reads deal records of self-play matches (``brisque match
A B --records FILE``) and ships them (``solver.engine.evaluation.write_deal_outcomes``).

Each deal is counted by what it adds to the game totals of seats a and b: the deal's scores
in Brisque and Briscan, one game point to the deal's winner in Petite Brisque, or a
game-winning event (four kings or queens, a vole).  Only deals started from a new game
(totals 0:0) and played to the end are counted; anything else is reported and skipped.

Run from the repository's root:
      python -m benchmarks.training.deal_outcomes RECORDS.jsonl ... [--out FILE]
      (the shipped file: the equal-time matches' records of Brisque and Briscan, and a
      Petite Brisque match of pimc:40 against itself: docs/solver.md)
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from solver.engine.evaluation import write_deal_outcomes
from solver.errors import PositionError, RecordError
from solver.formats.records import DealRecord
from solver.model.position import Position


def outcome_of(rec: DealRecord) -> tuple[str, tuple[int, int, str | None]]:
    """(game, (adds to a, adds to b, outright winner)) of a finished deal from a new game."""
    start = Position(rec.start)
    if start.game != [0, 0]:
        raise RecordError(f"the deal starts at game totals {start.game[0]}:{start.game[1]}, not a new game")
    end = rec.final()
    out = end.outcome()
    if out is None:
        raise RecordError("the deal is not played to the end")
    if out.win is not None:
        return start.rules.game, (0, 0, "ab"[out.win])
    if start.rules.objective == "tricks":
        if out.winner is None:
            return start.rules.game, (0, 0, None)
        return start.rules.game, (1, 0, None) if out.winner == 0 else (0, 1, None)
    return start.rules.game, (out.score[0], out.score[1], None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=None, help="write here (default: ship them with the package)")
    args = ap.parse_args()
    counts: dict[str, Counter[tuple[int, int, str | None]]] = {}
    sources: dict[str, list[str]] = {}
    for path in args.records:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            try:
                game, outcome = outcome_of(DealRecord.from_json(line))
            except (RecordError, PositionError, ValueError) as exc:
                print(f"{path}:{n}: skipped: {exc}", file=sys.stderr)
                continue
            counts.setdefault(game, Counter())[outcome] += 1
            if path.name not in sources.setdefault(game, []):
                sources[game].append(path.name)
    data = {
        game: {
            "source": f"{sum(c.values())} deals of self-play records: {', '.join(sources[game])}",
            "outcomes": [
                [a, b, w, k]
                for (a, b, w), k in sorted(c.items(), key=lambda kv: (kv[0][0], kv[0][1], str(kv[0][2])))
            ],
        }
        for game, c in sorted(counts.items())
    }
    write_deal_outcomes(data, args.out)
    for game, d in data.items():
        print(f"{game}: {d['source']}", file=sys.stderr)


if __name__ == "__main__":
    main()
