"""The ``Policy`` protocol and the random policy.

A policy is batched: it maps observations ``float32[B, ...]`` and legal masks ``bool[B, A]`` to
actions ``int[B]``, and never returns an illegal action for a row whose mask has a legal one.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from yuugi.envs.core.sampling import random_legal

__all__ = ["Policy", "RandomPolicy", "random_legal"]


@runtime_checkable
class Policy(Protocol):
    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Actions int64[B], each legal under ``mask``."""
        ...


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return random_legal(mask, rng)
