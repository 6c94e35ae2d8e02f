"""Clients and servers for the protocol tests, run in threads on 127.0.0.1 (ephemeral ports).

The scripted peers speak the protocol directly over sockets (not through our client), so the tests
check our server and client against the message sequence itself.
"""
from __future__ import annotations

import socket
import struct
import threading
from typing import Any, Callable

import numpy as np

from yuugi.training.uecda import table as T
from yuugi.training.uecda.client import UecdaClient
from yuugi.training.uecda.connection import Connection, ProtocolError


class Thread(threading.Thread):
    """A daemon thread that keeps its target's result or exception."""

    def __init__(self, target: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self._target_fn = target
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self._target_fn()
        except BaseException as e:  # noqa: BLE001 - handed to the test
            self.error = e

    def outcome(self, timeout: float = 60.0) -> Any:
        self.join(timeout)
        assert not self.is_alive(), "the thread did not finish"
        if self.error is not None:
            raise self.error
        return self.result


def our_client(port: int, policy: Any, name: str, timeout: float = 10.0) -> Thread:
    def go() -> Any:
        with Connection.connect("127.0.0.1", port, timeout=timeout) as conn:
            return UecdaClient(conn, policy, name=name).run()
    t = Thread(go)
    t.start()
    return t


def _recv_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def scripted_client(port: int, name: str, behaviour: str) -> Thread:
    """A client that misbehaves after the handshake.

    * ``disconnect``: closes at once;
    * ``stall``: reads what it is sent and never answers (until the server hangs up);
    * ``garbage``: answers every turn (and the exchange) with random bytes that are no table;
    * ``illegal``: follows the sequence but always submits the spade 3-4-5 sequence (rarely held, never
      twice) and gives a wrong number of cards in the exchange.
    """
    def go() -> Any:
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(T.to_bytes(T.profile_table(name)))
        _recv_exactly(sock, 4)
        if behaviour == "disconnect":
            sock.close()
            return "closed"
        if behaviour == "stall":  # reads everything, answers nothing, until the server hangs up
            while sock.recv(65536):
                pass
            sock.close()
            return "stalled"
        rng = np.random.default_rng(1)
        replies = 0
        try:
            while True:
                table = T.from_bytes(_recv_exactly(sock, T.TABLE_BYTES))
                state = T.TableState.read(table)
                if table[5, 0] == 1 and 0 < state.give < 100:  # a deal table asking for gifts
                    sock.sendall(rng.bytes(T.TABLE_BYTES) if behaviour == "garbage" else
                                 T.to_bytes(T.empty_table()))
                if table[5, 0] == 1:
                    continue  # the deal; the first hand table of the game follows
                if state.my_turn:
                    if behaviour == "garbage":
                        sock.sendall(rng.bytes(T.TABLE_BYTES))
                    else:
                        bad = T.empty_table()
                        bad[0, 1:4] = 1
                        sock.sendall(T.to_bytes(bad))
                    reply = struct.unpack(">i", _recv_exactly(sock, 4))[0]
                    assert reply in (8, 9)
                    replies += 1
                _recv_exactly(sock, T.TABLE_BYTES)  # the field
                flag = struct.unpack(">i", _recv_exactly(sock, 4))[0]
                if flag == 2:
                    return replies
        except (ConnectionError, OSError):
            return f"closed after {replies} replies"
        finally:
            sock.close()
    t = Thread(go)
    t.start()
    return t


def fake_server(script: Callable[[socket.socket], None]) -> tuple[int, Thread]:
    """A one-client server on a free port that runs ``script`` on the accepted socket."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def go() -> None:
        listener.settimeout(30)
        sock, _ = listener.accept()
        try:
            _recv_exactly(sock, T.TABLE_BYTES)  # the profile
            script(sock)
        finally:
            sock.close()
            listener.close()
    t = Thread(go)
    t.start()
    return port, t


__all__ = ["Thread", "our_client", "scripted_client", "fake_server", "ProtocolError"]
