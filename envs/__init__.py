"""yuugi environments: the registry of games (one :class:`envs.spec.GameSpec` each, in ``envs.spec.SPECS``).

``make(name, **rules)`` gives the PettingZoo AEC environment (with PettingZoo's standard wrappers),
``make_raw(name, **rules)`` the raw AEC environment, and ``make_game(name, **rules)`` the batched
numpy core. Game modules are imported on first use.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from envs.core.errors import OptionError
from envs.core.game import BatchGame
from envs.spec import SPECS, GameSpec, game_spec  # noqa: F401  (the registry: one GameSpec per game)

# name -> versioned module (each exposes env(), raw_env() and Game), from the registry
GAMES: dict[str, str] = {name: spec.module for name, spec in SPECS.items()}


def _module(name: str) -> Any:
    if not isinstance(name, str) or name not in GAMES:
        raise OptionError(f"unknown game {name!r}; available: {sorted(available_games())}")
    try:
        return importlib.import_module(GAMES[name])
    except ModuleNotFoundError as e:
        if e.name == GAMES[name]:
            raise OptionError(f"game {name!r} is not built yet") from None
        raise


def available_games() -> list[str]:
    """Games whose modules exist in this installation."""
    out = []
    for name, mod in GAMES.items():
        if importlib.util.find_spec(mod) is not None:
            out.append(name)
    return out


def make_game(name: str, **rules: Any) -> BatchGame:
    """The batched core of ``name`` with the given rule options."""
    return _module(name).Game(**rules)


def make(name: str, render_mode: str | None = None, **rules: Any) -> Any:
    """The AEC environment with PettingZoo's standard wrappers (as ``<game>_v0.env()``)."""
    return _module(name).env(render_mode=render_mode, **rules)


def make_raw(name: str, render_mode: str | None = None, **rules: Any) -> Any:
    """The raw AEC environment (illegal actions raise ``IllegalActionError``)."""
    return _module(name).raw_env(render_mode=render_mode, **rules)


def _register_with_pettingzoo() -> None:
    """Make ``pettingzoo.make("aec", "yuugi/<game>-v0")`` work where PettingZoo has a registry."""
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a runtime dependency
        return
    register = getattr(pettingzoo, "register", None)
    registry = getattr(pettingzoo, "aec_registry", None)
    if register is None or registry is None:
        return
    for name, mod in GAMES.items():
        env_id = f"yuugi/{name}-v0"
        if env_id not in registry:
            register("aec", env_id, entry_point=f"{mod}:env")


_register_with_pettingzoo()

# Gymnasium ids for single-agent play against fixed opponents: gymnasium.make("yuugi/<game>-v0", opponent=...).
from envs.core.single_agent import register_envs as _register_gymnasium_ids, single_agent  # noqa: E402,F401

_register_gymnasium_ids()

# The deck-building env (gymnasium.make("yuugi/ninja_slayer_deckbuild-v0")): registering imports no game.
from envs.ninja_slayer_deckbuild_v0 import register_deckbuild_env as _register_deckbuild_env  # noqa: E402

_register_deckbuild_env()
