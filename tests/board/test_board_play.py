"""Games against the engine on the board: the real server (``brisque serve``, uvicorn) on
127.0.0.1, its games API, the engine thinking in worker processes, no hidden card in any
response, a restart that resumes the game, hints, reviews and records."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from board_servers import Board, ThreadBoard, same_card_drawn  # noqa: E402
from helpers import allowed_cards, run_brisque  # noqa: E402

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
        # the same cards with the seats swapped, not while they are played (they would be dealt
        # face up to a game played out at once), nor a review of a deal not over
        status, err = b.post(f"/api/games/{gid}/swap", {})
        assert status == 409 and "once this game is over" in err["error"]
        status, err = b.post(f"/api/games/{gid}/review", {"deal": 0})
        assert status == 409 and "not over" in err["error"]
        for bad in ({"deal": "x"}, {"deal": True}, {"deal": 5}, {}):
            status, err = b.post(f"/api/games/{gid}/review", bad)
            assert status == 400 and "deal=" in err["error"], (bad, err)
        status, err = b.post("/api/games", {"whole_game": "no"})
        assert status == 400 and "whole_game='no'" in err["error"]
        # the seed deals every card: not shown while the game is played
        assert v["seed"] is None and wait_turn(b, gid)["seed"] is None
        status, big = b.post("/api/games", {"game": "petite", "seed": "9007199254740993"})
        assert status == 201 and table_of(games, big["id"]).seed == 9007199254740993
    finally:
        b.stop()


# ---------------------------------------------------------------- the page, in Chromium


@pytest.fixture(scope="module")
def games_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("games")


@pytest.fixture(scope="module")
def play_board(games_dir: Path):
    """``brisque play`` itself: it serves the board and says where its play page is."""
    b = Board("--games", str(games_dir), "--game", "brisque", "--level", "1", "--seed", "9", command="play")
    yield b
    b.stop()


def new_page(browser, viewport=(1400, 900)):
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, accept_downloads=True)
    pg = ctx.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))  # type: ignore[attr-defined]
    return pg


def wait_ready(pg) -> str:
    """Wait until the engine has played; the state of the table: "you" or "over"."""
    pg.wait_for_function("document.body.dataset.thinking === 'no'", timeout=60000)
    return pg.get_attribute("#status", "data-turn")


def click_a_legal_move(pg) -> None:
    """Click the first move the page offers, and wait for the server's answer to it."""
    before = pg.evaluate("document.body.dataset.moves")
    pg.locator("#hand button.playable, #actions button").first.click()
    pg.wait_for_function(f"document.body.dataset.moves !== {json.dumps(before)}", timeout=30000)


