"""What the browser receives never tells a seat more than it may see.

Over whole games of every game, played through the websocket:

* every message equals the message built from a state whose hidden arrays were drawn again
  (``resample_hidden``: other hands, deck orders, sealed bids, future chance), so nothing hidden is in
  the picture, the legal moves or anything else of it;
* every log line of a move equals the line of the same move in resampled states that the seat cannot
  tell apart (the same observation before and after);
* the moves the rules keep secret from the seat (another seat's card given in the daifugō exchange,
  another seat's sealed bid in momotaro) are told in words that do not depend on which move it was:
  every other legal action that leaves the seat's observation the same gets the same log line.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.serve.helpers import new_table
from yuugi.agents.search.resamplers import resampler

GAMES = ["nigejozu", "ninja_daifugo", "momotaro", "ninja_slayer"]


def same_obs(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_obs(a[k], b[k]) for k in a)
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def resampled(game_name: str, game: Any, st: Any, seat: int, rng: np.random.Generator) -> Any:
    """``st`` with everything ``seat`` cannot see drawn again, future chance kept (so steps are comparable)."""
    out = resampler(game_name)(game, st, seat, rng)
    out.rng_key[:] = st.rng_key
    out.rng_counter[:] = st.rng_counter
    return out


def secret_move(game_name: str, game: Any, before: Any, seat: int) -> bool:
    """Whether the move about to be made in ``before`` is one the rules keep from ``seat``."""
    actor = int(before.to_play[0])
    if actor == seat:
        return False
    if game_name == "ninja_daifugo":
        from yuugi.envs.ninja_daifugo.state import PHASE_EXCHANGE

        return int(before.phase[0]) == PHASE_EXCHANGE
    if game_name == "momotaro":
        from yuugi.envs.momotaro.state import PHASE_ADD, PHASE_BID

        return int(before.phase[0]) in (PHASE_BID, PHASE_ADD)
    return False  # nigejozu is all public; ninja_slayer's choices are seen (its hands: the resample check)


@pytest.mark.parametrize("game_name", GAMES)
def test_messages_and_log_show_only_what_the_seat_sees(game_name: str, monkeypatch: pytest.MonkeyPatch,
                                                        make_client: Any) -> None:
    from yuugi.training.serve.tables import TableSession

    moves: list[tuple[Any, int, Any]] = []
    narrate = TableSession.narrate

    def recording(self: Any, before: Any, action: int, after: Any) -> list[str]:
        moves.append((before.copy(), int(action), after.copy()))
        return narrate(self, before, action, after)

    monkeypatch.setattr(TableSession, "narrate", recording)
    app_client = make_client(games=[game_name])
    players = app_client.get("/api/games").json()["games"][0]["players"]
    seat = 1 % players
    table_id = new_table(app_client, game_name, level="easy", seat=seat, seed=11)
    session = app_client.app.state.tables.get(table_id)
    game = session.game
    rng = np.random.default_rng(5)
    checked_messages = 0
    with app_client.websocket_connect(f"/ws/{table_id}") as ws:
        msg = ws.receive_json()
        while True:
            assert msg == session.message()  # what was sent is the message of the table now
            for _ in range(2):
                other = resampled(game_name, game, session.state, seat, rng)
                assert session.message(other) == msg, "a message changed with the hidden arrays"
            checked_messages += 1
            if msg["over"]:
                break
            action = msg["moves"][int(rng.integers(len(msg["moves"])))][0]
            ws.send_json({"type": "move", "action": action, "turn": msg["turn"]})
            msg = ws.receive_json()
    assert checked_messages > 3

    compared = secrets = 0
    for before, action, after in moves:
        told = narrate(session, before, action, after)
        obs_before, obs_after = game.observe(before, seat), game.observe(after, seat)
        secret = secret_move(game_name, game, before, seat)
        secrets += secret
        candidates = [before] + [resampled(game_name, game, before, seat, rng) for _ in range(2)]
        for start in candidates:
            if not same_obs(game.observe(start, seat), obs_before):
                continue
            others = np.flatnonzero(game.legal_mask(start)[0]) if secret else [action]
            for b in others:
                if start is before and int(b) == action:
                    continue
                if not game.legal_mask(start)[0, int(b)]:
                    continue
                st = start.copy()
                game.step(st, np.array([int(b)]))
                if same_obs(game.observe(st, seat), obs_after):
                    assert narrate(session, start, int(b), st) == told, (
                        f"{game_name}: the log tells apart moves seat {seat} cannot: {told}")
                    compared += 1
    assert compared > 0, "no indistinguishable move was found to compare: the check checked nothing"
    if game_name in ("ninja_daifugo", "momotaro"):
        assert secrets > 0, "the game played had no secret move to check"
