"""Games against the engine on the board: the real server (``brisque serve``, uvicorn) on
127.0.0.1, its games API, the engine thinking in worker processes, no hidden card in any
response, a restart that resumes the game, hints, reviews and records."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_board import Board  # noqa: E402
from test_play_table import allowed_cards  # noqa: E402

from solver.formats.records import DealRecord  # noqa: E402
from solver.play.table import Table  # noqa: E402

CARD = re.compile(r"\b[789TJQKA][SHDC]\b")


def wait_turn(b: Board, gid: str, timeout: float = 60) -> dict:
    """The game's state once the engine has played (the page's polling)."""
    end = time.monotonic() + timeout
    while True:
        status, v = b.get(f"/api/games/{gid}")
        assert status == 200, v
        if not v["thinking"] or time.monotonic() > end:
            return v
        time.sleep(0.05)


def table_of(games: Path, gid: str) -> Table:
    return Table.from_dict(json.loads((games / f"{gid}.json").read_text()))


def assert_nothing_hidden(games: Path, gid: str, response: dict) -> None:
    """No card in the response that the person may not see (the server's own kept game
    says where every card is)."""
    t = table_of(games, gid)
    shown = set(CARD.findall(json.dumps(response))) - allowed_cards(t)
    assert not shown, f"a response shows {shown}"


def test_a_whole_deal_through_the_api_shows_no_hidden_card_and_resumes_after_a_restart(
    tmp_path: Path,
) -> None:
    games = tmp_path / "games"
    b = Board("--games", str(games))
    try:
        status, v = b.post("/api/games", {"game": "brisque", "seat": "b", "level": 1, "seed": 17})
        assert status == 201, v
        gid = v["id"]
        assert_nothing_hidden(games, gid, v)
        responses = 0
        restarted = False
        while True:
            v = wait_turn(b, gid)
            assert_nothing_hidden(games, gid, v)
            responses += 1
            if v["over"]:
                break
            assert v["turn"] == "you" and v["legal"]
            if not restarted and len(v["played"]) >= 6:
                # the server stops and starts again: the game goes on where it was
                b.stop()
                b = Board("--games", str(games))
                again = wait_turn(b, gid)
                assert {k: again[k] for k in ("hand", "played", "score")} == {
                    k: v[k] for k in ("hand", "played", "score")
                }
                restarted = True
            status, after = b.post(f"/api/games/{gid}/moves", {"move": v["legal"][0]["move"]})
            assert status == 200, after
            assert_nothing_hidden(games, gid, after)
        assert restarted and responses >= 16
        assert v["result"]["winner"] in ("you", "engine", None) and len(v["played"]) == 16

        # the finished deal: its record, and the review
        with urllib.request.urlopen(f"{b.url}/api/games/{gid}/records") as res:
            assert "attachment" in res.headers["Content-Disposition"]
            (line,) = res.read().decode().splitlines()
        rec = DealRecord.from_json(line)
        assert rec.final().is_over() and rec.players[1] == "you"
        status, job = b.post(f"/api/games/{gid}/review", {"deal": 0})
        assert status == 202, job
        end = time.monotonic() + 120
        while job["state"] == "running" and time.monotonic() < end:
            time.sleep(0.2)
            _, job = b.get(f"/api/games/{gid}/review")
        assert job["state"] == "done", job
        review = job["answer"]
        p = rec.replay()
        decisions = [i + 1 for i, q in enumerate(p[:-1]) if q.turn == 1 and len(q.legal_moves()) > 1]
        assert [r["number"] for r in review["rows"]] == decisions
        assert review["svg"].startswith("<svg")
    finally:
        b.stop()


def test_hints_moves_and_errors(tmp_path: Path) -> None:
    games = tmp_path / "games"
    b = Board("--games", str(games))
    try:
        status, v = b.post("/api/games", {"game": "petite", "seat": "a", "level": 2, "seed": 5})
        gid = v["id"]
        v = wait_turn(b, gid)
        status, job = b.post(f"/api/games/{gid}/hint", {})
        assert status == 202, job
        while job["state"] == "running":
            time.sleep(0.1)
            _, job = b.get(f"/api/games/{gid}/hint")
        assert job["state"] == "done", job
        hint = job["answer"]
        assert hint["best"]["move"] in [m["move"] for m in v["legal"]]
        assert_nothing_hidden(games, gid, job)
        # a move out of turn, an illegal one, bad requests
        status, err = b.post(f"/api/games/{gid}/moves", {"move": "+kK"})
        assert status == 400 and "not legal" in err["error"]
        status, err = b.post(f"/api/games/{gid}/moves", {"mvoe": "AS"})
        assert status == 400 and "unknown key 'mvoe'" in err["error"]
        status, err = b.get("/api/games/0123456789abcdef01234567")
        assert status == 404 and "no game" in err["error"]
        status, err = b.get("/api/games/../../etc")
        assert status == 404
        status, err = b.post("/api/games", {"game": "skat"})
        assert status == 400 and "game='skat'" in err["error"]
        status, err = b.post("/api/games", {"level": 99})
        assert status == 400 and "level=99" in err["error"]
        # the same cards with the seats swapped
        status, swapped = b.post(f"/api/games/{gid}/swap", {})
        assert status == 200 and swapped["you"] == "b" and swapped["id"] != gid
        assert table_of(games, swapped["id"]).start(0).bpn() == table_of(games, gid).start(0).bpn()
    finally:
        b.stop()
