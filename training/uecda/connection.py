"""One TCP connection of the UECda protocol: exactly 480-byte tables and 4-byte big-endian integers.

Every read has a timeout. A short read (the peer closed), a timeout or a malformed message raises
:class:`ProtocolError` with a sentence saying what was expected, so neither side can hang on the other.
"""
from __future__ import annotations

import socket
import struct

import numpy as np

from .table import TABLE_BYTES, TableError, from_bytes, to_bytes

INT_BYTES = 4


class ProtocolError(ConnectionError):
    """The peer broke the protocol: it closed, went silent past the timeout, or sent a malformed message."""


class PeerClosed(ProtocolError):
    """The peer closed the connection (between messages or in the middle of one)."""


class Connection:
    """A socket that speaks tables and integers; ``timeout`` (seconds) bounds every read and write."""

    def __init__(self, sock: socket.socket, timeout: float = 10.0, peer: str = "peer") -> None:
        self.sock = sock
        self.peer = peer
        self.timeout = timeout
        sock.settimeout(timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # not a TCP socket (a socketpair in tests)
            pass

    @classmethod
    def connect(cls, host: str, port: int, timeout: float = 10.0) -> "Connection":
        """Connect to a server; a refused or unreachable address is a :class:`ProtocolError` naming it."""
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as e:
            raise ProtocolError(f"cannot connect to {host}:{port}: {e.strerror or e}") from None
        return cls(sock, timeout, peer=f"server {host}:{port}")

    def set_timeout(self, timeout: float) -> None:
        self.timeout = timeout
        self.sock.settimeout(timeout)

    # ---- reading ---------------------------------------------------------------------------------
    def _read_exactly(self, n: int, what: str) -> bytes:
        chunks, got = [], 0
        while got < n:
            try:
                chunk = self.sock.recv(n - got)
            except socket.timeout:
                raise ProtocolError(f"{self.peer} sent no {what} within {self.timeout:g} s "
                                    f"({got} of {n} bytes arrived)") from None
            except OSError as e:
                raise ProtocolError(f"{self.peer}: connection lost while reading the {what} ({e})") from None
            if not chunk:
                raise PeerClosed(f"{self.peer} closed the connection "
                                    + (f"in the middle of the {what} ({got} of {n} bytes)" if got else
                                       f"while the {what} was expected"))
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    def read_table(self, what: str = "table") -> np.ndarray:
        """The next 480-byte table as int32[8, 15]."""
        try:
            return from_bytes(self._read_exactly(TABLE_BYTES, what))
        except TableError as e:  # cannot happen for 480 bytes; kept so a codec change stays a ProtocolError
            raise ProtocolError(f"{self.peer}: malformed {what}: {e}") from None

    def read_int(self, what: str = "integer", allowed: tuple[int, ...] | None = None) -> int:
        """The next 4-byte big-endian integer; outside ``allowed`` (when given) it is a ProtocolError."""
        value = struct.unpack(">i", self._read_exactly(INT_BYTES, what))[0]
        if allowed is not None and value not in allowed:
            raise ProtocolError(f"{self.peer} sent {value} as the {what}; the protocol allows {list(allowed)}")
        return value

    # ---- writing ---------------------------------------------------------------------------------
    def _send(self, data: bytes, what: str) -> None:
        try:
            self.sock.sendall(data)
        except socket.timeout:
            raise ProtocolError(f"{self.peer} did not take the {what} within {self.timeout:g} s") from None
        except OSError as e:
            raise ProtocolError(f"{self.peer}: connection lost while sending the {what} ({e})") from None

    def send_table(self, table: np.ndarray, what: str = "table") -> None:
        self._send(to_bytes(table), what)

    def send_int(self, value: int, what: str = "integer") -> None:
        self._send(struct.pack(">i", int(value)), what)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
