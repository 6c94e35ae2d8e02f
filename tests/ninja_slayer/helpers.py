"""Shared helpers: a game, random play, positions built from short descriptions."""
from __future__ import annotations

import numpy as np

from envs.core.sampling import random_legal
from envs.ninja_slayer_v0 import Game

from .invariants import check_invariants


def game(**options) -> Game:
    return Game(**options)


def play_random(g: Game, n_games: int, seed: int, check: bool = True, max_steps: int = 6000):
    """Play ``n_games`` random games to the end, checking the invariants at every step."""
    st = g.init(np.arange(n_games, dtype=np.uint64) + np.uint64(seed) * np.uint64(1_000_003))
    rng = np.random.default_rng(seed)
    steps = 0
    while not st.done.all():
        mask = g.legal_mask(st)
        if check:
            check_invariants(g, st, mask)
        g.step(st, random_legal(mask, rng), mask=mask)
        steps += 1
        assert steps < max_steps, "a game ran past the episode bound"
    check_invariants(g, st, g.legal_mask(st))
    return st
