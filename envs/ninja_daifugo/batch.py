"""The batch kernels of ninja daifugō: loops over the games of a batch calling the compiled rules.

Each kernel takes the state's arrays (``state.view()``), the tables (:func:`~.tables.kernel_tables`)
and the rule options (:func:`rule_options`), and works on game ``i`` alone in its loop body; with
``threads=k > 1`` (see :mod:`yuugi.envs.core.jit`) the games run on k threads.
"""
from __future__ import annotations

import collections

import numba
import numpy as np

from yuugi.envs.core.jit import batch_kernel, rules
from yuugi.envs.core.prefetch import ONE_THREAD, games_ahead, prefetch_outputs
from yuugi.envs.core.streams import splitmix64

from . import actions as A
from .config import DaifugoConfig
from .state import DaifugoState
from .tables import kernel_tables
from .observation import block_starts, observe
from .rules import apply_action, legal_mask, start_game

# The rule options as the kernels receive them (plain values and small arrays).
RuleOptions = collections.namedtuple("RuleOptions", [
    "series_games", "max_game_steps", "pass_lockout", "miyako_ochi", "ninja_on",
    "declarations",  # int8[k]: the pool the declaration of each game is drawn from
    "rewards",  # float32[4]: reward by finishing place
    "score_low", "score_span",  # the series score's range, for the observation's scaling
    "levels", "school", "gokui",  # the seats' ninja loadouts: int8[n, 4], int8[n], bool[n]
    "uecda",  # the UECda game's rules (rules="uecda")
    "seat_change_every", "class_reset_every",  # UECda: games between seat changes (0 never) and class resets
    "obs_at",  # int64[blocks]: where each observation block starts for this player count
])


def rule_options(cfg: DaifugoConfig) -> RuleOptions:
    place = cfg.rewards_by_position
    lo, hi = min(place), max(place)
    loadouts = cfg.seat_loadouts
    return RuleOptions(
        series_games=int(cfg.series_games), max_game_steps=int(cfg.max_game_steps),
        pass_lockout=bool(cfg.pass_lockout), miyako_ochi=bool(cfg.miyako_ochi), ninja_on=bool(cfg.ninja_on),
        declarations=np.asarray(cfg.declarations, dtype=np.int8), rewards=np.asarray(place, dtype=np.float32),
        score_low=float(lo * cfg.series_games), score_span=float((hi - lo) * cfg.series_games),
        levels=np.array([lo_.levels for lo_ in loadouts], dtype=np.int8),
        school=np.array([lo_.school for lo_ in loadouts], dtype=np.int8),
        gokui=np.array([lo_.gokui for lo_ in loadouts], dtype=bool),
        uecda=bool(cfg.uecda), seat_change_every=int(cfg.seat_change_every),  # type: ignore[arg-type]
        class_reset_every=int(cfg.class_reset_every), obs_at=block_starts(cfg.num_players))  # type: ignore[arg-type]


_SEED_SALT = np.uint64(0x5EED5EED5EED5EED)


@rules
def new_series(st, i: int, seed: np.uint64, T, R) -> None:
    """Game ``i`` becomes the first game of a new series seeded by ``seed``: an empty table, the
    seats' ninja loadouts, then the first deal."""
    st.rng_key[i] = splitmix64(splitmix64(seed) ^ _SEED_SALT)
    st.rng_counter[i] = 0
    st.to_play[i] = 0
    st.terminated[i] = False
    st.truncated[i] = False
    n = st.active.shape[1]
    for seat in range(n):
        st.rewards[i, seat] = 0.0
        st.series_score[i, seat] = 0.0
        st.titles[i, seat] = 0
        for j in range(st.levels.shape[2]):
            st.levels[i, seat, j] = R.levels[seat, j]
        st.school[i, seat] = R.school[seat]
        st.gokui[i, seat] = R.gokui[seat]
        st.seating[i, seat] = seat  # in seat order until a seat change
    st.field_cards[i] = 0
    st.game_index[i] = 0
    st.phase[i] = 0
    start_game(st, i, T, R)


@batch_kernel
def init_kernel(st, seeds, T, R):
    for row in numba.prange(seeds.shape[0]):
        i = np.int64(row)
        new_series(st, i, seeds[i], T, R)


# apply_action, legal_mask and observe are inlined into fused_step (rules(inline=True)); a prange loop
# calls them through these one-line rules instead, because a rule inlined into the loop body itself is
# parallelised as part of the loop (its scalars become shared between threads: the two-thread kernels
# then played differently from the serial ones).
@rules
def legal_mask_one(st, i: int, T, R, out: np.ndarray) -> None:
    legal_mask(st, i, T, R, out)


@rules
def apply_one(st, i: int, action: int, T, R) -> None:
    apply_action(st, i, action, T, R)


@rules
def observe_one(st, i: int, seat: int, T, R, out: np.ndarray) -> None:
    observe(st, i, seat, T, R, out)


@batch_kernel
def legal_mask_kernel(st, out, T, R):
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        legal_mask_one(st, i, T, R, out[i])


@batch_kernel
def apply_kernel(st, actions, active, T, R):
    for row in numba.prange(actions.shape[0]):
        i = np.int64(row)
        if active[i]:
            apply_one(st, i, actions[i], T, R)


@batch_kernel
def observe_kernel(st, seats, out, T, R):
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        observe_one(st, i, seats[i], T, R, out[i])


@rules
def fused_step(st, i: int, action: int, mask: np.ndarray, obs: np.ndarray, reset_seed: np.uint64, reset: bool,
               rewards_out: np.ndarray, copy_rewards: bool, T, R) -> bool:
    """One batch step of game ``i`` (see ``BatchGame.step_fused``); True when the step ended its series."""
    live = not (st.terminated[i] or st.truncated[i])
    if live:
        for seat in range(st.rewards.shape[1]):
            st.rewards[i, seat] = 0.0
        apply_action(st, i, action, T, R)
    if copy_rewards:
        for seat in range(st.rewards.shape[1]):
            rewards_out[i, seat] = st.rewards[i, seat]
    finished = live and (st.terminated[i] or st.truncated[i])
    if reset and finished:
        new_series(st, i, reset_seed, T, R)
    legal_mask(st, i, T, R, mask)
    observe(st, i, int(st.to_play[i]), T, R, obs)
    return finished


@batch_kernel(serial_stand_ins=ONE_THREAD)
def step_fused_kernel(st, actions, mask_out, obs_out, reset_seeds, reset, rewards_out, copy_rewards, finished, T, R):
    """:func:`fused_step` for every game; each thread steps its own contiguous part of the games, asking
    for output rows ahead (envs/core/prefetch.py)."""
    ahead = games_ahead(mask_out, obs_out)
    for row in numba.prange(actions.shape[0]):
        i = np.int64(row)
        prefetch_outputs(i, ahead, mask_out, obs_out)
        finished[i] = fused_step(st, i, actions[i], mask_out[i], obs_out[i], reset_seeds[i], reset,
                                 rewards_out, copy_rewards, T, R)


# ---- for Python callers outside the game (positions) ------------------------------------------------
def legal_mask_of(st: DaifugoState, cfg: DaifugoConfig) -> np.ndarray:
    """bool[B, 2389]: the legal mask of every game of ``st`` under ``cfg``."""
    out = np.empty((st.batch_size, A.NUM_ACTIONS), dtype=bool)
    legal_mask_kernel(st.view(), out, kernel_tables(), rule_options(cfg))
    return out
