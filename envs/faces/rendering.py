"""Rendering shared by the faces, per render mode: the text table or the picture of game 0 of a
batch-of-one state.

- ``"ansi"`` returns the text table, ``"human"`` prints it;
- ``"rgb_array"`` returns the picture, ``uint8[H, W, 3]`` (``yuugi.envs.pictures``: SVG drawn by
  resvg; needs the ``pictures`` extra), from ``seat``'s point of view (None: the seat to play), so
  hidden cards of the other seats are face down. Every picture of a game has the same size, as
  Gymnasium's ``RecordVideo`` needs.
"""
from __future__ import annotations

import gymnasium
import numpy as np

from yuugi.envs.core.game import BatchGame, State

RENDER_MODES = ("human", "ansi", "rgb_array")


def render_batch_of_one(game: BatchGame, state: State | None, render_mode: str | None,
                        seat: int | None = None) -> str | np.ndarray | None:
    """``"ansi"`` returns the table, ``"human"`` prints it, ``"rgb_array"`` returns the picture from
    ``seat`` (None: the seat to play); without a mode, warn as Gymnasium's envs do."""
    if render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'")
        return None
    assert state is not None, "a render mode needs the state to draw"
    if render_mode == "rgb_array":
        from yuugi.envs.pictures import picture  # resvg and Pillow are imported on the first picture

        return picture(game, state, 0, seat)
    text = game.render_text(state, 0)
    if render_mode == "ansi":
        return text
    print(text)
    return None
