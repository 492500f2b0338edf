"""``brisque serve``: the analysis board in the browser (the extra ``board``)."""

from __future__ import annotations

import functools
import socket
import threading
import webbrowser
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import click

from solver.board.jobs import Quotas  # (no Starlette: the help needs only the defaults)
from solver.cli.exits import BrisqueCommandError
from solver.cli.options import WholeNumber, number, shown_option
from solver.errors import install_hint

QUOTAS = Quotas()  # (the board's own defaults, shown in the help)


@dataclass(frozen=True)
class BoardSettings:
    """The server's options as ``serve`` and ``play`` pass them on to :func:`run_board`."""

    host: str
    port: int
    no_browser: bool
    max_running: int
    max_seconds: float
    games_dir: str | None


def board_options(f: Any) -> Any:
    """The server's options, shared by ``serve`` and ``play``: the command gets them as one
    parameter, ``board`` (a :class:`BoardSettings`)."""

    @functools.wraps(f)
    def command(**params: Any) -> Any:
        board = BoardSettings(**{field.name: params.pop(field.name) for field in fields(BoardSettings)})
        return f(board=board, **params)

    for option in reversed(
        [
            shown_option(
                "--host", str, "127.0.0.1", "The address to listen on (127.0.0.1: this machine only)."
            ),
            shown_option("--port", WholeNumber(0, 65535), 8000, "The port (0: any free one)."),
            click.option("--no-browser", is_flag=True, help="Do not open the page in a browser."),
            shown_option(
                "--max-running",
                WholeNumber(1, 64),
                QUOTAS.max_running,
                "Analyses (and the engine's moves) that run at once.",
            ),
            shown_option("--max-seconds", number(0.1, 3600), QUOTAS.max_seconds, "Time of one analysis."),
            click.option(
                "--games",
                "games_dir",
                type=click.Path(file_okay=False),
                default=None,
                help="Where games against the engine are kept, so that a restart resumes them "
                "[default: $XDG_STATE_HOME/brisque/games, or ~/.local/state/brisque/games].",
            ),
        ]
    ):
        command = option(command)
    return command


def run_board(board: BoardSettings, path: str) -> None:
    """Serve the board until Ctrl-C, opening ``path`` in a browser unless ``board.no_browser``."""
    host, port = board.host, board.port
    try:  # (imported here: Starlette and uvicorn are an optional extra, said if missing)
        from solver.board.app import create_app, server
    except ImportError:
        raise BrisqueCommandError(f"the board needs Starlette and uvicorn: {install_hint('board')}") from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: other machines can reach the board", err=True)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise BrisqueCommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    # listening before the address is printed: a client that reads it and connects at once
    # waits in the backlog until the server takes it, rather than being refused
    sock.listen(128)
    bound = sock.getsockname()[1]
    shown = {"0.0.0.0": "127.0.0.1", "localhost": "127.0.0.1", "::": "[::1]"}.get(host, host)
    url = f"http://{f'[{shown}]' if ':' in shown and not shown.startswith('[') else shown}:{bound}/"
    click.echo(f"the board is at {url.rstrip('/') + path} (Ctrl-C stops it)", err=True)
    app = create_app(
        Quotas(max_running=board.max_running, max_seconds=board.max_seconds),
        host=host,
        games_dir=None if board.games_dir is None else Path(board.games_dir),
    )
    if not board.no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url.rstrip("/") + path,)).start()
    server(app).run(sockets=[sock])


@click.command("serve")
@board_options
def serve_cmd(board: BoardSettings) -> None:
    """Start the analysis board in the browser: paste a position, see its diagram and every
    move's value, play moves by clicking, step through puzzle files and match records.

    The page works offline (no CDN).  The server listens on 127.0.0.1 unless told
    otherwise, answers requests for its own address from its own page only, reads no
    file but those you upload, and bounds request sizes and times, analysis times and the
    analyses running at once.  Ctrl-C stops it and its analyses.

    \b
    Examples:
      brisque serve
      brisque serve --port 8765 --no-browser
      open http://127.0.0.1:8000/?bpn=...   (a position straight away)
    """
    run_board(board, "/")
