"""Ninja points (忍法ポイント): the gains of rules file §2.3, the cap, and D6.

Gains go to the acting player after each accepted play (and for the school 妨害 refund and the
Lv5 雷遁 bonus); under D6 every gain is doubled; the total is capped at 6 and the excess is lost.
Passing, being skipped and activating a jutsu gain nothing.
"""
from __future__ import annotations

from yuugi.envs.core.jit import rules

from . import actions as A
from .config import D_DOUBLE_POINTS, MAX_POINTS, SCHOOL_HENGE, SCHOOL_RAI


@rules
def gain(st, i: int, seat: int, amount: int) -> None:
    """Add ``amount`` (doubled under D6) to the seat's points, capped at 6."""
    if st.declaration[i] == D_DOUBLE_POINTS:
        amount *= 2
    st.points[i, seat] = min(int(st.points[i, seat]) + amount, MAX_POINTS)


@rules
def lose_one(st, i: int, seat: int) -> None:
    """Lv5 足止め/手裏剣: the target loses a point (never below 0)."""
    st.points[i, seat] = max(int(st.points[i, seat]) - 1, 0)


@rules
def play_points(kind: int, size: int, revolution: bool) -> int:
    """Base gain of a play: single or pair +1, triple or 3-card sequence +2, revolution +3."""
    if revolution:
        return 3
    if kind == A.K_SINGLE or kind == A.K_JSINGLE or (kind == A.K_GROUP and size == 2):
        return 1
    if (kind == A.K_GROUP or kind == A.K_SEQ) and size == 3:
        return 2
    return 0


@rules
def play_gain(kind: int, size: int, revolution: bool, school: int, triggered_lock: bool, eight_cut: bool,
              spade3_return: bool) -> int:
    """Points a play earns before D6 and the cap (§2.3, with the school bonuses of §1.7)."""
    points = play_points(kind, size, revolution)
    if triggered_lock:
        points += 1
    if eight_cut:
        points += 1
    if spade3_return:
        points += 2
    if school == SCHOOL_RAI and (eight_cut or spade3_return):
        points += 1
    if school == SCHOOL_HENGE and kind == A.K_SEQ:
        points += 1
    return points
