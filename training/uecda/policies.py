"""The policy a UECda client or a replaced server seat plays: a CPU level, ``uecda_default``, or a user's file."""
from __future__ import annotations

import os
import sys
from typing import Any

from yuugi.training.cli.args import UsageError

GAME = "ninja_daifugo"
RULES: dict[str, Any] = {"rules": "uecda"}
BASELINE = "uecda_default"


def baseline() -> Any:
    from yuugi.agents.registry import cpu as cpu_level

    return cpu_level(GAME, BASELINE, **RULES)


def policy_for(cpu: str | None = None, policy: str | None = None) -> Any:
    """The policy a ``--cpu LEVEL`` or ``--policy FILE`` names; anything wrong is a one-line UsageError."""
    from yuugi.agents.adapters import as_policy
    from yuugi.agents.registry import cpu as cpu_level

    if policy is not None:
        if os.getcwd() not in sys.path and "" not in sys.path:
            sys.path.insert(0, os.getcwd())  # module:attr names a module where the command runs
        try:
            return as_policy(policy, game=GAME, **RULES)
        except Exception as e:  # noqa: BLE001 - a user's file or module can fail in any way; one line
            problem = " ".join(str(e).split()).split("; accepted:")[0] or type(e).__name__
            raise UsageError(f"--policy {policy}: {problem}") from None
    level = cpu or BASELINE
    try:
        return cpu_level(GAME, level, **RULES)
    except Exception as e:  # noqa: BLE001 - an unknown level, or weights that do not fit: one line
        problem = " ".join(str(e).split()) or type(e).__name__
        raise UsageError(f"--cpu {level}: {problem}") from None
