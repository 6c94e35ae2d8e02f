"""Prior-guided MaskablePPO (residual policy learning) on top of an action prior of :mod:`agents.priors`.

The learner's observation is widened with the prior (``PriorObsVecEnv``), the policy network reads
all of it, and the action head reads the last hidden layer *and* the prior (``PriorMlpExtractor``).
The head's prior columns start as ``gain`` times the identity, so the untrained policy already plays
the prior's choices (softened: an action ``d`` prior units behind the best is ``e^(gain·d)`` times
less likely) and PPO learns where to deviate. This is the layout :class:`agents.mlp.MLPPolicy`
runs from an exported ``.npz`` with its ``prior`` field set.
"""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from agents.priors import FLOOR, Prior


class PriorMlpExtractor(MlpExtractor):
    """An ``MlpExtractor`` whose actor latent is ``concat(policy_net(features), prior)``.

    The prior is the last ``prior_dim`` features (``PriorObsVecEnv`` appends it).
    """

    def __init__(self, feature_dim: int, prior_dim: int, **kwargs: Any) -> None:
        super().__init__(feature_dim, **kwargs)
        self.prior_dim = prior_dim
        self.latent_dim_pi += prior_dim

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return torch.cat([self.policy_net(features), features[:, -self.prior_dim:]], dim=1)


class PriorMaskablePolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy with the action prior wired into the action head."""

    def __init__(self, *args: Any, prior_name: str, prior_gain: float = 4.0, **kwargs: Any) -> None:
        self.prior_name = prior_name  # the agents.priors name, written into the exported .npz
        self.prior_gain = prior_gain
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = PriorMlpExtractor(self.features_dim, int(self.action_space.n), net_arch=self.net_arch,
                                               activation_fn=self.activation_fn, device=self.device)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        n = int(self.action_space.n)
        with torch.no_grad():  # the head starts as the prior itself (plus the usual tiny random part)
            self.action_net.weight[:, -n:] = self.prior_gain * torch.eye(n)


class PriorObsVecEnv(VecEnvWrapper):
    """Appends ``prior(observation, action_masks())`` to every observation of an SB3 ``VecEnv``."""

    def __init__(self, venv: VecEnv, prior: Prior) -> None:
        self.prior = prior
        inner = venv.observation_space
        n = int(venv.action_space.n)
        low = np.concatenate([np.broadcast_to(inner.low, inner.shape), np.full(n, FLOOR)]).astype(np.float32)
        high = np.concatenate([np.broadcast_to(inner.high, inner.shape), np.zeros(n)]).astype(np.float32)
        super().__init__(venv, observation_space=gymnasium.spaces.Box(low, high, dtype=np.float32))

    def _widen(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.concatenate([obs, self.prior(obs, mask)], axis=1).astype(np.float32, copy=False)

    def reset(self) -> np.ndarray:
        return self._widen(self.venv.reset(), self.action_masks())

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, dones, infos = self.venv.step_wait()
        for info in infos:
            if "terminal_observation" in info:  # a finished game has no legal action: the prior is all FLOOR
                final = info["terminal_observation"][None]
                info["terminal_observation"] = self._widen(final, np.zeros((1, self.action_space.n), bool))[0]
        return self._widen(obs, self.action_masks()), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()  # type: ignore[attr-defined]
