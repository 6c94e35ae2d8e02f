"""A user's AEC mistakes are named (issue 38, item 7): an action out of range says the range, an array
holding one action is refused (the README says anything but an integer raises), and PettingZoo's own
api_test no longer sets off our warning about unknown reset options."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from yuugi.envs import make, make_raw
from yuugi.envs.core.errors import IllegalActionError, OptionError


@pytest.mark.parametrize("factory", [make, make_raw], ids=["env", "raw_env"])
def test_an_action_out_of_range_names_the_action_and_the_range(factory):
    env = factory("nigejozu")  # Discrete(29): actions 0..28
    env.reset(seed=0)
    before, agent = env.state(), env.agent_selection
    for action in (29, 1000, -1, np.int64(29)):
        with pytest.raises(IllegalActionError) as err:
            env.step(action)
        text = str(err.value)
        assert f"illegal action {int(action)}" in text and "0..28" in text, text
        assert not isinstance(err.value, AssertionError)
        assert env.state() == before and env.agent_selection == agent  # the game goes on, untouched
    assert not any(env.terminations.values())


def test_the_wrapped_env_still_ends_the_game_for_a_legal_range_illegal_move():
    env = make("nigejozu")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    agent = env.agent_selection
    env.step(illegal)
    assert env.rewards[agent] == -1 and all(env.terminations.values())


def test_pettingzoo_api_test_sets_off_no_warning_of_ours():
    from pettingzoo.test import api_test

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make("nigejozu"), num_cycles=20)
    ours = [str(w.message) for w in caught if "reset option" in str(w.message)]
    assert ours == []


def test_a_users_unknown_reset_option_is_still_warned_about():
    env = make_raw("nigejozu")
    with pytest.warns(UserWarning, match=r"ignoring unknown reset option\(s\) \['postion'\]"):
        env.reset(seed=0, options={"postion": {}})


def test_options_nested_one_level_too_deep_are_refused():
    env = make_raw("nigejozu")
    env.reset(seed=0)
    position = env.state()
    with pytest.raises(OptionError, match="one level too deep"):
        env.reset(seed=0, options={"options": {"position": position}})
