"""Games against the engine under load: N games played at once on one board (``brisque
serve``, really started on 127.0.0.1), against one game alone, side by side in one run.

Each game is one deal, the person's moves made by a client thread (the last legal move, as
soon as it is his turn), the page's polling every 50 ms while the engine thinks.  Measured,
for one game alone and for ``--games`` at once: the latency of the page's requests (``GET``
of the game's state, the poll, and ``POST`` of a move), the engine's turnaround (from the
person's move to the engine's answer on the page, its thinking included), a request of the
analysis board's (``/api/position``) made meanwhile, and the wall time to the last game's
end.  The engine works in at most ``--max-running`` worker processes (the board's default:
2, this machine's cores); games wait their turn beyond.

Run:  python -m benchmarks.bench_play_load [--games 20] [--game brisque] [--level 3]
          [--max-running 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from solver.bench.suites import machine

POLL = 0.05  # seconds between the page's polls while the engine thinks
FULL = "petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3"  # (a position for the analysis board)


class Board:
    """``brisque serve`` in a process of its own, and a client of its API that times each request."""

    def __init__(self, games_dir: str, max_running: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "solver.cli", "serve", "--no-browser", "--port", "0", "--games", games_dir]
            + ["--max-running", str(max_running)],
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            cwd=tempfile.gettempdir(),  # (from outside the checkout: the built package)
        )
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not found:
            raise SystemExit(f"the board did not start: {line!r}")
        self.url = found.group(0).rstrip("/")
        for _ in range(200):
            try:
                self.request("GET", "/api/position?" + urllib.parse.urlencode({"bpn": FULL}))
                return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)

    def request(self, method: str, path: str, data: object = None) -> tuple[int, dict[str, Any], float]:
        body = None if data is None else json.dumps(data).encode()
        req = urllib.request.Request(self.url + path, data=body, method=method)
        # (the clocks of this script are its own, not the harness's loop: requests from many
        # client threads at once against a server, each request's latency and the engine's
        # answer measured from when it was asked, under load; not one call repeated)
        t0 = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=120) as res:
                status, answer = res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            status, answer = exc.code, json.loads(exc.read())
        return status, answer, time.perf_counter() - t0

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def play(board: Board, settings: dict[str, Any], out: dict[str, list[float]], errors: list[str]) -> None:
    """One deal by a client as the page plays it, its timings added to ``out``."""
    status, v, _ = board.request("POST", "/api/games", settings)
    if status != 201:
        errors.append(str(v))
        return
    gid = v["id"]
    asked = time.perf_counter()  # (the engine may lead)
    while not v["over"]:
        if v["thinking"]:
            time.sleep(POLL)
            status, v, took = board.request("GET", f"/api/games/{gid}")
            out["poll"].append(took)
            if not v["thinking"]:
                out["engine"].append(time.perf_counter() - asked)
            continue
        status, v, took = board.request("POST", f"/api/games/{gid}/moves", {"move": v["legal"][-1]["move"]})
        out["move"].append(took)
        if status != 200:
            errors.append(str(v))
            return
        asked = time.perf_counter()


def quantiles(xs: list[float]) -> dict[str, float | int | None]:
    """Milliseconds: the median, the 95th and 99th percentiles and the most."""
    if not xs:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    q = statistics.quantiles(xs, n=100, method="inclusive") if len(xs) > 1 else [xs[0]] * 99
    return {
        "n": len(xs),
        "p50": round(1000 * statistics.median(xs), 1),
        "p95": round(1000 * q[94], 1),
        "p99": round(1000 * q[98], 1),
        "max": round(1000 * max(xs), 1),
    }


def run(games: int, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as games_dir:
        board = Board(games_dir, args.max_running)
        try:
            out: dict[str, list[float]] = {"poll": [], "move": [], "engine": [], "analysis": []}
            errors: list[str] = []
            threads = [
                threading.Thread(
                    target=play,
                    args=(
                        board,
                        {"game": args.game, "seat": "ab"[i % 2], "level": args.level, "seed": 100 + i},
                        out,
                        errors,
                    ),
                )
                for i in range(games)
            ]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            while any(t.is_alive() for t in threads):  # the analysis board is used meanwhile
                _, _, took = board.request("GET", "/api/position?" + urllib.parse.urlencode({"bpn": FULL}))
                out["analysis"].append(took)
                time.sleep(0.2)
            for t in threads:
                t.join()
            wall = time.perf_counter() - t0
        finally:
            board.stop()
    return {
        "games": games,
        "errors": errors[:5],
        "wall_s": round(wall, 1),
        **{f"{k}_ms": quantiles(v) for k, v in out.items()},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--game", default="brisque", choices=["brisque", "briscan", "petite"])
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--max-running", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [run(1, args), run(args.games, args)]
    one, many = rows
    summary = {
        "machine": machine(),
        "game": args.game,
        "level": args.level,
        "max_running": args.max_running,
        "rows": rows,
        # side by side: how much slower the page's poll and the engine's answer are under load
        "poll_p95_ratio": round(many["poll_ms"]["p95"] / one["poll_ms"]["p95"], 2),
        "engine_p50_ratio": round(many["engine_ms"]["p50"] / one["engine_ms"]["p50"], 2),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        for r in rows:
            print(json.dumps(r))
        print(
            f"poll p95 x{summary['poll_p95_ratio']}, engine answer p50 x{summary['engine_p50_ratio']} "
            f"with {args.games} games against one"
        )
    return 1 if any(r["errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
