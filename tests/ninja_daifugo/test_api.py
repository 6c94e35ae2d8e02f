"""PettingZoo conformance of the ninja_daifugo AEC face, and the registry."""
from __future__ import annotations

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

from yuugi.envs import make, make_game, ninja_daifugo_v0
from yuugi.envs.core.errors import IllegalActionError, OptionError


def test_api_test_passes():
    api_test(ninja_daifugo_v0.raw_env(series_games=2), num_cycles=400)


def test_seed_test_passes():
    seed_test(lambda: ninja_daifugo_v0.env(series_games=2), num_cycles=300)


def test_registered_with_pettingzoo():
    env = pettingzoo.make("aec", "yuugi/ninja_daifugo-v0")
    env.reset(seed=1)
    assert env.agent_selection in env.possible_agents


def test_mask_in_observation_and_infos_agree():
    env = ninja_daifugo_v0.raw_env()
    env.reset(seed=3)
    agent = env.agent_selection
    obs = env.observe(agent)
    np.testing.assert_array_equal(obs["action_mask"], env.infos[agent]["action_mask"])
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].sum() > 0
    other = [a for a in env.agents if a != agent][0]
    assert env.observe(other)["action_mask"].sum() == 0


def test_raw_env_rejects_illegal_action_and_keeps_state():
    env = ninja_daifugo_v0.raw_env()
    env.reset(seed=5)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.state()
    with pytest.raises(IllegalActionError, match=str(illegal)):
        env.step(illegal)
    assert env.state() == before


def test_wrapped_env_ends_game_on_illegal_action():
    env = make("ninja_daifugo")
    env.reset(seed=5)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad_agent = env.agent_selection
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[bad_agent] == -1


def test_render_modes():
    env = ninja_daifugo_v0.raw_env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "field" in text and "to play" in text
    with pytest.raises(OptionError):
        ninja_daifugo_v0.raw_env(render_mode="svg")


def test_human_render_prints(capsys):
    env = ninja_daifugo_v0.raw_env(render_mode="human")
    env.reset(seed=0)
    env.render()
    assert "field" in capsys.readouterr().out


def test_reset_from_position():
    game = make_game("ninja_daifugo")
    st = game.init(np.array([11]))
    pos = game.to_position(st, 0)
    env = ninja_daifugo_v0.raw_env()
    env.reset(options={"position": pos})
    assert env.state() == pos


@pytest.mark.parametrize("bad", [{"series_game": 3}, {"declarations": (10,)}, {"pass_lockout": "yes"},
                                 {"reward_scheme": "elo"}, {"series_games": 0}])
def test_bad_options_rejected_with_their_name(bad):
    with pytest.raises(OptionError, match=list(bad)[0]):
        make_game("ninja_daifugo", **bad)


def test_unknown_game():
    with pytest.raises(OptionError, match="unknown game"):
        make_game("shogi")
