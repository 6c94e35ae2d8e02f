"""JSON positions: round trips at every kind of decision point, and errors that name the bad field."""
from __future__ import annotations

import json

import numpy as np
import pytest

from yuugi.envs.core.errors import PositionError

from .helpers import battle, game, player

SKIP = {"rng_key", "rng_counter", "rewards"}


def assert_same_state(a, b) -> None:
    for k, v in a.arrays().items():
        if k not in SKIP:
            assert np.array_equal(v, getattr(b, k)), k


def test_round_trip_through_a_random_game_for_each_player_count() -> None:
    phases_seen = set()
    for n in (2, 3, 4):
        g = game(n)
        rng = np.random.default_rng(n)
        st = g.init([n * 7])
        while True:
            pos = g.to_position(st)
            again = g.from_position(json.loads(json.dumps(pos)), seed=1)  # JSON-safe
            assert_same_state(st, again)
            assert g.to_position(again) == pos
            phases_seen.add(pos["phase"])
            if st.done[0]:
                break
            g.step(st, np.array([rng.choice(np.flatnonzero(g.legal_mask(st)[0]))]))
    assert {"bid", "additional_bid", "choose_oni", "choose_cards", "over"} <= phases_seen


def test_a_loaded_position_plays_on_like_the_original() -> None:
    g = game(3)
    st = g.init([42])
    rng = np.random.default_rng(0)
    for _ in range(60):
        g.step(st, np.array([rng.choice(np.flatnonzero(g.legal_mask(st)[0]))]))
    loaded = g.from_position(g.to_position(st), seed=5)
    assert np.array_equal(g.legal_mask(loaded), g.legal_mask(st))
    for seat in range(3):
        assert np.array_equal(g.observe(loaded, seat), g.observe(st, seat))


BASE = battle(2, [player({"W": 0, "I3": 1}), player()], {"R6": 2, "B4": 0, "G4": 0, "X6": 0})


@pytest.mark.parametrize("change,field", [
    ({"num_players": 3}, "num_players"),
    ({"colour": 1}, "colour"),
    ({"phase": "dance"}, "phase"),
    ({"phase": "bid"}, "phase"),
    ({"round": 4}, "round"),
    ({"players": []}, "players"),
    ({"oni_damage": {"R6": 6}}, "oni_damage.R6"),
    ({"oni_damage": {"Z9": 1}}, "oni_damage.Z9"),
    ({"oni_taken": {"R6": {"by": 0, "as": "potion"}}}, "oni_taken.R6.as"),
    ({"oni_order": ["R4"] * 12}, "oni_order"),
    ({"to_play": 1}, "to_play"),
    ({"start_player": 5}, "start_player"),
    ({"slot": 6}, "slot"),
    ({"dice": [0, 7]}, "dice[0]"),
    ({"sent": ["W", "I3", "S1"]}, "sent"),
    ({"bids": [0, None]}, "bids"),
    ({"phase": "heal"}, "phase"),
    ({"phase": "assign_damage", "target": "R6", "sent": ["W"], "pending_damage": 2}, "pending_damage"),
    ({"terminated": True}, "phase"),
])
def test_bad_fields_are_named(change: dict, field: str) -> None:
    pos = dict(BASE, **change)
    with pytest.raises(PositionError) as err:
        game(2).from_position(pos)
    assert err.value.field == field


@pytest.mark.parametrize("players,field", [
    ([player({"W": 3}), player()], "players[0].cards.W"),
    ([player({"I3": 0}), player()], "players[0].cards"),
    ([player({"W": 0, "I3": 0}), player({"W": 0, "I3": 0})], "players[1].cards"),
    ([player({"W": 0}, kibidango=16), player()], "players[0].kibidango"),
    ([player({"W": 0}, potions=1), player()], "players[0].potions"),
    ([player({"W": 0}, treasure=3), player()], "players[0].treasure"),
    ([player({"W": 0}, fresh=["I2"]), player()], "players[0].fresh"),
    ([player({"W": 0}, colour="red"), player()], "players[0].colour"),
])
def test_bad_player_fields_are_named(players, field: str) -> None:
    pos = battle(2, players, {"R6": 2, "B4": 0, "G4": 0, "X6": 0})
    with pytest.raises(PositionError) as err:
        game(2).from_position(pos)
    assert err.value.field == field


