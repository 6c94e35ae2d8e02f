"""Export a trained MaskablePPO actor to the numpy ``.npz`` format of :mod:`yuugi.agents.mlp`, and stamp old files.

``python -m yuugi.training.train.export stamp FILE [GAME] [--rule KEY=VALUE ...]`` gives a weights file of
format 1 or 2 the game signature that format 3 requires (:func:`yuugi.agents.weights_format.stamp`): the
game and rules default to the file's own training record, the arrays are checked against that
game's spaces and written back unchanged.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Mapping

import numpy as np

from yuugi.agents.mlp import MLPPolicy


def policy_from_model(model: Any, meta: dict[str, Any] | None = None, game: Any = None,
                      rules: Mapping[str, Any] | None = None) -> MLPPolicy:
    """The actor of an SB3 (Maskable)PPO ``MlpPolicy``: mlp_extractor.policy_net then action_net.

    ``game`` (the built BatchGame it was trained on, with its ``rules``) is recorded in the weights'
    signature. A :class:`~yuugi.training.train.prior_policy.PriorMaskablePolicy` exports with its prior's name.
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
    exported = MLPPolicy(weights, biases, activation, meta, prior=getattr(policy, "prior_name", None))
    return exported.for_game(game, rules) if game is not None else exported


def max_logit_error(model: Any, exported: MLPPolicy, observation: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Largest |numpy − torch| difference of the raw action-net outputs over a batch.

    ``observation`` is the game's; for a prior-guided policy the torch side gets it widened with the
    prior, which needs the legal ``mask``.
    """
    import torch

    widened = observation
    if exported.prior is not None:
        from yuugi.agents.priors import make_prior

        widened = np.concatenate([observation, make_prior(exported.prior)(observation, mask)], axis=1)
    with torch.no_grad():
        obs = torch.as_tensor(widened, dtype=torch.float32)
        features = model.policy.extract_features(obs, model.policy.pi_features_extractor)
        latent = model.policy.mlp_extractor.forward_actor(features)
        ref = model.policy.action_net(latent).cpu().numpy()
    return float(np.abs(exported.logits(observation, mask) - ref).max())


def main(argv: list[str] | None = None) -> int:
    """``python -m yuugi.training.train.export stamp FILE [GAME] [--rule KEY=VALUE ...]``."""
    from yuugi.agents.weights_format import stamp
    from yuugi.envs.core.errors import OptionError

    p = argparse.ArgumentParser(prog="python -m yuugi.training.train.export")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("stamp", help="give a format 1 or 2 weights file its game signature (arrays unchanged)")
    s.add_argument("file")
    s.add_argument("game", nargs="?", help="default: the game of the file's training record")
    s.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="the rule options it was trained with (default: the file's training record)")
    args = p.parse_args(argv)
    rules = None
    if args.rule is not None:
        rules = {}
        for pair in args.rule:
            key, sep, value = pair.partition("=")
            if not sep:
                p.error(f"--rule expects KEY=VALUE, got {pair!r}")
            try:
                rules[key] = json.loads(value)
            except json.JSONDecodeError:
                rules[key] = value
    try:
        signature = stamp(args.file, args.game, rules)
    except OptionError as e:
        print(f"stamp: {e}", file=sys.stderr)
        return 2
    print(f"stamped {args.file}: {signature['game']}, rules {json.dumps(signature['rules'])}, "
          f"layers {signature['layers']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
