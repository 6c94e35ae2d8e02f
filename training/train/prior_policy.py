"""Prior-guided MaskablePPO (residual policy learning) on top of an action prior of :mod:`yuugi.agents.priors`.

The learner's observation is widened with the prior (``PriorObsVecEnv``), the policy network reads
all of it, and the action head reads the last hidden layer *and* the prior (``PriorMlpExtractor``).
The head's prior columns start as ``gain`` times the identity, so the untrained policy already plays
the prior's choices (softened: an action ``d`` prior units behind the best is ``e^(gain·d)`` times
less likely) and PPO learns where to deviate. This is the layout :class:`yuugi.agents.mlp.MLPPolicy`
runs from an exported ``.npz`` with its ``prior`` field set.

With ``prior_head="diagonal"`` the prior columns stay diagonal (one learned gain per action,
:class:`DiagonalPriorHead`): for a large action space (ninja_daifugo's 2,389) a full A×A map would
be most of the network's cost and of its exported file, while a diagonal block exports as zeros
that compress to nearly nothing.
"""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from yuugi.agents.priors import FLOOR, Prior


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


class DiagonalPriorHead(torch.nn.Module):
    """Logits = ``Linear(hidden) + gain ⊙ prior``, a per-action gain instead of a full A×A map.

    ``weight`` and ``bias`` read as the equivalent ``nn.Linear`` over ``concat(hidden, prior)`` (the
    prior block is ``diag(gain)``), which is what the exporter writes.
    """

    def __init__(self, hidden_dim: int, num_actions: int, gain: float) -> None:
        super().__init__()
        self.num_actions = num_actions
        self.hidden = torch.nn.Linear(hidden_dim, num_actions)
        self.gain = torch.nn.Parameter(torch.full((num_actions,), float(gain)))

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        n = self.num_actions
        return self.hidden(latent[:, :-n]) + latent[:, -n:] * self.gain

    @property
    def weight(self) -> torch.Tensor:
        return torch.cat([self.hidden.weight, torch.diag(self.gain)], dim=1)

    @property
    def bias(self) -> torch.Tensor:
        return self.hidden.bias

    def load_linear(self, weight: np.ndarray, bias: np.ndarray) -> None:
        """Copy an exported ``[hidden + A, A]`` head (its prior block must be diagonal)."""
        n = self.num_actions
        block = weight[-n:]
        if np.any(block - np.diag(np.diag(block))):
            raise ValueError("the exported head's prior block is not diagonal: train it with prior_head='full'")
        with torch.no_grad():
            self.hidden.weight.copy_(torch.as_tensor(weight[:-n].T))
            self.hidden.bias.copy_(torch.as_tensor(bias))
            self.gain.copy_(torch.as_tensor(np.diag(block).copy()))


PRIOR_HEADS = ("full", "diagonal")


class PriorMaskablePolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy with the action prior wired into the action head."""

    def __init__(self, *args: Any, prior_name: str, prior_gain: float = 4.0, prior_head: str = "full",
                 **kwargs: Any) -> None:
        if prior_head not in PRIOR_HEADS:
            raise ValueError(f"unknown prior_head {prior_head!r}; choose from: {', '.join(PRIOR_HEADS)}")
        self.prior_name = prior_name  # the yuugi.agents.priors name, written into the exported .npz
        self.prior_gain = prior_gain
        self.prior_head = prior_head
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = PriorMlpExtractor(self.features_dim, int(self.action_space.n), net_arch=self.net_arch,
                                               activation_fn=self.activation_fn, device=self.device)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        n = int(self.action_space.n)
        if self.prior_head == "diagonal":
            hidden = self.mlp_extractor.latent_dim_pi - n
            self.action_net = DiagonalPriorHead(hidden, n, self.prior_gain)
            self.action_net.hidden.apply(lambda m: self.init_weights(m, gain=0.01))  # SB3's action-net init
            # The optimizer was made over the replaced head's parameters: make it again.
            self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
            return
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
