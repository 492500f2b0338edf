"""The play page's routes (the page ``/play``), all under ``/api/games``: a game against
the engine (:class:`solver.board.games.Games`), whose every answer is the page's view of it
(:meth:`solver.play.table.Table.view`: never a hidden card).

* ``POST /api/games`` ``{"game", "seat", "level", "seed", "whole_game"}``: 201 and a new game;
* ``GET /api/games/ID``: the game now (the engine's move played when it is ready);
* ``POST /api/games/ID/moves`` ``{"move"}``, ``.../takeback`` ``{"moves_kept"}``,
  ``.../next`` and ``.../swap``: the game after the person's move, a take-back, the next
  deal, or a new game of the same cards with the seats swapped;
* ``POST /api/games/ID/hint`` and ``.../review`` ``{"deal"}``: 202, a task started in a
  worker process; ``GET`` of the same path: its state and answer;
* ``GET /api/games/ID/records``: the finished deals as deal records (JSON Lines).

>>> sorted(ACTIONS)
['hint', 'moves', 'next', 'review', 'swap', 'takeback']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from solver.board.games import Games
from solver.board.requests import error_answer, read_json
from solver.errors import BoardError, BrisqueError
from solver.model.ranges import short_value

PREFIX = "/api/games"
TASK_ACTIONS = ("hint", "review")  # the actions that start a task (202), asked for again by GET

# each action: the keys its JSON body takes (None: no body read) and the call it makes
ACTIONS: dict[str, tuple[tuple[str, ...] | None, Callable[[Games, str, dict[str, Any]], Any]]] = {
    "moves": (("move",), lambda g, gid, d: g.move(gid, d.get("move"))),
    "takeback": (("moves_kept",), lambda g, gid, d: g.take_back(gid, d.get("moves_kept"))),
    "next": (None, lambda g, gid, d: g.next_deal(gid)),
    "swap": (None, lambda g, gid, d: g.state(g.swapped(gid))),
    "hint": (None, lambda g, gid, d: g.task(gid, "hint")),
    "review": (("deal",), lambda g, gid, d: g.task(gid, "review", {"deal": d.get("deal")})),
}


def _games(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


def _answer(call: Callable[[], Any], status: int = 200) -> Response:
    """``call``'s answer as JSON, or the error it raised with its status (run in a thread:
    a game reads and writes its file)."""
    try:
        return JSONResponse(call(), status_code=status)
    except BrisqueError as exc:
        return error_answer(exc)


async def new_game(request: Request) -> Response:
    try:
        data = await read_json(request, ("game", "seat", "level", "seed", "whole_game"))
    except BoardError as exc:
        return error_answer(exc)
    games = _games(request)
    return await run_in_threadpool(_answer, lambda: games.state(games.create(data)), 201)


async def game(request: Request) -> Response:
    games, gid = _games(request), request.path_params["id"]
    return await run_in_threadpool(_answer, lambda: games.state(gid))


async def action(request: Request) -> Response:
    gid, name = request.path_params["id"], request.path_params["action"]
    if name not in ACTIONS:
        return error_answer(
            BoardError(f"no action {short_value(name)}: expected one of {', '.join(ACTIONS)}", 404)
        )
    keys, call = ACTIONS[name]
    try:
        data = await read_json(request, keys) if keys is not None else {}
    except BoardError as exc:
        return error_answer(exc)
    games = _games(request)
    return await run_in_threadpool(
        _answer, lambda: call(games, gid, data), 202 if name in TASK_ACTIONS else 200
    )


async def task(request: Request) -> Response:
    gid, kind = request.path_params["id"], request.path_params["kind"]
    if kind not in TASK_ACTIONS:
        return error_answer(
            BoardError(f"no {short_value(kind)} here: expected {' or '.join(TASK_ACTIONS)}", 404)
        )
    games = _games(request)
    return await run_in_threadpool(_answer, lambda: games.task_state(gid, kind))


async def records(request: Request) -> Response:
    gid = request.path_params["id"]
    try:
        text = await run_in_threadpool(_games(request).records, gid)
    except BrisqueError as exc:
        return error_answer(exc)
    return Response(
        text,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="brisque-{gid[:8]}.jsonl"'},
    )


routes = [
    Route(PREFIX, new_game, methods=["POST"]),
    Route(f"{PREFIX}/{{id}}", game),
    Route(f"{PREFIX}/{{id}}/records", records),
    Route(f"{PREFIX}/{{id}}/{{action}}", action, methods=["POST"]),
    Route(f"{PREFIX}/{{id}}/{{kind}}", task),
]

__all__ = ["ACTIONS", "PREFIX", "routes"]
