"""The daifugō screen in a real browser (Debian's chromium, headless, driven by Playwright).

* The 道場 in the lobby raises two ninjutsu with 修行ポイント (the rank stays: it follows the points
  earned); the lobby then chooses the school and those ninjutsu at their levels: the table's seat-0
  loadout, shown as ninjutsu buttons with cost, uses left and level, against ジライヤ, お館様 and モコ.
* A scripted position (a ♠ lock in force, the four 9s in hand): the declaration, the lock banner with
  the board lit, ♠7 clicked, then the four 9s: the 革命 effect and the 革命中 marker, the "+N" pop-ups.
* A scripted exchange (game 2 of 2): the give button stays off until two cards are picked; then the
  whole game is played by clicking to the series' end and its final scores; the career file holds the
  game's 修行ポイント afterwards, and the page's reset starts a new career.

Without chromium or playwright it fails under CI, skips elsewhere, with one line saying how to install
them (as tests/serve/test_browser.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import httpx2 as httpx
import pytest

from tests.serve.helpers import headless_chromium, uvicorn_serving
from tests.serve.daifugo_positions import SERIES_RULES, exchange, lock_then_revolution
from yuugi.envs.ninja_daifugo.config import D_COSTLY_JUTSU
from yuugi.training.serve.career import NUMBERS, Career



@pytest.fixture(scope="module")
def career_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("career") / "career.sqlite3"


@pytest.fixture(scope="module")
def server(career_file: Path) -> Iterator[str]:
    from yuugi.training.serve import create_app

    app = create_app(games=["ninja_daifugo"], rules=SERIES_RULES, positions=True, level="easy", career=career_file)
    with uvicorn_serving(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium() as b:
        yield b


def open_page(browser: Any) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def scripted_table(server: str, position: dict[str, Any]) -> str:
    r = httpx.post(server + "/api/tables", json={"game": "ninja_daifugo", "level": "easy", "seat": 0, "seed": 1,
                                                 "position": position}, timeout=60)
    assert r.status_code == 200, r.text
    return server + r.json()["url"]


def after_move(page: Any, turn: str) -> None:
    """Wait for the table's answer to a click: a later turn, or the end."""
    page.wait_for_function(f"document.body.dataset.turn !== '{turn}'", timeout=30_000)


def click_and_wait(page: Any, selector: str) -> None:
    turn = page.evaluate("document.body.dataset.turn")
    page.click(selector)
    after_move(page, turn)


def dojo_up(page: Any, jutsu: str, held_after: int) -> None:
    """Raise ``jutsu`` one level in the 道場 and wait until the page shows the points that leaves (the page
    redraws after the server's answer: waiting for any change could see the previous click's)."""
    page.click(f'.dojo-up[data-jutsu="{jutsu}"]')
    page.wait_for_function(f"document.getElementById('career-line').dataset.held === '{held_after}'")


