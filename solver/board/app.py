"""The analysis board: a Starlette application with a JSON API and one offline page.

The API (every answer JSON; an error is ``{"error": message}`` with status 400, 404, 413
or 429, in the command line's words; 421, 403 and 408 for a request for another host, a
change asked by another site and a body too slow: :mod:`solver.board.guard`):

* ``GET /api/position?bpn=BPN[&pov=a|b]``: the position checked: ``bpn`` (canonical),
  ``valid``, ``problems``, ``turn``, ``over``, ``legal`` (null when the hand is hidden),
  ``hidden`` (whether any card is hidden) and ``svg`` (the diagram);
* ``POST /api/play`` ``{"bpn", "move"}``: the position after the move (``bpn``);
* ``POST /api/analyses`` ``{"bpn", "worlds"?, "seed"?, "seconds"?}``: starts an analysis in a
  worker process (the exact solve when every card is known, which takes no ``worlds`` or
  ``seed``, else sampling); its ``id``;
* ``GET /api/analyses/ID``: its ``state`` (running, done, failed, cancelled), ``done`` and
  ``total`` worlds, the answer so far or at the end (as ``solve --json`` or ``analyse
  --json`` gives it), or the ``error``;
* ``DELETE /api/analyses/ID``: cancels it;
* ``POST /api/load`` (the text of a ``.bpd`` puzzle file or of match records, one JSON
  object a line, as the body): the positions to step through, ``{"items": [{"name",
  "bpns"}], "errors": [...]}``; a bad record is reported and the others kept.

A JSON request with a key it does not take is refused (400, naming the key).

The server reads no file but its own page: a puzzle file comes as the body of a request.
Request sizes, analysis times, worlds and the analyses running at once are bounded
(:class:`solver.board.jobs.Limits`).

>>> describe(Position("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3"))["legal"]
['TS', 'KC']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from solver.board.games import GameError, Games
from solver.board.guard import Guard, protocol
from solver.board.jobs import BusyError, Jobs, Limits
from solver.errors import BrisqueError, HiddenInformationError, PositionError
from solver.formats.bpd import parse_record
from solver.formats.records import DealRecord
from solver.model.limits import MAX_SEED, short_value
from solver.model.moves import parse_move
from solver.model.position import Position
from solver.model.svg import svg

MAX_BPN = 2000  # characters: a BPN is far shorter
MAX_LOADED = 5000  # positions of one loaded file: the rest are reported, not sent


class BoardError(Exception):
    """A request the board refuses: its message and HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _error(exc: Exception, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=getattr(exc, "status", status))


def _position(text: Any) -> Position:
    if not isinstance(text, str) or not text.strip():
        raise BoardError("expected a position in BPN, such as: brisque AK9.97..9/7..Q9.A7 D 0 ... a 52:35")
    if len(text) > MAX_BPN:
        raise BoardError(f"a BPN of {len(text)} characters: expected at most {MAX_BPN}", 413)
    return Position(text.strip())


def describe(p: Position, pov: str | None = None) -> dict[str, Any]:
    """What the page shows of a position."""
    problems = p.problems()
    try:
        legal: list[str] | None = [str(m) for m in p.legal_moves()]
    except HiddenInformationError:
        legal = None
    return {
        "bpn": p.bpn(),
        "valid": not problems,
        "problems": problems,
        "turn": "ab"[p.turn],
        "over": p.is_over(),
        "legal": legal,
        "hidden": bool(any(p.unknown) or (p.rules.draws and p.talon is None and p.talon_count)),
        "svg": svg(p, pov=pov),
    }


