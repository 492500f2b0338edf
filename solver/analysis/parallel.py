"""One exact solve on several cores.

On this machine, threads share the solve and its table (:func:`solver.engine.solve` with
``threads``).  On an executor (a cluster), the root's moves are shared among its workers
instead: every legal move of the root is a search of its own (the child position solved
exactly), each worker with its own table; the answer is the exact solve's (the same
values, best moves and a principal variation of the best move), its nodes the sum of the
workers'.  The cost there is the table the moves no longer share (BENCHMARKS.md: node
overhead and speed-up on whole deals).

>>> a = parallel_solve("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", workers=1)
>>> int(a.value), [str(m) for m in a.best][:2], a.move_value("QD")
(44, ['7S', '9D'], Value.margin(4, pov='b'))
"""

from __future__ import annotations

import time
from concurrent.futures import Executor
from typing import Any

from solver.analysis.executors import as_executor
from solver.engine.results import Analysis, MoveValue, turn_of
from solver.engine.seam import DEFAULT_TABLE_BITS
from solver.engine.solving import finished_analysis, require_solvable, shared_solver, solve
from solver.errors import ArgumentError
from solver.model.moves import Move, move
from solver.model.position import Position, as_position
from solver.model.value import Value
from solver.native.engine import MAX_SOLVE_THREADS


def _solve_move(bpn: str, code: int, table_bits: int) -> tuple[int, Value, list[int], int]:
    """Worker: the root ``bpn``'s move ``code`` solved exactly, as the child position: its
    value for the root's player to move, the child's principal variation, and the nodes."""
    p = Position(bpn)
    q = p.copy()
    q.push(move(code), check=False)
    if q.is_over():
        return code, finished_analysis(q).value.for_seat(p.turn), [], 0
    a = shared_solver(q.rules, table_bits).solve(q, every_move=False, pv=True)
    return code, a.value.for_seat(p.turn), [int(m) for m in a.pv], a.nodes


def parallel_solve(
    position: Position | str,
    *,
    workers: int = 2,
    executor: Executor | Any = None,
    table_bits: int = DEFAULT_TABLE_BITS,
) -> Analysis:
    """The exact :func:`solver.engine.solve` of ``position`` (every move's value and a
    principal variation) on ``workers`` threads sharing one table, or with its root moves
    solved by ``executor``: any ``concurrent.futures`` executor, or a ``dask.distributed``
    client."""
    p = as_position(position)
    if workers < 1:
        raise ArgumentError(f"workers={workers}: expected at least 1")
    if p.is_over():
        require_solvable(p, over_ok=True)
        return finished_analysis(p)
    require_solvable(p)
    ex = as_executor(executor)
    if ex is None:
        return solve(p, table_bits=table_bits, threads=min(workers, MAX_SOLVE_THREADS))
    t0 = time.perf_counter()
    legal = [int(m) for m in p.legal_moves()]
    bpn = p.bpn()
    results = list(ex.map(_solve_move, [bpn] * len(legal), legal, [table_bits] * len(legal)))
    values = {code: value for code, value, _, _ in results}
    lines = {code: line for code, _, line, _ in results}
    best_value = max(values.values())
    moves = [MoveValue(move=move(c), value=values[c], lower=values[c], upper=values[c]) for c in legal]
    best: list[Move] = [mv.move for mv in moves if mv.value == best_value]
    return Analysis(
        bpn=bpn,
        turn=turn_of(p),
        value=best_value,
        best=best,
        moves=moves,
        pv=[best[0], *(move(c) for c in lines[int(best[0])])],
        nodes=sum(n for *_, n in results),
        seconds=time.perf_counter() - t0,
        lower=best_value,
        upper=best_value,
    )


__all__ = ["parallel_solve"]