def test_dojo_and_lobby_loadout_become_the_ninjutsu_buttons(server: str, browser: Any, career_file: Path) -> None:
    # raiton to Lv3 and henge to Lv5 cost (level 1 unlocks):
    need_ = sum(NUMBERS["level_cost"][lv] for lv in (1, 2, 3)) + sum(NUMBERS["level_cost"][lv] for lv in range(1, 6))
    first = NUMBERS["points_by_place"][0]
    wins = -(-need_ // first)
    seeded = Career(career_file)
    for k in range(wins):  # the career of someone who won that many games already
        seeded.record_game("earlier", k, 1)
    seeded.close()
    earned = wins * first
    page, errors = open_page(browser)
    try:
        page.goto(server + "/?game=ninja_daifugo")
        page.wait_for_selector("#dojo:not([hidden]) .dojo-up")
        assert page.get_attribute("#career-line", "data-earned") == str(earned)
        assert page.is_disabled("#jutsu-raiton"), "raiton is not unlocked yet"
        held = earned
        for jutsu, levels in (("raiton", (1, 2, 3)), ("henge", (1, 2, 3, 4, 5))):
            for level in levels:
                held -= NUMBERS["level_cost"][level]
                dojo_up(page, jutsu, held)
        assert page.get_attribute("#career-line", "data-held") == str(earned - need_)
        assert page.get_attribute("#career-line", "data-earned") == str(earned)
        rank = [name for least, name in NUMBERS["ranks"] if earned >= least][-1]
        assert f"忍者ランク {rank}" in page.inner_text("#career-line"), "spending never lowers the rank"
        assert page.inner_text('.dojo-up[data-jutsu="henge"]') == "MAX"
        # the loadout offers each ninjutsu up to the level reached: raiton Lv1-3, henge Lv1-5
        # (the lobby redraws after each level-up's answer: wait for the last one, henge's)
        page.wait_for_function("document.querySelectorAll('#jlevel-henge option').length === 5")
        assert page.locator("#jlevel-raiton option").count() == 3
        assert page.is_disabled("#seat") and page.input_value("#seat") == "0"
        page.select_option("#level", "random")
        page.select_option("#school", "rai")
        for name in ("ashidome", "shuriken"):  # the default loadout: unequip it
            if page.is_checked(f"#jutsu-{name}"):
                page.uncheck(f"#jutsu-{name}")
        page.check("#jutsu-raiton")
        page.select_option("#jlevel-raiton", "3")
        page.check("#jutsu-henge")
        page.select_option("#jlevel-henge", "4")
        assert page.is_disabled("#jutsu-ashidome"), "a third ninjutsu must not be equippable"
        assert page.is_disabled("#gokui"), "極意 needs a ninjutsu at level 5"
        page.select_option("#jlevel-henge", "5")
        page.check("#gokui")
        page.click("#start")
        page.wait_for_url(re.compile(r".*/t/[^/]+$"))
        page.wait_for_selector("#jutsu .jutsu-card")
        names = page.inner_text("#opponents")
        for cpu in ("ジライヤ", "お館様", "モコ"):
            assert cpu in names
        raiton = page.inner_text('#jutsu .jutsu-card[data-jutsu="raiton"]')
        henge = page.inner_text('#jutsu .jutsu-card[data-jutsu="henge"]')
        # raiton: base cost 4, Lv3 = 2 uses; henge: base cost 2 - 1 at Lv5, 3 uses (rules file §2.1); the
        # game's declaration D7 (忍法は高くつくぞ) adds 1 to every cost: the lobby's table is dealt from a random seed
        declared = int(re.search(r"D(\d+)", page.inner_text("#declaration")).group(1))
        extra = 1 if declared == D_COSTLY_JUTSU else 0
        assert "Lv3" in raiton and f"コスト {4 + extra}" in raiton and "残り 2 回" in raiton, raiton
        assert "Lv5" in henge and f"コスト {1 + extra}" in henge and "残り 3 回" in henge, henge
        assert page.locator("#jutsu .jutsu-card").count() == 2
        assert "雷流" in page.inner_text("#me-note")
        # 極意: one point to start with; only the person's own plays change it before their first turn
        assert page.inner_text("#me-points") == "忍法ポイント 1"
        assert "お館様の宣言" in page.inner_text("#declaration")
        assert not errors, errors
    finally:
        page.close()


def test_lock_banner_then_a_revolution(server: str, browser: Any) -> None:
    page, errors = open_page(browser)
    try:
        page.goto(scripted_table(server, lock_then_revolution()))
        page.wait_for_selector('#hand .card[data-card="S7"].playable')
        assert "皆の者、存分に戦え" in page.inner_text("#declaration")
        assert page.is_visible("#declaration-overlay"), "the declaration is shown big at the game's start"
        assert page.inner_text("#lock-banner") == "🔒 ♠ 縛り中"
        assert "locked" in page.get_attribute("#board", "class")
        assert page.is_hidden("#revolution-marker")
        # under the ♠ lock only ♠ singles above 6 answer ♠6: ♠7 and ♠9 (the other 9s are dimmed)
        playable = page.eval_on_selector_all("#hand .card.playable", "cs => cs.map(c => c.dataset.card)")
        assert playable == ["S7", "S9"], playable
        hand = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
        assert hand == ["H3", "C4", "D6", "S7", "S9", "H9", "D9", "C9"], hand  # weak to strong
        page.click('#hand .card[data-card="S7"]')
        assert page.is_enabled("#play")
        click_and_wait(page, "#play")
        assert page.is_visible(".pop"), "the +1 of the single"
        assert page.is_hidden("#lock-banner") and "locked" not in page.get_attribute("#board", "class")
        for card in ("S9", "H9", "D9", "C9"):
            page.click(f'#hand .card[data-card="{card}"]')
        assert "9" in page.inner_text("#play")
        click_and_wait(page, "#play")
        page.wait_for_selector("#revolution-effect:not([hidden])", timeout=5000)
        assert page.inner_text("#revolution-effect") == "革命!"
        assert page.is_visible("#revolution-marker") and page.inner_text("#revolution-marker") == "革命中"
        hand = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
        assert hand == ["D6", "C4", "H3"], f"under revolution the hand runs 6 4 3 (weak to strong): {hand}"
        assert not errors, errors
    finally:
        page.close()


def play_by_clicking(page: Any, max_clicks: int = 300) -> int:
    """Click legal moves until the series is over; returns the clicks."""
    clicks = 0
    while clicks < max_clicks:
        page.wait_for_selector("#scores:not([hidden]), #hand .card.playable, #pass:enabled", timeout=30_000)
        if page.is_visible("#scores"):
            return clicks
        turn = page.evaluate("document.body.dataset.turn")
        if page.is_visible("#exchange"):
            need_ = 1 if "手裏剣" in page.inner_text("#exchange-text") else int(
                re.search(r"(\d) 枚選んで", page.inner_text("#exchange-text")).group(1))
            for k in range(need_):
                page.click(f"#hand .card.playable >> nth={k}")
            page.click("#confirm-exchange")
        elif page.locator("#hand .card.playable").count():
            page.click("#hand .card.playable >> nth=0")
            if not page.is_enabled("#play"):
                if page.locator(".choice-play").count() == 0:
                    page.click(".choice >> nth=0")
                if page.locator(".choice-play").count():
                    page.click(".choice-play >> nth=0")
                else:
                    page.click("#play")
            else:
                page.click("#play")
        else:
            page.click("#pass")
        after_move(page, turn)
        clicks += 1
    raise AssertionError("the series did not end")


def test_exchange_then_the_whole_game_by_clicking(server: str, browser: Any, career_file: Path) -> None:
    before = Career(career_file).state()
    page, errors = open_page(browser)
    try:
        page.goto(scripted_table(server, exchange()))
        page.wait_for_selector("#exchange:not([hidden])")
        assert "忍法ポイントは倍じゃ" in page.inner_text("#declaration")
        assert "モコ" in page.inner_text("#exchange-text") and "2 枚" in page.inner_text("#exchange-text")
        assert page.is_disabled("#confirm-exchange")
        page.click('#hand .card[data-card="S3"]')
        assert page.is_disabled("#confirm-exchange"), "one card picked of two: the exchange cannot be confirmed"
        page.click('#hand .card[data-card="S4"]')
        assert page.is_enabled("#confirm-exchange")
        page.click('#hand .card[data-card="S5"]')  # a third card is refused while two are picked
        picked = page.eval_on_selector_all("#hand .card.selected", "cs => cs.map(c => c.dataset.card)")
        assert picked == ["S3", "S4"], picked
        click_and_wait(page, "#confirm-exchange")
        assert page.is_hidden("#exchange")
        hand = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
        assert "S3" not in hand and "S4" not in hand
        assert any("gives ♠3" in line for line in page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)"))
        clicks = play_by_clicking(page)
        assert clicks > 3
        assert "final scores" in page.inner_text("#scores")
        assert page.locator("#scores li.score").count() == 4
        assert page.is_visible("#series") and "第 2 局 結果" in page.inner_text("#series")
        assert page.inner_text("#status") == "the game is over"
        # the career file holds the game: its place's 修行ポイント, shown at the end of the game
        place = int(re.search(r"(\d)位\s+\S+\s+あなた", page.inner_text("#series")).group(1))
        after = Career(career_file).state()
        assert after["earned"] == before["earned"] + NUMBERS["points_by_place"][place - 1]
        assert after["games"] == before["games"] + 1
        assert f"修行ポイント +{NUMBERS['points_by_place'][place - 1]}" in page.inner_text("#career-earned")
        # the reset, from the lobby's page, after saying yes
        page.on("dialog", lambda d: d.accept())
        page.goto(server + "/?game=ninja_daifugo")
        page.wait_for_selector("#dojo:not([hidden]) .dojo-up")
        page.click("#career-reset")
        page.wait_for_function("document.getElementById('career-line').dataset.earned === '0'")
        assert Career(career_file).state()["earned"] == 0
        assert not errors, errors
    finally:
        page.close()


def test_miyako_ochi_is_shown_when_it_strikes(server: str, browser: Any) -> None:
    """Seat 1 was 大富豪; the person goes out first with ♣2, so seat 1 falls to last at once (都落ち)."""
    from yuugi.envs.ninja_daifugo.cards import card_name

    rest = [card_name(c) for c in range(53) if card_name(c) != "C2"]
    k = len(rest) // 3
    position = {"hands": [["C2"], rest[:k], rest[k:2 * k], rest[2 * k:]], "to_play": 0, "game_index": 1,
                "titles": ["fugo", "daifugo", "hinmin", "daihinmin"], "miyako_candidate": 1}
    page, errors = open_page(browser)
    try:
        page.goto(scripted_table(server, position))
        page.wait_for_selector('#hand .card[data-card="C2"].playable')
        assert "都落ち候補" in page.inner_text('.seat-panel[data-seat="1"]')
        page.click('#hand .card[data-card="C2"]')
        page.click("#play")
        page.wait_for_selector("#miyako-banner:not([hidden])", timeout=30_000)
        assert "都落ち" in page.inner_text("#miyako-banner") and "ジライヤ" in page.inner_text("#miyako-banner")
        # the person is out, the CPUs play the game to its end: the series' last game
        page.wait_for_selector("#scores:not([hidden])", timeout=30_000)
        fallen = page.inner_text('.seat-panel[data-seat="1"]')
        assert "都落ち" in fallen and "4位" in fallen, fallen
        assert not errors, errors
    finally:
        page.close()
