"""Regenerate the board's pictures in docs/: the analysis board with a puzzle file open
(docs/board.png), a deal in progress (docs/play.png), the review of a deal
(docs/review.png) and the play page on a phone (docs/play-phone.png).

Starts ``brisque play`` on a free port with a games folder of its own, drives Chromium
through Playwright, and stops the server.  Needs the extras ``board`` and ``test`` and a
Chromium (``apt-get install chromium``).

Run from the repository's root:
      python -m benchmarks.screenshots
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

DOCS = Path("docs")  # (run from the repository's root)


def main() -> None:
    games = tempfile.mkdtemp(prefix="brisque-shots-")
    server = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "play", "--no-browser", "--port", "0", "--games", games],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        found = re.search(r"http://127\.0\.0\.1:\d+", server.stderr.readline())
        assert found, "the server did not say where it is"
        base = found.group(0)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{base}/play?game=brisque&level=2&seed=2026&seat=a")
            page.click("#start")

            def ready() -> str:
                page.wait_for_function("document.body.dataset.thinking === 'no'", timeout=60000)
                return str(page.get_attribute("#status", "data-turn"))

            def click() -> None:
                before = page.evaluate("document.body.dataset.moves")
                page.locator("#hand button.playable, #actions button").first.click()
                page.wait_for_function(f"document.body.dataset.moves !== '{before}'", timeout=60000)

            for _ in range(5):
                ready()
                click()
            ready()
            page.screenshot(path=str(DOCS / "play.png"))
            while ready() == "you":
                click()
            page.click("#review-button")
            page.wait_for_selector("#review-rows tr", timeout=120000)
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(500)
            page.locator("#review").screenshot(path=str(DOCS / "review.png"))
            board = browser.new_page(viewport={"width": 1400, "height": 900})
            board.goto(f"{base}/")
            board.set_input_files("#file", str(DOCS.parent / "positions" / "brisque-endgames.bpd"))
            board.wait_for_function(
                "document.getElementById('verdict').dataset.verdict !== ''", timeout=60000
            )
            board.screenshot(path=str(DOCS / "board.png"))
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(f"{base}/play?game=briscan&level=1&seed=7&seat=a")
            phone.click("#start")
            phone.wait_for_function("document.body.dataset.thinking === 'no'", timeout=60000)
            phone.screenshot(path=str(DOCS / "play-phone.png"), full_page=True)
            browser.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(10)
        shutil.rmtree(games, ignore_errors=True)


if __name__ == "__main__":
    main()
