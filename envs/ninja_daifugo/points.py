"""Ninja points (忍法ポイント): the gain table of rules file §2.3, the cap, and D6.

Gains go to the acting player after each accepted play (and for the school 妨害 refund and the
Lv5 雷遁 bonus); under D6 every gain is doubled; the total is capped at 6 and the excess is lost.
Passing, being skipped and activating a jutsu gain nothing.
"""
from __future__ import annotations

import numpy as np

from . import actions as A
from .config import D_DOUBLE_POINTS, MAX_POINTS, SCHOOL_HENGE, SCHOOL_RAI
from .state import DaifugoState


def _play_points() -> np.ndarray:
    """Base gain of each play action: single/pair +1, triple or 3-card sequence +2, revolution +3."""
    t = np.zeros(A.NUM_ACTIONS, dtype=np.int64)
    single = (A.KIND == A.K_SINGLE) | (A.KIND == A.K_JSINGLE)
    t[single] = 1
    t[(A.KIND == A.K_GROUP) & (A.SIZE == 2)] = 1
    t[((A.KIND == A.K_GROUP) | (A.KIND == A.K_SEQ)) & (A.SIZE == 3)] = 2
    t[A.REVOLUTION] = 3
    return t


PLAY_POINTS = _play_points()


def gain(st: DaifugoState, g: np.ndarray, seat: np.ndarray, amount: np.ndarray | int) -> None:
    """Add ``amount`` (doubled under D6) to the seats' points, capped at 6."""
    amount = np.asarray(amount, dtype=np.int64) * np.where(st.declaration[g] == D_DOUBLE_POINTS, 2, 1)
    st.points[g, seat] = np.minimum(st.points[g, seat].astype(np.int64) + amount, MAX_POINTS)


def lose_one(st: DaifugoState, g: np.ndarray, seat: np.ndarray) -> None:
    """Lv5 足止め/手裏剣: the target loses a point (never below 0)."""
    st.points[g, seat] = np.maximum(st.points[g, seat].astype(np.int64) - 1, 0)


def play_gain(a: np.ndarray, school: np.ndarray, triggered_lock: np.ndarray, eight_cut: np.ndarray,
              spade3_return: np.ndarray) -> np.ndarray:
    """Points a play earns before D6 and the cap (§2.3, with the school bonuses of §1.7)."""
    flushed = eight_cut | spade3_return
    return (PLAY_POINTS[a] + triggered_lock + eight_cut + 2 * spade3_return
            + ((school == SCHOOL_RAI) & flushed) + ((school == SCHOOL_HENGE) & (A.KIND[a] == A.K_SEQ)))
