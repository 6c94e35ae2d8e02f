"""``Nigejozu``: the batched core of the 2-player dice area-control game.

The rules are compiled (:mod:`.rules`, :mod:`.observation`); each method is one call of a batch kernel of
:mod:`.batch` on the state's arrays.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from yuugi.envs.core.game import BatchGame, Setup
from yuugi.envs.core.metadata import GameMetadata

from . import actions as A
from . import batch, position, render
from .config import NigejozuConfig
from .observation import OBS_SIZE
from .rules import tables
from .state import FACTION_NAMES, NigejozuState, empty_state


class Nigejozu(BatchGame[NigejozuState]):
    """逃げ上手の若君 天下統一ボードゲーム over a batch. Options: see :class:`~.config.NigejozuConfig`."""

    name = "nigejozu"

    def __init__(self, **options: Any) -> None:
        self.config = NigejozuConfig.from_options(options)
        self.tables = tables(self.config)
        self.num_players = 2
        self.num_actions = A.NUM_ACTIONS
        self.observation_shape = (OBS_SIZE,)

    @property
    def agent_names(self) -> tuple[str, ...]:
        return FACTION_NAMES

    def init(self, seeds: np.ndarray | list[int], setup: Setup = None) -> NigejozuState:
        # No per-episode setup: the core refuses any setup key (validate_setup) before calling this.
        seeds = np.asarray(seeds).astype(np.uint64)
        st = empty_state(len(seeds))
        batch.start_games(st.view(), seeds, self.tables, threads=self.threads)
        return st

    def legal_mask(self, state: NigejozuState) -> np.ndarray:
        mask = np.empty((state.batch_size, A.NUM_ACTIONS), dtype=bool)
        batch.legal_masks(state.view(), self.tables, mask, threads=self.threads)
        return mask

    def _apply(self, state: NigejozuState, actions: np.ndarray, active: np.ndarray) -> None:
        batch.play_actions(state.view(), actions, active, self.tables, threads=self.threads)

    def observe(self, state: NigejozuState, seat: int | np.ndarray) -> np.ndarray:
        seats = np.asarray(seat, dtype=np.int64)
        if seats.ndim == 0:  # one seat for every game
            seats = np.full(state.batch_size, seats)
        out = np.empty((state.batch_size, OBS_SIZE), dtype=np.float32)
        batch.observe_games(state.view(), seats, out, threads=self.threads)
        return out

    def step_fused(self, state: NigejozuState, actions: np.ndarray, mask_out: np.ndarray, obs_out: np.ndarray, *,
                   reset_seeds: np.ndarray | None = None, rewards_out: np.ndarray | None = None) -> np.ndarray:
        finished = np.empty(state.batch_size, dtype=bool)
        reset = reset_seeds is not None
        seeds = np.asarray(reset_seeds).astype(np.uint64, copy=False) if reset else _NO_SEEDS
        copy_rewards = rewards_out is not None
        batch.step_games(state.view(), np.asarray(actions, dtype=np.int64), self.tables, reset, seeds, copy_rewards,
                         rewards_out if copy_rewards else _NO_REWARDS, mask_out, obs_out, finished,
                         threads=self.threads)
        return finished

    def action_label(self, action: int) -> str:
        return A.action_label(action)

    def describe_action(self, action: int) -> dict[str, Any]:
        return A.describe_action(action)

    def render_text(
        self, state: NigejozuState, index: int = 0, seat: int | None = None
    ) -> str:
        """The table of game ``index``; ``seat`` changes nothing (the game has no hidden information)."""
        return render.render_text(state, index, self.config)

    def to_position(self, state: NigejozuState, index: int = 0) -> dict[str, Any]:
        return position.to_position(state, index, self.config)

    def from_position(self, position_: Mapping[str, Any], seed: int = 0) -> NigejozuState:
        return position.from_position(position_, self.config, seed)

    def winner(self, state: NigejozuState) -> np.ndarray:
        """int64[B]: winning faction of each finished game, -1 while it is still being played."""
        out = np.empty(state.batch_size, dtype=np.int64)
        batch.winners(state.view(), out, threads=self.threads)
        return out

    @property
    def metadata(self) -> GameMetadata:
        # max_decisions: each side plays at most one card (its marker) and otherwise dice turns of at most
        # 3 decisions (ROLL, REROLL, COUNT_DIE), each placing >= 1 troop from its hand. A hand of T troops
        # regains at most taikyaku_n (its own 退却) + 1 (the other's 謀反), so <= T + taikyaku_n + 1 dice
        # turns. A card turn is CARD plus its picks: 2, taikyaku_n, or for 上洛 one per troop moved (<= T)
        # plus DONE, so <= T + 2. The battle has no decisions. Zero-sum (±1 or ±score difference / 77);
        # chance: chips, the card deal, the start player and dice; perfect information apart from dice.
        t, n = self.config.troops_per_player, self.config.taikyaku_n
        return GameMetadata(num_players=2, utility="zero_sum", utility_sum=0.0, reward_range=(-1.0, 1.0),
                            max_decisions=2 * (3 * (t + n + 1) + t + 2), chance=True, information="perfect")


_NO_SEEDS = np.zeros(0, dtype=np.uint64)  # step_fused without resets
_NO_REWARDS = np.zeros((0, 2), dtype=np.float32)  # step_fused without a rewards buffer
