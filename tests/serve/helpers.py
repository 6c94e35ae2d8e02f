"""Driving a web table through its websocket, as a browser would."""
from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np


def client(**kw: Any) -> Any:
    """A TestClient of ``create_app(**kw)``, not yet entered: enter it (``with``) so that every websocket of
    a test runs on one event loop, as under uvicorn (a move is sent to every socket of its table)."""
    from starlette.testclient import TestClient

    from yuugi.training.serve import create_app

    return TestClient(create_app(**kw))


def new_table(c: Any, game: str, level: str = "random", seat: int = 0, seed: int | None = 0) -> str:
    r = c.post("/api/tables", json={"game": game, "level": level, "seat": seat, "seed": seed})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def play_to_end(ws: Any, first: dict[str, Any], rng: np.random.Generator, max_moves: int = 3000,
                seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Click random legal moves until the game is over; every state message is appended to ``seen``."""
    msg = first
    for _ in range(max_moves):
        assert msg["type"] == "state", msg
        if seen is not None:
            seen.append(msg)
        if msg["over"]:
            return msg
        assert msg["moves"], "not over, yet no move offered to the person (the CPUs should have played)"
        assert msg["to_play"] == msg["seat"]
        action = msg["moves"][int(rng.integers(len(msg["moves"])))][0]
        ws.send_json({"type": "move", "action": action, "turn": msg["turn"]})
        msg = ws.receive_json()
    raise AssertionError(f"game not over after {max_moves} moves")


CHROMIUM = Path("/usr/bin/chromium")
INSTALL_BROWSER = "apt-get install -y chromium && pip install playwright (the serve extra's browser test)"


@contextlib.contextmanager
def uvicorn_serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 and a free port, in a thread; yields its base URL."""
    import uvicorn

    from yuugi.training.serve.app import free_socket

    sock = free_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio"))
    thread = threading.Thread(target=lambda: asyncio.run(srv.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not srv.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def headless_chromium() -> Iterator[Any]:
    """Debian's chromium driven by Playwright; without them, fails under CI and skips elsewhere, in one line."""
    import pytest

    from tests.serve.conftest import need

    need(("playwright",), INSTALL_BROWSER)
    if not CHROMIUM.exists():
        line = f"no {CHROMIUM}: {INSTALL_BROWSER}"
        if os.environ.get("CI"):
            pytest.fail(line, pytrace=False)
        pytest.skip(line)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield browser
        finally:
            browser.close()
