"""Judgement against the right oracle: the moves of clairvoyant searches scored by the exact
expectimax, where every draw is a chance event.

Seeded positions with ``--tricks`` talon tricks left (random play from the deal, both hands
open, the talon face down) are solved by the compiled expectimax (``Engine.chance_move``,
itself checked against the reference of ``solver.engine.reference_chance``).  The choices
scored against it:

- **double dummy**: a best move of the exact solve with the talon's true order known;
- **averaged**: a best move of the double-dummy values averaged over every order of the
  talon (what averaging over worlds that differ only in the talon gives);
- **chance world search**: the move of ``analyse`` with the world search ``chance`` (the
  player ``pimc:0.1s@chance``) thinking ``--think`` on the position with the talon face
  down: its worlds are the talon's orders, each valued by the expectimax with at most two
  talon tricks left, by the quick search before;
- **sampled expectimax** (``--sampled K``): a best move of the expectimax with sampled
  chance nodes (``Engine.set_chance_sampling(K)``), what a deeper chance search could play.

For each: the share of positions where the choice is an expectimax-best move (every move it
ties is one), and the mean points lost a decision (the expectimax value of the best move
minus that of the choice; a choice among tied moves is scored at its worst, as a player may
pick any of them).  Game wins are counted apart: the positions where some move wins or
loses the game outright may be at stake (the engine's bound says a game may still be won)
are left out of the points lost and counted.

Run:  python -m benchmarks.bench_chance_judgement [--tricks 2] [--positions 500] [--games brisque briscan] [--json]
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations
from typing import Any

from benchmarks.harness import result_files
from benchmarks.harness.console import Column, emit, parser, text_table
from benchmarks.harness.timing import to_stderr
from solver.analysis.analyse_options import AnalyseOptions
from solver.analysis.sampling import analyse
from solver.analysis.thinking import Think
from solver.engine.results import current_margin
from solver.engine.seam import engine_root, new_engine
from solver.engine.solving import solve
from solver.model.moves import move
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


CHOICES = ("double_dummy", "averaged", "world_search", "sampled")


def _best(values: dict[str, Fraction]) -> set[str]:
    top = max(values.values())
    return {m for m, v in values.items() if v == top}


def expectimax(p: Position, shifts: int = 0) -> tuple[dict[str, Fraction], bool]:
    """Every move's expectimax value (sampled chance nodes with ``shifts``), and whether a
    game may be won outright (the engine's bound)."""
    engine = new_engine(p.rules)
    engine.set_chance_sampling(shifts)
    engine.load(engine_root(p))
    now, scale = current_margin(p), engine.chance_scale
    values = {str(move(m)): Fraction(engine.chance_move(m, now), scale) for m in engine.root_moves()}
    return values, engine.chance_game_win_possible


def world_search_choice(p: Position, think: str) -> dict[str, Fraction]:
    """The chance world search's choice on ``p`` with its talon face down, as the values of
    a ranking where the chosen moves are best (the tied best moves all chosen)."""
    q = p.copy()
    q.talon = None
    a = analyse(Position(q.bpn()), AnalyseOptions(think=Think.parse(think), seed=1, world_search="chance"))
    return {str(mv.move): Fraction(1 if mv.move in a.best else 0) for mv in a.moves}


def judge(p: Position, think: str = "0.1s", sampled: int = 0) -> dict[str, Any]:
    """How the choices fare in ``p`` against the expectimax."""
    exact, stake = expectimax(p)
    top = max(exact.values())
    row: dict[str, Any] = {"bpn": p.bpn(), "game_win_at_stake": stake}
    choices = [("double_dummy", double_dummy(p)), ("averaged", averaged(p))]
    choices.append(("world_search", world_search_choice(p, think)))
    if sampled:
        choices.append(("sampled", expectimax(p, sampled)[0]))
    for name, values in choices:
        chosen = _best(values)
        row[f"{name}_best"] = chosen <= _best(exact)
        row[f"{name}_lost"] = None if stake else float(top - min(exact[m] for m in chosen))
    return row


def run(
    tricks: int = 2,
    positions: int = 500,
    games: tuple[str, ...] = ("brisque", "briscan"),
    think: str = "0.1s",
    sampled: int = 0,
) -> list[dict[str, Any]]:
    """A row a game: the shares of expectimax-best choices and the mean points lost."""
    out = []
    for game in games:
        rows = []
        for i, p in enumerate(positions_with_talon_left(tricks, positions, game)):
            rows.append(judge(p, think, sampled))
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
    for name in CHOICES:
        if f"{name}_best" not in rows[0]:
            continue
        out[f"{name}_best"] = round(100 * sum(r[f"{name}_best"] for r in rows) / len(rows), 2)
        out[f"{name}_lost"] = round(sum(r[f"{name}_lost"] for r in points) / max(1, len(points)), 2)
    return out


def report(rows: list[dict[str, Any]]) -> str:
    columns: tuple[Column, ...] = (
        Column("game", "<8"),
        Column("left", ">5", "talon_tricks_left"),
        Column("positions", ">10"),
        Column("game win at stake", ">18", "game_win_at_stake"),
        Column("double-dummy best %", ">20.1f", "double_dummy_best"),
        Column("lost", ">6.2f", "double_dummy_lost"),
        Column("averaged best %", ">16.1f", "averaged_best"),
        Column("lost", ">6.2f", "averaged_lost"),
        Column("chance search best %", ">21.1f", "world_search_best"),
        Column("lost", ">6.2f", "world_search_lost"),
    )
    if "sampled_best" in rows[0]:
        columns += (
            Column("sampled best %", ">15.1f", "sampled_best"),
            Column("lost", ">6.2f", "sampled_lost"),
        )
    return "\n".join(text_table(columns, rows))


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--tricks", type=int, default=2, help="talon tricks left (2: about 0.1 s a position)")
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--games", nargs="+", default=["brisque", "briscan"])
    ap.add_argument("--think", default="0.1s", help="the chance world search's thinking a decision")
    ap.add_argument("--sampled", type=int, default=0, help="also the expectimax sampled with K rotations")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--save", action="store_true", help="write benchmarks/results/chance-judgement-<tricks>.json"
    )
    a = ap.parse_args()
    rows = run(a.tricks, a.positions, tuple(a.games), a.think, a.sampled)
    if a.save:
        command = (
            f"python -m benchmarks.bench_chance_judgement --tricks {a.tricks} --positions {a.positions}"
            f" --think {a.think}" + (f" --sampled {a.sampled}" if a.sampled else "") + " --save"
        )
        result_files.write(f"chance-judgement-{a.tricks}.json", {"command": command, "rows": rows})
    emit(rows, report, a.json)


if __name__ == "__main__":
    main()
