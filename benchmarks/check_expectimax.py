"""The compiled expectimax checked against the reference, move by move, on many positions.

Seeded positions with ``--tricks`` talon tricks left (random play from the deal, both hands
open; the search takes the talon as a set) are valued twice: every legal move by the compiled
engine (``Engine.chance_move``, from cleared tables), and by the plain Python reference
(``solver.engine.reference_chance.expectimax_values``).  The values are exact fractions and
must be equal: a disagreement is an engine bug, printed on standard error at once with its
BPN, and the run stops there (``--keep-going``: it goes on and lists them all).  Each side is
timed position by position in the same process (wall seconds).

With ``--minutes`` the run stops taking new positions once that much wall time has passed,
and checks the first positions of the seeded list only (those begun are finished).
``--workers 2`` checks two positions at a time, each in a process of its own.

Run:  python -m benchmarks.check_expectimax --positions 2000 --tricks 2 --game brisque [--workers 2] [--minutes 25] [--save] [--json]
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from fractions import Fraction
from typing import Any

from benchmarks.harness import result_files
from benchmarks.harness.console import Column, emit, parser, text_table
from benchmarks.harness.timing import to_stderr
from solver.engine.reference_chance import expectimax_values
from solver.engine.results import current_margin
from solver.engine.seam import engine_root, new_engine
from solver.model.position import Position
from solver.native.constants import WIN_RAW
from solver.native.engine import Engine
from solver.play.dealing import positions_with_talon_left
from solver.processes import stop_pool, worker_pool

_ENGINES: dict[str, Engine] = {}  # (one engine a game in each process, its tables cleared a position)


def _engine(p: Position) -> Engine:
    game = p.rules.game
    if game not in _ENGINES:
        _ENGINES[game] = new_engine(p.rules)
    return _ENGINES[game]


def check(bpn: str) -> dict[str, Any]:
    """Every legal move of ``bpn`` valued by both sides: the moves, the disagreements, each
    side's seconds and the compiled search's nodes.

    >>> row = check("brisque AJ.KQ.7.8/T87.A87.. JC QCAC7C KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1")
    >>> row["moves"], row["disagreements"], row["game_win_at_stake"]
    (6, [], False)
    """
    p = Position(bpn)
    e = _engine(p)
    e.clear()
    e.chance_clear()
    e.load(engine_root(p))
    past, n0 = current_margin(p), e.nodes
    t0 = time.perf_counter()
    scaled = {str(m): e.chance_move(int(m), past) for m in p.legal_moves()}
    t1 = time.perf_counter()
    reference = expectimax_values(p)
    t2 = time.perf_counter()
    compiled = {m: Fraction(v, e.chance_scale) for m, v in scaled.items()}
    wrong = [
        {"move": m, "compiled": str(compiled.get(m)), "reference": str(reference.get(m))}
        for m in sorted(set(compiled) | set(reference))
        if e.aborted or compiled.get(m) != reference.get(m)
    ]
    return {
        "bpn": bpn,
        "moves": len(reference),
        "disagreements": wrong,
        "game_win_at_stake": any(abs(v) > WIN_RAW / 10 for v in reference.values()),
        "compiled_s": t1 - t0,
        "reference_s": t2 - t1,
        "nodes": e.nodes - n0,
    }


def _rows(bpns: list[str], workers: int, deadline: float | None) -> Iterator[dict[str, Any]]:
    """The rows of :func:`check`, in the order they end; no position begun after ``deadline``
    (``time.perf_counter()``), so that those checked are the first of ``bpns``."""
    if workers <= 1:
        for b in bpns:
            if deadline is not None and time.perf_counter() >= deadline:
                return
            yield check(b)
        return
    pool = worker_pool(workers)
    try:
        begun = 0
        running: set[Future[dict[str, Any]]] = set()
        while True:
            while (
                len(running) < workers
                and begun < len(bpns)
                and (deadline is None or time.perf_counter() < deadline)
            ):
                running.add(pool.submit(check, bpns[begun]))
                begun += 1
            if not running:
                return
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                yield f.result()
    finally:
        stop_pool(pool, wait=False)


def run(
    game: str = "brisque",
    tricks: int = 2,
    positions: int = 200,
    first_seed: int = 0,
    workers: int = 1,
    minutes: float | None = None,
    keep_going: bool = False,
) -> dict[str, Any]:
    """Check the first ``positions`` seeded positions (fewer when ``minutes`` run out, or at
    the first disagreement without ``keep_going``); the figures of the run."""
    bpns = [p.bpn() for p in positions_with_talon_left(tricks, positions, game, first_seed=first_seed)]
    deadline = None if minutes is None else time.perf_counter() + 60 * minutes
    t0, last = time.perf_counter(), time.perf_counter()
    rows: list[dict[str, Any]] = []
    for row in _rows(bpns, workers, deadline):
        rows.append(row)
        for d in row["disagreements"]:
            to_stderr(
                f"DISAGREEMENT {row['bpn']} move {d['move']}: compiled {d['compiled']}, reference {d['reference']}"
            )
        if row["disagreements"] and not keep_going:
            break
        if time.perf_counter() - last >= 60 or len(rows) % 100 == 0:
            last = time.perf_counter()
            to_stderr(
                f"{game}, {tricks} talon tricks left: {len(rows)} of {len(bpns)} checked, {last - t0:.0f} s"
            )
    return summary(game, tricks, first_seed, workers, rows, time.perf_counter() - t0)


def summary(
    game: str, tricks: int, first_seed: int, workers: int, rows: list[dict[str, Any]], wall: float
) -> dict[str, Any]:
    """The figures of a run from its rows: counts, the disagreements with their BPNs, each
    side's seconds."""
    compiled = sum(r["compiled_s"] for r in rows)
    reference = sum(r["reference_s"] for r in rows)
    return {
        "game": game,
        "talon_tricks_left": tricks,
        "first_seed": first_seed,
        "workers": workers,
        "positions": len(rows),
        "moves": sum(r["moves"] for r in rows),
        "game_win_at_stake": sum(r["game_win_at_stake"] for r in rows),
        "disagreements": [{"bpn": r["bpn"], **d} for r in rows for d in r["disagreements"]],
        "compiled_s": round(compiled, 3),
        "reference_s": round(reference, 3),
        "reference_over_compiled": round(reference / compiled, 2) if compiled else None,
        "compiled_nodes": sum(r["nodes"] for r in rows),
        "wall_s": round(wall, 1),
    }


