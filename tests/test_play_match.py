"""Seat agents and play N games in one call; one CPU decision inside an AEC loop (issue 38, item 5)."""
from __future__ import annotations

import numpy as np
import pytest

import yuugi
from yuugi.envs.core.errors import CallError, IllegalActionError, OptionError


def first_legal(observation, mask, rng):
    return mask.argmax(axis=1)


def test_normal_beats_random_and_each_seat_gets_its_results():
    result = yuugi.play_match("nigejozu", ["normal", "random"], games=200, seed=0)
    assert result.games == 200 and result.agents == ("hojo", "ashikaga") and result.policies == ("normal", "random")
    means, wins = result.mean_returns(), result.win_shares()
    assert means["hojo"] > 0.5 and wins["hojo"] > 0.8  # the heuristic wins most games against random play
    assert means["hojo"] + means["ashikaga"] == pytest.approx(0)  # nigejozu pays +1 / -1
    assert wins["hojo"] + wins["ashikaga"] == pytest.approx(1)
    lo, hi = result.rows()[0]["ci95"]
    assert lo < means["hojo"] < hi
    assert "hojo" in str(result) and "normal" in str(result)


def test_game_g_is_the_one_the_aec_env_deals_after_reset_with_seed_plus_g():
    result = yuugi.play_match("nigejozu", [first_legal, first_legal], games=3, seed=5)
    for g in range(3):
        env = yuugi.make("nigejozu")
        env.reset(seed=5 + g)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        assert list(result.returns[g]) == [totals[a] for a in env.possible_agents]


def test_agents_by_name_and_an_env_built_with_its_rules():
    env = yuugi.make("momotaro", num_players=2)
    result = yuugi.play_match(env, {"player_1": "random", "player_0": "normal"}, games=20, seed=1)
    assert result.policies == ("normal", "random") and result.returns.shape == (20, 2)
    with pytest.raises(OptionError, match=r"no agent for \['player_1'\]"):
        yuugi.play_match(env, {"player_0": "normal"})
    with pytest.raises(OptionError, match=r"'hero' is not one of the seats \['player_0', 'player_1'\]"):
        yuugi.play_match(env, {"hero": "normal", "player_1": "random"})
    with pytest.raises(OptionError, match="seats 2"):
        yuugi.play_match(env, ["normal"] * 3)
    with pytest.raises(OptionError, match="belong to the game"):
        yuugi.play_match(env, ["normal", "random"], num_players=2)
    with pytest.raises(OptionError, match=r"seat 1 \(player_1\).*grandmaster"):
        yuugi.play_match("momotaro", ["normal", "grandmaster", "random", "random"])


def test_a_cpu_level_plays_inside_an_aec_loop_with_act_one():
    env = yuugi.make("nigejozu")
    env.reset(seed=3)
    cpu = yuugi.cpu("nigejozu", "normal")
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = yuugi.act_one(cpu, obs)
        assert obs["action_mask"][action] == 1
        assert action == yuugi.act_one(cpu, obs["observation"], obs["action_mask"])  # the array and mask alike
        env.step(action)
        decisions += 1
    assert decisions > 10


def test_act_one_names_what_it_needs():
    env = yuugi.make("nigejozu")
    env.reset(seed=0)
    obs = env.last()[0]
    with pytest.raises(CallError, match="1-D"):
        yuugi.act_one(yuugi.cpu("nigejozu", "random"), obs["observation"][None], obs["action_mask"][None])
    with pytest.raises(CallError, match="needs the legal mask"):
        yuugi.act_one(yuugi.cpu("nigejozu", "random"), obs["observation"])
    with pytest.raises(OptionError, match=r"yuugi.cpu\(game, 'normal'\)"):
        yuugi.act_one("normal", obs)
    with pytest.raises(IllegalActionError, match="chose it"):
        yuugi.act_one(lambda o, m, r: np.array([28]), obs)  # 28 is not legal at the start
    with pytest.raises(CallError, match="pass env="):
        yuugi.act_one(yuugi.cpu("nigejozu", "expert"), obs)
