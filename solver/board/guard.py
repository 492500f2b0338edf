"""What keeps the board its own user's: the hosts and origins it answers, deadlines for
reading a request, and a client that goes away.

* DNS rebinding: a page of another site whose name is made to resolve to 127.0.0.1 reaches
  the board with its own name in ``Host``.  A request whose ``Host`` is not one of the
  board's names with the port it listens on is refused (421).  The names: 127.0.0.1,
  localhost, [::1], the address the server was told to listen on (``--host``, unless it
  is every address: 0.0.0.0 or ::) and the address the connection came in on (an address,
  not a name, so no rebinding).  The port may be left out only when it is 80: a browser
  leaves out the scheme's default port, and sends it otherwise.
* Cross-site requests: a form or ``fetch`` of another site can POST to the board (a
  ``text/plain`` body needs no preflight).  A request that changes something (any method
  but GET, HEAD and OPTIONS) is refused (403) when its ``Origin`` is not the board's
  (``http://`` one of the names above, the port as for ``Host``) or when its
  ``Sec-Fetch-Site`` is ``cross-site``.  A request without them (curl, scripts) is let in:
  a browser sends ``Origin`` with every POST, PUT and DELETE.
* Slow requests: the request line and headers must all come within
  :attr:`Quotas.header_seconds <solver.board.jobs.Quotas>` of their first byte (or of the
  connection), else the connection is closed (:func:`protocol`: uvicorn times out idle
  connections between requests only); the body within ``Quotas.body_seconds`` of the
  headers, else 408 and the connection is closed (:class:`Guard`).
* A client that goes away before its body is read is one line in the log, not a
  traceback.

>>> names = board_names("127.0.0.1", "127.0.0.1")
>>> sorted(names)
['127.0.0.1', '[::1]', 'localhost']
>>> host_allowed("localhost:8000", names, 8000), host_allowed("localhost", names, 8000)
(True, False)
>>> host_allowed("localhost", names, 80), host_allowed("evil.example:8000", names, 8000)
(True, False)
>>> origin_allowed("http://[::1]:8000", names, 8000), origin_allowed("null", names, 8000)
(True, False)
>>> sorted(board_names("0.0.0.0", "::ffff:192.168.1.5"))
['127.0.0.1', '192.168.1.5', '[::1]', 'localhost']
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle

LOOPBACK = ("127.0.0.1", "localhost", "[::1]")  # the names of this machine the board answers
EVERY_ADDRESS = ("", "0.0.0.0", "::", "[::]")  # a --host that names no one address
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")  # the requests that change nothing
DEFAULT_PORT = 80  # the port a browser leaves out of Host and Origin for http://

log = logging.getLogger("uvicorn.error")  # (uvicorn's own log: its format and level)


def _name(address: str) -> str:
    """An address as it is written in a URL: an IPv6 address in brackets, an IPv4 one mapped
    into IPv6 as IPv4, lower case."""
    address = address.strip().lower()
    if address.startswith("::ffff:") and address.count(".") == 3:
        address = address[len("::ffff:") :]
    if ":" in address and not address.startswith("["):
        address = f"[{address}]"
    return address


def board_names(host: str, local: str | None) -> set[str]:
    """The names a request may give the board in ``Host`` and ``Origin``: the loopback
    names, the address it was told to listen on (``host``) unless that is every address,
    and the address the connection came in on (``local``)."""
    names = set(LOOPBACK)
    if _name(host) not in EVERY_ADDRESS:
        names.add(_name(host))
    if local:
        names.add(_name(local))
    return names


def _with_port(name: str, port: int | None) -> set[str]:
    """``name`` with the port as a browser writes it: always, and also left out for 80."""
    if port is None:  # (no port known: a socket that is not TCP)
        return {name}
    return {f"{name}:{port}"} | ({name} if port == DEFAULT_PORT else set())


def host_allowed(host: str, names: set[str], port: int | None) -> bool:
    """Whether ``host`` (a ``Host`` header) is the board's."""
    return any(host.strip().lower() in _with_port(n, port) for n in names)


def origin_allowed(origin: str, names: set[str], port: int | None) -> bool:
    """Whether ``origin`` (an ``Origin`` header) is the board's own page."""
    return any(origin.strip().lower() in {f"http://{h}" for h in _with_port(n, port)} for n in names)


def _refuse(message: str, status: int, close: bool = False) -> JSONResponse:
    headers = {"connection": "close"} if close else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)


