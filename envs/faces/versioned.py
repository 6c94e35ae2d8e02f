"""Builds the ``env`` / ``raw_env`` pair of a versioned game module, PettingZoo-classic style."""
from __future__ import annotations

from typing import Any, Callable

from pettingzoo.utils import wrappers

from yuugi.envs.faces.aec import BatchAECEnv, IntegerActionWrapper
from yuugi.envs.core.game import BatchGame


def env_factories(game_cls: Callable[..., BatchGame]) -> tuple[Callable[..., BatchAECEnv], Callable[..., Any]]:
    """``raw_env(render_mode=None, auto_skip=False, **rules)`` and ``env(...)`` = raw env + standard wrappers.

    ``auto_skip=True`` lets the env play decisions that have exactly one legal action itself.

    As in PettingZoo's classic envs, ``env()`` adds ``TerminateIllegalWrapper`` (an illegal move
    ends the game with reward -1 for the offender), ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper``. The raw env raises ``IllegalActionError`` instead. Actions that are not
    integers (bool, float, str) are refused by ``IntegerActionWrapper`` before PettingZoo's wrappers
    see them, since ``True`` passes ``Discrete.contains`` there.
    """

    def raw_env(render_mode: str | None = None, auto_skip: bool = False, **rules: Any) -> BatchAECEnv:
        return BatchAECEnv(game_cls(**rules), render_mode=render_mode, auto_skip=auto_skip)

    def env(render_mode: str | None = None, auto_skip: bool = False, **rules: Any) -> Any:
        e: Any = raw_env(render_mode=render_mode, auto_skip=auto_skip, **rules)
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
        e = wrappers.AssertOutOfBoundsWrapper(e)
        e = IntegerActionWrapper(e)
        e = wrappers.OrderEnforcingWrapper(e)
        return e

    return raw_env, env
