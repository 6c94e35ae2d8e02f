"""Rendering shared by the faces: the text table of game 0 of a batch-of-one state, per render mode."""
from __future__ import annotations

import gymnasium

from yuugi.envs.core.game import BatchGame, State


def render_batch_of_one(game: BatchGame, state: State | None, render_mode: str | None) -> str | None:
    """``"ansi"`` returns the table, ``"human"`` prints it; without a mode, warn as Gymnasium's envs do."""
    if render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
        return None
    assert state is not None, "a render mode needs the state to draw"
    text = game.render_text(state, 0)
    if render_mode == "ansi":
        return text
    print(text)
    return None
