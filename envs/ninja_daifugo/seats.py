"""Seats around the table: the next seat that may act, and who holds a title."""
from __future__ import annotations

import numpy as np

from .state import NUM_SEATS


def _next_table() -> np.ndarray:
    """NEXT[after, eligible pattern]: first eligible seat after ``after`` (not itself), -1 if none."""
    t = np.full((NUM_SEATS, 1 << NUM_SEATS), -1, dtype=np.int64)
    for after in range(NUM_SEATS):
        for pat in range(1 << NUM_SEATS):
            for d in range(1, NUM_SEATS):
                if (pat >> ((after + d) % NUM_SEATS)) & 1:
                    t[after, pat] = (after + d) % NUM_SEATS
                    break
    return t


_NEXT = _next_table()
# flags @ SEAT_WEIGHTS: a row's 4 seat flags as one pattern 0..15 (bit s = seat s)
SEAT_WEIGHTS = 1 << np.arange(NUM_SEATS)


def next_seat(eligible: np.ndarray, after: np.ndarray) -> np.ndarray:
    """First seat after ``after[k]`` (not itself) with ``eligible[k, seat]``; -1 if none."""
    return _NEXT[after, eligible @ SEAT_WEIGHTS]


# OTHER_SEATS[s]: every seat but s; its last row (index -1: no seat) is every seat.
OTHER_SEATS = np.ones((NUM_SEATS + 1, NUM_SEATS), dtype=bool)
OTHER_SEATS[np.arange(NUM_SEATS), np.arange(NUM_SEATS)] = False


def count_seats(flags: np.ndarray) -> np.ndarray:
    """How many of each row's 4 seat flags (bool[n, 4]) are set: the row's 4 bytes read as one 32-bit
    word and its bits counted, several times cheaper than ``sum(axis=1)``."""
    return np.bitwise_count(np.ascontiguousarray(flags).view(np.uint32)[:, 0])


def seat_with_title(titles: np.ndarray, title: int) -> np.ndarray:
    return (titles == title).argmax(axis=1)