def test_a_whole_deal_by_clicks_shows_no_hidden_card_then_the_review(
    browser, play_board, games_dir: Path, tmp_path: Path
) -> None:
    pg = new_page(browser)
    responses: list[dict] = []

    def keep(res) -> None:
        if "/api/games" in res.url and "records" not in res.url:
            responses.append({"url": res.url, "status": res.status, "body": res.json()})

    pg.on("response", keep)
    pg.goto(f"{play_board.url}/play?game=brisque&level=1&seed=9&seat=a")
    pg.click("#start")
    clicks = 0
    while wait_ready(pg) == "you":
        click_a_legal_move(pg)
        clicks += 1
    assert clicks >= 16  # (each answered: see click_a_legal_move)
    gid = re.search(r"g=([0-9a-f]{24})", pg.url).group(1)
    final = table_of(games_dir, gid)
    assert final.position().is_over()
    # every answer of the deal: no error, and no card the person could not see then
    assert responses and all(r["status"] < 400 for r in responses), [
        r for r in responses if r["status"] >= 400
    ]
    start = final.start(0)
    for r in responses:
        v = r["body"]
        if "moves_played" not in v:
            continue
        t = Table.from_dict(
            {**final.to_dict(), "deals": [[str(m) for m in final.deals[0][: v["moves_played"]]]]}
        )
        shown = set(CARD.findall(json.dumps(v))) - allowed_cards(t)
        assert not shown, (r["url"], shown)
    assert start.bpn() == Table.new("brisque", "a", 1, 9).start(0).bpn()  # (the seed's cards)

    # the review: one row a decision, stepped through with the arrow keys
    pg.click("#review-button")
    pg.wait_for_selector("#review-rows tr", timeout=120000)
    rec = final.records()[0]
    positions = rec.replay()
    decisions = [i + 1 for i, q in enumerate(positions[:-1]) if q.turn == 0 and len(q.legal_moves()) > 1]
    numbers = [
        int(n) for n in pg.eval_on_selector_all("#review-rows tr", "rows => rows.map(r => r.dataset.number)")
    ]
    assert numbers == decisions
    assert pg.text_content("#chance-head") == "deal chance given up"  # (one deal, not a whole game)
    assert pg.locator("#review-graph svg circle").count() >= len(decisions)
    pg.keyboard.press("ArrowRight")
    pg.wait_for_function(
        "document.querySelector('#review-rows tr.current').dataset.number === "
        + json.dumps(str(decisions[1]))
    )
    # (the row is marked at once, its diagram comes from the server)
    pg.wait_for_function(
        "document.getElementById('review-diagram').dataset.bpn === "
        + json.dumps(positions[decisions[1] - 1].bpn())
    )

    # the records downloaded from the page: brisque line grades them as the page did
    with pg.expect_download() as dl:
        pg.click("#download")
    path = tmp_path / "deal.jsonl"
    dl.value.save_as(path)
    # (from outside the checkout: there, python -m would find the unbuilt source first)
    out = run_brisque(
        "line", "--record", path, "--view", "own", "--worlds", 50, "--seed", 9, "--json", cwd=tmp_path
    )
    assert out.returncode == 0, (path.read_text(), out.stderr)
    steps = {s["number"]: s for s in json.loads(out.stdout)["steps"]}
    page_grades = pg.eval_on_selector_all(
        "#review-rows tr", "rows => rows.map(r => [Number(r.dataset.number), r.dataset.grade])"
    )
    assert page_grades and all((steps[n]["grade"] or "") == g for n, g in page_grades)

    # take back to a decision and play on from there
    pg.click("#review-rows tr:nth-child(2)")
    before = pg.evaluate("document.body.dataset.moves")
    pg.click("#take-back")
    # (the page answers once the server has taken the moves back)
    pg.wait_for_function(f"document.body.dataset.moves !== {json.dumps(before)}", timeout=30000)
    assert wait_ready(pg) == "you"
    assert table_of(games_dir, gid).deals[0] == final.deals[0][: decisions[1] - 1]
    assert not pg.errors  # type: ignore[attr-defined]


def test_the_hands_cards_are_drawn_by_the_shared_module(browser, play_board) -> None:

    pg = new_page(browser)
    pg.goto(play_board.url + "/play")
    pg.wait_for_selector("#setup:not([hidden]), #table:not([hidden])")
    if pg.is_visible("#start"):
        pg.click("#start")
    wait_ready(pg)
    same_card_drawn(
        pg, "#hand button.playable", {"move": pg.get_attribute("#hand button.playable", "data-card")}
    )
    if pg.locator("#hand button:disabled").count():
        same_card_drawn(pg, "#hand button:disabled", {"disabled": True})
    same_card_drawn(pg, "#turnup .card", {})
    assert not pg.errors  # type: ignore[attr-defined]


def test_a_reload_in_mid_deal_resumes_the_game(browser, play_board, games_dir: Path) -> None:
    pg = new_page(browser, viewport=(390, 844))
    pg.goto(f"{play_board.url}/play?game=briscan&level=1&seed=12&seat=b")
    pg.click("#start")
    for _ in range(4):
        assert wait_ready(pg) == "you"
        click_a_legal_move(pg)
    wait_ready(pg)
    hand = pg.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    played = pg.locator("#played li").count()
    url = pg.url
    pg.reload()
    wait_ready(pg)
    assert pg.url == url
    assert pg.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)") == hand
    assert pg.locator("#played li").count() == played
    # on a phone, nothing runs off the edge
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert not pg.errors  # type: ignore[attr-defined]


