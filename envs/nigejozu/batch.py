"""The batch kernels of nigejozu: the rules of :mod:`.rules` looped over the games of a batch.

Each kernel is one ``numba.prange`` loop over the games (serial, or parallel when the game's
``threads`` > 1; see envs/core/jit.py). ``st`` is the state's :meth:`~.state.NigejozuState.view`,
written in place; ``tab`` is the game's :data:`~.rules.Tables`.
"""
from __future__ import annotations

import numba
import numpy as np

from yuugi.envs.core.jit import batch_kernel
from yuugi.envs.core.prefetch import ONE_THREAD, games_ahead, prefetch_outputs

from .config import NigejozuConfig
from .observation import write_observation
from .rules import battle as fight_battle
from .rules import legal_actions, new_game, play, tables, winner
from .state import NigejozuState


@batch_kernel
def start_games(st, seeds, tab):
    """A new game in every row, row i dealt from the stream of ``seeds[i]`` (uint64)."""
    for row in numba.prange(seeds.shape[0]):
        i = np.int64(row)
        new_game(st, i, seeds[i], tab)


@batch_kernel
def legal_masks(st, tab, mask):
    """``mask`` (bool[B, 29]): every game's legal actions."""
    for row in numba.prange(mask.shape[0]):
        i = np.int64(row)
        legal_actions(st, i, tab, mask[i])


@batch_kernel
def play_actions(st, actions, active, tab):
    """``actions[i]`` in every game i where ``active[i]`` (legal actions, rewards already cleared)."""
    for row in numba.prange(actions.shape[0]):
        i = np.int64(row)
        if active[i]:
            play(st, i, actions[i], tab)


@batch_kernel
def observe_games(st, seats, out):
    """``out`` (float32[B, 241]): game i as ``seats[i]`` sees it."""
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        write_observation(st, i, seats[i], out[i])


@batch_kernel(serial_stand_ins=ONE_THREAD)
def step_games(st, actions, tab, reset, seeds, copy_rewards, rewards_out, mask_out, obs_out, finished):
    """One batch step (:meth:`~yuugi.envs.core.game.BatchGame.step_fused`): every live game plays its
    action; its rewards are copied (``copy_rewards``); a game that ended starts again from ``seeds[i]``
    (``reset``); then the next legal mask and the observation of the seat to play are written. Each thread
    steps its own contiguous part of the games, asking for output rows ahead (envs/core/prefetch.py)."""
    ahead = games_ahead(mask_out, obs_out)
    for row in numba.prange(actions.shape[0]):
        i = np.int64(row)
        prefetch_outputs(i, ahead, mask_out, obs_out)
        live = not (st.terminated[i] or st.truncated[i])
        if live:
            st.rewards[i, :] = 0.0
            play(st, i, actions[i], tab)
        if copy_rewards:
            rewards_out[i, :] = st.rewards[i, :]
        finished[i] = live and (st.terminated[i] or st.truncated[i])
        if finished[i] and reset:
            new_game(st, i, seeds[i], tab)
        legal_actions(st, i, tab, mask_out[i])
        write_observation(st, i, st.to_play[i], obs_out[i])


@batch_kernel
def battles(st, games, tab):
    """The battle phase of every game listed in ``games``."""
    for row in numba.prange(games.shape[0]):
        j = np.int64(row)
        fight_battle(st, games[j], tab)


@batch_kernel
def winners(st, out):
    """``out`` (int64[B]): the winning side of every finished game, -1 while it is played."""
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        out[i] = winner(st, i)


def battle(st: NigejozuState, games: np.ndarray, cfg: NigejozuConfig) -> None:
    """The battle phase of games ``games`` of ``st`` under the rule set ``cfg`` (for tests and tools)."""
    battles(st.view(), np.asarray(games, dtype=np.int64), tables(cfg))
