"""The board's servers for its tests: ``brisque serve`` (or ``brisque play``) in a
process with a little client for its API (:class:`Board`), the same app in a thread of the
tests' process for quotas the command line does not set (:class:`ThreadBoard`), a request
with raw headers, and the check that a card on a page is the shared module's drawing.

The fixtures that start them (``board``, ``browser``, ``page``) are in conftest.py.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

# the commands run outside the checkout, so that they import the installed package (the
# source tree has no compiled engine unless it was built in place)
AWAY = Path(tempfile.mkdtemp(prefix="board-tests-"))
FULL = "petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Board:
    """A running ``brisque serve`` and a little client for its API."""

    def __init__(self, *args: str, command: str = "serve") -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", command, "--no-browser", "--port", "0", *args],
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            cwd=AWAY,
        )
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        self.url = found.group(0).rstrip("/")
        for _ in range(100):  # until it answers
            try:
                self.get("/api/position", bpn=FULL)
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, dict]:
        req = urllib.request.Request(self.url + path, data=body, method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def get(self, path: str, **params: str) -> tuple[int, dict]:
        return self.request("GET", path + ("?" + urllib.parse.urlencode(params) if params else ""))

    def post(self, path: str, data: object) -> tuple[int, dict]:
        body = data if isinstance(data, bytes) else json.dumps(data).encode()
        return self.request("POST", path, body)

    def wait(self, job: str, timeout: float = 60) -> dict:
        end = time.monotonic() + timeout
        while True:
            _, answer = self.get(f"/api/analysis/jobs/{job}")
            if answer["state"] != "running" or time.monotonic() > end:
                return answer
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class ThreadBoard(Board):
    """A board made with ``quotas`` served by uvicorn as ``brisque serve`` serves it
    (:func:`solver.board.app.server`), in a thread of the tests' process: for quotas that
    the command line does not set."""

    def __init__(self, quotas: object, games_dir: Path | None = None) -> None:
        from solver.board.app import create_app, server

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        # (its games in a folder of the tests', never the user's)
        games = games_dir or Path(tempfile.mkdtemp(prefix="board-games-"))
        self.app = create_app(quotas, games_dir=games)  # type: ignore[arg-type]
        self.server = server(self.app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < end and self.thread.is_alive()
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


def raw(url: str, method: str, path: str, body: bytes | None = None, **headers: str) -> tuple[int, dict]:
    """A request with the headers given as they are (``Host`` too: urllib sets its own)."""
    where = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers={k.replace("_", "-"): v for k, v in headers.items()})
        res = conn.getresponse()
        return res.status, json.loads(res.read())
    finally:
        conn.close()


def same_card_drawn(page, selector: str, options: dict) -> None:
    """The card ``selector`` on the page is what common.js's drawCard draws with ``options``."""
    card = page.get_attribute(selector, "data-card")
    shown = page.eval_on_selector(selector, "el => el.outerHTML")
    drawn = page.evaluate(
        "([card, options]) => import('/static/common.js').then((m) => m.drawCard(card, options).outerHTML)",
        [card, options],
    )
    assert shown == drawn
