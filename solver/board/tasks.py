"""The board's tasks of play, each run in a worker process (:meth:`solver.board.jobs.Jobs.start_task`):
the engine's move, a hint and the review of a deal.  Each takes the game's kept form
(:meth:`solver.play.table.Table.to_dict`) and answers a JSON object; a hint sees only what
the person sees.

>>> from solver.play.table import Table
>>> t = Table.new("petite", seat="b", level=1, seed=3)
>>> engine_move({"table": t.to_dict()})["move"] in [str(m) for m in t.position().legal_moves()]
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.errors import ArgumentError
from solver.play.table import Table, move_label

HINT_WORLDS = 100  # worlds a hint samples: the best move from the person's own information


def engine_move(payload: dict[str, Any]) -> dict[str, Any]:
    """The engine's move at the table now."""
    t = Table.from_dict(payload["table"])
    return {"move": str(t.engine_choose()), "moves_before": len(t.deals[-1]), "deal": len(t.deals)}


def hint(payload: dict[str, Any]) -> dict[str, Any]:
    """The best move from the person's own information (his view: never the engine's cards),
    with its value and the other moves' values, best first."""
    from solver.analysis.analyse_options import AnalyseOptions
    from solver.analysis.sampling import SampledAnalysis, analyse
    from solver.engine.solving import solve

    t = Table.from_dict(payload["table"])
    if not t.persons_turn():
        raise ArgumentError("a hint is for the person's turn")
    p = t.position()
    view = p.view(p.turn)
    hint = AnalyseOptions(worlds=HINT_WORLDS, seed=t.seed)
    a = analyse(view, hint) if view.has_hidden else solve(view, pv=False)
    exact = not isinstance(a, SampledAnalysis)
    moves: list[Any] = sorted(a.moves, key=lambda mv: -float(mv.value))
    return {
        "best": move_label(p, a.best[0]),
        "value": float(a.value),
        "exact": exact,
        "moves": [{**move_label(p, mv.move), "value": float(mv.value)} for mv in moves],
        "moves_before": len(t.deals[-1]),
        "deal": len(t.deals),
    }


def review(payload: dict[str, Any]) -> dict[str, Any]:
    """The review of a finished deal of the game (``deal``: its index, from 0)."""
    from solver.play.review import graph_svg, review_deal

    t = Table.from_dict(payload["table"])
    i = payload["deal"]
    if not isinstance(i, int) or not 0 <= i < len(t.deals):
        raise ArgumentError(f"deal={i!r}: expected a deal of the game, 0 to {len(t.deals) - 1}")
    records = t.records(finished_only=False)
    if not t.position(i).is_over():
        raise ArgumentError(f"deal {i + 1} is not over: a review is of a finished deal")
    r = review_deal(records[i], "ab"[t.person_seat(i)], seed=t.seed)
    return {**r.to_dict(), "svg": graph_svg(r), "deal": i}


TASKS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "engine_move": engine_move,
    "hint": hint,
    "review": review,
}

__all__ = ["HINT_WORLDS", "TASKS", "engine_move", "hint", "review"]
