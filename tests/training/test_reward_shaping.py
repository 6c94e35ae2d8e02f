"""Potential-based reward shaping (yuugi.training.train.shaping): it pays damage as it happens, yet over each game it
telescopes to the game's own reward, so the policies it favours are the terminal reward's."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3.common.vec_env import VecEnvWrapper  # noqa: E402

from yuugi.agents.registry import heuristic  # noqa: E402
from yuugi.envs import make_game  # noqa: E402
from yuugi.training.train.sb3_vec import SB3SelfPlayVecEnv  # noqa: E402
from yuugi.training.train.shaping import ShapedRewardVecEnv, ninja_slayer_damage_potential  # noqa: E402

RULES = {"decks": "any"}


class _Raw(VecEnvWrapper):
    """Keeps the unshaped rewards of the last step (the wrapper under test sits on top)."""

    def reset(self):
        return self.venv.reset()

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        self.rewards = np.asarray(rewards, dtype=np.float64).copy()
        return obs, rewards, dones, infos

    def action_masks(self):
        return self.venv.action_masks()


def _play(gamma: float, scale: float, num_envs: int = 8, steps: int = 400):
    """Heuristic learner against the heuristic; per finished episode: shaped and raw discounted sums."""
    game = make_game("ninja_slayer", **RULES)
    base = SB3SelfPlayVecEnv(game, num_envs, [heuristic("ninja_slayer", **RULES)], seed=11)
    raw = _Raw(base)
    env = ShapedRewardVecEnv(raw, ninja_slayer_damage_potential, gamma, scale)
    learner = heuristic("ninja_slayer", **RULES)
    rng = np.random.default_rng(0)
    obs = env.reset()
    t = np.zeros(num_envs)
    shaped_sum, raw_sum = np.zeros(num_envs), np.zeros(num_envs)
    start = scale * ninja_slayer_damage_potential(obs)  # Φ(s0) of each env's current game
    episodes, mid_game_shaping = [], 0
    for _ in range(steps):
        # Before the step: the potential read from the observation is the state's damage difference.
        st, seat = base.batch.state, base.batch.learner
        rows = np.arange(num_envs)
        dmg = (st.dmg_up + st.dmg_down).astype(np.float64)  # [B, 2] cards in each seat's damage zone
        expected = (dmg[rows, 1 - seat] - dmg[rows, seat]) / 10.0
        np.testing.assert_allclose(ninja_slayer_damage_potential(obs), expected)
        obs, shaped, dones, infos = env.step(learner.act(obs, env.action_masks(), rng))
        mid_game_shaping += int(np.sum((shaped != raw.rewards) & ~dones))
        shaped_sum += gamma ** t * shaped
        raw_sum += gamma ** t * raw.rewards
        t += 1
        for i in np.flatnonzero(dones):
            episodes.append((shaped_sum[i], raw_sum[i], infos[i]["episode"]["r"], start[i]))
            shaped_sum[i] = raw_sum[i] = t[i] = 0.0
            start[i] = scale * ninja_slayer_damage_potential(obs[i:i + 1])[0]  # the next game's first state
    return episodes, mid_game_shaping


@pytest.mark.parametrize("gamma", [1.0, 0.97])
def test_shaping_telescopes_to_the_terminal_reward(gamma):
    episodes, mid_game_shaping = _play(gamma, scale=0.5)
    assert len(episodes) >= 8, "the test should see whole games"
    assert mid_game_shaping > 0, "damage during a game should be paid before its end"
    shaped, raw, returns, start = np.array(episodes).T
    # Every game's (discounted) shaped return is its (discounted) unshaped one less Φ(s0) (Φ = 0 at the
    # end); Φ(s0) is 0 unless the opponent, moving first, burned the learner before its first decision.
    # With γ = 1 the unshaped return is the game's result itself: +1 won, −1 lost (0 drawn).
    assert np.all(start <= 0.0)
    np.testing.assert_allclose(shaped, raw - start, atol=1e-5)
    if gamma == 1.0:
        np.testing.assert_allclose(shaped, returns - start, atol=1e-5)
        assert set(np.round(returns).tolist()) <= {-1.0, 0.0, 1.0}


def test_shaping_is_off_by_default_and_recorded_when_on(tmp_path):
    pytest.importorskip("sb3_contrib")
    from yuugi.agents.mlp import MLPPolicy
    from yuugi.training.train.selfplay import TrainConfig, train

    assert TrainConfig(game="ninja_slayer").shaping == 0.0  # off unless asked for
    assert TrainConfig.for_game("nigejozu").shaping == 0.0
    assert TrainConfig.for_game("ninja_slayer").shaping == 0.3  # its defaults: how its hard was trained
    cfg = TrainConfig.for_game("ninja_slayer", total_steps=16, num_envs=4, n_steps=4, batch_size=16, n_epochs=1,
                               net_arch=(8,), vf_net_arch=(4,), shaping=0.5, progress=False, seed=1)
    result = train(cfg, tmp_path)
    meta = MLPPolicy.load(result["weights"]).meta
    assert meta["config"]["shaping"] == 0.5
    assert "potential-based" in meta["reward_shaping"]
