"""Checks every game's ``resample_hidden`` tests share."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from yuugi.envs.core.sampling import random_legal


def play_to_the_end(game: Any, state: Any, rng: np.random.Generator, check: Callable[[Any, np.ndarray], None],
                    max_steps: int = 5000) -> None:
    """Play random legal moves in every game of ``state`` (mutated) until all have ended, calling
    ``check(state, legal_mask)`` before each step; fails if a game is still going after ``max_steps``."""
    for _ in range(max_steps):
        mask = game.legal_mask(state)
        check(state, mask)
        if state.done.all():
            return
        game.step(state, random_legal(mask, rng), ~state.done)
    assert state.done.all(), f"{int((~state.done).sum())} games still going after {max_steps} steps"
