"""The ids under which the games are registered with PettingZoo and Gymnasium.

Registration names every entry point by its import path as a string, so registering imports no game
and nothing above this layer: the Gymnasium ids are environments that seat CPU opponents, and those
live above ``yuugi.agents`` (in ``yuugi.seated``); Gymnasium imports them on ``gymnasium.make``.
"""
from __future__ import annotations

from yuugi.envs.spec import SPECS

DECKBUILD_ID = "yuugi/ninja_slayer_deckbuild-v0"


def env_id(game: str) -> str:
    """``yuugi/<game>-v0``: the PettingZoo and Gymnasium id of a game."""
    return f"yuugi/{game}-v0"


def register_pettingzoo_ids() -> None:
    """Make ``pettingzoo.make("aec", "yuugi/<game>-v0")`` work where PettingZoo has a registry."""
    import pettingzoo

    register = getattr(pettingzoo, "register", None)
    registry = getattr(pettingzoo, "aec_registry", None)
    if register is None or registry is None:
        return
    for name, spec in SPECS.items():
        if env_id(name) not in registry:
            register("aec", env_id(name), entry_point=f"{spec.module}:env")


def register_gymnasium_ids() -> None:
    """``gymnasium.make("yuugi/<game>-v0", opponent=...)`` (one seat against CPUs) for every game, and
    ``gymnasium.make("yuugi/ninja_slayer_deckbuild-v0")``; ids already registered are left as they are."""
    import gymnasium

    for name in SPECS:
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(id=env_id(name), entry_point="yuugi.seated.single_agent:make_registered",
                               kwargs={"game": name})
    if DECKBUILD_ID not in gymnasium.registry:
        gymnasium.register(id=DECKBUILD_ID, entry_point="yuugi.seated.deckbuild.env:DeckBuildEnv")
