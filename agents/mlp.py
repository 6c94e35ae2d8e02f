"""``MLPPolicy``: runs exported MaskablePPO actor weights with numpy only (no torch needed to play).

The layers ``w0, b0, ..., w{n-1}, b{n-1}`` (the hidden layers then the action head; ``w`` as
[in, out]) apply ``activation`` ("tanh" or "relu") after every layer but the last. The file format,
its game signature and its checks are :mod:`yuugi.agents.weights_format`'s.

With a prior ``p = prior(observation, mask)`` (float32[B, A]), the network reads
``concat(observation, p)`` and its action head reads ``concat(last hidden layer, p)``: the logits
are the network's own plus a learned linear map of the prior (residual policy learning).
"""
from __future__ import annotations

import warnings
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
        for kind, arrays in (("w", self.weights), ("b", self.biases)):
            for i, a in enumerate(arrays):
                if not np.isfinite(a).all():  # a diverged run: every action it chose would be noise
                    raise ValueError(f"policy {name!r}: {kind}{i} holds {int((~np.isfinite(a)).sum())} NaN or "
                                     "infinite values; these weights cannot choose actions")
        self.activation = activation
        self.meta = dict(meta or {})
        self.deterministic = deterministic
        self.name = name
        self.prior = prior or None
        self._prior_fn = make_prior(prior) if prior else None
        # The game and spaces the network was made for (yuugi.agents.weights_format); None: made for no game.
        self.signature = dict(signature) if signature else None
        self._warned_fallback = False  # the uniform fallback is said once per policy, not once per call

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

    def _made_for(self) -> str:
        """``weights made for nigejozu (2 players, observation 241 floats, 29 actions)``, or what the layers say."""
        if self.signature and self.signature.get("game"):
            return f"weights made for {weights_format.describe(self.signature)}"
        return f"weights made for no recorded game ({self.weights[-1].shape[1]} actions)"

    def _check_sizes(self, x: np.ndarray, mask: np.ndarray | None) -> None:
        """A ValueError naming the expected and given sizes, instead of numpy's matmul message."""
        actions = self.weights[-1].shape[1]
        reads = self.weights[0].shape[0] - (actions if self._prior_fn is not None else 0)
        if x.shape[1] != reads:
            raise ValueError(f"policy {self.name!r} reads observations of {reads} floats but was given {x.shape[1]} "
                             f"({self._made_for()}): is it playing another game, or other rules?")
        if mask is not None and np.ndim(mask) == 2 and np.shape(mask)[1] != actions:
            raise ValueError(f"policy {self.name!r} chooses among {actions} actions but was given a mask of "
                             f"{np.shape(mask)[1]} ({self._made_for()})")

    def logits(self, observation: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """float32[B, A]: the raw action-head outputs (a prior-guided policy needs the legal ``mask``)."""
        x = np.asarray(observation, dtype=np.float32).reshape(len(observation), -1)
        self._check_sizes(x, mask)
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
        """One legal action per row: the argmax (or a sample) of the logits over the legal actions.

        A row whose legal logits are not all finite numbers (NaN, or +inf from an overflow) has no
        ranking to follow; it plays uniformly among its legal actions instead, and the policy says so
        once (a RuntimeWarning), so it never returns an illegal action.
        """
        mask = np.asarray(mask, dtype=bool)
        with np.errstate(invalid="ignore", over="ignore"):  # non-finite logits are handled below
            raw = self.logits(observation, mask)
        logits = np.where(mask, raw, -np.inf)
        # NaN or +inf among the legal logits, or every legal one at -inf: nothing to rank the legal actions by
        broken = (np.isnan(logits).any(axis=1) | (logits == np.inf).any(axis=1) | (logits == -np.inf).all(axis=1))
        broken &= mask.any(axis=1)  # a row with no legal action (a finished game) has nothing to fall back to
        if self.deterministic:
            actions = logits.argmax(axis=1).astype(np.int64)
        else:
            with np.errstate(invalid="ignore"):
                z = logits - logits.max(axis=1, keepdims=True)
                p = np.exp(z)
                p /= p.sum(axis=1, keepdims=True)
            u = rng.random((len(p), 1))
            actions = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1).astype(np.int64)
        if broken.any():
            actions[broken] = _uniform_legal(mask[broken], rng)
            if not self._warned_fallback:
                self._warned_fallback = True
                warnings.warn(f"policy {self.name!r}: its logits are NaN or infinite for {int(broken.sum())} of "
                              f"{len(broken)} rows; those rows play uniformly among their legal actions (said "
                              "once per policy)", RuntimeWarning, stacklevel=2)
        return actions


def _uniform_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row, uniform among the row's legal actions (each row has at least one)."""
    counts = mask.sum(axis=1)
    pick = (rng.random(len(mask)) * counts).astype(np.int64)
    return (mask.cumsum(axis=1) > pick[:, None]).argmax(axis=1).astype(np.int64)