class Guard:
    """ASGI middleware: refuses foreign hosts and cross-site changes, bounds the time of
    reading the body, and logs a client gone before its body in one line (module
    docstring)."""

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", body_seconds: float = 30.0) -> None:
        self.app = app
        self.host = host
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        server = scope.get("server")
        local, port = (server[0], server[1]) if server else (None, None)
        names = board_names(self.host, local)
        headers = Headers(scope=scope)
        host = headers.get("host")
        shown = sorted(f"{n}:{port}" if port is not None else n for n in names)
        if host is None or not host_allowed(host, names, port):
            given = "no Host header" if host is None else f"Host {host!r}"
            await _refuse(
                f"{given}: the board answers requests for {', '.join(shown)} only "
                "(a page of another site that made its name lead here is refused)",
                421,
            )(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and not origin_allowed(origin, names, port):
                await _refuse(
                    f"Origin {origin!r}: the board takes {scope['method']} requests from its own "
                    f"page only (http://{shown[0]} and its other names)",
                    403,
                )(scope, receive, send)
                return
            if headers.get("sec-fetch-site") == "cross-site":
                await _refuse(
                    f"a {scope['method']} request sent by a page of another site "
                    "(Sec-Fetch-Site: cross-site): the board takes them from its own page only",
                    403,
                )(scope, receive, send)
                return
        await self._deadline(scope, receive, send, headers)

    async def _deadline(self, scope: Scope, receive: Receive, send: Send, headers: Headers) -> None:
        """The application, whose body must come within ``body_seconds``: else 408 (if
        nothing was answered yet), the connection closed, and the application told that
        the client is gone."""
        loop = asyncio.get_running_loop()
        due = loop.time() + self.body_seconds
        state: dict[str, Any] = {"read": 0, "complete": False, "late": False, "started": False}

        async def guarded_receive() -> Message:
            if state["late"]:
                return {"type": "http.disconnect"}
            if state["complete"]:  # (the body is in: what comes now is a disconnect, whenever)
                return await receive()
            try:
                async with asyncio.timeout_at(due):
                    message = await receive()
            except TimeoutError:
                state["late"] = True
                if not state["started"]:
                    state["started"] = True
                    await _refuse(
                        f"the request's body did not come within {self.body_seconds:g} s "
                        f"({state['read']} bytes came)",
                        408,
                        close=True,
                    )(scope, receive, send)
                return {"type": "http.disconnect"}
            if message["type"] == "http.request":
                state["read"] += len(message.get("body", b""))
                state["complete"] = not message.get("more_body", False)
            return message

        async def guarded_send(message: Message) -> None:
            if state["late"]:  # (the 408 was the answer)
                return
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        try:
            await self.app(scope, guarded_receive, guarded_send)
        except ClientDisconnect:
            client = scope.get("client")
            who = f"{client[0]}:{client[1]} - " if client else ""
            size = headers.get("content-length")
            of = f" of {size}" if size is not None else ""
            why = (
                f"408, the body did not come within {self.body_seconds:g} s"
                if state["late"]
                else "the client went away before sending its body"
            )
            log.warning(
                "%s%s %s: %s (%d%s bytes came)", who, scope["method"], scope["path"], why, state["read"], of
            )


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11) that closes a connection whose request line and
    headers do not all come within ``header_seconds`` of their first byte, or of the
    connection (uvicorn's keep-alive timeout only closes a connection that sends nothing
    between requests: a client sending its headers a byte at a time held it forever)."""

    header_seconds = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._headers_due: asyncio.TimerHandle | None = None
        self._await_headers()

    def _await_headers(self) -> None:
        if self._headers_due is None:
            self._headers_due = self.loop.call_later(self.header_seconds, self._headers_late)

    def _headers_came(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _between_requests(self) -> bool:
        """Whether no request is being answered: bytes that come now begin the next one."""
        cycle: RequestResponseCycle | None = self.cycle  # (None before the first request)
        return cycle is None or cycle.response_complete

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:  # (a request's headers are in)
            self._headers_came()
        elif self._between_requests() and self.conn.their_state is h11.IDLE:
            self._await_headers()  # (the first bytes of the next request)

    def _headers_late(self) -> None:
        self._headers_due = None
        if not self._between_requests():  # (a request came since, and is answered)
            return
        if not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_came()
        super().connection_lost(exc)


def protocol(header_seconds: float) -> type[GuardedH11Protocol]:
    """The protocol class for uvicorn (``Config(http=...)``) with this deadline for headers."""
    return type("BoardH11Protocol", (GuardedH11Protocol,), {"header_seconds": header_seconds})


__all__ = ["Guard", "GuardedH11Protocol", "board_names", "host_allowed", "origin_allowed", "protocol"]
