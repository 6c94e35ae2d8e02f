"""The single-agent env with the tools people already use: sb3-contrib's MaskablePPO and ActionMasker,
and PettingZoo's SB3 action-mask tutorial path over our AEC env."""
from __future__ import annotations

import math

import gymnasium
import numpy as np
import pettingzoo
import pettingzoo.utils
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.wrappers import ActionMasker

from envs.core.single_agent import register_envs, single_agent

register_envs()  # idempotent; envs may already have done it at import
torch.set_num_threads(1)


class AECAsSingleAgent(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """The wrapper of PettingZoo's SB3 action-mask tutorial (Connect Four), in its current form.

    It turns an AEC env into a single-agent env where one model plays every seat: ``step`` returns the
    next agent's observation and the reward of the agent that moved. Subclassing ``gymnasium.Env`` as
    well as ``BaseWrapper`` is what lets sb3-contrib's ``ActionMasker`` (a ``gymnasium.Wrapper``)
    accept it; without it ActionMasker raises "Expected env to be a gymnasium.Env".
    """

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action):
        mover = self.agent_selection
        super().step(action)
        return (self.observe(self.agent_selection), self._cumulative_rewards[mover], self.terminations[mover],
                self.truncations[mover], self.infos[mover])

    def observe(self, agent):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


def test_pettingzoo_action_mask_tutorial_path_trains_and_plays_on_our_aec_env():
    env = AECAsSingleAgent(pettingzoo.make("aec", "yuugi/nigejozu-v0"))
    env.reset(seed=0)  # the tutorial resets once to define the spaces
    env = ActionMasker(env, lambda e: e.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=128, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    # the tutorial's evaluation loop: the model plays one seat, random actions the other
    aec = pettingzoo.make("aec", "yuugi/nigejozu-v0")
    finished = 0
    for game in range(3):
        aec.reset(seed=game)
        aec.action_space(aec.possible_agents[0]).seed(game)
        for agent in aec.agent_iter():
            obs, reward, termination, truncation, info = aec.last()
            observation, action_mask = obs.values()
            if termination or truncation:
                finished += 1
                assert sorted(aec.rewards.values()) == [-1.0, 1.0]
                break
            if agent == aec.possible_agents[0]:
                action = aec.action_space(agent).sample(action_mask)
            else:
                action = int(model.predict(observation, action_masks=action_mask, deterministic=True)[0])
                assert action_mask[action] == 1
            aec.step(action)
    assert finished == 3


def test_sb3_contrib_action_masker_over_the_single_agent_env():
    env = ActionMasker(single_agent("nigejozu", opponents="normal"), lambda e: e.action_masks())
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=128, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]


def test_sb3_make_vec_env_builds_the_registered_ids():
    # make_vec_env asks for render_mode="rgb_array" and retries without it on a TypeError
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("yuugi/nigejozu-v0", n_envs=2, env_kwargs={"opponent": "random"}, seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (2, 29) and masks.any(axis=1).all()
