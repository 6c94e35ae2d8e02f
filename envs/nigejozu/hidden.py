"""What a nigejozu seat cannot know, drawn again: only the future dice.

The board, both hands of troops, both sides' cards and the dice already rolled are public (the
observation shows both sides the same facts). What is still unknown to either side is chance that
has not happened yet: every future roll. A search that simulates from the true state would read
those rolls from the game's random stream, so :func:`resample_hidden` gives each game a fresh key
drawn from the caller's generator and restarts its counter: the rolls ahead become new, unbiased
dice, and nothing else changes.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.rng import rekey

from .state import NigejozuState



def resample_hidden(game, state: NigejozuState, seat, rng: np.random.Generator) -> NigejozuState:
    """A copy of ``state`` whose future dice are new draws from ``rng`` (``seat`` sees everything else)."""
    out = state.copy()
    rekey(out, rng)
    return out
