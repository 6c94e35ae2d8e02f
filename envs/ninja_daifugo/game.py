"""``NinjaDaifugo``: the batched core of ninja daifugō (the only rules engine of this game)."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from envs.core import rng
from envs.core.game import BatchGame
from envs.core.metadata import GameMetadata

from . import actions as A
from . import observation, position, render, rules
from .config import DaifugoConfig
from .state import NUM_SEATS, DaifugoState

_FIELDS_UINT64 = ("hands", "played", "given", "received")


def empty_state(b: int) -> DaifugoState:
    """B games with every array allocated and zeroed (no cards dealt)."""
    z = lambda shape, dt: np.zeros((b, *shape), dtype=dt)  # noqa: E731
    return DaifugoState(
        to_play=z((), np.int8), terminated=z((), bool), truncated=z((), bool),
        rewards=z((NUM_SEATS,), np.float32), rng_key=z((), np.uint64), rng_counter=z((), np.uint64),
        hands=z((NUM_SEATS,), np.uint64), played=z((NUM_SEATS,), np.uint64),
        known=z((NUM_SEATS, NUM_SEATS), np.uint64), given=z((NUM_SEATS,), np.uint64),
        received=z((NUM_SEATS,), np.uint64), discard=z((), np.uint64), removed=z((), np.uint64),
        field_action=np.full(b, -1, np.int16), field_cards=z((), np.uint64), field_class=z((), np.int16),
        field_owner=np.full(b, -1, np.int8), field_elo=np.full(b, -1, np.int8), field_ehi=np.full(b, -1, np.int8),
        responses=z((), np.int8), passed=z((NUM_SEATS,), bool), lock=z((), np.int8), revolution=z((), bool),
        eleven_back=z((), bool), declaration=z((), np.int8), active=np.ones((b, NUM_SEATS), bool),
        finish_pos=z((NUM_SEATS,), np.int8), next_pos=np.ones(b, np.int8), last_pos=np.full(b, 4, np.int8),
        titles=z((NUM_SEATS,), np.int8), miyako=np.full(b, -1, np.int8), game_index=z((), np.int8),
        series_score=z((NUM_SEATS,), np.float32), phase=z((), np.int8), picks_left=z((), np.int8),
        picked=z((), np.uint64), skip_pending=z((NUM_SEATS,), np.int8), game_steps=z((), np.int32),
        points=z((NUM_SEATS,), np.int8), levels=z((NUM_SEATS, 4), np.int8), uses_left=z((NUM_SEATS, 4), np.int8),
        school=z((NUM_SEATS,), np.int8), gokui=z((NUM_SEATS,), bool), jutsu_used=z((), bool),
        henge_shift=z((), np.int8), lock_ignored=z((), bool), shuriken_target=np.full(b, -1, np.int8),
    )


class NinjaDaifugo(BatchGame):
    """4-player ninja daifugō over a batch. Options: see :class:`~.config.DaifugoConfig`."""

    name = "ninja_daifugo"

    def __init__(self, **options: Any) -> None:
        self.config = DaifugoConfig.from_options(options)
        self.num_players = NUM_SEATS
        self.num_actions = A.NUM_ACTIONS
        self.observation_shape = (observation.OBS_SIZE,)

    def init(self, seeds: np.ndarray | list[int]) -> DaifugoState:
        keys = rng.keys_from_seeds(np.asarray(seeds))
        st = empty_state(len(keys))
        st.rng_key[:] = keys
        for seat, lo in enumerate(self.config.seat_loadouts):
            st.levels[:, seat] = lo.levels
            st.school[:, seat] = lo.school
            st.gokui[:, seat] = lo.gokui
        rules.start_game(st, np.arange(len(keys)), self.config)
        return st

    def legal_mask(self, state: DaifugoState) -> np.ndarray:  # type: ignore[override]
        return rules.legal_mask(state, self.config)

    def _apply(self, state: DaifugoState, actions: np.ndarray, active: np.ndarray) -> None:  # type: ignore[override]
        rules.apply(state, actions, active, self.config)

    def observe(self, state: DaifugoState, seat: int | np.ndarray) -> np.ndarray:  # type: ignore[override]
        return observation.observe(state, seat, self.config)

    def action_label(self, action: int) -> str:
        return A.action_label(action)

    def describe_action(self, action: int) -> dict[str, Any]:
        return A.describe_action(action)

    def render_text(self, state: DaifugoState, index: int = 0, seat: int | None = None) -> str:  # type: ignore[override]
        return render.render_text(state, index, seat)

    def to_position(self, state: DaifugoState, index: int = 0) -> dict[str, Any]:  # type: ignore[override]
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
