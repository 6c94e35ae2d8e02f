"""``Momotaro``: the batched core of 鬼ヶ島 (the only rules engine of this game: the compiled rules of
:mod:`.rules`, run over the batch by the kernels of :mod:`.batch`)."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from yuugi.envs.core.game import BatchGame, Setup
from yuugi.envs.core.metadata import GameMetadata

from . import batch, observation, position, render
from .config import MomotaroConfig
from .state import MomotaroState, empty_state


_NO_SEEDS = np.empty(0, dtype=np.uint64)  # step_fused without resets
_NO_REWARDS = np.empty((0, 0), dtype=np.float32)  # step_fused without a rewards buffer


class Momotaro(BatchGame[MomotaroState]):
    """2–4 player 鬼ヶ島 over a batch. Options: see :class:`~.config.MomotaroConfig`."""

    name = "momotaro"

    def __init__(self, **options: Any) -> None:
        self.config = MomotaroConfig.from_options(options)
        self.layout = self.config.tables.layout
        self.num_players = self.config.num_players
        self.num_actions = self.layout.num_actions
        self.observation_shape = (observation.obs_size(self.num_players),)
        self._tables = self.config.tables.kernel_tables
        self._options = self.config.tables.kernel_options

    @property
    def oni_names(self) -> tuple[str, ...]:
        return self.config.tables.oni_names

    def init(self, seeds: np.ndarray | list[int], setup: Setup = None) -> MomotaroState:
        # No per-episode setup: the core refuses any setup key (validate_setup) before calling this.
        seeds = batch.seeds_array(seeds)
        st = empty_state(len(seeds), self.config)
        batch.init_games(st.view(), seeds, self._tables, self._options, threads=self.threads)
        return st

    def legal_mask(self, state: MomotaroState) -> np.ndarray:
        mask = np.empty((state.batch_size, self.num_actions), dtype=bool)
        batch.legal_masks(state.view(), mask, self._tables, self._options, threads=self.threads)
        return mask

    def _apply(self, state: MomotaroState, actions: np.ndarray, active: np.ndarray) -> None:
        batch.apply_actions(state.view(), np.ascontiguousarray(actions, dtype=np.int64), active, self._tables,
                            self._options, threads=self.threads)

    def observe(self, state: MomotaroState, seat: int | np.ndarray) -> np.ndarray:
        b = state.batch_size
        seats = np.asarray(seat, dtype=np.int64)
        seats = np.full(b, seats) if seats.ndim == 0 else np.ascontiguousarray(seats)
        out = np.empty((b, *self.observation_shape), dtype=np.float32)
        batch.observe_games(state.view(), seats, out, self._tables, self._options, threads=self.threads)
        return out

    def step_fused(self, state: MomotaroState, actions: np.ndarray, mask_out: np.ndarray, obs_out: np.ndarray, *,
                   reset_seeds: np.ndarray | None = None, rewards_out: np.ndarray | None = None) -> np.ndarray:
        finished = np.empty(state.batch_size, dtype=bool)
        seeds = _NO_SEEDS if reset_seeds is None else batch.seeds_array(reset_seeds)
        rewards = _NO_REWARDS if rewards_out is None else rewards_out
        batch.step_games(state.view(), np.ascontiguousarray(actions, dtype=np.int64), mask_out, obs_out, seeds,
                         rewards, finished, self._tables, self._options,
                         threads=self.threads)
        return finished

    def action_label(self, action: int) -> str:
        return self.layout.label(action, self.oni_names)

    def describe_action(self, action: int) -> dict[str, Any]:
        return self.layout.describe(action, self.oni_names)

    def render_text(self, state: MomotaroState, index: int = 0, seat: int | None = None) -> str:
        return render.render_text(self.config, state, index, seat)

    def to_position(self, state: MomotaroState, index: int = 0) -> dict[str, Any]:
        return position.to_position(self.config, state, index)

    def from_position(self, position_: Mapping[str, Any], seed: int = 0) -> MomotaroState:
        return position.from_position(self.config, position_, seed)

    @property
    def metadata(self) -> GameMetadata:
        # max_decisions: hiring is 9 auctions of at most N bids, N additional bids and TAKE/DECLINE.
        # The battle is truncated after max_turns turns; a turn is at most one heal per damage point on
        # live cards (damage stays below power: warrior_value - 1 on the warrior, 0+1+2 on each of the 3
        # retainer kinds), END HEAL, ATTACK, SEND, DAMAGE and the yellow reward. Zero-sum: "winner" pays
        # +1 / -1/(N-1) (shared firsts (N-k)/(k(N-1))), "linear" 1 - 2(rank-1)/(N-1); a truncated game
        # pays nothing. Chance: decks, janken, dice. Imperfect: sealed bids.
        cfg, n = self.config, self.config.num_players
        per_turn = (cfg.warrior_value - 1 + 9) + 5
        low = -1.0 / (n - 1) if cfg.reward_scheme == "winner" else -1.0
        return GameMetadata(num_players=n, utility="zero_sum", utility_sum=0.0, reward_range=(low, 1.0),
                            max_decisions=9 * (2 * n + 1) + cfg.max_turns * per_turn, chance=True,
                            information="imperfect")
