"""Reading a request and answering an error, as both of the board's routers do: a body
bounded in size, a JSON object whose keys are checked, and ``{"error": message}`` with the
status the error carries (:class:`solver.errors.BoardError`).

>>> error_answer(BoardError("no page here", 404)).status_code
404
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from solver.board.jobs import Quotas
from solver.errors import BoardError
from solver.model.ranges import short_value


def error_answer(exc: Exception, status: int = 400) -> JSONResponse:
    """The answer to a refused request: its message, and the status it carries (``status``
    for an error that carries none)."""
    return JSONResponse({"error": str(exc)}, status_code=getattr(exc, "status", status))


def quotas(request: Request) -> Quotas:
    """The bounds of the board serving ``request`` (:func:`solver.board.app.create_app`)."""
    quota: Quotas = request.app.state.quotas
    return quota


async def read_body(request: Request) -> bytes:
    """The request's body, refused (413) beyond :attr:`Quotas.max_body` bytes, whether its
    ``Content-Length`` says so at once or the bytes that come say so later."""
    most = quotas(request).max_body
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > most:
        raise BoardError(f"a request of {int(size)} bytes: the board takes at most {most}", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > most:
            raise BoardError(f"a request of more than {most} bytes: the board takes at most that", 413)
    return body


async def read_json(request: Request, keys: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object, whose keys must be among ``keys`` (a misspelt or unknown
    key is named, not ignored: its request would run without what it asked for)."""
    body = await read_body(request)
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


__all__ = ["error_answer", "quotas", "read_body", "read_json"]
