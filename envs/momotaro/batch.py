"""The batch kernels of 鬼ヶ島: loops over the games of a batch, each game by the scalar rules of
:mod:`.rules` and :mod:`.observation` (see ``yuugi.envs.core.jit``: serial by default, parallel with
``threads > 1``). ``st`` is ``MomotaroState.view()``; ``T``/``R`` the rule set's kernel tables and
options (``cfg.tables.kernel_tables`` / ``kernel_options``).
"""
from __future__ import annotations

import numba
import numpy as np

from yuugi.envs.core.jit import batch_kernel
from yuugi.envs.core.prefetch import ONE_THREAD, games_ahead, prefetch_outputs

from .observation import observe_seat
from .rules import apply_action, legal_actions, new_game


@batch_kernel
def init_games(st, seeds, T, R):
    """Game i starts from ``seeds[i]`` (uint64)."""
    for row in numba.prange(seeds.shape[0]):
        i = np.int64(row)
        new_game(st, i, seeds[i], T, R)


@batch_kernel
def legal_masks(st, mask, T, R):
    """``mask[i]``: the legal actions of game i's seat to play."""
    for row in numba.prange(mask.shape[0]):
        i = np.int64(row)
        legal_actions(st, i, mask[i], T, R)


@batch_kernel
def apply_actions(st, actions, active, T, R):
    """``actions[i]`` (legal) applied to every game i where ``active[i]``."""
    for row in numba.prange(actions.shape[0]):
        i = np.int64(row)
        if active[i]:
            apply_action(st, i, actions[i], T, R)


@batch_kernel
def observe_games(st, seats, out, T, R):
    """``out[i]``: game i seen from ``seats[i]``."""
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        observe_seat(st, i, seats[i], out[i], T, R)


@batch_kernel(serial_stand_ins=ONE_THREAD)
def step_games(st, actions, mask_out, obs_out, reset_seeds, rewards_out, finished, T, R):
    """One batch step (``BatchGame.step_fused``): apply the actions of the live games, copy the rewards
    (when ``rewards_out`` has rows), start ``reset_seeds[i]`` in every row that ended (when it has
    entries), then the next legal mask and the seat to play's observation. Each thread steps its own
    contiguous part of the games, asking for output rows ahead (envs/core/prefetch.py)."""
    seats = st.rewards.shape[1]
    ahead = games_ahead(mask_out, obs_out)
    for row in numba.prange(actions.shape[0]):
        i = np.int64(row)
        prefetch_outputs(i, ahead, mask_out, obs_out)
        live = not (st.terminated[i] or st.truncated[i])
        if live:
            for p in range(seats):
                st.rewards[i, p] = 0.0
            apply_action(st, i, actions[i], T, R)
        if rewards_out.shape[0] > 0:
            for p in range(seats):
                rewards_out[i, p] = st.rewards[i, p]
        finished[i] = live and (st.terminated[i] or st.truncated[i])
        if finished[i] and reset_seeds.shape[0] > 0:
            new_game(st, i, reset_seeds[i], T, R)
        legal_actions(st, i, mask_out[i], T, R)
        observe_seat(st, i, st.to_play[i], obs_out[i], T, R)


def legal_mask(st, cfg) -> np.ndarray:
    """bool[B, A]: the legal mask of a state (MomotaroState) under a config, for the Python side."""
    mask = np.empty((st.batch_size, cfg.tables.layout.num_actions), dtype=bool)
    legal_masks(st.view(), mask, cfg.tables.kernel_tables, cfg.tables.kernel_options)
    return mask


def seeds_array(seeds) -> np.ndarray:
    """Seeds (non-negative integers, checked by the caller) as the uint64 the kernels take."""
    return np.ascontiguousarray(np.asarray(seeds).astype(np.uint64, copy=False))
