"""The CPU opponents: ``cpu(game, level)`` by level name (or, for ninja_daifugo, persona name).

Levels, weakest first: ``random``, ``easy`` (the heuristic blundering half the time), ``normal``
(the heuristic), ``hard`` (a MaskablePPO policy trained by self-play, shipped as numpy weights in
``agents/weights/<game>_hard.npz``; nigejozu's is prior-guided, see :mod:`agents.priors`). Like
RLCard's model zoo, opponents are named by id.
"""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Callable

from envs import GAMES
from envs.core.errors import OptionError

from .mixed import EpsilonPolicy
from .mlp import MLPPolicy
from .policy import Policy, RandomPolicy

WEIGHTS_DIR = Path(__file__).parent / "weights"
LEVELS = ("random", "easy", "normal", "hard")
# module:class of each game's heuristic policy
HEURISTICS: dict[str, str] = {
    "ninja_daifugo": "agents.heuristics.ninja_daifugo:DaifugoHeuristic",
    "nigejozu": "agents.heuristics.nigejozu:NigejozuHeuristic",
    "momotaro": "agents.heuristics.momotaro:MomotaroHeuristic",
}
# The faithful table's CPUs, by strength (the Lord is the strongest).
PERSONAS: dict[str, dict[str, str]] = {"ninja_daifugo": {"モコ": "easy", "ジライヤ": "normal", "お館様": "hard"}}


def heuristic(game: str) -> Policy:
    if game not in HEURISTICS:
        raise OptionError(f"no heuristic for game {game!r}; games: {sorted(HEURISTICS)}")
    module, cls = HEURISTICS[game].split(":")
    try:
        return getattr(importlib.import_module(module), cls)()
    except ModuleNotFoundError as e:
        raise OptionError(f"the {game} heuristic is not built yet") from e


def weights_path(game: str, level: str = "hard") -> Path:
    return WEIGHTS_DIR / f"{game}_{level}.npz"


def _hard(game: str) -> Policy:
    path = weights_path(game)
    if not path.exists():
        raise OptionError(f"no trained weights for {game!r} at {path}; train them with `yuugi train {game}`")
    return MLPPolicy.load(path, name=f"{game}_hard")


_BUILDERS: dict[str, Callable[[str], Policy]] = {
    "random": lambda game: RandomPolicy(),
    "easy": lambda game: EpsilonPolicy(heuristic(game), 0.5, name="easy"),
    "normal": heuristic,
    "hard": _hard,
}


def available_levels(game: str) -> list[str]:
    """Levels that can be built for ``game`` here (``hard`` needs shipped weights)."""
    levels = ["random"]
    if game in HEURISTICS and importlib.util.find_spec(HEURISTICS[game].split(":")[0]) is not None:
        levels += ["easy", "normal"]
    if weights_path(game).exists():
        levels.append("hard")
    return levels


def cpu(game: str, level: str = "normal") -> Policy:
    """The CPU opponent of ``game`` at ``level`` (a level name, or a persona name where a game has them)."""
    if game not in GAMES:
        raise OptionError(f"unknown game {game!r}; games: {sorted(GAMES)}")
    level = PERSONAS.get(game, {}).get(level, level)
    if level not in _BUILDERS:
        personas = sorted(PERSONAS.get(game, {}))
        raise OptionError(f"unknown level {level!r} for {game}; levels: {list(LEVELS)}"
                          + (f", personas: {personas}" if personas else ""))
    policy = _BUILDERS[level](game)
    policy.name = level  # type: ignore[attr-defined]
    return policy
