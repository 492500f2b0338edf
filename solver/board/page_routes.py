"""The board's routes that both pages share: the two pages, their files (``static/``: ES
modules, one of them, ``common.js``, imported by both) and ``GET /api/position``, the
position checked and its table to draw.

The server reads no file but its pages' own: a name not in :data:`STATIC` is 404, whatever
path the request gives.

>>> STATIC["common.js"]
'text/javascript'
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from solver.board.position_info import describe, parse_bpn
from solver.board.requests import error_answer
from solver.errors import BoardError, BrisqueError

# the pages' files and their types (a module script must come as JavaScript: a browser
# refuses to run one served as anything else)
STATIC = {
    "common.js": "text/javascript",
    "board.js": "text/javascript",
    "play.js": "text/javascript",
    "cards.css": "text/css",
    "board.css": "text/css",
    "play.css": "text/css",
}
PAGES = {"/": "index.html", "/play": "play.html"}


def _read(name: str) -> str:
    return resources.files("solver.board").joinpath(f"static/{name}").read_text(encoding="utf-8")


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of a page: its HTML file ``name``, read at each request."""

    async def page(request: Request) -> Response:
        return HTMLResponse(_read(name))

    return page


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:  # (only the pages' own files: no path from the request is opened)
        return error_answer(BoardError(f"no file {name!r} here", 404))
    return Response(_read(name), media_type=STATIC[name])


async def no_icon(request: Request) -> Response:
    return Response(status_code=204)


async def position(request: Request) -> Response:
    """``GET /api/position?bpn=BPN[&pov=a|b]``: :func:`solver.board.position_info.describe`."""
    try:
        pov = request.query_params.get("pov") or None
        if pov not in (None, "a", "b"):
            raise BoardError(f"pov={pov!r}: expected a or b")
        return JSONResponse(describe(parse_bpn(request.query_params.get("bpn")), pov))
    except BrisqueError as exc:
        return error_answer(exc)


routes = [
    *(Route(path, _page(name)) for path, name in PAGES.items()),
    Route("/favicon.ico", no_icon),
    Route("/static/{name}", static),
    Route("/api/position", position),
]

__all__ = ["PAGES", "STATIC", "routes"]
