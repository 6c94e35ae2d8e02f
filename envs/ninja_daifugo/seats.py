"""Seats around the table: the next player that may act, how many are still in, who holds a title.

Players (0..n-1, the arrays' columns) sit around the table in the order of ``st.seating`` (the player
at each seat, clockwise; 0..n-1 in the ninja game, where nobody moves). "After" always means
clockwise in that order. The number of players is read from the state's arrays (``st.active.shape[1]``),
never assumed.
"""
from __future__ import annotations

from yuugi.envs.core.jit import rules


@rules
def seat_of(st, i: int, player: int) -> int:
    """The seat (0..n-1, clockwise) where ``player`` sits."""
    for seat in range(st.seating.shape[1]):
        if st.seating[i, seat] == player:
            return seat
    return player


@rules
def player_after(st, i: int, player: int, d: int) -> int:
    """The player sitting ``d`` seats clockwise after ``player``."""
    n = st.seating.shape[1]
    return int(st.seating[i, (seat_of(st, i, player) + d) % n])


@rules
def seats_between(st, i: int, observer: int, player: int) -> int:
    """How many seats clockwise ``player`` sits after ``observer`` (0 = the observer itself)."""
    n = st.seating.shape[1]
    return (seat_of(st, i, player) - seat_of(st, i, observer)) % n


@rules
def next_active(st, i: int, after: int) -> int:
    """The first player after ``after`` (clockwise, not itself) still in the game; -1 if none."""
    n = st.active.shape[1]
    at = seat_of(st, i, after)
    for d in range(1, n):
        player = int(st.seating[i, (at + d) % n])
        if st.active[i, player]:
            return player
    return -1


@rules
def next_to_answer(st, i: int, after: int, pass_lockout: bool) -> int:
    """The first player after ``after`` that may still answer this trick (with ``pass_lockout``, not one
    that passed in it); -1 if none."""
    n = st.active.shape[1]
    at = seat_of(st, i, after)
    for d in range(1, n):
        player = int(st.seating[i, (at + d) % n])
        if st.active[i, player] and not (pass_lockout and st.passed[i, player]):
            return player
    return -1


@rules
def all_passed(st, i: int) -> bool:
    """Every player still in the game has passed in this trick (UECda: the field flows)."""
    for player in range(st.active.shape[1]):
        if st.active[i, player] and not st.passed[i, player]:
            return False
    return True


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
