"""``MLPPolicy``: runs exported MaskablePPO actor weights with numpy only (no torch needed to play).

The layers ``w0, b0, ..., w{n-1}, b{n-1}`` (the hidden layers then the action head; ``w`` as
[in, out]) apply ``activation`` ("tanh" or "relu") after every layer but the last. The file format,
its game signature and its checks are :mod:`yuugi.agents.weights_format`'s.

With a prior ``p = prior(observation, mask)`` (float32[B, A]), the network reads
``concat(observation, p)`` and its action head reads ``concat(last hidden layer, p)``: the logits
are the network's own plus a learned linear map of the prior (residual policy learning).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import numpy as np

from . import weights_format
from .priors import make_prior
from .weights_format import FORMAT_VERSION, WeightsError

__all__ = ["FORMAT_VERSION", "MLPPolicy", "WeightsError"]
_ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class MLPPolicy:
    """Masked argmax (or sampling) over the logits of an exported actor network."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], activation: str = "tanh",
                 meta: dict[str, Any] | None = None, deterministic: bool = True, name: str = "mlp",
                 prior: str | None = None, signature: Mapping[str, Any] | None = None) -> None:
        if activation not in _ACTIVATIONS:
            raise ValueError(f"activation must be one of {sorted(_ACTIVATIONS)}, got {activation!r}")
        if len(weights) != len(biases) or not weights:
            raise ValueError("weights and biases must be non-empty lists of the same length")
        self.weights = [np.asarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.asarray(b, dtype=np.float32) for b in biases]
        self.activation = activation
        self.meta = dict(meta or {})
        self.deterministic = deterministic
        self.name = name
        self.prior = prior or None
        self._prior_fn = make_prior(prior) if prior else None
        # The game and spaces the network was made for (yuugi.agents.weights_format); None: made for no game.
        self.signature = dict(signature) if signature else None

    @classmethod
    def load(cls, path: str | Path, game: Any = None, rules: Mapping[str, Any] | None = None,
             **kwargs: Any) -> "MLPPolicy":
        """The policy in the weights file ``path``, checked (:class:`WeightsError` names any problem).

        With ``game`` (a name or a built game; ``rules`` are its options when it is a name) the
        weights must also have been made for that game and its spaces.
        """
        found = weights_format.read(path)
        if game is not None:
            if isinstance(game, str):
                from yuugi.envs import make_game

                game = make_game(game, **dict(rules or {}))
            weights_format.check_fits(path, found.signature, game, rules)
        return cls(found.weights, found.biases, found.activation, found.meta, name=kwargs.pop("name", Path(path).stem),
                   prior=found.prior, signature=found.signature, **kwargs)

    def for_game(self, game: Any, rules: Mapping[str, Any] | None = None) -> "MLPPolicy":
        """Record the game (a built BatchGame, built with ``rules``) these weights are made for; returns self."""
        self.signature = weights_format.game_signature(game, rules)
        return self

    def save(self, path: str | Path) -> None:
        weights_format.write(path, self.weights, self.biases, self.activation, self.prior, self.meta, self.signature)

    def logits(self, observation: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """float32[B, A]: the raw action-head outputs (a prior-guided policy needs the legal ``mask``)."""
        x = np.asarray(observation, dtype=np.float32).reshape(len(observation), -1)
        prior = None
        if self._prior_fn is not None:
            if mask is None:
                raise ValueError(f"policy {self.name!r} reads the action prior {self.prior!r}: pass the legal mask")
            prior = self._prior_fn(x, mask)
            x = np.concatenate([x, prior], axis=1)
        act = _ACTIVATIONS[self.activation]
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            if i == last and prior is not None:
                x = np.concatenate([x, prior], axis=1)
            x = x @ w + b
            if i < last:
                x = act(x)
        return x

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        logits = np.where(mask, self.logits(observation, mask), -np.inf)
        if self.deterministic:
            return logits.argmax(axis=1).astype(np.int64)
        z = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        u = rng.random((len(p), 1))
        return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1).astype(np.int64)
