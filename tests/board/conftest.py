"""The fixtures of the board's tests: a ``brisque serve`` for a module's tests, and
Chromium driven through Playwright (Debian's build: no browser download), with a page that
fails its module's tests on any script error."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from board_servers import CHROMIUM, Board


@pytest.fixture(scope="module")
def board() -> Iterator[Board]:
    b = Board("--max-running", "2", "--max-seconds", "20")
    yield b
    b.stop()


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no Chromium here (apt-get install chromium; .ci/run does)")
    sync = pytest.importorskip("playwright.sync_api")
    with sync.sync_playwright() as pw:
        br = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield br
        br.close()


@pytest.fixture(scope="module")
def page(board, browser):
    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert not errors, errors
