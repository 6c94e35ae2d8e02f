"""Pictures of a game's table from one seat's point of view: SVG built in Python, drawn to RGB arrays.

Each game draws itself in ``yuugi.envs.<game>.picture`` (``picture_svg(game, state, index, seat)``),
from the public state arrays and the game's tables, with the parts of :mod:`.svg`; hidden cards are
drawn face down. :func:`picture_svg` finds a game's drawing without importing the game here (the
faces and this package know no game); :func:`picture` rasterises it (:mod:`.raster`, the
``pictures`` extra). ``svg`` text can be sent to a browser as it is.
"""
from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from .svg import H, W

__all__ = ["H", "W", "PictureError", "picture", "picture_svg"]


class PictureError(TypeError):
    """The game has no picture (a game without a ``picture`` module)."""


def _drawer(game: Any) -> Any:
    own = getattr(game, "picture_svg", None)
    if callable(own):
        return lambda g, state, index, seat: own(state, index, seat)
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(package + ".picture")
    except ModuleNotFoundError as e:
        if e.name != package + ".picture":
            raise
        raise PictureError(f"game {getattr(game, 'name', type(game).__name__)!r} has no picture "
                           f"(no {package}.picture module)") from None
    return module.picture_svg


def picture_svg(game: Any, state: Any, index: int = 0, seat: int | None = None) -> str:
    """The SVG of game ``index`` of ``state`` as ``seat`` sees it (None: the seat to play)."""
    if seat is None:
        seat = int(state.to_play[index])
    if not 0 <= int(seat) < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1}, got {seat!r}")
    return str(_drawer(game)(game, state, index, int(seat)))


def picture(game: Any, state: Any, index: int = 0, seat: int | None = None) -> np.ndarray:
    """``uint8[H, W, 3]``: game ``index`` of ``state`` drawn from ``seat`` (None: the seat to play)."""
    from .raster import svg_to_rgb

    return svg_to_rgb(picture_svg(game, state, index, seat))