def report(r: dict[str, Any]) -> str:
    columns = (
        Column("game", "<8"),
        Column("left", ">5", "talon_tricks_left"),
        Column("positions", ">10"),
        Column("moves", ">7"),
        Column("disagreements", ">14", lambda r: len(r["disagreements"])),
        Column("compiled s", ">11.2f", "compiled_s"),
        Column("reference s", ">12.2f", "reference_s"),
        Column("ratio", ">6", "reference_over_compiled"),
    )
    lines = text_table(columns, [r])
    lines += [
        f"{d['bpn']} ; {d['move']}: compiled {d['compiled']}, reference {d['reference']}"
        for d in r["disagreements"]
    ]
    return "\n".join(lines)


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--game", default="brisque", choices=["brisque", "briscan"])
    ap.add_argument(
        "--tricks", type=int, default=2, help="talon tricks left (2: a few hundredths of a second a position)"
    )
    ap.add_argument(
        "--positions", type=int, default=200, help="the positions to check (at most, with --minutes)"
    )
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1, help="positions checked at once, a process each")
    ap.add_argument(
        "--minutes", type=float, default=None, help="wall minutes after which no position is begun"
    )
    ap.add_argument("--keep-going", action="store_true", help="go on after a disagreement")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--save", action="store_true", help="write benchmarks/results/check-expectimax-<game>-<tricks>.json"
    )
    a = ap.parse_args()
    r = run(a.game, a.tricks, a.positions, a.first_seed, a.workers, a.minutes, a.keep_going)
    if a.save:
        command = f"python -m benchmarks.check_expectimax --game {a.game} --tricks {a.tricks} --positions {a.positions}"
        command += f" --workers {a.workers}" + (f" --minutes {a.minutes:g}" if a.minutes is not None else "")
        result_files.write(f"check-expectimax-{a.game}-{a.tricks}.json", {"command": command, **r})
    emit(r, report, a.json)


if __name__ == "__main__":
    main()