def test_hiring_positions_check_the_auction() -> None:
    g = game(3)
    ok = {"num_players": 3, "players": [player(kibidango=15)] * 3, "bids": [4, None, None], "to_play": 1}
    st = g.from_position(ok)
    assert int(st.to_play[0]) == 1 and st.bids[0].tolist() == [4, -1, -1]
    with pytest.raises(PositionError) as err:
        g.from_position(dict(ok, to_play=2))
    assert err.value.field == "bids"
    with pytest.raises(PositionError) as err:
        g.from_position(dict(ok, auction=2))
    assert err.value.field == "auction"
    with pytest.raises(PositionError) as err:
        g.from_position(dict(ok, phase="take_or_decline", bids=[3, 3, 1], additional=[0, 1, None],
                             bidders=[True, True, False], to_play=0))
    assert err.value.field == "to_play"


# ---- issue 11: type confusion and unreachable ends (each failed before the schema) -------------------
@pytest.mark.parametrize("change,field", [
    ({"outcome": ["win"]}, "outcome"),
    ({"outcome": {}}, "outcome"),
    ({"outcome": "Win"}, "outcome"),
    ({"phase": ["heal"]}, "phase"),
    ({"target": {}}, "target"),
    ({"sent": "W"}, "sent"),
    ({"sent": [["W"]]}, "sent[0]"),
    ({"oni_taken": {"R4": {"by": 0, "as": ["treasure"]}}}, "oni_taken.R4.as"),
    ({"oni_taken": {"R4": {"by": 0.0, "as": "treasure"}}}, "oni_taken.R4.by"),
    ({"oni_damage": {"R6": 2.0}}, "oni_damage.R6"),
    ({"slot": False}, "slot"),
    ({"turns": float("nan")}, "turns"),
    ({"dice": [1, 2.5]}, "dice[1]"),
    ({"players": [player({"W": 0}), [1]]}, "players[1]"),
])
def test_type_confusion_names_the_field(change: dict, field: str) -> None:
    test_bad_fields_are_named(change, field)


@pytest.mark.parametrize("treasure", [0.0, False, "0"])
def test_treasure_must_be_an_integer(treasure) -> None:
    pos = battle(2, [player({"W": 0}, treasure=treasure), player()], {"R6": 2, "B4": 0, "G4": 0, "X6": 0})
    with pytest.raises(PositionError) as err:
        game(2).from_position(pos)
    assert err.value.field == "players[0].treasure"


HIRING = {"num_players": 2, "players": [player(kibidango=15)] * 2}


@pytest.mark.parametrize("end", [{"terminated": True}, {"truncated": True}])
def test_a_game_cannot_end_during_the_hiring(end: dict) -> None:
    g = game(2)
    end = dict(end, turns=g.config.max_turns) if "truncated" in end else end
    g.from_position(HIRING)  # the hiring position itself is fine
    with pytest.raises(PositionError) as err:
        g.from_position(dict(HIRING, phase="over", **end))
    assert err.value.field == "round"


def test_truncation_needs_max_turns_and_excludes_termination() -> None:
    over = dict(BASE, phase="over")
    with pytest.raises(PositionError) as err:
        game(2).from_position(dict(over, truncated=True, turns=3))
    assert err.value.field == "turns"
    with pytest.raises(PositionError) as err:
        game(2).from_position(dict(over, truncated=True, terminated=True, turns=game(2).config.max_turns))
    assert err.value.field == "truncated"


@pytest.mark.parametrize("seed", [-1, 2 ** 64])
def test_bad_seed_is_a_clear_error(seed) -> None:
    with pytest.raises(ValueError, match="seed"):
        game(2).from_position(BASE, seed=seed)


def test_termination_needs_its_reason() -> None:
    # §5.7: the game ends when no warrior is left, or after round 3 once its oni are all defeated
    with pytest.raises(PositionError) as err:
        game(2).from_position(dict(BASE, phase="over", terminated=True))  # round 2, oni still on the field
    assert err.value.field == "terminated"
    out = [player({}, knocked_out=["W"]), player({}, knocked_out=["W"])]
    st = game(2).from_position(battle(2, out, {"R6": 2, "B4": 0, "G4": 0, "X6": 0}, phase="over", terminated=True))
    assert st.terminated[0] and not st.alive[0].any()
