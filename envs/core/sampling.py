"""Sampling helpers shared by policies, benchmarks and tests."""
from __future__ import annotations

import numpy as np


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
