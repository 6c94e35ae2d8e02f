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
_SEAT_WEIGHTS = 1 << np.arange(NUM_SEATS)


def next_seat(eligible: np.ndarray, after: np.ndarray) -> np.ndarray:
    """First seat after ``after[k]`` (not itself) with ``eligible[k, seat]``; -1 if none."""
    return _NEXT[after, eligible @ _SEAT_WEIGHTS]


def seat_with_title(titles: np.ndarray, title: int) -> np.ndarray:
    return (titles == title).argmax(axis=1)
