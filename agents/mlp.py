"""``MLPPolicy``: runs exported MaskablePPO actor weights with numpy only (no torch needed to play).

The ``.npz`` format (``FORMAT_VERSION`` 1): arrays ``w0, b0, ..., w{n-1}, b{n-1}`` (the hidden
layers then the action head; ``w`` as [in, out]), a string ``activation`` ("tanh" or "relu")
applied after every layer but the last, ``format_version``, and ``meta`` — a JSON string with the
game, its rule options, training steps, wall time and seed.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

FORMAT_VERSION = 1
_ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class MLPPolicy:
    """Masked argmax (or sampling) over the logits of an exported actor network."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], activation: str = "tanh",
                 meta: dict[str, Any] | None = None, deterministic: bool = True, name: str = "mlp") -> None:
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

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> "MLPPolicy":
        with np.load(path, allow_pickle=False) as data:
            version = int(data["format_version"])
            if version != FORMAT_VERSION:
                raise ValueError(f"{path}: weights format {version}, this yuugi reads format {FORMAT_VERSION}")
            n = sum(1 for k in data.files if k.startswith("w"))
            weights = [data[f"w{i}"] for i in range(n)]
            biases = [data[f"b{i}"] for i in range(n)]
            activation = str(data["activation"])
            meta = json.loads(str(data["meta"]))
        return cls(weights, biases, activation, meta, name=kwargs.pop("name", Path(path).stem), **kwargs)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays.update({f"b{i}": b for i, b in enumerate(self.biases)})
        np.savez_compressed(path, format_version=np.int64(FORMAT_VERSION), activation=np.str_(self.activation),
                            meta=np.str_(json.dumps(self.meta, ensure_ascii=False)), **arrays)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x = np.asarray(observation, dtype=np.float32).reshape(len(observation), -1)
        act = _ACTIVATIONS[self.activation]
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = x @ w + b
            if i < len(self.weights) - 1:
                x = act(x)
        return x

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        logits = np.where(mask, self.logits(observation), -np.inf)
        if self.deterministic:
            return logits.argmax(axis=1).astype(np.int64)
        z = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        u = rng.random((len(p), 1))
        return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1).astype(np.int64)
