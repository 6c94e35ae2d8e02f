"""``MLPPolicy``: runs exported MaskablePPO actor weights with numpy only (no torch needed to play).

The ``.npz`` format (``FORMAT_VERSION`` 2): arrays ``w0, b0, ..., w{n-1}, b{n-1}`` (the hidden
layers then the action head; ``w`` as [in, out]), a string ``activation`` ("tanh" or "relu")
applied after every layer but the last, ``format_version``, ``meta`` (a JSON string with the
game, its rule options, training steps, wall time and seed) and ``prior``: the name of an action
prior of :mod:`agents.priors`, or "" for none. Format 1 files (no ``prior``) still load.

With a prior ``p = prior(observation, mask)`` (float32[B, A]), the network reads
``concat(observation, p)`` and its action head reads ``concat(last hidden layer, p)``: the logits
are the network's own plus a learned linear map of the prior (residual policy learning).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .priors import make_prior

FORMAT_VERSION = 2
_READABLE_VERSIONS = (1, 2)
_ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class MLPPolicy:
    """Masked argmax (or sampling) over the logits of an exported actor network."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], activation: str = "tanh",
                 meta: dict[str, Any] | None = None, deterministic: bool = True, name: str = "mlp",
                 prior: str | None = None) -> None:
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

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> "MLPPolicy":
        with np.load(path, allow_pickle=False) as data:
            version = int(data["format_version"])
            if version not in _READABLE_VERSIONS:
                raise ValueError(f"{path}: weights format {version}, this yuugi reads formats {_READABLE_VERSIONS}")
            n = sum(1 for k in data.files if k.startswith("w"))
            weights = [data[f"w{i}"] for i in range(n)]
            biases = [data[f"b{i}"] for i in range(n)]
            activation = str(data["activation"])
            meta = json.loads(str(data["meta"]))
            prior = str(data["prior"]) if "prior" in data.files else ""
        return cls(weights, biases, activation, meta, name=kwargs.pop("name", Path(path).stem), prior=prior or None,
                   **kwargs)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays.update({f"b{i}": b for i, b in enumerate(self.biases)})
        np.savez_compressed(path, format_version=np.int64(FORMAT_VERSION), activation=np.str_(self.activation),
                            meta=np.str_(json.dumps(self.meta, ensure_ascii=False)), prior=np.str_(self.prior or ""),
                            **arrays)

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
