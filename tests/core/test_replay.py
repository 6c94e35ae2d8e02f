"""Replays: a recorded game of every game replays to the identical final state; tampered records fail
naming the step; records survive JSON; the AEC env's seeded reset is reproducible from its record."""
from __future__ import annotations

import json

import numpy as np
import pytest

from yuugi.envs import GAMES, make_game, make_raw
from yuugi.envs.faces import replay as R
from yuugi.envs.ninja_slayer_v0 import Game as NinjaSlayer
from yuugi.envs.ninja_slayer_v0 import raw_env as ninja_slayer_raw_env

# ninja_slayer is used directly until the registry names it.
GAME_NAMES = sorted(set(GAMES) | {"ninja_slayer"})


def build(name: str, **rules):
    return NinjaSlayer(**rules) if name not in GAMES else make_game(name, **rules)


def play_random(name: str, seed: int, rng_seed: int, rules=None, setup=None):
    """A game played to its end by uniform random legal moves, recorded as it goes."""
    rules = rules or {}
    rec = R.Recorder(name, seed, rules=rules, setup=setup, game=build(name, **rules))
    rng = np.random.default_rng(rng_seed)
    while not rec.state.done[0]:
        rec.step(int(rng.choice(np.flatnonzero(rec.game.legal_mask(rec.state)[0]))))
    return rec


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_recorded_game_replays_to_the_identical_final_state(name, tmp_path):
    rec = play_random(name, seed=2024, rng_seed=7)
    path = tmp_path / "game.json"
    R.save(rec.record(), path)  # through a file: JSON must carry everything
    loaded = R.load(path)
    assert loaded["actions"] == rec.actions and len(rec.actions) > 0
    steps = list(R.replay(loaded, game=build(name)))
    final, last_action = steps[-1]
    assert last_action is None
    assert [a for _, a in steps[:-1]] == rec.actions
    arrays, original = final.arrays(), rec.state.arrays()
    for key, value in original.items():  # every state array, not a summary
        assert np.array_equal(arrays[key], value), key
    assert final.done[0]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_another_seed_gives_another_game(name):
    # The seed is what decides the deal: the same moves cannot be expected to replay from another one.
    a = play_random(name, seed=1, rng_seed=3).record()
    b = play_random(name, seed=2, rng_seed=3).record()
    assert a["actions"] != b["actions"]


def test_ninja_slayer_per_episode_decks_are_recorded_and_replayed():
    setup = {"decks": ["D1", "sealed"]}
    rec = play_random("ninja_slayer", seed=99, rng_seed=5, setup=setup)
    record = rec.record()
    assert record["setup"] == setup
    assert R.final_state(record, game=NinjaSlayer()).equals(rec.state)
    # The same seed without that setup is another game (constructed decks), so the setup matters.
    with pytest.raises(R.ReplayError):
        R.final_state(dict(record, setup=None), game=NinjaSlayer())


def test_ninja_slayer_decks_as_a_rule_option_replay_by_their_rules():
    rec = play_random("ninja_slayer", seed=5, rng_seed=1, rules={"decks": ["D2", "D4"]})
    record = rec.record()
    assert record["rules"] == {"decks": ["D2", "D4"]}
    assert R.final_state(record, game=NinjaSlayer(**record["rules"])).equals(rec.state)


def test_a_tampered_action_fails_naming_the_step():
    rec = play_random("nigejozu", seed=11, rng_seed=2)
    record = rec.record()
    game = make_game("nigejozu")
    # Find the first step where some action is illegal, and put that action there.
    states = [st for st, a in R.replay(record, game)]
    k = 5
    illegal = int(np.flatnonzero(~game.legal_mask(states[k])[0])[0])
    tampered = dict(record, actions=record["actions"][:k] + [illegal] + record["actions"][k + 1:])
    with pytest.raises(R.ReplayError, match=rf"^step {k} \(move {k + 1}\): action {illegal} \(") as e:
        list(R.replay(tampered, game))
    assert "illegal" in str(e.value)


def test_a_record_with_moves_after_the_end_fails_naming_the_step():
    rec = play_random("momotaro", seed=3, rng_seed=3)
    record = rec.record()
    n = len(record["actions"])
    with pytest.raises(R.ReplayError, match=rf"step {n} \(move {n + 1}\): the game was already over.*1 more action"):
        R.final_state(dict(record, actions=record["actions"] + [0]))


