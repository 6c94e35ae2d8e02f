"""A real browser at a web table: Debian's chromium, headless, driven by Playwright, clicks through one
whole game of each game that uses the common table page (nigejozu, 鬼ヶ島 momotaro with three players,
Ninja Slayer) to the final scores. (ninja daifugō has a screen of its own: test_daifugo_browser.py.)

Every decision is one click on one of the offered buttons (the legal moves): a bid, a card to play, a
target, a province: the choice is the test's own seeded random draw among them, so a game is never
stuck on a move the first button always makes. Halfway the page is reloaded, which resumes the table.
At the end the page's scores must be the server's, for every seat.

Playwright's own browser download is not used (nor reachable here): the test points Playwright at
``/usr/bin/chromium``. Without chromium or playwright it fails under CI, skips elsewhere, with one line
saying how to install them.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

import numpy as np
import pytest

from tests.serve.helpers import headless_chromium, uvicorn_serving

# game -> (rule options of the server, the person's seat, players)
GAMES = {
    "nigejozu": ({}, 0, 2),
    "momotaro": ({"num_players": 3}, 1, 3),
    "ninja_slayer": ({}, 0, 2),
}
MAX_CLICKS = 600


@pytest.fixture(params=list(GAMES))
def served(request: pytest.FixtureRequest) -> Iterator[tuple[str, str, Any]]:
    from yuugi.training.serve import create_app

    game = request.param
    app = create_app(games=[game], rules=GAMES[game][0], seed=2)
    with uvicorn_serving(app) as url:
        yield game, url, app


def test_chromium_plays_a_whole_game_to_its_scores(served: tuple[str, str, Any]) -> None:
    game, server, app = served
    _, seat, players = GAMES[game]
    rng = np.random.default_rng(5)
    with headless_chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + f"/?game={game}")
        page.wait_for_function("document.querySelectorAll('#level option').length > 0")
        assert page.locator("#seat option").count() == players
        page.select_option("#level", "random")
        page.select_option("#seat", str(seat))
        page.click("#start")
        # the first table of a game may compile its rules (numba, minutes on a cold cache)
        page.wait_for_url(re.compile(r".*/t/[^/]+$"), timeout=600_000)
        table_id = page.url.rsplit("/", 1)[-1]
        clicks = reloaded = 0
        while True:
            page.wait_for_selector("button.move:not([disabled]), #scores:not([hidden])", timeout=60_000)
            if page.is_visible("#scores"):
                break
            svg = page.inner_html("#picture")
            assert svg.startswith("<svg"), svg[:80]
            assert page.inner_text("#status") == "your move"
            offered = page.locator("button.move:not([disabled])").count()
            page.click(f"button.move:not([disabled]) >> nth={int(rng.integers(offered))}")
            clicks += 1
            if clicks == 5 and not reloaded:  # a reload resumes the table
                url = page.url
                page.wait_for_function("document.querySelectorAll('#log li').length > 0")
                page.reload()
                assert page.url == url
                reloaded = 1
            assert clicks < MAX_CLICKS, f"{game}: the game did not end after {MAX_CLICKS} clicks"
        session = app.state.tables.get(table_id)
        assert session.over, "the page shows final scores only when the server's game is over"
        assert "final scores" in page.inner_text("#scores")
        assert page.inner_text("#status") == "the game is over"
        assert page.locator("button.move").count() == 0, "no move is offered once the game is over"
        scores = page.locator("#scores li.score")
        assert scores.count() == players
        shown = [float(re.search(r":\s*([+-]?\d+(?:\.\d+)?)$", scores.nth(p).inner_text()).group(1))
                 for p in range(players)]
        assert shown == pytest.approx([float(x) for x in session.totals], abs=1e-4), "the page's scores are the server's"
        assert page.locator("#scores li.score.mine").get_attribute("data-seat") == str(seat)
        assert not errors, errors
        assert clicks > 5 and reloaded
