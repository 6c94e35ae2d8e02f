"""Batched rollouts on the core: play every row of a state to its end with a default policy.

Rows finish at different times; the live ones are gathered into a smaller batch whenever half of
the batch has finished, so late steps do not pay for games that are already over.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from yuugi.agents.policy import Policy
from yuugi.envs.core.game import BatchGame, State

# stop(start, now) -> bool[n]: rows of ``now`` whose rollout ends here (``start`` is the same rows' first state).
Horizon = Callable[[State, State], np.ndarray]


def rollout(game: BatchGame, state: State, policy: Policy, rng: np.random.Generator,
            horizon: Horizon | None = None, origin: State | None = None,
            value: Callable[[State], np.ndarray] | None = None) -> np.ndarray:
    """float64[n, P]: every seat's reward summed from ``state`` (mutated) to the end of each row.

    The end is the end of the game, or earlier where ``horizon(origin, now)`` says so (e.g. the end
    of one deal of a series); ``origin`` (default: ``state`` as given) holds the same rows as they
    were where the search began. ``value(rows)`` (float64[m, P]), if given, is added for the rows a
    horizon stopped before their game ended, valued as they stood when it stopped them.
    """
    n = state.batch_size
    total = np.zeros((n, game.num_players), dtype=np.float64)
    rows = np.arange(n)  # original row of each row of ``st``
    st = state
    start = (origin if origin is not None else state.copy()) if horizon is not None else None
    while True:
        over = st.done if horizon is None else st.done | horizon(start, st)
        if value is not None and (over.all() or over.mean() > 0.5):
            cut = np.flatnonzero(over & ~st.done)  # stopped rows stay as they stood until dropped here
            if cut.size:
                total[rows[cut]] += value(st.take(cut))
        if over.all():
            break
        if over.mean() > 0.5:  # compact: drop finished rows
            keep = np.flatnonzero(~over)
            st, rows = st.take(keep), rows[keep]
            start = start.take(keep) if start is not None else None
            over = over[keep]
        live = ~over
        mask = game.legal_mask(st)
        obs = game.observe(st, st.to_play.astype(np.int64))
        actions = policy.act(obs, mask, rng)
        game.step(st, actions, live, check=False)
        total[rows[live]] += st.rewards[live]
    return total
