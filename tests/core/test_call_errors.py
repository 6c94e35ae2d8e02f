"""Actions are integers, calls fit the batch, and an env used before a successful reset says so
(issue 11, "Actions and calls"). Every bad call leaves the state as it was."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs import available_games, make, make_game, make_raw
from yuugi.envs.core.errors import ActionTypeError, CallError, IllegalActionError, NotResetError

GAMES = available_games()
NOT_INTEGERS = [3.7, 1.0, "3", True, False, np.float64(2.0), np.bool_(True), np.array(1.0), np.array([2.0]),
                1 + 0j, [1]]


def _fresh_env(name: str):
    env = make_raw(name)
    env.reset(seed=3)
    return env


def _legal(env) -> int:
    return int(np.flatnonzero(env.infos[env.agent_selection]["action_mask"])[0])


# ---- actions: the raw AEC env ---------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("action", NOT_INTEGERS, ids=repr)
def test_aec_refuses_actions_that_are_not_integers(name, action):
    env = _fresh_env(name)
    before, agent = env.state(), env.agent_selection
    with pytest.raises(ActionTypeError) as err:
        env.step(action)
    assert isinstance(err.value, IllegalActionError) and isinstance(err.value, TypeError)
    assert f"0..{env.game.num_actions - 1}" in str(err.value)
    assert repr(action) in str(err.value) or "dtype" in str(err.value)
    assert env.state() == before and env.agent_selection == agent  # nothing changed


@pytest.mark.parametrize("name", GAMES)
def test_aec_refuses_the_legal_action_as_float_string_and_bool(name):
    # int() would have played these: 3.7 -> 3, "3" -> 3, True -> 1.
    env = _fresh_env(name)
    a = _legal(env)
    for disguised in (a + 0.7, str(a), float(a)) + ((True,) if a == 1 else ()):
        with pytest.raises(ActionTypeError):
            env.step(disguised)


@pytest.mark.parametrize("name", GAMES)
def test_aec_takes_python_and_numpy_integers_alike(name):
    reference = _fresh_env(name)
    a = _legal(reference)
    reference.step(a)
    for same in (np.int64(a), np.int8(a), np.uint16(a), np.array(a), np.array(a, dtype=np.int32)):
        env = _fresh_env(name)
        env.step(same)
        assert env.state() == reference.state()


@pytest.mark.parametrize("name", GAMES)
def test_aec_refuses_an_array_holding_one_action(name):
    # np.array([a]) is a batch of one action (what a batched policy returns), not an action: the README
    # promises that anything but an integer raises, so it is refused with what to pass instead.
    env = _fresh_env(name)
    a = _legal(env)
    before = env.state()
    for batch in (np.array([a]), np.array([a], dtype=np.int32), np.array([[a]])):
        with pytest.raises(ActionTypeError, match=r"batch of actions.*int\(a\[0\]\)"):
            env.step(batch)
        assert env.state() == before


# ---- actions: the core's step -------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_core_step_refuses_non_integer_action_arrays(name):
    game = make_game(name)
    state = game.init([1, 2])
    legal = game.legal_mask(state).argmax(axis=1)
    before = state.copy()
    for bad in (legal.astype(np.float64), legal.astype(np.float32) + 0.5, legal.astype(bool),
                legal.astype(str), [int(legal[0]), True], [float(legal[0]), float(legal[1])]):
        with pytest.raises(ActionTypeError) as err:
            game.step(state, bad)
        assert f"0..{game.num_actions - 1}" in str(err.value)
        assert state.equals(before)
    for fine in (legal.astype(np.int32), legal.astype(np.uint16), legal.tolist()):
        st = before.copy()
        game.step(st, fine)
        expected = before.copy()
        game.step(expected, legal.astype(np.int64))
        assert st.equals(expected)


@pytest.mark.parametrize("name", GAMES)
def test_core_step_refuses_an_active_mask_of_another_length(name):
    game = make_game(name)
    state = game.init([1, 2])
    legal = game.legal_mask(state).argmax(axis=1)
    before = state.copy()
    for active in (np.array([True]), np.array([True, True, True]), np.array([1, 0]), np.array([[True, True]])):
        with pytest.raises(CallError, match="active"):
            game.step(state, legal, active)
        assert state.equals(before)
    with pytest.raises(CallError, match="expected 2 actions"):
        game.step(state, legal[:1])


# ---- observe, init, from_position ---------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_observe_refuses_a_seat_out_of_range(name):
    game = make_game(name)
    state = game.init([0, 1])
    players = game.num_players
    for seat in (players, -1, np.int64(players), np.array([0, players]), np.array([-1, 0])):
        with pytest.raises(CallError, match="seat") as err:
            game.observe(state, seat)
        assert f"0..{players - 1}" in str(err.value)
    for seat in (1.0, "0", np.array([0.0, 1.0]), np.array([0, 1, 0])):
        with pytest.raises(CallError, match="seat"):
            game.observe(state, seat)
    # In range: one seat for all, or one per game.
    assert game.observe(state, players - 1).shape == (2, *game.observation_shape)
    assert game.observe(state, np.array([0, players - 1])).shape == (2, *game.observation_shape)


@pytest.mark.parametrize("name", GAMES)
def test_init_needs_seeds_for_at_least_one_game(name):
    game = make_game(name)
    with pytest.raises(CallError, match="at least one game"):
        game.init([])
    for bad in ([-1], [1.5], [True, False], [2**64], np.zeros((2, 2), dtype=np.int64)):
        with pytest.raises(CallError, match="seeds"):
            game.init(bad)
    assert game.init(np.array([2**64 - 1], dtype=np.uint64)).batch_size == 1


@pytest.mark.parametrize("name", GAMES)
def test_from_position_refuses_a_seed_out_of_range(name):
    game = make_game(name)
    position = game.to_position(game.init([5]), 0)
    for seed in (-1, 2**64, 1.5, True, "3"):
        with pytest.raises(CallError, match="seed"):
            game.from_position(position, seed=seed)
    assert game.to_position(game.from_position(position, seed=2**64 - 1), 0) == position


@pytest.mark.parametrize("name", GAMES)
def test_state_from_positions_needs_one_seed_per_position_and_a_position(name):
    game = make_game(name)
    position = game.to_position(game.init([5]), 0)
    with pytest.raises(CallError, match="at least one game"):
        game.state_from_positions([])
    with pytest.raises(CallError, match="one seed per position"):
        game.state_from_positions([position], seeds=[1, 2])  # zip() would have dropped the second seed
    assert game.state_from_positions([position, position]).batch_size == 2


# ---- the AEC env before a successful reset ---------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_aec_used_before_reset_says_call_reset_first(name):
    env = make_raw(name)
    agent = env.possible_agents[0]
    for call in (lambda: env.step(0), lambda: env.observe(agent), lambda: env.last(), lambda: env.state(),
                 lambda: env.agent_iter(), lambda: env.agent_selection, lambda: env.agents):
        with pytest.raises(NotResetError, match=r"call reset\(\) first"):
            call()
    assert not hasattr(env, "agent_selection")  # still an AttributeError, for code that probes


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("wrapped", [False, True])
def test_a_failed_reset_leaves_an_env_that_says_call_reset_first(name, wrapped):
    env = make(name) if wrapped else make_raw(name)
    bad_position = {"game": name, "no_such_field": 1}
    with pytest.raises(ValueError):
        env.reset(options={"position": bad_position})
    agent = env.possible_agents[0]
    for call in (lambda: env.step(0), lambda: env.last(), lambda: env.observe(agent)):
        with pytest.raises(NotResetError, match=r"call reset\(\) first"):
            call()
    # A later failed reset also ends the game in progress; a good reset then starts a normal one.
    env.reset(seed=1)
    env.last()
    with pytest.raises(ValueError):
        env.reset(options={"position": bad_position})
    with pytest.raises(NotResetError):
        env.last()
    env.reset(seed=1)
    obs, *_ = env.last()
    assert obs["action_mask"].any()


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "7"])
def test_aec_reset_refuses_a_bad_seed(seed):
    env = make_raw("nigejozu")
    with pytest.raises(CallError, match="seed"):
        env.reset(seed=seed)


def test_aec_observe_names_an_unknown_agent():
    env = _fresh_env("nigejozu")
    with pytest.raises(CallError, match="unknown agent 'player_0'") as err:
        env.observe("player_0")
    assert "hojo" in str(err.value)


# ---- the wrapped env: integers are checked before PettingZoo's wrappers see the action -------------
def _wrapped_with_integer_check(name: str):
    """``env()``: PettingZoo's standard wrappers with IntegerActionWrapper inside OrderEnforcingWrapper."""
    from yuugi.envs import make
    from yuugi.envs.faces.aec import IntegerActionWrapper

    env = make(name)
    assert isinstance(env.env, IntegerActionWrapper)  # the check sits right inside OrderEnforcingWrapper
    return env


@pytest.mark.parametrize("action", [True, 3.7, "3", np.float64(0.0), np.array([1.0])], ids=repr)
def test_integer_action_wrapper_refuses_non_integers_first(action):
    env = _wrapped_with_integer_check("nigejozu")
    env.reset(seed=0)
    before = env.state()
    with pytest.raises(ActionTypeError, match="0..28"):
        env.step(action)
    assert env.state() == before


def test_integer_action_wrapper_passes_integers_through():
    from pettingzoo.test import api_test
    env = _wrapped_with_integer_check("nigejozu")
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    env.step(np.int64(legal))
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    agent = env.agent_selection
    env.step(illegal)  # still TerminateIllegalWrapper's business: the game ends, the offender gets -1
    assert env.rewards[agent] == -1 and all(env.terminations.values())
    api_test(_wrapped_with_integer_check("nigejozu"), num_cycles=50)
