"""Each game's ``resample_hidden(game, state, seat, rng)``, by game name.

A resampler returns a new state in which everything ``seat`` cannot see is drawn again uniformly
among the possibilities consistent with what it has observed, and future chance (the game's random
stream) is re-keyed from ``rng``. The seat's own observation is the same before and after.
"""
from __future__ import annotations

import importlib
from typing import Callable

from yuugi.envs.core.errors import OptionError

RESAMPLERS: dict[str, str] = {
    "ninja_daifugo": "yuugi.envs.ninja_daifugo.hidden",
    "nigejozu": "yuugi.envs.nigejozu.hidden",
    "momotaro": "yuugi.envs.momotaro.hidden",
    "ninja_slayer": "yuugi.envs.ninja_slayer.hidden",
}


def resampler(game_name: str) -> Callable:
    """The ``resample_hidden`` function of ``game_name``; OptionError naming the games that have one."""
    if game_name not in RESAMPLERS:
        raise OptionError(f"no hidden-information resampler for game {game_name!r}; games: {sorted(RESAMPLERS)}")
    return importlib.import_module(RESAMPLERS[game_name]).resample_hidden