def test_twenty_games_at_once_all_finish(tmp_path: Path) -> None:
    b = Board("--games", str(tmp_path / "games"))
    try:
        errors: list[str] = []
        finished: list[str] = []

        def one(seed: int) -> None:
            try:
                _, v = b.post(
                    "/api/games", {"game": "petite", "seat": "ab"[seed % 2], "level": 1, "seed": seed}
                )
                gid = v["id"]
                while True:
                    v = wait_turn(b, gid, timeout=120)
                    if v["over"]:
                        finished.append(gid)
                        return
                    status, v = b.post(f"/api/games/{gid}/moves", {"move": v["legal"][0]["move"]})
                    if status != 200:
                        errors.append(str(v))
                        return
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(repr(exc))

        threads = [threading.Thread(target=one, args=(s,)) for s in range(20)]
        for t in threads:
            t.start()
        # the board answers other requests meanwhile
        answered = 0
        while any(t.is_alive() for t in threads):
            status, _ = b.get("/api/position", bpn="petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3")
            answered += status == 200
            time.sleep(0.1)
        for t in threads:
            t.join()
        assert not errors, errors[:3]
        assert len(finished) == 20 and answered > 0
    finally:
        b.stop()


def play_api_deal(b: Board, gid: str) -> dict:
    while True:
        v = wait_turn(b, gid)
        if v["over"]:
            return v
        status, v = b.post(f"/api/games/{gid}/moves", {"move": v["legal"][-1]["move"]})
        assert status == 200, v


def test_the_same_cards_with_the_seats_swapped_compare_the_results(tmp_path: Path) -> None:
    games = tmp_path / "games"
    b = Board("--games", str(games))
    try:
        _, first = b.post("/api/games", {"game": "petite", "seat": "a", "level": 1, "seed": 44})
        end = play_api_deal(b, first["id"])
        assert "comparison" not in end
        _, second = b.post(f"/api/games/{first['id']}/swap", {})
        assert second["you"] == "b"
        end = play_api_deal(b, second["id"])
        then = table_of(games, first["id"]).position(0).outcome()
        now = table_of(games, second["id"]).position(0).outcome()
        assert end["comparison"] == {
            "seat": "a",
            "deal": 1,
            "you": int(then.margin(0)),
            "engine": int(now.margin(0)),
        }
        # the link between the two games survives a restart
        b.stop()
        b = Board("--games", str(games))
        assert wait_turn(b, second["id"])["comparison"] == end["comparison"]
    finally:
        b.stop()


def test_an_abandoned_games_thinking_is_cancelled_and_resumes_when_asked(tmp_path: Path) -> None:

    from solver.board.jobs import Quotas

    b = ThreadBoard(Quotas(max_running=2, max_seconds=30, abandon_seconds=1), games_dir=tmp_path / "games")
    try:
        # the master thinks three seconds a move, and the engine leads: its move starts at once
        status, v = b.post("/api/games", {"game": "brisque", "seat": "b", "level": 5, "seed": 3})
        assert status == 201 and v["thinking"]
        games = b.app.state.games
        job = games.jobs.jobs[games.tasks[v["id"], "engine_move"]]
        end = time.monotonic() + 10
        while job.state == "running" and time.monotonic() < end:
            time.sleep(0.1)  # (nobody asks for the game)
        assert job.state == "cancelled" and "abandoned" in (job.error or "")
        v = wait_turn(b, v["id"])  # asked again: the engine thinks again, and plays
        assert v["turn"] == "you" and v["moves_played"] >= 1
    finally:
        b.stop()


