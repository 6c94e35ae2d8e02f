"""The protocol socket: exact 480-byte tables and 4-byte big-endian integers; a short read, a timeout or a
value the protocol does not allow is a ProtocolError naming what was expected, never a hang."""
from __future__ import annotations

import socket
import struct

import numpy as np
import pytest

from yuugi.training.uecda import table as T
from yuugi.training.uecda.connection import Connection, ProtocolError


@pytest.fixture
def pair():
    a, b = socket.socketpair()
    yield Connection(a, timeout=0.3, peer="server"), b
    a.close()
    b.close()


def test_tables_and_integers_cross_intact(pair):
    conn, other = pair
    t = T.empty_table()
    t[3, 9], t[7, 14] = 1, -5
    conn.send_table(t)
    conn.send_int(-2)
    assert other.recv(484, socket.MSG_WAITALL) == T.to_bytes(t) + struct.pack(">i", -2)
    other.sendall(struct.pack(">i", 9) + T.to_bytes(t)[:200])
    other.sendall(T.to_bytes(t)[200:])  # a table may arrive in pieces
    assert conn.read_int("reply", (8, 9)) == 9
    assert np.array_equal(conn.read_table(), t)


def test_short_read_is_a_protocol_error(pair):
    conn, other = pair
    other.sendall(bytes(100))
    other.close()
    with pytest.raises(ProtocolError, match=r"server closed the connection in the middle of the hand table \(100 of 480"):
        conn.read_table("hand table")


def test_silence_is_a_timeout_error(pair):
    conn, _ = pair
    with pytest.raises(ProtocolError, match="server sent no end flag within 0.3 s"):
        conn.read_int("end flag")


def test_a_value_outside_the_protocol_is_named(pair):
    conn, other = pair
    other.sendall(struct.pack(">i", 7))
    with pytest.raises(ProtocolError, match=r"sent 7 as the end flag; the protocol allows \[0, 1, 2\]"):
        conn.read_int("end flag", (0, 1, 2))


def test_closed_before_anything_is_named(pair):
    conn, other = pair
    other.close()
    with pytest.raises(ProtocolError, match="closed the connection while the deal table was expected"):
        conn.read_table("deal table")
