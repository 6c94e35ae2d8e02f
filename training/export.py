"""Export a trained MaskablePPO actor to the numpy ``.npz`` format of :mod:`agents.mlp`."""
from __future__ import annotations

from typing import Any

import numpy as np

from agents.mlp import MLPPolicy


def policy_from_model(model: Any, meta: dict[str, Any] | None = None) -> MLPPolicy:
    """The actor of an SB3 (Maskable)PPO ``MlpPolicy``: mlp_extractor.policy_net then action_net.

    A :class:`~training.prior_policy.PriorMaskablePolicy` exports with its prior's name.
    """
    import torch

    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    layers.append(policy.action_net)
    acts = {type(m).__name__ for m in policy.mlp_extractor.policy_net if not isinstance(m, torch.nn.Linear)}
    if acts - {"Tanh", "ReLU"} or len(acts) > 1:
        raise ValueError(f"only Tanh or ReLU MLPs can be exported, found {sorted(acts)}")
    activation = "relu" if acts == {"ReLU"} else "tanh"
    weights = [layer.weight.detach().cpu().numpy().T.copy() for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().copy() for layer in layers]
    return MLPPolicy(weights, biases, activation, meta, prior=getattr(policy, "prior_name", None))


def max_logit_error(model: Any, exported: MLPPolicy, observation: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Largest |numpy − torch| difference of the raw action-net outputs over a batch.

    ``observation`` is the game's; for a prior-guided policy the torch side gets it widened with the
    prior, which needs the legal ``mask``.
    """
    import torch

    widened = observation
    if exported.prior is not None:
        from agents.priors import make_prior

        widened = np.concatenate([observation, make_prior(exported.prior)(observation, mask)], axis=1)
    with torch.no_grad():
        obs = torch.as_tensor(widened, dtype=torch.float32)
        features = model.policy.extract_features(obs, model.policy.pi_features_extractor)
        latent = model.policy.mlp_extractor.forward_actor(features)
        ref = model.policy.action_net(latent).cpu().numpy()
    return float(np.abs(exported.logits(observation, mask) - ref).max())
