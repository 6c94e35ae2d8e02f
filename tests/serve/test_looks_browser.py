"""The career's cosmetics in a real browser (Debian's chromium, headless, driven by Playwright): the 道場
sells a table colour and a card back for held points, the lobby wears the colour at once, the daifugō
table is drawn with them (the board's felt, the other seats' card backs), its picker switches them in
the middle of a game, and another game's table takes the colour too. The colours expected are the
catalogue's (NUMBERS["cosmetics"]), read by the browser's computed style, not by the page's own words.

Without chromium or playwright it fails under CI, skips elsewhere, with one line saying how to install
them (as tests/serve/test_browser.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import httpx2 as httpx
import pytest

from tests.serve.daifugo_positions import lock_then_revolution
from tests.serve.helpers import headless_chromium, uvicorn_serving
from yuugi.training.serve.career import NUMBERS, Career


def colours(kind: str, item: str) -> dict[str, str]:
    return next(e[3] for e in NUMBERS["cosmetics"][kind] if e[0] == item)


def price(kind: str, item: str) -> int:
    return next(e[2] for e in NUMBERS["cosmetics"][kind] if e[0] == item)


def rgb(hex_colour: str) -> str:
    """``#rrggbb`` as the browser's computed style writes it."""
    r, g, b = (int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.fixture()
def career_file(tmp_path: Path) -> Path:
    return tmp_path / "career.sqlite3"


@pytest.fixture()
def server(career_file: Path) -> Iterator[str]:
    from yuugi.training.serve import create_app

    app = create_app(games=["ninja_daifugo", "nigejozu"], positions=True, level="random", career=career_file)
    with uvicorn_serving(app) as url:
        yield url


def style(page: Any, selector: str, prop: str) -> str:
    return str(page.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}"))


def test_buy_and_switch_a_table_colour_and_a_card_back(server: str, career_file: Path) -> None:
    table, back = ("table_colour", "ai"), ("card_back", "kon")
    seeded = Career(career_file)
    k = 0
    while seeded.state()["held"] < price(*table) + price(*back):  # the career of someone who won a few games
        seeded.record_game("earlier", k, 1)
        k += 1
    earned = seeded.state()["earned"]
    seeded.close()
    with headless_chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/?game=ninja_daifugo")
        row = '.shop-row[data-kind="table_colour"][data-item="ai"]'
        page.wait_for_selector(f"{row} .shop-buy:enabled")
        page.wait_for_function("document.body.dataset.tableColour === 'midori'")
        assert style(page, "body", "backgroundColor") == rgb(colours("table_colour", "midori")["ground"])
        assert page.is_visible('.shop-row[data-kind="card_back"][data-item="kage"] .shop-buy'), "not owned: for sale"
        page.click(f"{row} .shop-buy")
        page.wait_for_selector(f"{row} .shop-choose:enabled")
        held = earned - price(*table)
        assert page.get_attribute("#career-line", "data-held") == str(held)
        assert page.get_attribute("#career-line", "data-earned") == str(earned), "spending never lowers the rank"
        page.click(f"{row} .shop-choose")
        page.wait_for_function("document.body.dataset.tableColour === 'ai'")
        assert style(page, "body", "backgroundColor") == rgb(colours(*table)["ground"])
        assert page.inner_text(f"{row} .shop-choose") == "使用中 in use"
        page.click('.shop-row[data-kind="card_back"][data-item="kon"] .shop-buy')
        page.wait_for_selector('.shop-row[data-kind="card_back"][data-item="kon"] .shop-choose:enabled')
        assert page.get_attribute("#career-line", "data-held") == str(held - price(*back))

        # a daifugō table: the board's felt is the colour worn (its edge is lit: a lock holds), the backs still
        # the free ones
        r = httpx.post(server + "/api/tables", json={"game": "ninja_daifugo", "level": "random", "seat": 0,
                                                     "seed": 1, "position": lock_then_revolution()}, timeout=60)
        assert r.status_code == 200, r.text
        page.goto(server + r.json()["url"])
        page.wait_for_selector('#hand .card[data-card="S7"].playable')
        page.wait_for_function("document.body.dataset.tableColour === 'ai'")
        assert style(page, "#board", "backgroundColor") == rgb(colours(*table)["felt"])
        kurenai = colours("card_back", "kurenai")["back"]
        assert rgb(kurenai) in style(page, ".back", "backgroundImage")
        # switched during the game, from the table's own picker: the card back, then the colour back to green
        assert page.locator("#look-card_back option").count() == 2, "the picker offers the owned backs only"
        page.select_option("#look-card_back", "kon")
        page.wait_for_function("document.body.dataset.cardBack === 'kon'")
        image = style(page, ".back", "backgroundImage")
        assert rgb(colours(*back)["back"]) in image and rgb(kurenai) not in image, image
        page.select_option("#look-table_colour", "midori")
        page.wait_for_function("document.body.dataset.tableColour === 'midori'")
        assert style(page, "#board", "backgroundColor") == rgb(colours("table_colour", "midori")["felt"])
        on_file = Career(career_file).state()["cosmetics"]
        assert on_file["chosen"] == {"table_colour": "midori", "card_back": "kon"}
        # the game goes on: a card still plays after the switch
        turn = page.evaluate("document.body.dataset.turn")
        page.click('#hand .card[data-card="S7"]')
        page.click("#play")
        page.wait_for_function(f"document.body.dataset.turn !== '{turn}'", timeout=30_000)

        # another game's table frames its picture with the colour worn
        page.select_option("#look-table_colour", "ai")
        page.wait_for_function("document.body.dataset.tableColour === 'ai'")
        r = httpx.post(server + "/api/tables", json={"game": "nigejozu", "level": "random", "seat": 0, "seed": 1},
                       timeout=60)
        page.goto(server + r.json()["url"])
        page.wait_for_url(re.compile(r".*/t/[^/]+$"))
        page.wait_for_function("document.body.dataset.tableColour === 'ai'")
        assert style(page, "#picture", "borderTopColor") == rgb(colours(*table)["edge"])
        assert style(page, "body", "backgroundColor") == rgb(colours(*table)["ground"])
        assert not errors, errors
