"""One seat's part of the per-seat state arrays, gathered as rows.

Per-seat arrays are ``[B, 2, ...]``. Viewed as ``[B * 2, ...]``, seat ``me`` of game ``g`` is row
``2 * g + me`` (and the other seat's is that row ``^ 1``), so a seat's slots come out of one ``take``
of whole rows: several times cheaper than the two-index gather ``arr[g, me]``, on the hot paths of
the legal mask and the forced decisions.
"""
from __future__ import annotations

import numpy as np


def seat_rows(g: np.ndarray, me: np.ndarray) -> np.ndarray:
    """The row of (game, seat) in a per-seat array viewed as ``[B * 2, ...]``."""
    return 2 * g + me


def seat_slots(arr: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``arr[B, 2, k]`` at seat rows ``rows``: ``arr[g, me]`` as whole rows of the ``[B * 2, k]`` view."""
    return arr.reshape(-1, arr.shape[-1]).take(rows, axis=0)


def per_seat(arr: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``arr[B, 2]`` at seat rows ``rows`` (one-dimensional indexing: numpy's cheapest gather)."""
    return arr.reshape(-1)[rows]
