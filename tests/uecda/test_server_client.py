"""Our server and five clients in one process (threads, 127.0.0.1, an ephemeral port): games end to end
under rules="uecda", the standings, the replays; bad clients (disconnect, stall, garbage, illegal plays)
and the run still completes."""
from __future__ import annotations

import pytest

from yuugi.agents.heuristics.uecda_default import UecdaDefault
from yuugi.agents.policy import RandomPolicy
from yuugi.envs.faces.replay import final_state, load
from yuugi.training.uecda.server import ServerConfig, UecdaServer
from yuugi.training.uecda.standings import format_standings

from .peers import Thread, our_client, scripted_client

@pytest.fixture(autouse=True, scope="module")
def compiled():
    """Compile the preset's kernels before any timeout starts counting (minutes after an edit of the rules)."""
    import numpy as np
    from yuugi.envs import make_game

    game = make_game("ninja_daifugo", rules="uecda", series_games=2)
    st = game.init(np.array([3], dtype=np.uint64))
    st = game.from_position(game.to_position(st))
    game.observe(st, 0)
    game.step(st, np.array([int(np.flatnonzero(game.legal_mask(st)[0])[0])]))


def start_server(tmp_path, **overrides):
    settings = dict(port=0, games=3, timeout=5.0, wait=30.0, replay_dir=str(tmp_path / "replays"))
    config = ServerConfig(**{**settings, **overrides})
    lines: list[str] = []
    server = UecdaServer(config, log=lines.append)
    thread = Thread(server.run)
    thread.start()
    return server, thread, lines


def test_five_of_our_clients_play_three_games(tmp_path):
    server, thread, lines = start_server(tmp_path, games=3)
    policies = [UecdaDefault(), RandomPolicy(), UecdaDefault(), RandomPolicy(), UecdaDefault()]
    clients = [our_client(server.port, p, f"c{i}") for i, p in enumerate(policies)]
    records = thread.outcome()
    summaries = [c.outcome() for c in clients]

    # Every client saw three games; nobody's play was refused (random players test the rebuilt legal mask
    # against the server's: a play legal in the client's view but not in the game would be rejected).
    for s in summaries:
        assert s.games == 3
        assert s.rejected == [] and s.fallbacks == 0
    # The places a client tracked are the server's points (points = 6 - place), game by game.
    by_player = {s.player: s for s in summaries}
    assert sorted(by_player) == [0, 1, 2, 3, 4]
    for rec in records:
        assert rec.fault is None
        assert rec.points == [6 - p for p in by_player[rec.number].places]
    for game in range(3):
        assert sorted(rec.points[game] for rec in records) == [1, 2, 3, 4, 5]
    # Standings and the replay of the series.
    table = format_standings(records)
    assert all(f"c{i}" in table for i in range(5)) and "95% interval" in table
    assert len(server.replays) == 1
    record = load(server.replays[0])
    assert [p["name"] for p in record["players"]] == [rec.name for rec in records]
    final = final_state(record)  # replays every move, checking each is legal
    assert bool(final.terminated[0])


@pytest.mark.parametrize("behaviour", ["disconnect", "stall", "garbage", "illegal"])
@pytest.mark.parametrize("on_fault", ["replace", "forfeit"])
def test_a_bad_client_does_not_stop_the_run(tmp_path, behaviour, on_fault):
    server, thread, lines = start_server(tmp_path, games=2, timeout=2.0, on_fault=on_fault)
    good = [our_client(server.port, UecdaDefault(), f"good{i}") for i in range(2)]
    bad = scripted_client(server.port, "bad", behaviour)
    good += [our_client(server.port, UecdaDefault(), f"good{i}") for i in range(2, 4)]
    records = thread.outcome()
    for c in good:
        summary = c.outcome()
        assert summary.games == 2 and summary.rejected == []
    bad.outcome()
    for game in range(2):
        assert sorted(rec.points[game] for rec in records) == [1, 2, 3, 4, 5]
    culprit = next(rec for rec in records if rec.name == "bad")
    if behaviour == "illegal":
        assert culprit.fault is None  # refused plays are passes, not faults
    else:
        assert culprit.fault is not None and culprit.fault.startswith(on_fault)
        assert any("faulted" in line for line in lines)
    assert "bad" in format_standings(records)