async def _body(request: Request, limits: Limits) -> bytes:
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limits.max_body:
        raise BoardError(f"a request of {int(size)} bytes: the board takes at most {limits.max_body}", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limits.max_body:
            raise BoardError(
                f"a request of more than {limits.max_body} bytes: the board takes at most that", 413
            )
    return body


async def _json(request: Request, limits: Limits, keys: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object, whose keys must be among ``keys`` (a misspelt or unknown
    key is named, not ignored: its request would run without what it asked for)."""
    body = await _body(request, limits)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # (bad bytes, bad JSON, a number
        # of thousands of digits, arrays nested thousands deep)
        shown = body[:60].decode("utf-8", "replace")
        raise BoardError(
            f"expected a JSON object, got {shown!r}" + ("..." if len(body) > 60 else "")
        ) from None
    if not isinstance(data, dict):
        raise BoardError(f"expected a JSON object, got {short_value(data)}")
    unknown = [k for k in data if k not in keys]
    if unknown:
        raise BoardError(
            f"unknown key {short_value(unknown[0])} in {request.url.path}: "
            f"expected the keys {', '.join(repr(k) for k in keys)}"
        )
    return data


def load_items(text: str | bytes) -> tuple[list[dict[str, Any]], list[str]]:
    """The positions of a puzzle file or of match records (one JSON object a line), and
    an error for each bad line: a bad record never stops the others.  Given bytes (a file
    as uploaded), each line is decoded alone, so that a bad byte costs its line only, as
    in ``brisque puzzles``.

    >>> items, errors = load_items('petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ; id "one"\\nnonsense\\n')
    >>> [i["name"] for i in items], len(errors)
    (['one'], 1)
    >>> items, errors = load_items(b'caf\\xe9\\npetite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 ; id "two"\\n')
    >>> [i["name"] for i in items], errors
    (['two'], ['line 1: the line is not UTF-8 text (unexpected end of data at byte 3)'])
    """
    items: list[dict[str, Any]] = []
    errors: list[str] = []
    count = 0
    raw_lines: list[str | bytes] = [*text.splitlines()]
    for no, raw in enumerate(raw_lines, 1):
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                errors.append(f"line {no}: the line is not UTF-8 text ({exc.reason} at byte {exc.start})")
                continue
        else:
            line = raw
        if no == 1:
            line = line.lstrip("\ufeff")  # (a byte-order mark is no text)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if count >= MAX_LOADED:
            errors.append(f"line {no} and after: not loaded, the board takes {MAX_LOADED} positions a file")
            break
        try:
            if line.lstrip().startswith("{"):
                rec = DealRecord.from_json(line)
                bpns = rec.bpns()
                count += len(bpns)
                items.append({"name": f"deal {no}: {' v '.join(rec.players)}", "bpns": bpns})
            else:
                puzzle = parse_record(line, f"line {no}")
                if puzzle is not None:
                    count += 1
                    item: dict[str, Any] = {"name": puzzle.id, "bpns": [puzzle.position.bpn()]}
                    # the record's answer, for the page's puzzle view (pass or fail, or hidden)
                    for op in ("bm", "am"):
                        if puzzle.moves(op):
                            item[op] = [str(m) for m in puzzle.moves(op)]
                    if puzzle.int_op("v") is not None:
                        item["v"] = puzzle.int_op("v")
                    items.append(item)
        except BrisqueError as exc:
            errors.append(str(exc) if str(exc).startswith(f"line {no}:") else f"line {no}: {exc}")
    return items, errors


def create_app(
    limits: Limits | None = None, host: str = "127.0.0.1", games_dir: Path | None = None
) -> Starlette:
    """The board's application (module docstring), with its own analyses, answering the
    names of this machine and ``host``, the address it listens on (:mod:`solver.board.guard`),
    and its games against the engine kept in ``games_dir`` (:mod:`solver.board.games`)."""
    lim = limits or Limits()
    jobs = Jobs(lim)
    games = Games(jobs, games_dir)

    def game_call(call: Callable[[], Any], status: int = 200) -> Response:
        try:
            return JSONResponse(call(), status_code=status)
        except GameError as exc:
            return _error(exc, exc.status)
        except (BoardError, BrisqueError) as exc:
            return _error(exc)

    async def new_game(request: Request) -> Response:
        try:
            data = await _json(request, lim, ("game", "seat", "level", "seed", "whole_game"))
        except BoardError as exc:
            return _error(exc)
        return await run_in_threadpool(game_call, lambda: games.state(games.create(data)), 201)

    async def game(request: Request) -> Response:
        gid = request.path_params["id"]
        return await run_in_threadpool(game_call, lambda: games.state(gid))

    async def game_action(request: Request) -> Response:
        gid, action = request.path_params["id"], request.path_params["action"]
        keys = {
            "moves": ("move",),
            "takeback": ("moves_kept",),
            "next": (),
            "swap": (),
            "hint": (),
            "review": ("deal",),
        }
        if action not in keys:
            return _error(
                BoardError(f"no action {short_value(action)}: expected one of {', '.join(keys)}", 404)
            )
        try:
            data = await _json(request, lim, keys[action]) if action not in ("next", "swap", "hint") else {}
        except BoardError as exc:
            return _error(exc)
        calls: dict[str, Callable[[], Any]] = {
            "moves": lambda: games.move(gid, data.get("move")),
            "takeback": lambda: games.take_back(gid, data.get("moves_kept")),
            "next": lambda: games.next_deal(gid),
            "swap": lambda: games.state(games.swapped(gid)),
            "hint": lambda: games.task(gid, "hint"),
            "review": lambda: games.task(gid, "review", {"deal": data.get("deal")}),
        }
        return await run_in_threadpool(game_call, calls[action], 202 if action in ("hint", "review") else 200)

    async def game_task(request: Request) -> Response:
        gid, kind = request.path_params["id"], request.path_params["kind"]
        if kind not in ("hint", "review"):
            return _error(BoardError(f"no {short_value(kind)} here: expected hint or review", 404))
        return await run_in_threadpool(game_call, lambda: games.task_state(gid, kind))

    async def game_records(request: Request) -> Response:
        gid = request.path_params["id"]
        try:
            text = await run_in_threadpool(games.records, gid)
        except GameError as exc:
            return _error(exc, exc.status)
        return Response(
            text,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="brisque-{gid[:8]}.jsonl"'},
        )

    async def page(request: Request) -> Response:
        html = resources.files("solver.board").joinpath("static/index.html").read_text(encoding="utf-8")
        return HTMLResponse(html)

    async def play_page(request: Request) -> Response:
        html = resources.files("solver.board").joinpath("static/play.html").read_text(encoding="utf-8")
        return HTMLResponse(html)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        kinds = {
            "board.js": "text/javascript",
            "board.css": "text/css",
            "play.js": "text/javascript",
            "play.css": "text/css",
        }
        if name not in kinds:  # (only the page's own files: no path from the request is opened)
            return _error(BoardError(f"no file {name!r} here", 404))
        text = resources.files("solver.board").joinpath(f"static/{name}").read_text(encoding="utf-8")
        return Response(text, media_type=kinds[name])

    async def position(request: Request) -> Response:
        try:
            pov = request.query_params.get("pov") or None
            if pov not in (None, "a", "b"):
                raise BoardError(f"pov={pov!r}: expected a or b")
            return JSONResponse(describe(_position(request.query_params.get("bpn")), pov))
        except (BoardError, BrisqueError) as exc:
            return _error(exc)

    async def play(request: Request) -> Response:
        try:
            data = await _json(request, lim, ("bpn", "move"))
            p = _position(data.get("bpn"))
            text = data.get("move")
            if not isinstance(text, str):
                raise BoardError(f"expected a move such as TH, x or +mH, got {short_value(text)}")
            probs = p.problems()
            if probs:
                raise PositionError(f"impossible position {p.bpn()!r}: " + "; ".join(probs))
            p.push(parse_move(text))
            return JSONResponse({"bpn": p.bpn()})
        except (BoardError, BrisqueError, ValueError) as exc:
            return _error(exc)

    async def start(request: Request) -> Response:
        try:
            data = await _json(request, lim, ("bpn", "worlds", "seed", "seconds"))
            p = _position(data.get("bpn"))
            probs = p.problems()
            if probs:
                raise PositionError(f"impossible position {p.bpn()!r}: " + "; ".join(probs))
            worlds, seed, seconds = data.get("worlds", 200), data.get("seed", 0), data.get("seconds")
            if type(worlds) is not int:  # (each named alone: the other may not have been given)
                raise BoardError(f"worlds={short_value(worlds)}: expected a whole number of worlds")
            if type(seed) is not int or not 0 <= seed <= MAX_SEED:
                raise BoardError(f"seed={short_value(seed)}: expected a whole number from 0 to {MAX_SEED}")
            if seconds is not None and type(seconds) not in (int, float):
                raise BoardError(f"seconds={short_value(seconds)}: expected a number of seconds")
            for key in ("worlds", "seed"):  # (as `brisque analyse` refuses --worlds, --seed)
                if key in data and not p.has_hidden:
                    raise BoardError(
                        f"{key}={short_value(data[key])}: every card of this position is known, so "
                        "no worlds are sampled: the answer is the exact solve (send only bpn, and "
                        "seconds if you like)"
                    )
            try:
                job = jobs.start(p.bpn(), worlds=worlds, seconds=seconds, seed=seed)
            except BusyError as exc:
                raise BoardError(str(exc), 429) from None
            return JSONResponse(job.to_dict(), status_code=202)
        except (BoardError, BrisqueError) as exc:
            return _error(exc)

    async def analysis(request: Request) -> Response:
        job_id = request.path_params["id"]
        job = jobs.cancel(job_id) if request.method == "DELETE" else jobs.get(job_id)
        if job is None:
            return _error(
                BoardError(f"no analysis {short_value(job_id)} (finished ones are forgotten in time)", 404)
            )
        return JSONResponse(job.to_dict())

    async def load(request: Request) -> Response:
        try:
            body = await _body(request, lim)
            # (decoded line by line: one bad byte costs its line, not the file)
            items, errors = await run_in_threadpool(load_items, body)  # (off the event loop)
            if not items and not errors:
                raise BoardError("the file holds no position: expected a .bpd puzzle file or match records")
            return JSONResponse({"items": items, "errors": errors})
        except BoardError as exc:
            return _error(exc)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", page),
        Route("/play", play_page),
        Route("/favicon.ico", no_icon),
        Route("/static/{name}", static),
        Route("/api/position", position),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/analyses", start, methods=["POST"]),
        Route("/api/analyses/{id}", analysis, methods=["GET", "DELETE"]),
        Route("/api/load", load, methods=["POST"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", game),
        Route("/api/games/{id}/records", game_records),
        Route("/api/games/{id}/{action}", game_action, methods=["POST"]),
        Route("/api/games/{id}/{kind}", game_task),
    ]

    async def sweep() -> None:
        while True:  # (an analysis abandoned is cancelled within a second or so)
            await asyncio.sleep(min(1.0, lim.abandon_seconds / 4))
            jobs.sweep()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(sweep())
        try:
            yield
        finally:  # (the server stops: no worker outlives it)
            sweeper.cancel()
            jobs.close()

    async def http_error(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        words = {
            404: f"no page {request.url.path!r} here",
            405: f"{request.method} is not for {request.url.path!r}",
        }
        return JSONResponse(
            {"error": words.get(status, str(getattr(exc, "detail", exc)))}, status_code=status
        )

    async def server_error(request: Request, exc: Exception) -> Response:
        return JSONResponse(
            {"error": f"the board failed: {type(exc).__name__}: {short_value(str(exc), 200)}"},
            status_code=500,
        )

    handlers = {HTTPException: http_error, Exception: server_error}
    guard = Middleware(Guard, host=host, body_seconds=lim.body_seconds)
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers, middleware=[guard])
    app.state.jobs = jobs
    app.state.games = games
    app.state.limits = lim
    return app


def server(app: Starlette) -> uvicorn.Server:
    """The uvicorn server of a board made by :func:`create_app`: its deadline for a
    request's headers (:func:`solver.board.guard.protocol`), uvicorn's warnings only."""
    limits: Limits = app.state.limits
    config = uvicorn.Config(app, log_level="warning", lifespan="on", http=protocol(limits.header_seconds))
    return uvicorn.Server(config)


__all__ = ["BoardError", "create_app", "describe", "load_items", "server"]
