"""The games played on the board against the engine: kept on disk, stepped by the page.

Each game is a :class:`solver.play.table.Table`, kept as a small JSON file named by its id
(its settings and moves: a reload or a restart of the server finds it again).  The engine
thinks in a worker process (:meth:`solver.board.jobs.Jobs.start_task`): when it is the
engine's turn, asking for the game starts its move if none is under way (or as soon as the
board has a free worker), and plays it once it is ready, so the page never blocks and an
abandoned game's thinking is cancelled like any abandoned analysis.  What the page receives
is :meth:`Table.view`: nothing of the engine's cards or of the talon's order.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from solver.board.jobs import BusyError, Job, Jobs
from solver.errors import BoardError, BrisqueError, RecordError
from solver.model.moves import Move
from solver.model.ranges import short_value
from solver.play.table import Table

GAME_ID = re.compile(r"^[0-9a-f]{24}$")
MAX_GAMES = 2000  # games kept on disk; beyond, the oldest is forgotten
ENGINE_RETRY_FIRST = 0.5  # seconds before a failed engine move is tried again; doubles a failure
ENGINE_RETRY_MOST = 30.0  # the longest wait between tries


def retry_delay(failures: int) -> float:
    """Seconds to wait before trying the engine again after ``failures`` failures in a row.

    >>> [retry_delay(n) for n in (1, 2, 3, 10)]
    [0.5, 1.0, 2.0, 30.0]
    """
    return float(min(ENGINE_RETRY_MOST, ENGINE_RETRY_FIRST * 2.0 ** min(failures - 1, 16)))


def default_directory() -> Path:
    """Where the board keeps its games: ``$XDG_STATE_HOME/brisque/games`` (by default
    ``~/.local/state/brisque/games``)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "brisque" / "games"


class GameError(BoardError):
    """A request about a game that cannot be met (its HTTP status in ``status``)."""


