"""yuugi serve through its websocket: whole games of every game, refused moves, reload, several tables."""
from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from tests.serve.helpers import new_table, play_to_end

GAMES = ["nigejozu", "ninja_daifugo", "momotaro", "ninja_slayer"]


@pytest.mark.parametrize("game", GAMES)
def test_whole_game_to_the_end(game: str, make_client: Any) -> None:
    c = make_client(games=[game])
    listed = c.get("/api/games").json()["games"]
    assert [g["name"] for g in listed] == [game] and "random" in listed[0]["levels"]
    players = listed[0]["players"]
    seat = players - 1  # not the first seat: the CPUs open
    table = new_table(c, game, level="random", seat=seat, seed=7)
    seen: list[dict] = []
    with c.websocket_connect(f"/ws/{table}") as ws:
        end = play_to_end(ws, ws.receive_json(), np.random.default_rng(1), seen=seen)
    assert end["over"] and end["moves"] == [] and end["to_play"] is None
    assert len(end["scores"]) == players and all(isinstance(s, float) for s in end["scores"])
    assert end["log"], "the log tells the moves"
    for msg in seen:
        assert msg["svg"].startswith("<svg") and msg["seat"] == seat and msg["table"] == table
        assert (msg["scores"] is None) == (not msg["over"])
        turns = [m["turn"] for m in seen]
    assert turns == sorted(turns) and len(set(turns)) == len(turns)


def test_pages_are_served(make_client: Any) -> None:
    c = make_client(games=["nigejozu"])
    assert "new-table" in c.get("/").text
    assert "/static/table.js" in c.get("/t/anything").text
    for name in ("table.js", "lobby.js", "style.css"):
        assert c.get(f"/static/{name}").status_code == 200


def test_bad_table_requests_are_answered_not_crashed(make_client: Any) -> None:
    c = make_client(games=["nigejozu"])
    assert c.post("/api/tables", content=b"{junk").status_code == 400
    assert c.post("/api/tables", json=[1, 2]).status_code == 400
    assert "unknown game" in c.post("/api/tables", json={"game": "chess"}).json()["error"]
    assert "unknown level" in c.post("/api/tables", json={"game": "nigejozu", "level": "godlike"}).json()["error"]
    assert "seat must be" in c.post("/api/tables", json={"game": "nigejozu", "seat": 5}).json()["error"]
    assert c.post("/api/tables", json={"game": "nigejozu", "seat": "0"}).status_code == 400


def test_forged_stale_and_junk_moves_are_refused(make_client: Any) -> None:
    c = make_client(games=["nigejozu"])
    table = new_table(c, "nigejozu", seat=0, seed=3)
    with c.websocket_connect(f"/ws/{table}") as ws:
        msg = ws.receive_json()
        legal = {a for a, _ in msg["moves"]}
        illegal = next(a for a in range(1000) if a not in legal)
        turn = msg["turn"]
        forged = [
            "not json at all", "[1, 2]", "null", json.dumps({"type": "move"}),
            json.dumps({"type": "hello", "action": min(legal), "turn": turn}),
            json.dumps({"type": "move", "action": illegal, "turn": turn}),  # not legal now
            json.dumps({"type": "move", "action": -1, "turn": turn}),
            json.dumps({"type": "move", "action": str(min(legal)), "turn": turn}),
            json.dumps({"type": "move", "action": True, "turn": turn}),
            json.dumps({"type": "move", "action": 1.0 * min(legal), "turn": turn}),
            json.dumps({"type": "move", "action": min(legal), "turn": turn + 1}),  # a turn to come
            json.dumps({"type": "move", "action": min(legal), "turn": turn - 1}),  # an old turn
            json.dumps({"type": "move", "action": 10**30, "turn": turn}),
        ]
        for text in forged:
            ws.send_text(text)
            answer = ws.receive_json()
            assert answer["type"] == "refused" and answer["message"], (text, answer)
        # nothing changed, and the table still plays
        ws.send_json({"type": "move", "action": msg["moves"][0][0], "turn": turn})
        after = ws.receive_json()
        assert after["type"] == "state" and after["turn"] > turn
        # the move just played, sent again, is now for an old turn
        ws.send_json({"type": "move", "action": msg["moves"][0][0], "turn": turn})
        stale = ws.receive_json()
        assert stale["type"] == "refused" and "stale" in stale["message"]
        end = play_to_end(ws, after, np.random.default_rng(0))
        ws.send_json({"type": "move", "action": 0, "turn": end["turn"]})
        assert "over" in ws.receive_json()["message"]


