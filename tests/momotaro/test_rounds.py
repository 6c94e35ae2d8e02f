"""Rounds and turns (rules §5.1, §5.7): start players, lap limits, early round end, the final round
and the end of the game."""
from __future__ import annotations

import numpy as np
import pytest

from .helpers import act, battle, find_seed, game, player


def _last_slot_position(n: int, treasures: dict, kibi: list[int], dead: tuple[int, ...] = (), start: int = 0):
    """Round 1 at its last turn slot; the player to move attacks 青鬼6 with K1 (0 + white vs 6 + red: a
    sure loss, so no treasure changes hands)."""
    limit = {2: 6, 3: 6, 4: 8}[n]
    slot = limit - 1
    mover = (start + slot) % n
    players = []
    for p in range(n):
        cards = {"W": 0, "K1": 0} if p == mover else {"W": 0}
        players.append(player(cards if p not in dead else {}, ["W"] if p in dead else [], kibidango=kibi[p]))
    taken = {o: {"by": p, "as": "treasure"} for o, p in treasures.items()}
    field = {o: 0 for o in ("B6", "G6", "G5", "G4", "X6") if o not in treasures}
    field = dict(list(field.items())[:4 - len(taken)])
    return battle(n, players, field, taken=taken, start=start, slot=slot, phase="choose_cards", target="B6")


def _next_round_start(n, treasures, kibi, dead=(), seed=0) -> int:
    g = game(n)
    st = g.from_position(_last_slot_position(n, treasures, kibi, dead), seed=seed)
    act(g, st, "SEND K1")
    assert int(st.round[0]) == 2 and int(st.slot[0]) == 0
    assert int((st.oni_at[0] == 1).sum()) == 4 - len(treasures) + 4  # survivors + 4 new oni
    assert int(st.to_play[0]) == int(st.start_player[0])
    return int(st.start_player[0])


def test_round_two_starts_with_the_fewest_treasure() -> None:
    assert _next_round_start(3, {"R6": 0, "R4": 1, "R5": 2}, [5, 5, 5]) == 1


def test_round_two_treasure_tie_goes_to_most_kibidango() -> None:
    assert _next_round_start(3, {"R4": 0, "B4": 1, "R6": 2}, [3, 5, 0]) == 1


def test_round_two_full_tie_is_a_uniform_janken() -> None:
    starts = [_next_round_start(3, {"R4": 0, "B4": 1, "R6": 2}, [5, 5, 0], seed=s) for s in range(120)]
    assert set(starts) == {0, 1}
    assert 35 <= starts.count(0) <= 85


def test_eliminated_players_do_not_start_a_round() -> None:
    # Seat 1 has no treasure but is eliminated: the fewest among the living is seat 2 (5 < 6).
    assert _next_round_start(3, {"R6": 0, "R5": 2}, [5, 9, 5], dead=(1,)) == 2


@pytest.mark.parametrize("n,laps", [(2, 3), (3, 2), (4, 2)])
def test_lap_limits(n: int, laps: int) -> None:
    """Rounds 1 and 2 end after 2 laps (3 with two players): laps x N turn slots."""
    g = game(n)
    pos = _last_slot_position(n, {}, [5] * n)
    assert pos["slot"] == laps * n - 1
    st = g.from_position(pos)
    act(g, st, "SEND K1")
    assert int(st.round[0]) == 2
    # One slot earlier the round goes on with the next seat.
    pos["slot"] -= 1
    pos["players"] = [player({"W": 0, "K1": 0}) if p == (pos["slot"]) % n else player() for p in range(n)]
    st = g.from_position(pos)
    act(g, st, "SEND K1")
    assert int(st.round[0]) == 1 and int(st.slot[0]) == laps * n - 1 and int(st.to_play[0]) == (laps * n - 1) % n


def test_eliminated_seats_are_skipped_but_use_their_slot() -> None:
    g = game(4)
    # Start 0, slot 6 = seat 2's turn; seat 3 is out, so its slot 7 passes and the round (8 slots) ends.
    players = [player(), player(), player({"W": 0, "K1": 0}), player({}, ["W"])]
    pos = battle(4, players, {"B6": 0, "G6": 0, "G5": 0, "G4": 0}, slot=6, phase="choose_cards", target="B6")
    st = g.from_position(pos)
    act(g, st, "SEND K1")
    assert int(st.round[0]) == 2
    # Slot 5 = seat 1; next slot 6 = seat 2; with seat 2 out, slot 7 = seat 3 plays.
    players = [player(), player({"W": 0, "K1": 0}), player({}, ["W"]), player()]
    pos = battle(4, players, {"B6": 0, "G6": 0, "G5": 0, "G4": 0}, slot=5, phase="choose_cards", target="B6")
    st = g.from_position(pos)
    act(g, st, "SEND K1")
    assert int(st.round[0]) == 1 and int(st.slot[0]) == 7 and int(st.to_play[0]) == 3


def test_round_ends_when_the_field_is_cleared() -> None:
    g = game(2)
    taken = {o: {"by": 1, "as": "treasure"} for o in ("R4", "R5", "R6")}
    pos = battle(2, [player({"W": 0, "I3": 0}), player()], {"G4": 3}, taken=taken, phase="choose_cards",
                 target="G4")  # G4 has 1 left: W + I3 (6, Dog -1 vs green) always at least draws
    st = find_seed(lambda s: g.from_position(pos, seed=s), lambda s: act(g, s, "SEND W+I3"),
                   lambda s: int(s.outcome[0]) == 0)
    assert int(st.round[0]) == 2 and int((st.oni_at[0] == 1).sum()) == 4
    assert int(st.start_player[0]) == 0  # treasure 4 vs 15: seat 0 has the fewest


def test_final_round_has_no_lap_limit_and_ends_when_the_field_is_empty() -> None:
    g = game(2)
    taken = {o: {"by": 1, "as": "treasure"} for o in ("R4", "R5", "R6", "B4", "B5", "B6", "G5", "G6", "X6", "Y2",
                                                      "Y4")}
    pos = battle(2, [player({"W": 0, "I3": 0}), player()], {"G4": 0}, round_=3, taken=taken, slot=40,
                 phase="choose_cards", target="G4")
    st = g.from_position(pos, seed=0)
    act(g, st, "SEND W+I3")
    while not st.done[0] and int(st.to_play[0]) == 0:
        g.step(st, np.array([np.flatnonzero(g.legal_mask(st)[0])[0]]))
    if not st.done[0]:
        assert int(st.round[0]) == 3 and int(st.slot[0]) == 41  # play goes on past any lap count
    st = find_seed(lambda s: g.from_position(dict(pos, oni_damage={"G4": 3}), seed=s),
                   lambda s: act(g, s, "SEND W+I3"), lambda s: int(s.outcome[0]) == 0)
    assert st.terminated[0]  # all 12 oni dealt with


def test_game_ends_when_every_warrior_is_knocked_out() -> None:
    g = game(2)
    pos = battle(2, [player({"W": 2}), player({}, ["W"])], {"X6": 0, "R4": 0, "B4": 0, "G4": 0},
                 phase="choose_cards", target="X6")
    st = find_seed(lambda s: g.from_position(pos, seed=s), lambda s: act(g, s, "SEND W"),
                   lambda s: int(s.outcome[0]) == 2)  # 1 + white < 6 + red: any loss knocks W (1 left) out
    assert st.terminated[0] and int(st.round[0]) == 1
