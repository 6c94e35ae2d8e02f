"""Driving a web table through its websocket, as a browser would."""
from __future__ import annotations

from typing import Any

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
