"""Judgement against the right oracle: the moves of clairvoyant searches scored by the exact
expectimax, where every draw is a chance event.

Seeded positions with ``--tricks`` talon tricks left (random play from the deal, both hands
open, the talon face down) are solved by the reference expectimax
(``solver.engine.reference_chance``).  Two choices are scored against it:

- **double dummy**: a best move of the exact solve with the talon's true order known;
- **averaged**: a best move of the double-dummy values averaged over every order of the
  talon (what averaging over worlds that differ only in the talon gives).

For each: the share of positions where the choice is an expectimax-best move (every move it
ties is one), and the mean points lost a decision (the expectimax value of the best move
minus that of the choice; a choice among tied moves is scored at its worst, as a player may
pick any of them).  Game wins are counted apart: the positions where some move wins or
loses the game outright with a chance above 0 are left out of the points lost and counted.

Run:  python -m benchmarks.bench_chance_judgement [--tricks 2] [--positions 500] [--games brisque briscan] [--json]
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations
from typing import Any

from benchmarks.harness import result_files
from benchmarks.harness.console import Column, emit, parser, text_table
from benchmarks.harness.timing import to_stderr
from solver.engine.reference_chance import expectimax_chances
from solver.engine.results import current_margin
from solver.engine.solving import solve
from solver.model.position import Position
from solver.play.dealing import positions_with_talon_left


def double_dummy(p: Position) -> dict[str, Fraction]:
    """Every move's raw future value with the talon's order as ``p`` holds it."""
    now = current_margin(p)
    return {str(mv.move): Fraction(int(mv.value) - now) for mv in solve(p).moves}


def averaged(p: Position) -> dict[str, Fraction]:
    """Every move's double-dummy value averaged over every order of the talon."""
    assert p.talon is not None
    orders = list(permutations(p.talon))
    total: dict[str, Fraction] = {}
    for order in orders:
        q = p.copy()
        q.talon = list(order)
        for m, v in double_dummy(q).items():
            total[m] = total.get(m, Fraction(0)) + v
    return {m: v / len(orders) for m, v in total.items()}


def _best(values: dict[str, Fraction]) -> set[str]:
    top = max(values.values())
    return {m for m, v in values.items() if v == top}


def judge(p: Position) -> dict[str, Any]:
    """How the double-dummy and the averaged choices fare in ``p`` against the expectimax."""
    chances = expectimax_chances(p)
    exact = {m: c.raw for m, c in chances.items()}
    top = max(exact.values())
    stake = any(c.win or c.loss for c in chances.values())
    row: dict[str, Any] = {"bpn": p.bpn(), "game_win_at_stake": stake}
    for name, values in (("double_dummy", double_dummy(p)), ("averaged", averaged(p))):
        chosen = _best(values)
        row[f"{name}_best"] = chosen <= _best(exact)
        row[f"{name}_lost"] = None if stake else float(top - min(exact[m] for m in chosen))
    return row


def run(
    tricks: int = 2, positions: int = 500, games: tuple[str, ...] = ("brisque", "briscan")
) -> list[dict[str, Any]]:
    """A row a game: the shares of expectimax-best choices and the mean points lost."""
    out = []
    for game in games:
        rows = []
        for i, p in enumerate(positions_with_talon_left(tricks, positions, game)):
            rows.append(judge(p))
            if (i + 1) % 100 == 0:
                to_stderr(f"{game}: {i + 1} of {positions}")
        out.append(summary(game, tricks, rows))
    return out


def summary(game: str, tricks: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A game's figures from its positions' rows (the points lost without the game wins at stake)."""
    points = [r for r in rows if not r["game_win_at_stake"]]
    out: dict[str, Any] = {
        "game": game,
        "talon_tricks_left": tricks,
        "positions": len(rows),
        "game_win_at_stake": len(rows) - len(points),
    }
    for name in ("double_dummy", "averaged"):
        out[f"{name}_best"] = round(100 * sum(r[f"{name}_best"] for r in rows) / len(rows), 2)
        out[f"{name}_lost"] = round(sum(r[f"{name}_lost"] for r in points) / max(1, len(points)), 2)
    return out


def report(rows: list[dict[str, Any]]) -> str:
    columns = (
        Column("game", "<8"),
        Column("left", ">5", "talon_tricks_left"),
        Column("positions", ">10"),
        Column("game win at stake", ">18", "game_win_at_stake"),
        Column("double-dummy best %", ">20.1f", "double_dummy_best"),
        Column("lost", ">6.2f", "double_dummy_lost"),
        Column("averaged best %", ">16.1f", "averaged_best"),
        Column("lost", ">6.2f", "averaged_lost"),
    )
    return "\n".join(text_table(columns, rows))


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--tricks", type=int, default=2, help="talon tricks left (2: about 0.1 s a position)")
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--games", nargs="+", default=["brisque", "briscan"])
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--save", action="store_true", help="write benchmarks/results/chance-judgement-<tricks>.json"
    )
    a = ap.parse_args()
    rows = run(a.tricks, a.positions, tuple(a.games))
    if a.save:
        command = f"python -m benchmarks.bench_chance_judgement --tricks {a.tricks} --positions {a.positions} --save"
        result_files.write(f"chance-judgement-{a.tricks}.json", {"command": command, "rows": rows})
    emit(rows, report, a.json)


if __name__ == "__main__":
    main()
