"""Export an RLlib-trained :class:`~yuugi.training.rllib.modules.MaskedMLPModule` to the numpy ``.npz`` format.

The module's actor (``pi``: linear layers with one activation between them) is what
:class:`yuugi.agents.mlp.MLPPolicy` runs, so the file is the same format 3 file ``yuugi train`` writes,
signed for the game and rules it was trained on: it plays as a CPU (``yuugi play --opponent``) and
rates with ``yuugi eval GAME --policy NAME=FILE.npz``, with numpy only.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import numpy as np

from yuugi.agents.mlp import MLPPolicy


def policy_from_module(module: Any, game: Any, rules: Mapping[str, Any] | None = None,
                       meta: Mapping[str, Any] | None = None) -> MLPPolicy:
    """The numpy policy of ``module``'s actor, signed for ``game`` (a built BatchGame) under ``rules``."""
    import torch

    layers = [m for m in module.pi if isinstance(m, torch.nn.Linear)]
    weights = [layer.weight.detach().cpu().numpy().T.copy() for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().copy() for layer in layers]
    return MLPPolicy(weights, biases, module.activation, dict(meta or {})).for_game(game, rules)


def max_logit_error(module: Any, exported: MLPPolicy, observation: np.ndarray, mask: np.ndarray) -> float:
    """Largest |numpy − torch| difference of the legal actions' logits over a batch."""
    import torch

    with torch.no_grad():
        ref = module.pi(torch.as_tensor(observation, dtype=torch.float32)).numpy()
    return float(np.abs(np.where(mask, exported.logits(observation) - ref, 0.0)).max())


def export(module: Any, game_name: str, rules: Mapping[str, Any] | None, meta: Mapping[str, Any],
           path: str | Path) -> MLPPolicy:
    """Write ``module``'s actor to ``path`` (checked against the torch network on real positions)."""
    from yuugi.envs import make_game

    game = make_game(game_name, **dict(rules or {}))
    policy = policy_from_module(module, game, rules, meta)
    state = game.init(np.arange(64))
    observation, mask = game.observe(state, state.to_play), game.legal_mask(state)
    error = max_logit_error(module, policy, observation, mask)
    if not error < 1e-3:
        raise RuntimeError(f"the exported actor differs from the trained one by {error:g} in a logit")
    policy.save(path)
    return policy
