"""The ``Policy`` protocol and the random policy.

A policy is batched: it maps observations ``float32[B, ...]`` and legal masks ``bool[B, A]`` to
actions ``int[B]``, and never returns an illegal action for a row whose mask has a legal one.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Actions int64[B], each legal under ``mask``."""
        ...


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (rows with no legal action get 0).

    One ``flatnonzero`` over the whole mask instead of per-row noise: the k-th legal action of row
    i sits at ``starts[i] + k`` in the flat list of legal (row, action) pairs.
    """
    b, a = mask.shape
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // a, minlength=b)
    starts = np.cumsum(counts) - counts
    k = (rng.random(b) * counts).astype(np.int64)
    has = counts > 0
    actions = np.zeros(b, dtype=np.int64)
    actions[has] = flat[(starts + k)[has]] % a
    return actions


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return random_legal(mask, rng)
