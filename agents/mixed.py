"""Policies built from other policies."""
from __future__ import annotations

import numpy as np

from .policy import Policy, random_legal


class EpsilonPolicy:
    """Plays ``base`` but, with probability ``epsilon`` per decision, a uniformly random legal action.

    Used for the easy levels: a heuristic that blunders often.
    """

    def __init__(self, base: Policy, epsilon: float, name: str = "epsilon") -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
        self.base, self.epsilon, self.name = base, epsilon, name

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        actions = self.base.act(observation, mask, rng)
        blunder = rng.random(len(actions)) < self.epsilon
        if blunder.any():
            actions[blunder] = random_legal(mask[blunder], rng)
        return actions
