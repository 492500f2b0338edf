"""The analysis board's routes (the page ``/``), all under ``/api/analysis``:

* ``POST /api/analysis/play`` ``{"bpn", "move"}``: the position after the move (``bpn``);
* ``POST /api/analysis/jobs`` ``{"bpn", "worlds"?, "seed"?, "seconds"?}``: starts an
  analysis in a worker process (the exact solve when every card is known, which takes no
  ``worlds`` or ``seed``, else sampling); 202 and the analysis, with its ``id``;
* ``GET /api/analysis/jobs/ID``: its ``state`` (running, done, failed, cancelled), ``done``
  and ``total`` worlds, the answer so far or at the end (as ``solve --json`` or ``analyse
  --json`` gives it), or the ``error``;
* ``DELETE /api/analysis/jobs/ID``: cancels it;
* ``POST /api/analysis/load`` (the text of a ``.bpd`` puzzle file or of match records, one
  JSON object a line, as the body): the positions to step through, ``{"items": [{"name",
  "bpns"}], "errors": [...]}``; a bad record is reported and the others kept.

Analysis times, worlds and the analyses running at once are bounded
(:class:`solver.board.jobs.Quotas`).

>>> sorted(r.path for r in routes)
['/api/analysis/jobs', '/api/analysis/jobs/{id}', '/api/analysis/load', '/api/analysis/play']
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from solver.board.jobs import BusyError, Jobs
from solver.board.position_info import load_items, parse_bpn
from solver.board.requests import error_answer, read_body, read_json
from solver.errors import BoardError, BrisqueError, PositionError
from solver.model.moves import parse_move
from solver.model.position import Position
from solver.model.ranges import MAX_SEED, short_value

PREFIX = "/api/analysis"


def _jobs(request: Request) -> Jobs:
    jobs: Jobs = request.app.state.jobs
    return jobs


def _possible(p: Position) -> Position:
    """``p``, refused when it cannot arise in play (a move or an analysis of it means nothing)."""
    problems = p.problems()
    if problems:
        raise PositionError(f"impossible position {p.bpn()!r}: " + "; ".join(problems))
    return p


async def play(request: Request) -> Response:
    try:
        data = await read_json(request, ("bpn", "move"))
        p = parse_bpn(data.get("bpn"))
        text = data.get("move")
        if not isinstance(text, str):
            raise BoardError(f"expected a move such as TH, x or +mH, got {short_value(text)}")
        _possible(p).push(parse_move(text))
        return JSONResponse({"bpn": p.bpn()})
    except (BrisqueError, ValueError) as exc:
        return error_answer(exc)


def _analysis_settings(data: dict[str, Any], p: Position) -> tuple[int, int, float | None]:
    """The worlds, seed and seconds of an analysis asked for, each checked alone."""
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
    return worlds, seed, seconds


async def start(request: Request) -> Response:
    try:
        data = await read_json(request, ("bpn", "worlds", "seed", "seconds"))
        p = _possible(parse_bpn(data.get("bpn")))
        worlds, seed, seconds = _analysis_settings(data, p)
        try:
            job = _jobs(request).start(p.bpn(), worlds=worlds, seconds=seconds, seed=seed)
        except BusyError as exc:
            raise BoardError(str(exc), 429) from None
        return JSONResponse(job.to_dict(), status_code=202)
    except BrisqueError as exc:
        return error_answer(exc)


async def analysis(request: Request) -> Response:
    job_id = request.path_params["id"]
    jobs = _jobs(request)
    job = jobs.cancel(job_id) if request.method == "DELETE" else jobs.get(job_id)
    if job is None:
        return error_answer(
            BoardError(f"no analysis {short_value(job_id)} (finished ones are forgotten in time)", 404)
        )
    return JSONResponse(job.to_dict())


async def load(request: Request) -> Response:
    try:
        body = await read_body(request)
        # (decoded line by line: one bad byte costs its line, not the file)
        items, errors = await run_in_threadpool(load_items, body)  # (off the event loop)
        if not items and not errors:
            raise BoardError("the file holds no position: expected a .bpd puzzle file or match records")
        return JSONResponse({"items": items, "errors": errors})
    except BoardError as exc:
        return error_answer(exc)


routes = [
    Route(f"{PREFIX}/play", play, methods=["POST"]),
    Route(f"{PREFIX}/jobs", start, methods=["POST"]),
    Route(f"{PREFIX}/jobs/{{id}}", analysis, methods=["GET", "DELETE"]),
    Route(f"{PREFIX}/load", load, methods=["POST"]),
]

__all__ = ["PREFIX", "routes"]
