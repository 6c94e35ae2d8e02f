"""The batch kernels of ninja_slayer: loops over the games of a batch that call the scalar rules
(:mod:`.engine`, :mod:`.deal`, :mod:`.seen`), and :class:`Compiled`, which holds the tables and the
rule options they are called with."""
from __future__ import annotations

import numba
import numpy as np

from yuugi.envs.core.jit import batch_kernel
from yuugi.envs.core.prefetch import ONE_THREAD, games_ahead, prefetch_outputs

from . import tables as T
from .deal import new_game
from .engine import apply_action, legal_into
from .observation import offsets
from .seen import ARG_SCALE, CARD_TABLES, COUNT_FRACTION, block_starts, observe_into


@batch_kernel
def init_kernel(st, ct, cf, seeds, kinds, listed, constructed, pools, pool_len, sr_rate, stuck):
    for row in numba.prange(seeds.shape[0]):
        i = np.int64(row)
        if not new_game(st, ct, cf, i, seeds[i], kinds, listed, constructed, pools, pool_len, sr_rate):
            stuck[i] = True


@batch_kernel
def legal_kernel(st, ct, cf, out):
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        legal_into(st, ct, cf, i, out[i])


@batch_kernel
def apply_kernel(st, ct, cf, fam, actions, active, stuck):
    for row in numba.prange(actions.shape[0]):
        i = np.int64(row)
        if active[i]:
            if not apply_action(st, ct, cf, fam, i, actions[i]):
                stuck[i] = True


@batch_kernel
def observe_kernel(st, ct, feat, count_frac, arg_scale, fam, off, seats, out):
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        observe_into(st, ct, feat, count_frac, arg_scale, fam, off, i, seats[i], out[i])


@batch_kernel(serial_stand_ins=ONE_THREAD)
def step_kernel(st, ct, cf, fam, feat, count_frac, arg_scale, off, actions, mask_out, obs_out, reset, seeds,
                kinds, listed, constructed, pools, pool_len, sr_rate, rewards_out, copy_rewards, finished, stuck):
    """One batch step: play the live games' actions, copy rewards, restart the games that ended (with
    ``reset``), then the next legal mask and the to-play seat's observation. Each thread steps its own
    contiguous part of the games, asking for output rows ahead (envs/core/prefetch.py)."""
    ahead = games_ahead(mask_out, obs_out)
    for row in numba.prange(actions.shape[0]):
        i = np.int64(row)
        prefetch_outputs(i, ahead, mask_out, obs_out)
        finished[i] = False
        if not (st.terminated[i] or st.truncated[i]):
            st.rewards[i, 0] = 0.0
            st.rewards[i, 1] = 0.0
            if not apply_action(st, ct, cf, fam, i, actions[i]):
                stuck[i] = True
            finished[i] = st.terminated[i] or st.truncated[i]
        if copy_rewards:
            rewards_out[i, 0] = st.rewards[i, 0]
            rewards_out[i, 1] = st.rewards[i, 1]
        if reset and finished[i]:
            if not new_game(st, ct, cf, i, seeds[i], kinds, listed, constructed, pools, pool_len, sr_rate):
                stuck[i] = True
        legal_into(st, ct, cf, i, mask_out[i])
        observe_into(st, ct, feat, count_frac, arg_scale, fam, off, i, st.to_play[i], obs_out[i])


_POOLS = np.full((4, 48), -1, np.int64)
_POOL_LEN = np.zeros(4, np.int64)
for _k, _pool in enumerate((T.COMMONS, T.UNCOMMONS, T.RARES, T.SRS)):
    _POOLS[_k, :len(_pool)] = _pool
    _POOL_LEN[_k] = len(_pool)


def _check(stuck: np.ndarray) -> None:
    if stuck.any():
        raise RuntimeError(f"ninja_slayer: games {np.flatnonzero(stuck)[:8].tolist()} did not reach a decision "
                           "(an engine bug: an automatic step that never ends)")


class Compiled:
    """The kernels bound to one rule set: its options, its tables, its thread count."""

    def __init__(self, cfg, threads: int = 1) -> None:
        self.cf = T.config_ints(cfg)
        self.sr_rate = float(cfg.sr_rate)
        self.kinds, self.listed = T.deck_specs(cfg.decks)
        self.feat = CARD_TABLES[cfg.observation]  # what the observation shows of each card
        self.off = block_starts(cfg.history, self.feat.shape[1])
        self.width = offsets(cfg.history, self.feat.shape[1])[1]
        self.threads = threads

    def init(self, st, seeds: np.ndarray, specs=None) -> None:
        kinds, listed = (self.kinds, self.listed) if specs is None else T.deck_specs(specs)
        stuck = np.zeros(len(seeds), bool)
        init_kernel(st.view(), T.CARD_TABLE, self.cf, np.asarray(seeds).astype(np.uint64), kinds, listed,
                    T.CONSTRUCTED_DECKS, _POOLS, _POOL_LEN, self.sr_rate, stuck, threads=self.threads)
        _check(stuck)

    def legal_mask(self, st) -> np.ndarray:
        out = np.empty((st.batch_size, 293), bool)
        legal_kernel(st.view(), T.CARD_TABLE, self.cf, out, threads=self.threads)
        return out

    def apply(self, st, actions: np.ndarray, active: np.ndarray) -> None:
        stuck = np.zeros(len(actions), bool)
        apply_kernel(st.view(), T.CARD_TABLE, self.cf, T.FAMILY, np.asarray(actions, np.int64), active, stuck,
                     threads=self.threads)
        _check(stuck)

    def observe(self, st, seats: np.ndarray) -> np.ndarray:
        out = np.empty((st.batch_size, self.width), np.float32)
        observe_kernel(st.view(), T.CARD_TABLE, self.feat, COUNT_FRACTION, ARG_SCALE, T.FAMILY, self.off,
                       seats, out, threads=self.threads)
        return out

    def step_fused(self, st, actions, mask_out, obs_out, reset_seeds=None, rewards_out=None) -> np.ndarray:
        b = st.batch_size
        finished = np.empty(b, bool)
        stuck = np.zeros(b, bool)
        reset = reset_seeds is not None
        seeds = np.asarray(reset_seeds).astype(np.uint64) if reset else np.zeros(b, np.uint64)
        copy = rewards_out is not None
        rew = rewards_out if copy else np.empty((b, 2), np.float32)
        step_kernel(st.view(), T.CARD_TABLE, self.cf, T.FAMILY, self.feat, COUNT_FRACTION, ARG_SCALE, self.off,
                    np.asarray(actions, np.int64), mask_out, obs_out, reset, seeds, self.kinds, self.listed,
                    T.CONSTRUCTED_DECKS, _POOLS, _POOL_LEN, self.sr_rate, rew, copy, finished, stuck,
                    threads=self.threads)
        _check(stuck)
        return finished