class Games:
    """The games of one board (module text)."""

    def __init__(self, jobs: Jobs, directory: Path | None = None, max_games: int = MAX_GAMES):
        self.jobs = jobs
        self.directory = directory or default_directory()
        self.max_games = max_games
        self.tables: dict[str, Table] = {}
        self.tasks: dict[tuple[str, str], str] = {}  # (game, kind) -> the job under way or done
        self.swapped_from: dict[str, str] = {}  # a game of the same cards, seats swapped -> the first
        self.engine_errors: dict[str, str] = {}  # the engine's last failure in a game (tried again)
        # failures in a row of a game's engine, and when it may be tried again (monotonic)
        self.engine_retry: dict[str, tuple[int, float]] = {}
        # games whose engine waits for a free worker, first come first served (whoever polled
        # first when a worker came free would otherwise go first: some games waited 10 times
        # longer than others), and when each game was last asked for
        self.waiting: deque[str] = deque()
        self.asked: dict[str, float] = {}
        self.lock = threading.RLock()

    # ------------------------------------------------------------------ keeping
    def create(self, settings: dict[str, Any]) -> str:
        """A new game from the page's settings (game, seat, level, seed, whole_game)."""
        whole = settings.get("whole_game", False)
        if not isinstance(whole, bool):
            raise GameError(
                f"whole_game={short_value(whole)}: expected true (a whole game) or false (one deal)"
            )
        seed = settings.get("seed")
        if isinstance(seed, str) and seed.isdigit() and len(seed) <= 19:
            seed = int(seed)  # (a page's seed beyond 2^53, sent as text: a JavaScript number would round it)
        t = Table.new(
            settings.get("game", "brisque"), settings.get("seat", "a"), settings.get("level", 2), seed, whole
        )
        gid = secrets.token_hex(12)
        with self.lock:
            self.tables[gid] = t
            self.save(gid)
        return gid

    def table(self, gid: str) -> Table:
        """The game ``gid`` (read from its file after a restart); 404 if there is none."""
        if not GAME_ID.fullmatch(gid):
            raise GameError(f"no game {short_value(gid)}: a game's id is 24 hexadecimal digits", 404)
        with self.lock:
            t = self.tables.get(gid)
            if t is None:
                path = self.directory / f"{gid}.json"
                try:
                    text = path.read_text(encoding="utf-8")
                except OSError:
                    raise GameError(f"no game {gid!r} here", 404) from None
                try:
                    kept = json.loads(text)
                    t = Table.from_dict(kept)
                except (ValueError, RecordError):
                    # (not the reason: it would quote the deal, the engine's cards included)
                    raise GameError(f"game {gid!r} cannot be read back: its file is damaged", 500) from None
                self.tables[gid] = t
                first = kept.get("swapped_from")
                if isinstance(first, str) and GAME_ID.match(first):
                    self.swapped_from[gid] = first
            return t

    def save(self, gid: str) -> None:
        """Write the game's file (whole or not at all: a new file moved over the old)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"{gid}.json"
        tmp = path.with_suffix(".tmp")
        kept = self.tables[gid].to_dict()
        if gid in self.swapped_from:
            kept["swapped_from"] = self.swapped_from[gid]
        tmp.write_text(json.dumps(kept), encoding="utf-8")
        os.replace(tmp, path)
        self._forget_old()

    def _forget_old(self) -> None:
        files = sorted(self.directory.glob("*.json"), key=lambda f: f.stat().st_mtime)
        for f in files[: max(0, len(files) - self.max_games)]:
            f.unlink(missing_ok=True)
            # (what the board keeps of a game goes with it: memory bounded by max_games)
            for kept in (self.tables, self.asked, self.engine_errors, self.engine_retry, self.swapped_from):
                kept.pop(f.stem, None)

    # ------------------------------------------------------------------ playing
    def state(self, gid: str) -> dict[str, Any]:
        """The page's view of the game now: the engine's move played if it is ready, its
        thinking started if it is its turn (``thinking``), and the settings' id."""
        with self.lock:
            t = self.table(gid)
            self.asked[gid] = time.monotonic()
            self._engine_step(gid, t)
            view = t.view()
            view["id"] = gid
            view["thinking"] = not view["over"] and view["turn"] == "engine"
            failed = self.engine_errors.get(gid)
            if failed and view["thinking"]:
                view["engine_error"] = failed
                view["engine_retry_in"] = round(max(0.0, self.engine_retry[gid][1] - time.monotonic()), 1)
            if view["over"] and gid in self.swapped_from:
                view["comparison"] = self._comparison(self.swapped_from[gid], t)
            return view

    def _comparison(self, first_id: str, t: Table) -> dict[str, Any] | None:
        """The same cards played twice: in the first game the person held the seat the
        engine holds now. His margin there beside the engine's here, on those cards."""
        try:
            first = self.table(first_id)
        except GameError:
            return None
        i = len(t.deals) - 1
        if i >= len(first.deals) or not first.position(i).is_over():
            return None
        seat = first.person_seat(i)
        then, now = first.position(i).outcome(), t.position(i).outcome()
        assert then is not None and now is not None
        return {
            "seat": "ab"[seat],
            "deal": i + 1,
            "you": int(then.margin(seat)),
            "engine": int(now.margin(seat)),
        }

    def _engine_step(self, gid: str, t: Table) -> None:
        job = self._job(gid, "engine_move")
        if job is not None and job.state != "running":
            del self.tasks[gid, "engine_move"]
            answer = job.answer or {}
            current = answer.get("deal") == len(t.deals) and answer.get("moves_before") == len(t.deals[-1])
            if job.state == "done" and current and not t.persons_turn() and not t.position().is_over():
                t.engine_play(Move(answer["move"]))
                self.engine_errors.pop(gid, None)
                self.engine_retry.pop(gid, None)
                self.save(gid)
            elif job.state == "failed":
                self._engine_failed(gid, job.error or "the engine failed")
            job = None
        if job is None and self._engine_to_move(gid, t) and gid not in self.waiting:
            self.waiting.append(gid)
        self._start_waiting()

    def _engine_to_move(self, gid: str, t: Table) -> bool:
        """Whether the engine should start thinking in game ``gid`` now: its turn, no move
        under way, and no failure's delay to wait out (a failing engine is tried again after
        a delay that doubles: a failure that recurs, a worker killed for its memory, does not
        start a process at every poll of the page)."""
        if (gid, "engine_move") in self.tasks or t.position().is_over() or t.persons_turn():
            return False
        return not (gid in self.engine_retry and time.monotonic() < self.engine_retry[gid][1])

    def _start_waiting(self) -> None:
        """Start the engine of the games waiting for a worker, first come first served, as
        long as workers are free; a game nobody asked for lately leaves the queue (asked for
        again, it joins at the end)."""
        now = time.monotonic()
        while self.waiting:
            gid = self.waiting[0]
            t = self.tables.get(gid)
            stale = now - self.asked.get(gid, now) > self.jobs.quotas.abandon_seconds
            if t is None or stale or not self._engine_to_move(gid, t):
                self.waiting.popleft()
                continue
            try:
                job = self.jobs.start_task("engine_move", {"table": t.to_dict()})
            except BusyError:  # (every worker busy: the next ask of any game tries again)
                return
            except Exception as exc:  # noqa: BLE001 - a process that cannot start (no memory):
                # this game's failure, tried again after its delay, not every game's blocked
                self.waiting.popleft()
                self._engine_failed(gid, f"the engine could not start: {exc}")
                continue
            self.tasks[gid, "engine_move"] = job.id
            self.waiting.popleft()

    def _engine_failed(self, gid: str, error: str) -> None:
        """Count a failure of the game's engine: tried again after a delay that doubles."""
        self.engine_errors[gid] = error
        n = self.engine_retry.get(gid, (0, 0.0))[0] + 1
        self.engine_retry[gid] = (n, time.monotonic() + retry_delay(n))

    def _job(self, gid: str, kind: str) -> Job | None:
        jid = self.tasks.get((gid, kind))
        return None if jid is None else self.jobs.get(jid)

    def _cancel(self, gid: str, kind: str) -> None:
        jid = self.tasks.pop((gid, kind), None)
        if jid is not None:
            self.jobs.cancel(jid)

    def move(self, gid: str, move: object) -> dict[str, Any]:
        """The person's move, then the game's state (the engine starts thinking)."""
        if not isinstance(move, str):
            raise GameError(f"move={short_value(move)}: expected a move such as TH, x or +mH")
        with self.lock:
            t = self.table(gid)
            if t.position().is_over():
                raise GameError(f"move {short_value(move)}: the deal is over", 409)
            if not t.persons_turn():
                raise GameError(f"move {short_value(move)}: it is the engine's turn", 409)
            try:
                t.play(move)
            except BrisqueError as exc:
                raise GameError(str(exc), 400) from None
            self._cancel(gid, "hint")
            self.save(gid)
            return self.state(gid)

    def take_back(self, gid: str, moves_kept: object) -> dict[str, Any]:
        """Take the deal in progress back to its first ``moves_kept`` moves."""
        with self.lock:
            t = self.table(gid)
            t.take_back(moves_kept)  # type: ignore[arg-type]
            for kind in ("engine_move", "hint"):
                self._cancel(gid, kind)
            # (a new position: the engine's failures at the old one are not waited out)
            self.engine_errors.pop(gid, None)
            self.engine_retry.pop(gid, None)
            self.save(gid)
            return self.state(gid)

    def next_deal(self, gid: str) -> dict[str, Any]:
        with self.lock:
            t = self.table(gid)
            try:
                t.next_deal()
            except BrisqueError as exc:
                raise GameError(str(exc), 409) from None
            self.save(gid)
            return self.state(gid)

    def swapped(self, gid: str) -> str:
        """A new game of the same cards with the seats swapped: the person plays the
        engine's seat, to compare his result with the engine's."""
        with self.lock:
            t = self.table(gid)
            if not t.game_over():
                # (the new game would deal these cards face up to a page that plays them out)
                raise GameError("the same cards with the seats swapped: once this game is over", 409)
            seat = "b" if t.seat == 0 else "a"
            new = self.create(
                {
                    "game": t.rules.game,
                    "seat": seat,
                    "level": t.level.number,
                    "seed": t.seed,
                    "whole_game": t.whole_game,
                }
            )
            self.swapped_from[new] = gid
            self.save(new)
            return new

    def task(self, gid: str, kind: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        """Start a hint or a review for the game (one of each at a time); its job's state."""
        with self.lock:
            t = self.table(gid)
            if kind == "hint" and not t.persons_turn():
                raise GameError("a hint is for your turn", 409)
            if kind == "review":
                i = (payload or {}).get("deal")
                if type(i) is not int or not 0 <= i < len(t.deals):
                    raise GameError(
                        f"deal={short_value(i)}: expected a deal of this game, 0 to {len(t.deals) - 1}"
                    )
                if not t.position(i).is_over():
                    raise GameError(f"deal {i + 1} is not over: a review is of a finished deal", 409)
            self._cancel(gid, kind)
            try:
                job = self.jobs.start_task(kind, {"table": t.to_dict(), **(payload or {})})
            except BusyError as exc:
                raise GameError(str(exc), 429) from None
            self.tasks[gid, kind] = job.id
            return job.to_dict()

    def task_state(self, gid: str, kind: str) -> dict[str, Any]:
        with self.lock:
            self.table(gid)
            job = self._job(gid, kind)
            if job is None:
                raise GameError(f"no {kind} asked for game {gid!r}", 404)
            return job.to_dict()

    def records(self, gid: str) -> str:
        """The finished deals of the game, as deal records (JSON Lines)."""
        with self.lock:
            return "".join(r.to_json() + "\n" for r in self.table(gid).records())


__all__ = ["GAME_ID", "GameError", "Games", "default_directory", "retry_delay"]
