"""yuugi: multi-agent RL environments for Japanese tabletop games, in one import.

This package is a thin facade; everything it offers lives in the top-level packages and is
re-exported here unchanged (``yuugi.make is envs.make``):

* ``make(name, render_mode=None, **rules)``: the PettingZoo AEC environment with PettingZoo's
  standard wrappers (``envs.make``).
* ``make_raw(name, render_mode=None, **rules)``: the raw AEC environment (``envs.make_raw``).
* ``make_game(name, **rules)``: the batched numpy core (``envs.make_game``).
* ``games()`` / ``available_games()``: the names of the games built in this installation
  (``envs.available_games``).
* ``cpu(game, level, ...)``: a CPU opponent, ``random``, ``easy``, ``normal`` or ``hard``
  (``agents.registry.cpu``, with whatever options it takes).
* ``evaluate(game, policies, ...)``: a round-robin of policies with ratings
  (``training.evaluate.evaluate``). It is imported on first use, so ``import yuugi`` needs only the
  runtime dependencies (numpy, gymnasium, pettingzoo); ``evaluate`` itself needs the ``train``
  extra (openskill).
* ``__version__``: the installed distribution's version.

Each game's rules for people are in ``docs/rules/<game>.md``; its documentation page for programs
(spaces, observation, actions, options) is the docstring of ``envs/<game>_v0.py``.
"""
from __future__ import annotations

from importlib import metadata
from typing import Any

from agents.registry import cpu
from envs import available_games, make, make_game, make_raw

games = available_games

try:
    __version__ = metadata.version("yuugi")
except metadata.PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__", "available_games", "cpu", "evaluate", "games", "make", "make_game", "make_raw"]


def __getattr__(name: str) -> Any:
    # evaluate lives under training/, whose other jobs need the train extra: import it only when asked.
    if name == "evaluate":
        from training.evaluate import evaluate

        return evaluate
    raise AttributeError(f"module 'yuugi' has no attribute {name!r}")