def test_a_bad_profile_is_turned_away_and_the_seat_filled(tmp_path):
    import socket

    server, thread, lines = start_server(tmp_path, games=1)
    intruder = socket.create_connection(("127.0.0.1", server.port))
    intruder.sendall(b"\x00" * 480)  # protocol version 0
    clients = [our_client(server.port, UecdaDefault(), f"c{i}") for i in range(5)]
    records = thread.outcome()
    assert [c.outcome().games for c in clients] == [1] * 5
    assert sorted(rec.name for rec in records) == [f"c{i}" for i in range(5)]
    assert any("turned away" in line and "protocol 0" in line for line in lines)
    intruder.close()


def test_cli_server_prints_the_standings(tmp_path, capsys):
    import importlib
    import socket
    import time

    cli = importlib.import_module("yuugi.training.cli.main")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = ["uecda", "server", "--port", str(port), "--games", "2", "--wait", "30", "--replays", str(tmp_path)]
    server = Thread(lambda: cli.main(argv))
    server.start()
    for _ in range(100):  # until it listens
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    clients = [our_client(port, UecdaDefault(), f"cli{i}") for i in range(5)]
    assert server.outcome() == 0
    assert [c.outcome().games for c in clients] == [2] * 5
    out = capsys.readouterr().out
    assert "points/game" in out and all(f"cli{i}" in out for i in range(5))
    assert "games 1-2 of 2 played" in out
    assert len(list(tmp_path.glob("uecda_games_*.json"))) == 1



# Blocks a client cannot rebuild from the messages: the engine's series framing (game index, series
# score) and, for an upper class, which of its cards came in the tribute (its deal table already holds them).
UNSEEN_BLOCKS = {"game_index", "series_score", "received"}


def test_a_client_observes_what_the_engine_shows_its_seat(tmp_path, monkeypatch):
    """At every move, the observation a client rebuilds from the messages equals the engine's observation
    of that player on the server, block by block (all but UNSEEN_BLOCKS)."""
    import collections

    import numpy as np
    from yuugi.envs.ninja_daifugo import observation as O
    from yuugi.training.uecda.client import UecdaClient

    engine_side, client_side = collections.defaultdict(list), collections.defaultdict(list)
    server_move, client_decide = UecdaServer._move, UecdaClient._decide

    def recording_move(self, st, game, mover, mask):
        engine_side[mover].append(game.observe(st, mover)[0].copy())
        return server_move(self, st, game, mover, mask)

    def recording_decide(self, view):
        observe = self.game.observe
        self.game.observe = lambda st, seat: client_side[view.me].append(observe(st, seat)[0].copy()) or observe(st, seat)
        try:
            return client_decide(self, view)
        finally:
            self.game.observe = observe

    monkeypatch.setattr(UecdaServer, "_move", recording_move)
    monkeypatch.setattr(UecdaClient, "_decide", recording_decide)
    server, thread, lines = start_server(tmp_path, games=4, seat_change_every=1)  # new seats every game
    clients = [our_client(server.port, RandomPolicy() if i % 2 else UecdaDefault(), f"c{i}") for i in range(5)]
    thread.outcome()
    assert all(c.outcome().rejected == [] for c in clients)
    offsets, _ = O.offsets(5)
    compared = 0
    for player in range(5):
        assert len(engine_side[player]) == len(client_side[player]) > 0
        for engine, rebuilt in zip(engine_side[player], client_side[player]):
            wrong = [name for name, sl in offsets.items()
                     if name not in UNSEEN_BLOCKS and not np.allclose(engine[sl], rebuilt[sl])]
            assert wrong == [], f"player {player}, move {compared}: blocks {wrong} differ"
            compared += 1
    assert compared > 100


def test_an_expert_client_searches_from_the_game_it_rebuilt(tmp_path):
    """expert decides by search from the game state, not from an observation: the client gives it the game
    it rebuilt from the messages, and its plays are accepted."""
    from yuugi.agents.registry import cpu

    server, thread, lines = start_server(tmp_path, games=1)
    policies = [cpu("ninja_daifugo", "expert", rules="uecda")] + [UecdaDefault() for _ in range(4)]
    clients = [our_client(server.port, p, f"c{i}") for i, p in enumerate(policies)]
    thread.outcome()
    summaries = [c.outcome() for c in clients]
    assert all(s.games == 1 and s.rejected == [] and s.fallbacks == 0 for s in summaries)
