"""``NinjaDaifugo``: the batched core of ninja daifugō (the only rules engine of this game)."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from yuugi.envs.core import rng
from yuugi.envs.core.game import BatchGame, Setup
from yuugi.envs.core.metadata import GameMetadata

from . import actions as A
from . import observation, position, render, rules
from .config import DaifugoConfig
from .state import NUM_SEATS, DaifugoState, empty_state


class NinjaDaifugo(BatchGame[DaifugoState]):
    """4-player ninja daifugō over a batch. Options: see :class:`~.config.DaifugoConfig`."""

    name = "ninja_daifugo"

    def __init__(self, **options: Any) -> None:
        self.config = DaifugoConfig.from_options(options)
        self.num_players = NUM_SEATS
        self.num_actions = A.NUM_ACTIONS
        self.observation_shape = (observation.OBS_SIZE,)

    def init(self, seeds: np.ndarray | list[int], setup: Setup = None) -> DaifugoState:
        # No per-episode setup: the core refuses any setup key (validate_setup) before calling this.
        keys = rng.keys_from_seeds(np.asarray(seeds))
        st = empty_state(len(keys), self.config)
        st.rng_key[:] = keys
        rules.init(st, np.arange(len(keys)), self.config)
        return st

    def legal_mask(self, state: DaifugoState) -> np.ndarray:
        return rules.legal_mask(state, self.config)

    def _apply(self, state: DaifugoState, actions: np.ndarray, active: np.ndarray) -> None:
        g = active.nonzero()[0]  # (ndarray.nonzero: one call, np.flatnonzero three)
        rules.apply(state, g, actions[g], self.config)

    def observe(self, state: DaifugoState, seat: int | np.ndarray) -> np.ndarray:
        return observation.observe(state, seat, self.config)

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
        # at a game's end, one per finishing place: zero_sum (+1, +1/3, -1/3, -1) sums to 0; uecda
        # (4, 3, 2, 1) sums to 10 per game, 10 * series_games over a series that terminates (a truncated
        # game pays nothing). Chance: the declaration, the start seat, the deal. Hands are hidden.
        cfg = self.config
        place = cfg.rewards_by_position
        total = float(sum(place)) * cfg.series_games
        return GameMetadata(num_players=NUM_SEATS, utility="zero_sum" if total == 0 else "constant_sum",
                            utility_sum=total, reward_range=(min(0.0, *place), max(0.0, *place)),
                            max_decisions=cfg.series_games * cfg.max_game_steps, chance=True, information="imperfect")
