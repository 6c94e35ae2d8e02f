"""yuugi environments: the registry of games (one :class:`yuugi.envs.spec.GameSpec` each, in ``yuugi.envs.spec.SPECS``).

``make(name, **rules)`` gives the PettingZoo AEC environment (with PettingZoo's standard wrappers),
``make_raw(name, **rules)`` the raw AEC environment, and ``make_game(name, **rules)`` the batched
numpy core. Game modules are imported on first use.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.game import BatchGame
from yuugi.envs.spec import SPECS, GameSpec, game_spec  # noqa: F401  (the registry: one GameSpec per game)

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


from yuugi.envs.registration import register_gymnasium_ids, register_pettingzoo_ids  # noqa: E402

register_pettingzoo_ids()
register_gymnasium_ids()