def test_a_failing_engine_is_tried_again_after_a_delay_that_doubles(tmp_path: Path) -> None:
    import os
    import signal

    from solver.board.games import retry_delay
    from solver.board.jobs import Quotas

    b = ThreadBoard(Quotas(max_running=2, max_seconds=30), games_dir=tmp_path / "games")
    try:
        status, v = b.post("/api/games", {"game": "brisque", "seat": "b", "level": 5, "seed": 3})
        assert status == 201 and v["thinking"]
        gid, games = v["id"], b.app.state.games
        for failures in (1, 2):
            job = games.jobs.jobs[games.tasks[gid, "engine_move"]]
            os.kill(job.process.pid, signal.SIGKILL)  # (a worker killed, as for its memory)
            end = time.monotonic() + 10
            while job.state == "running" and time.monotonic() < end:
                time.sleep(0.05)
            assert job.state == "failed"
            status, v = b.get(f"/api/games/{gid}")
            assert v["thinking"] and v["engine_error"]
            assert 0 < v["engine_retry_in"] <= retry_delay(failures)
            assert (gid, "engine_move") not in games.tasks  # (not tried again at once)
            time.sleep(retry_delay(failures) + 0.1)
            status, v = b.get(f"/api/games/{gid}")
            assert (gid, "engine_move") in games.tasks  # (tried again once the delay is over)
    finally:
        b.stop()


def test_games_waiting_for_a_worker_are_served_first_come_first_served(tmp_path: Path) -> None:

    from solver.board.jobs import Quotas

    b = ThreadBoard(Quotas(max_running=1, max_seconds=30), games_dir=tmp_path / "games")
    try:
        games = b.app.state.games
        started: list[str] = []  # the games in the order the worker went to them
        real = games.jobs.start_task

        def start_task(kind, payload):  # (the game served is the head of the queue)
            job = real(kind, payload)
            started.append(games.waiting[0])
            return job

        games.jobs.start_task = start_task
        ids = []
        for seed in (1, 2, 3):  # (the engine leads in each: the first takes the one worker)
            status, v = b.post("/api/games", {"game": "brisque", "seat": "b", "level": 3, "seed": seed})
            assert status == 201 and v["thinking"]
            ids.append(v["id"])
        first, second, third = ids
        assert started == [first] and list(games.waiting) == [second, third]
        wait_turn(b, first)  # the first game's move played: the worker goes to the game that came next
        assert started == [first, second] and list(games.waiting) == [third]
        second_move = games.jobs.get(games.tasks[second, "engine_move"])
        b.get(f"/api/games/{third}")  # (the third asks first now: it still waits its turn)
        # the third has the worker only if the second's move is already made (a worker is
        # busy while its process thinks, not until the page collects the move)
        assert (third, "engine_move") not in games.tasks or second_move.state == "done"
        assert wait_turn(b, third)["turn"] == "you"  # and it is served in its turn
        # (a game's engine may move twice in a row, a declaration then its lead: served anew)
        assert list(dict.fromkeys(started)) == [first, second, third], (ids, started)
    finally:
        b.stop()


def test_an_engine_that_cannot_start_fails_its_own_game_only(tmp_path: Path) -> None:

    from solver.board.jobs import Quotas

    b = ThreadBoard(Quotas(max_running=2, max_seconds=30), games_dir=tmp_path / "games")
    try:
        games = b.app.state.games
        real = games.jobs.start_task
        failing = {"left": 1}

        def start_task(kind, payload):  # (the first start fails as a full process table would)
            if failing["left"]:
                failing["left"] -= 1
                raise OSError(11, "Resource temporarily unavailable")
            return real(kind, payload)

        games.jobs.start_task = start_task
        status, v = b.post("/api/games", {"game": "petite", "seat": "b", "level": 1, "seed": 1})
        assert status == 201 and v["engine_error"].startswith("the engine could not start")
        status, w = b.post("/api/games", {"game": "petite", "seat": "b", "level": 1, "seed": 2})
        assert status == 201 and "engine_error" not in w  # the other game is not held up
        assert wait_turn(b, w["id"])["turn"] == "you"
        assert wait_turn(b, v["id"])["turn"] == "you"  # and the first is tried again, and plays
    finally:
        b.stop()
