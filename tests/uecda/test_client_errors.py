"""The client against fake servers: a malformed table, a server that closes mid-message, a silent server
and no server at all end with one clear error, never a hang or a traceback."""
from __future__ import annotations

import importlib
import socket
import struct

import pytest

from yuugi.agents.heuristics.uecda_default import UecdaDefault
from yuugi.training.uecda import table as T
from yuugi.training.uecda.client import UecdaClient
from yuugi.training.uecda.connection import Connection, ProtocolError

from .peers import fake_server

cli = importlib.import_module("yuugi.training.cli.main")


def play_against(script, timeout: float = 2.0):
    port, server = fake_server(script)
    conn = Connection.connect("127.0.0.1", port, timeout=timeout)
    try:
        return UecdaClient(conn, UecdaDefault(), name="probe").run()
    finally:
        conn.close()  # the fake server waits for the hang-up
        server.outcome()


def test_a_malformed_deal_table_is_a_clear_error():
    def script(sock):
        sock.sendall(struct.pack(">i", 0))
        bad = T.empty_table()
        bad[0, 3] = 7  # no card has the value 7
        sock.sendall(T.to_bytes(bad))
        sock.recv(1)  # wait until the client hangs up
    with pytest.raises(ProtocolError, match="malformed deal table.*0, 1, 2"):
        play_against(script)


def test_a_server_closing_mid_table_is_a_clear_error():
    def script(sock):
        sock.sendall(struct.pack(">i", 1) + bytes(100))  # the player number, then 100 of 480 bytes
    with pytest.raises(ProtocolError, match="closed the connection in the middle of the deal table"):
        play_against(script)


def test_a_silent_server_times_out():
    def script(sock):
        sock.sendall(struct.pack(">i", 2))
        sock.recv(1)
    with pytest.raises(ProtocolError, match="sent no deal table within 0.3 s"):
        play_against(script, timeout=0.3)


def test_a_bad_player_number_is_a_clear_error():
    def script(sock):
        sock.sendall(struct.pack(">i", 9))
        sock.recv(1)
    with pytest.raises(ProtocolError, match="sent 9 as the player number"):
        play_against(script)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_cli_no_server_is_one_line(capsys):
    port = free_port()
    code = cli.main(["uecda", "client", "--port", str(port), "--timeout", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1
    assert f"cannot connect to 127.0.0.1:{port}" in err[0] and "Traceback" not in err[0]


def test_cli_malformed_table_is_one_line(capsys):
    def script(sock):
        sock.sendall(struct.pack(">i", 0) + T.to_bytes(T.empty_table() - 5))
        sock.recv(1)
    port, server = fake_server(script)
    code = cli.main(["uecda", "client", "--port", str(port), "--timeout", "2"])
    server.outcome()
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and "malformed deal table" in err[0]


@pytest.mark.parametrize("argv, says", [
    (["uecda", "client", "--cpu", "grandmaster"], ["--cpu grandmaster", "unknown level"]),
    (["uecda", "client", "--name", "x" * 20], ["--name", "1..15"]),
    (["uecda", "client", "--port", "70000"], ["--port", "0..65535"]),
    (["uecda", "server", "--games", "0"], ["--games", "positive"]),
    (["uecda", "server", "--on-fault", "ignore"], ["--on-fault", "replace", "forfeit"]),
])
def test_cli_usage_mistakes_are_one_line(capsys, argv, says):
    code = cli.main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert code in (1, 2) and len(err) == 1, err
    for text in says:
        assert text in err[0], err[0]


def one_move_game(sock, end_flag: int) -> None:
    """A deal, one move by player 1 (the spade 3) and the end flag: the shortest game a server can send."""
    sock.sendall(struct.pack(">i", 0))
    deal = T.hand_to_table([4, 5, 52])  # H4 D4 JK
    T.TableState(exchange=1, current=1, hand_counts=(3, 11, 11, 10, 10)).write(deal)
    sock.sendall(T.to_bytes(deal))
    hand = T.hand_to_table([4, 5, 52])
    T.TableState(my_turn=False, current=1, hand_counts=(3, 11, 11, 10, 10)).write(hand)
    sock.sendall(T.to_bytes(hand) + T.to_bytes(T.hand_to_table([0])) + struct.pack(">i", end_flag))


def test_all_over_flag_ends_the_run_with_a_summary():
    summary = play_against(lambda sock: (one_move_game(sock, 2), sock.recv(1)))
    assert summary.games == 1 and summary.note is None and summary.player == 0
    assert "1 game(s)" in summary.text()


def test_a_server_closing_between_games_ends_the_run_with_a_summary():
    summary = play_against(lambda sock: one_move_game(sock, 1))  # game over, then the server hangs up
    assert summary.games == 1
    assert "closed the connection" in summary.note and "after game 1, without the all-over flag" in summary.note
    assert summary.note in summary.text()
