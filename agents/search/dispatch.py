"""How an evaluation loop calls any policy: observation policies get ``act(obs, mask, rng)``,
search policies (those with ``act_state``) get the game, the state and the acting seats."""
from __future__ import annotations

import numpy as np

from yuugi.agents.policy import Policy
from yuugi.envs.core.game import BatchGame, State


def needs_state(policy: Policy) -> bool:
    """True for a search policy: it simulates from the state instead of reading the observation."""
    return callable(getattr(policy, "act_state", None))


def act(policy: Policy, game: BatchGame, state: State, seats: np.ndarray, observation: np.ndarray,
        mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The actions of ``policy`` for the games of ``state`` (every one live, ``seats`` to play in each)."""
    if needs_state(policy):
        return policy.act_state(game, state, seats, rng)
    return policy.act(observation, mask, rng)