@pytest.mark.parametrize("change, named", [
    ({"format": "other"}, "not a replay record"),
    ({"version": 99}, "version 99"),
    ({"seed": -1}, "'seed'"),
    ({"seed": True}, "'seed'"),
    ({"actions": [1, "2"]}, "step 1 holds '2'"),
    ({"actions": "1 2"}, "'actions'"),
    ({"rules": []}, "'rules'"),
])
def test_a_malformed_record_names_the_field(change, named):
    record = play_random("nigejozu", seed=4, rng_seed=4).record()
    with pytest.raises(R.ReplayError, match=named):
        R.check_record(dict(record, **change))


def test_a_missing_field_is_named():
    record = play_random("nigejozu", seed=4, rng_seed=4).record()
    del record["seed"]
    with pytest.raises(R.ReplayError, match=r"lacks field\(s\) \['seed'\]"):
        R.check_record(record)


def test_load_names_the_file_and_the_problem(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(R.ReplayError, match="bad.json: not a replay file"):
        R.load(bad)
    with pytest.raises(R.ReplayError, match="no such file"):
        R.load(tmp_path / "missing.json")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_aec_env_seeded_reset_is_reproduced_from_its_record(name):
    env = ninja_slayer_raw_env() if name not in GAMES else make_raw(name)
    rec = R.AECRecorder(env)
    rec.reset(seed=31)
    rng = np.random.default_rng(0)
    for agent in rec.agent_iter():
        _, _, term, trunc, info = rec.last()
        rec.step(None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"]))))
    record = rec.record()
    assert record["seed"] != 31  # the game seed the env derived, not the reset seed
    final = R.final_state(record, game=env.game)
    assert final.equals(env.state_batch)
    # And an env reset with the same seed deals the same game as the record's start.
    again = make_raw(name) if name in GAMES else ninja_slayer_raw_env()
    again.reset(seed=31)
    assert again.state_batch.equals(R.start(env.game, record["seed"]))


def test_an_unseeded_aec_reset_is_recorded_with_a_seed():
    env = make_raw("nigejozu")
    rec = R.AECRecorder(env)
    rec.reset()
    rng = np.random.default_rng(1)
    for _ in range(10):
        rec.step(int(rng.choice(np.flatnonzero(rec.last()[4]["action_mask"]))))
    assert R.final_state(rec.record()).equals(env.state_batch)


def test_to_arrays_gives_each_seats_decisions_and_the_final_reward():
    game = make_game("nigejozu")
    records = [play_random("nigejozu", seed=s, rng_seed=s).record() for s in (1, 2)]
    seats = R.to_arrays(records, game)
    total = sum(len(s["actions"]) for s in seats)
    assert total == sum(len(r["actions"]) for r in records)
    for p, s in enumerate(seats):
        n = len(s["actions"])
        assert s["observations"].shape == (n, *game.observation_shape) and s["observations"].dtype == np.float32
        assert s["masks"][np.arange(n), s["actions"]].all()  # every recorded action was legal for that seat
        assert s["dones"].sum() == len(records)  # one last decision per game
    # nigejozu is zero-sum (its rules): each game's returns over the seats sum to 0.
    for e in range(len(records)):
        returns = [s["rewards"][s["episodes"] == e].sum() for s in seats]
        assert abs(sum(returns)) < 1e-5 and max(abs(x) for x in returns) > 0
    # Observations are the acting seat's: replaying to that step and observing gives the same row.
    states = [st for st, _ in R.replay(records[0], game)]
    s1 = seats[1]
    i = int(np.flatnonzero(s1["episodes"] == 0)[0])
    assert np.array_equal(s1["observations"][i], game.observe(states[s1["steps"][i]], 1)[0])
    json.dumps(records)  # records are plain JSON


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_game_started_from_a_position_replays(name):
    mid = play_random(name, seed=8, rng_seed=8)
    states = [st for st, _ in R.replay(mid.record(), mid.game)]
    position = mid.game.to_position(states[len(states) // 2], 0)
    env = ninja_slayer_raw_env() if name not in GAMES else make_raw(name)
    rec = R.AECRecorder(env)
    rec.reset(seed=12, options={"position": position})
    rng = np.random.default_rng(4)
    while not env.state_batch.done[0]:
        rec.step(int(rng.choice(np.flatnonzero(rec.last()[4]["action_mask"]))))
    record = json.loads(json.dumps(rec.record()))
    assert record["position"] == json.loads(json.dumps(position))
    assert R.final_state(record, game=env.game).equals(env.state_batch)