def test_reload_resumes_the_table_and_unknown_tables_are_told(make_client: Any) -> None:
    c = make_client(games=["nigejozu"])
    table = new_table(c, "nigejozu", seat=1, seed=5)
    with c.websocket_connect(f"/ws/{table}") as ws:
        first = ws.receive_json()
        ws.send_json({"type": "move", "action": first["moves"][0][0], "turn": first["turn"]})
        second = ws.receive_json()
    with c.websocket_connect(f"/ws/{table}") as ws:  # the page reloaded: a new socket to the same table
        again = ws.receive_json()
    assert again == second
    with c.websocket_connect("/ws/nosuchtable") as ws:
        told = ws.receive_json()
    assert told["type"] == "error" and "no table" in told["message"]


def test_two_tables_at_once_and_two_tabs_on_one(make_client: Any) -> None:
    c = make_client(games=["nigejozu", "momotaro"])
    t1 = new_table(c, "nigejozu", seat=0, seed=1)
    t2 = new_table(c, "momotaro", seat=2, seed=2)
    assert t1 != t2
    rng = np.random.default_rng(3)
    with c.websocket_connect(f"/ws/{t1}") as a, c.websocket_connect(f"/ws/{t2}") as b, \
            c.websocket_connect(f"/ws/{t1}") as a2:
        ma, mb = a.receive_json(), b.receive_json()
        assert a2.receive_json() == ma
        assert ma["game"] == "nigejozu" and mb["game"] == "momotaro"
        while not (ma["over"] and mb["over"]):
            if not ma["over"]:
                a.send_json({"type": "move", "action": ma["moves"][int(rng.integers(len(ma["moves"])))][0],
                             "turn": ma["turn"]})
                ma = a.receive_json()
                assert a2.receive_json() == ma  # the other tab on the same table follows
            if not mb["over"]:
                b.send_json({"type": "move", "action": mb["moves"][int(rng.integers(len(mb["moves"])))][0],
                             "turn": mb["turn"]})
                mb = b.receive_json()
        assert ma["table"] == t1 and mb["table"] == t2
        assert len(ma["scores"]) == 2 and len(mb["scores"]) == 4


def test_free_port_on_localhost() -> None:
    from yuugi.training.serve.app import free_socket

    sock = free_socket()
    try:
        host, port = sock.getsockname()[:2]
        assert host == "127.0.0.1" and port > 0
    finally:
        sock.close()


def test_an_opponent_policy_plays_one_game(make_client: Any) -> None:
    from yuugi.agents.policy import RandomPolicy

    with pytest.raises(ValueError, match="one game"):
        make_client(opponent=RandomPolicy())
    mine = RandomPolicy()
    mine.name = "mine"  # type: ignore[attr-defined]  # a policy of the user's own, not a shipped level
    c = make_client(games=["nigejozu"], opponent=mine)
    assert c.get("/api/games").json()["games"][0]["levels"] == ["your policy"]
    table = new_table(c, "nigejozu", level="ignored", seat=0, seed=4)
    with c.websocket_connect(f"/ws/{table}") as ws:
        end = play_to_end(ws, ws.receive_json(), np.random.default_rng(0))
    assert end["over"] and end["who"] == ["you", "mine (your policy)"]


def test_a_search_level_plays_at_a_web_table(make_client: Any) -> None:
    """ninja_slayer's hard searches from the game state (act_state), as expert does: a web table asks it
    through that call and the game reaches its end."""
    c = make_client(games=["ninja_slayer"])
    table = new_table(c, "ninja_slayer", level="hard", seat=1, seed=3)
    with c.websocket_connect(f"/ws/{table}") as ws:
        end = play_to_end(ws, ws.receive_json(), np.random.default_rng(2))
    assert end["over"] and len(end["scores"]) == 2
