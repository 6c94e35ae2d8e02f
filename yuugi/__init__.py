"""yuugi: multi-agent RL environments for Japanese tabletop games, in one import.

This package is the one import root: the environments are ``yuugi.envs``, the policies
``yuugi.agents``, the jobs ``yuugi.training``, and the environments that seat CPU opponents
(the single-agent Gymnasium envs, the deck-building env) ``yuugi.seated``. On top of them it is a thin
facade whose names are imported on first use (so ``import yuugi.envs`` imports no policy) and are the
objects themselves (``yuugi.make is yuugi.envs.make``):

* ``make(name, render_mode=None, **rules)``: the PettingZoo AEC environment with PettingZoo's
  standard wrappers (``envs.make``).
* ``make_raw(name, render_mode=None, **rules)``: the raw AEC environment (``envs.make_raw``).
* ``make_game(name, **rules)``: the batched numpy core (``envs.make_game``).
* ``games()`` / ``available_games()``: the names of the games built in this installation
  (``envs.available_games``).
* ``cpu(game, level, ...)``: a CPU opponent, ``random``, ``easy``, ``normal`` or ``hard``
  (``yuugi.agents.registry.cpu``, with whatever options it takes).
* ``play_match(env_or_name, agents, games=1, seed=0)``: seat agents (CPU levels, your weights, a
  Policy or a function) and play N games in one call; each seat's returns and win share
  (``yuugi.seated.match.play_match``).
* ``act_one(policy, observation, mask=None)``: one action of a batched policy (a CPU, your own) for
  one game, inside an AEC loop (``yuugi.seated.match.act_one``).
* ``evaluate(game, policies, ...)``: a round-robin of policies with ratings
  (``yuugi.training.eval.evaluate.evaluate``). It is imported on first use, so ``import yuugi`` needs only the
  runtime dependencies (numpy, gymnasium, pettingzoo); ``evaluate`` itself needs the ``train``
  extra (openskill).
* ``__version__``: the installed distribution's version.

Each game's rules for people are in ``docs/rules/<game>.md``; its documentation page for programs
(spaces, observation, actions, options) is the docstring of ``envs/<game>_v0.py``.
"""
from __future__ import annotations

import importlib
from importlib import metadata
from typing import Any

try:
    __version__ = metadata.version("yuugi")
except metadata.PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

# name -> (module, attribute), imported on first use: the facade sits above every layer, and importing
# a layer (``yuugi.envs``) must not import the layers above it through this file.
_FACADE = {
    "available_games": ("yuugi.envs", "available_games"),
    "games": ("yuugi.envs", "available_games"),
    "make": ("yuugi.envs", "make"),
    "make_game": ("yuugi.envs", "make_game"),
    "make_raw": ("yuugi.envs", "make_raw"),
    "cpu": ("yuugi.agents.registry", "cpu"),
    "play_match": ("yuugi.seated.match", "play_match"),
    "act_one": ("yuugi.seated.match", "act_one"),
    # evaluate needs the train extra (openskill); everything else only the runtime dependencies
    "evaluate": ("yuugi.training.eval.evaluate", "evaluate"),
}

__all__ = ["__version__", "act_one", "available_games", "cpu", "evaluate", "games", "make", "make_game", "make_raw",
           "play_match"]


def __getattr__(name: str) -> Any:
    if name in _FACADE:
        module, attribute = _FACADE[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'yuugi' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FACADE))
