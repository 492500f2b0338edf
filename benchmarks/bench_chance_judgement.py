"""Judgement against the right oracle: the moves of clairvoyant searches scored by the exact
expectimax, where every draw is a chance event.

Seeded positions with ``--tricks`` talon tricks left (random play from the deal, both hands
open, the talon face down) are solved by the reference expectimax
(``solver.engine.reference_chance``).  Two choices are scored against it:

- **double dummy**: a best move of the exact solve with the talon's true order known;
- **averaged**: a best move of the double-dummy values averaged over every order of the
  talon (what averaging over worlds that differ only in the talon gives).

For each: the share of positions where the choice is an expectimax-best move, and the mean
points lost a decision (the expectimax value of the best move minus that of the choice; a
choice among tied moves is scored at its worst, as a player may pick any of them).

Run:  python -m benchmarks.bench_chance_judgement [--tricks 2] [--positions 500] [--games brisque briscan] [--json]
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations
from typing import Any

from benchmarks.harness import result_files
from benchmarks.harness.console import Column, emit, parser, text_table
from benchmarks.harness.timing import to_stderr
from solver.engine.reference_chance import expectimax_values
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
    exact = expectimax_values(p)
    top = max(exact.values())
    row: dict[str, Any] = {"bpn": p.bpn()}
    for name, values in (("double_dummy", double_dummy(p)), ("averaged", averaged(p))):
        chosen = _best(values)
        row[f"{name}_best"] = chosen <= _best(exact)
        row[f"{name}_lost"] = float(top - min(exact[m] for m in chosen))
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
        n = len(rows)
        out.append(
            {
                "game": game,
                "talon_tricks_left": tricks,
                "positions": n,
                **{
                    f"{name}_{what}": round(
                        sum(float(r[f"{name}_{what}"]) for r in rows) / n * (100 if what == "best" else 1), 2
                    )
                    for name in ("double_dummy", "averaged")
                    for what in ("best", "lost")
                },
            }
        )
    return out


def report(rows: list[dict[str, Any]]) -> str:
    columns = (
        Column("game", "<8"),
        Column("left", ">5", "talon_tricks_left"),
        Column("positions", ">10"),
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
