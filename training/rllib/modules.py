"""The RLModules a yuugi self-play run plays with on RLlib's new API stack.

:class:`MaskedMLPModule` is the learner (and its frozen snapshots): a plain MLP actor and a separate
MLP critic over the game's observation, with illegal actions' logits pushed to the float minimum
(RLlib's action-masking pattern: the mask travels in the observation dict). Its actor is exactly
what :class:`yuugi.agents.mlp.MLPPolicy` runs — hidden layers with one activation, then a linear head —
so it exports to the numpy ``.npz`` format without translation (:mod:`yuugi.training.rllib.export`).

:class:`CpuLevelModule` seats a shipped CPU level (``yuugi.agents.registry.cpu``) as an RLlib module: it
returns actions directly (no distribution, never trained), so the learner's opponents can be
mapped to it by the policy mapping like any other module.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}


def mlp(sizes: list[int], activation: str) -> torch.nn.Sequential:
    """Linear layers through ``sizes`` with ``activation`` between them (none after the last)."""
    layers: list[torch.nn.Module] = []
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(torch.nn.Linear(n_in, n_out))
        if i < len(sizes) - 2:
            layers.append(ACTIVATIONS[activation]())
    return torch.nn.Sequential(*layers)


class MaskedMLPModule(TorchRLModule, ValueFunctionAPI):
    """PPO actor-critic with action masking; ``model_config``: ``hidden`` (layer widths) and ``activation``.

    The critic is built on env runners too (it is small), so the same weights load everywhere.
    """

    def setup(self) -> None:
        hidden = list(self.model_config.get("hidden", (128, 128)))
        activation = self.model_config.get("activation", "tanh")
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
        obs_size = int(np.prod(self.observation_space["observations"].shape))
        self.activation = activation
        self.pi = mlp([obs_size, *hidden, int(self.action_space.n)], activation)
        self.vf = mlp([obs_size, *hidden, 1], activation)
        # PPO's usual start (as SB3 does): orthogonal weights, gain sqrt(2) in the hidden layers, 0.01 in
        # the policy head (near uniform over the legal actions), 1 in the value head; zero biases.
        for net, head_gain in ((self.pi, 0.01), (self.vf, 1.0)):
            linear = [m for m in net if isinstance(m, torch.nn.Linear)]
            for i, layer in enumerate(linear):
                torch.nn.init.orthogonal_(layer.weight, gain=head_gain if i == len(linear) - 1 else 2 ** 0.5)
                torch.nn.init.zeros_(layer.bias)

    def _masked_logits(self, batch: dict[str, Any]) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        logits = self.pi(obs["observations"])
        return {Columns.ACTION_DIST_INPUTS: logits.masked_fill(obs["action_mask"] < 0.5, FLOAT_MIN)}

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked_logits(batch)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked_logits(batch)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.vf(batch[Columns.OBS]["observations"]).squeeze(-1)


class CpuLevelModule(RLModule):
    """A shipped CPU level as a frozen RLlib module; ``model_config``: ``game``, ``level``, ``rules``, ``seed``."""

    def setup(self) -> None:
        from yuugi.agents.registry import cpu

        cfg = self.model_config
        self.policy = cpu(cfg["game"], cfg["level"], **dict(cfg.get("rules") or {}))
        self.rng = np.random.default_rng(cfg.get("seed", 0))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        observation = np.asarray(_numpy(obs["observations"]), dtype=np.float32)
        mask = np.asarray(_numpy(obs["action_mask"])) > 0.5
        return {Columns.ACTIONS: np.asarray(self.policy.act(observation, mask, self.rng), dtype=np.int64)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError("a CPU level is never trained (keep it out of policies_to_train)")

    def get_state(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return {}

    def set_state(self, state: dict[str, Any]) -> None:
        pass


def _numpy(x: Any) -> np.ndarray:
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)
