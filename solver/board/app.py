"""The board: a Starlette application serving two pages, the analysis board (``/``) and
the play page (``/play``), each with its router, and what both share.

* :mod:`solver.board.page_routes`: the pages, their files and ``GET /api/position``;
* :mod:`solver.board.analysis_routes`: the analysis board's ``/api/analysis/...``;
* :mod:`solver.board.game_routes`: the play page's ``/api/games/...``.

Every answer is JSON; an error is ``{"error": message}`` with status 400, 404, 405, 409, 413
or 429, in the command line's words (:class:`solver.errors.BoardError` carries its status);
421, 403 and 408 for a request for another host, a change asked by another site and a body
too slow (:mod:`solver.board.guard`).  A JSON request with a key it does not take is refused
(400, naming the key).  The server reads no file but its pages' own: a puzzle file comes as
the body of a request.  Request sizes, analysis times, worlds and the analyses running at
once are bounded (:class:`solver.board.jobs.Quotas`).

>>> app = create_app()
>>> sorted(r.path for r in app.routes if r.path.startswith("/api/analysis"))[:2]
['/api/analysis/jobs', '/api/analysis/jobs/{id}']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from solver.board import analysis_routes, game_routes, page_routes
from solver.board.games import Games
from solver.board.guard import Guard, protocol
from solver.board.jobs import Jobs, Quotas
from solver.model.ranges import short_value


async def _http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    words = {
        404: f"no page {request.url.path!r} here",
        405: f"{request.method} is not for {request.url.path!r}",
    }
    return JSONResponse({"error": words.get(status, str(getattr(exc, "detail", exc)))}, status_code=status)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse(
        {"error": f"the board failed: {type(exc).__name__}: {short_value(str(exc), 200)}"},
        status_code=500,
    )


async def _sweep(jobs: Jobs, quotas: Quotas) -> None:
    while True:  # (an analysis abandoned is cancelled within a second or so)
        await asyncio.sleep(min(1.0, quotas.abandon_seconds / 4))
        jobs.sweep()


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """The server's life: the sweeper of abandoned analyses runs, and when the server
    stops, no worker outlives it."""
    jobs: Jobs = app.state.jobs
    sweeper = asyncio.create_task(_sweep(jobs, app.state.quotas))
    try:
        yield
    finally:
        sweeper.cancel()
        jobs.close()


def create_app(
    quotas: Quotas | None = None, host: str = "127.0.0.1", games_dir: Path | None = None
) -> Starlette:
    """The board's application (module docstring), with its own analyses, answering the
    names of this machine and ``host``, the address it listens on (:mod:`solver.board.guard`),
    and its games against the engine kept in ``games_dir`` (:mod:`solver.board.games`).
    The routers find the shared state in ``app.state``: ``quotas``, ``jobs`` and ``games``."""
    quota = quotas or Quotas()
    jobs = Jobs(quota)
    app = Starlette(
        routes=[*page_routes.routes, *analysis_routes.routes, *game_routes.routes],
        lifespan=_lifespan,
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
        middleware=[Middleware(Guard, host=host, body_seconds=quota.body_seconds)],
    )
    app.state.quotas = quota
    app.state.jobs = jobs
    app.state.games = Games(jobs, games_dir)
    return app


def server(app: Starlette) -> uvicorn.Server:
    """The uvicorn server of a board made by :func:`create_app`: its deadline for a
    request's headers (:func:`solver.board.guard.protocol`), uvicorn's warnings only."""
    quotas: Quotas = app.state.quotas
    config = uvicorn.Config(app, log_level="warning", lifespan="on", http=protocol(quotas.header_seconds))
    return uvicorn.Server(config)


__all__ = ["create_app", "server"]
