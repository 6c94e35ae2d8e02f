"""Seats around the table: the next seat that may act, how many seats are still in, who holds a title.

The number of seats is read from the state's arrays (``st.active.shape[1]``), never assumed.
"""
from __future__ import annotations

from yuugi.envs.core.jit import rules


@rules
def next_active(st, i: int, after: int) -> int:
    """The first seat after ``after`` (clockwise, not itself) still in the game; -1 if none."""
    n = st.active.shape[1]
    for d in range(1, n):
        seat = (after + d) % n
        if st.active[i, seat]:
            return seat
    return -1


@rules
def next_to_answer(st, i: int, after: int, pass_lockout: bool) -> int:
    """The first seat after ``after`` that may still answer this trick (with ``pass_lockout``, not one
    that passed in it); -1 if none."""
    n = st.active.shape[1]
    for d in range(1, n):
        seat = (after + d) % n
        if st.active[i, seat] and not (pass_lockout and st.passed[i, seat]):
            return seat
    return -1


@rules
def seats_in_game(st, i: int) -> int:
    """How many seats still hold cards."""
    count = 0
    for seat in range(st.active.shape[1]):
        if st.active[i, seat]:
            count += 1
    return count


@rules
def others_in_game(st, i: int, seat: int) -> int:
    """How many seats other than ``seat`` still hold cards (every seat in, when ``seat`` is -1)."""
    count = 0
    for other in range(st.active.shape[1]):
        if other != seat and st.active[i, other]:
            count += 1
    return count


@rules
def seat_with_title(st, i: int, title: int) -> int:
    """The seat holding ``title`` from the previous game (seat 0 when none does)."""
    for seat in range(st.titles.shape[1]):
        if st.titles[i, seat] == title:
            return seat
    return 0
