"""The self-play vector faces over the ninja_daifugo core."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.policy import RandomPolicy, random_legal
from yuugi.envs import make_game
from yuugi.envs.core.errors import IllegalActionError
from yuugi.envs.faces.vector import GymSelfPlayVectorEnv


def test_gym_vector_env_runs_and_resets_episodes():
    game = make_game("ninja_daifugo", series_games=1)
    env = GymSelfPlayVectorEnv(game, 8, RandomPolicy(), learner_seat="rotate", seed=0)
    obs, info = env.reset(seed=1)
    obs_size = game.observation_shape[0]  # the game's declared observation, whatever its size
    assert obs.shape == (8, obs_size) and info["action_mask"].shape == (8, 2389)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        mask = info["action_mask"]
        assert mask.any(axis=1).all()
        # The learner is to play in every env after each step.
        assert (env.batch.state.to_play == env.batch.learner).all()
        obs, rew, term, trunc, info = env.step(random_legal(mask, rng))
        if term.any():
            finished += int(term.sum())
            # Zero-sum single games: the learner's final reward is one of the position rewards.
            expected = np.array([1, 1 / 3, -1 / 3, -1])
            assert np.isclose(rew[term][:, None], expected[None], atol=1e-6).any(axis=1).all()
            assert (info["_final_obs"] == term).all()  # Gymnasium 1.x: object array + mask
            assert all(o.shape == (obs_size,) for o in info["final_obs"][term])
    assert finished > 0


def test_vector_env_rejects_illegal_learner_action():
    game = make_game("ninja_daifugo", series_games=1)
    env = GymSelfPlayVectorEnv(game, 2, RandomPolicy(), learner_seat=0, seed=0)
    _, info = env.reset()
    bad = np.array([int(np.flatnonzero(~info["action_mask"][0])[0]), 0])
    with pytest.raises(IllegalActionError):
        env.step(bad)


def test_same_seed_same_trajectory():
    def run():
        env = GymSelfPlayVectorEnv(make_game("ninja_daifugo", series_games=1), 4, RandomPolicy(), seed=7)
        obs, info = env.reset(seed=7)
        rng = np.random.default_rng(1)
        total = 0.0
        for _ in range(100):
            obs, rew, *_rest, info = env.step(random_legal(info["action_mask"], rng))
            total += float(rew.sum())
        return obs, total

    (o1, t1), (o2, t2) = run(), run()
    np.testing.assert_array_equal(o1, o2)
    assert t1 == t2


def test_sb3_vec_env_with_maskable_ppo():
    from sb3_contrib import MaskablePPO
    from yuugi.training.train.sb3_vec import SB3SelfPlayVecEnv

    env = SB3SelfPlayVecEnv(make_game("ninja_daifugo", series_games=1), 4, RandomPolicy(), seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]})
    model.learn(64)
    masks = env.action_masks()
    actions, _ = model.predict(env.reset(), action_masks=masks)
    assert masks[np.arange(4), actions].all()
