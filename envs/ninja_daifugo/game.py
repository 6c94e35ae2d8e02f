"""``NinjaDaifugo``: the batched core of ninja daifugō (the only rules engine of this game).

The rules are compiled (:mod:`.rules`, run over a batch by the kernels of :mod:`.batch`)."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from yuugi.envs.core.game import BatchGame, Setup
from yuugi.envs.core.metadata import GameMetadata

from . import actions as A
from . import batch, observation, position, render
from .config import DaifugoConfig
from .state import DaifugoState, empty_state
from .tables import kernel_tables


class NinjaDaifugo(BatchGame[DaifugoState]):
    """Ninja daifugō over a batch: the 4-player ninja game, or the 5-player UECda game (``rules="uecda"``).
    Options: see :class:`~.config.DaifugoConfig`."""

    name = "ninja_daifugo"

    def __init__(self, **options: Any) -> None:
        self.config = DaifugoConfig.from_options(options)
        self.num_players = self.config.num_players
        self.num_actions = A.NUM_ACTIONS
        self.observation_shape = (observation.observation_size(self.num_players),)
        self._tables = kernel_tables()
        self._options = batch.rule_options(self.config)

    def init(self, seeds: np.ndarray | list[int], setup: Setup = None) -> DaifugoState:
        # No per-episode setup: the core refuses any setup key (validate_setup) before calling this.
        seeds = np.asarray(seeds)
        st = empty_state(len(seeds), self.config)
        batch.init_kernel(st.view(), seeds.astype(np.uint64), self._tables, self._options, threads=self.threads)
        return st

    def legal_mask(self, state: DaifugoState) -> np.ndarray:
        out = np.empty((state.batch_size, A.NUM_ACTIONS), dtype=bool)
        batch.legal_mask_kernel(state.view(), out, self._tables, self._options, threads=self.threads)
        return out

    def _apply(self, state: DaifugoState, actions: np.ndarray, active: np.ndarray) -> None:
        batch.apply_kernel(state.view(), actions, active, self._tables, self._options, threads=self.threads)

    def observe(self, state: DaifugoState, seat: int | np.ndarray) -> np.ndarray:
        b = state.batch_size
        seats = np.full(b, seat, dtype=np.int64) if np.ndim(seat) == 0 else np.asarray(seat).astype(np.int64)
        out = np.empty((b, *self.observation_shape), dtype=np.float32)
        batch.observe_kernel(state.view(), seats, out, self._tables, self._options, threads=self.threads)
        return out

    def step_fused(self, state: DaifugoState, actions: np.ndarray, mask_out: np.ndarray, obs_out: np.ndarray, *,
                   reset_seeds: np.ndarray | None = None, rewards_out: np.ndarray | None = None) -> np.ndarray:
        """One kernel call per batch step (see :meth:`BatchGame.step_fused`)."""
        b = state.batch_size
        finished = np.empty(b, dtype=bool)
        reset = reset_seeds is not None
        seeds = np.asarray(reset_seeds).astype(np.uint64, copy=False) if reset else np.zeros(b, np.uint64)
        copy_rewards = rewards_out is not None
        rewards = rewards_out if copy_rewards else state.rewards
        batch.step_fused_kernel(state.view(), np.asarray(actions, dtype=np.int64), mask_out, obs_out, seeds, reset,
                                rewards, copy_rewards, finished, self._tables, self._options,
                                threads=self.threads)
        return finished

    def action_label(self, action: int) -> str:
        return A.action_label(action)

    def describe_action(self, action: int) -> dict[str, Any]:
        return A.describe_action(action)

    def render_text(self, state: DaifugoState, index: int = 0, seat: int | None = None) -> str:
        return render.render_text(state, index, seat)

    def to_position(self, state: DaifugoState, index: int = 0) -> dict[str, Any]:
        return position.to_position(state, index)

    def from_position(self, position_: Mapping[str, Any], seed: int = 0) -> DaifugoState:
        return position.from_position(position_, self.config, seed)

    @property
    def metadata(self) -> GameMetadata:
        # max_decisions: a game is truncated once it has taken max_game_steps decisions (the count
        # restarts with every deal) and an episode is a series of series_games games. Rewards come only
        # at a game's end, one per finishing place: zero_sum (+1 .. -1 in equal steps) sums to 0; uecda
        # (n .. 1) sums to 10 per game with four players, 15 with five, times series_games over a series
        # that terminates (a truncated game pays nothing). Chance: the declaration, the start seat, the
        # deal (UECda: the seat changes and a stalemate's places). Hands are hidden.
        cfg = self.config
        place = cfg.rewards_by_position
        total = float(sum(place)) * cfg.series_games
        return GameMetadata(num_players=self.num_players, utility="zero_sum" if total == 0 else "constant_sum",
                            utility_sum=total, reward_range=(min(0.0, *place), max(0.0, *place)),
                            max_decisions=cfg.series_games * cfg.max_game_steps, chance=True, information="imperfect")
