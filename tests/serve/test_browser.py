"""A real browser at a web table: Debian's chromium, headless, driven by Playwright, clicks through one
whole nigejozu game (the smallest) and sees the final scores.

Playwright's own browser download is not used (nor reachable here): the test points Playwright at
``/usr/bin/chromium``. Without chromium or playwright it fails under CI, skips elsewhere, with one line
saying how to install them.
"""
from __future__ import annotations

import re
from typing import Iterator

import pytest

from tests.serve.helpers import headless_chromium, uvicorn_serving


@pytest.fixture()
def server() -> Iterator[str]:
    from yuugi.training.serve import create_app

    with uvicorn_serving(create_app(games=["nigejozu"], seed=2)) as url:
        yield url


def test_chromium_plays_a_whole_nigejozu_game(server: str) -> None:
    with headless_chromium() as browser:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/?game=nigejozu")
        page.wait_for_function("document.querySelectorAll('#level option').length > 0")
        page.select_option("#level", "random")
        page.select_option("#seat", "0")
        page.click("#start")
        page.wait_for_url(re.compile(r".*/t/[^/]+$"))
        clicks = reloaded = 0
        while True:
            page.wait_for_selector("button.move:not([disabled]), #scores:not([hidden])", timeout=60_000)
            if page.is_visible("#scores"):
                break
            svg = page.inner_html("#picture")
            assert svg.startswith("<svg"), svg[:80]
            page.click("button.move:not([disabled]) >> nth=0")
            clicks += 1
            if clicks == 5 and not reloaded:  # a reload resumes the table
                url = page.url
                page.wait_for_function("document.querySelectorAll('#log li').length > 0")
                page.reload()
                assert page.url == url
                reloaded = 1
            assert clicks < 500, "the game did not end"
        text = page.inner_text("#scores")
        assert "final scores" in text
        scores = page.query_selector_all("#scores li.score")
        assert len(scores) == 2 and re.search(r"[+-]?\d", scores[0].inner_text())
        assert page.inner_text("#status") == "the game is over"
        assert not errors, errors
        assert clicks > 5 and reloaded
