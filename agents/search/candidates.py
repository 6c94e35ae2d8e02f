"""The candidate actions a search examines: the legal actions in a heuristic's order of preference.

A heuristic policy only returns its favourite action; asking it again with that action masked out
gives its second choice, and so on. The first ``top_n`` form the candidate list, so a search with a
2,389-way action space (daifugō) spends its rollouts on the plays a club player would consider.
"""
from __future__ import annotations

import numpy as np

from yuugi.agents.policy import Policy


def preferred_actions(policy: Policy, observation: np.ndarray, mask: np.ndarray, top_n: int,
                      rng: np.random.Generator) -> np.ndarray:
    """int64[B, top_n]: each row's legal actions in ``policy``'s order of preference, -1 past the last."""
    b = mask.shape[0]
    remaining = mask.copy()
    out = np.full((b, top_n), -1, dtype=np.int64)
    for k in range(top_n):
        rows = np.flatnonzero(remaining.any(axis=1))
        if rows.size == 0:
            break
        choice = policy.act(observation[rows], remaining[rows], rng)
        out[rows, k] = choice
        remaining[rows, choice] = False
    return out
