"""``Momotaro``: the batched core of 鬼ヶ島 (the only rules engine of this game)."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from envs.core.game import BatchGame

from . import position, render
from .config import MomotaroConfig
from .observation import Observer
from .rules import Engine
from .state import MomotaroState


class Momotaro(BatchGame):
    """2–4 player 鬼ヶ島 over a batch. Options: see :class:`~.config.MomotaroConfig`."""

    name = "momotaro"

    def __init__(self, **options: Any) -> None:
        self.config = MomotaroConfig.from_options(options)
        self.engine = Engine(self.config)
        self.observer = Observer(self.config, self.engine)
        self.layout = self.engine.lay
        self.num_players = self.config.num_players
        self.num_actions = self.layout.num_actions
        self.observation_shape = (self.observer.size,)

    @property
    def oni_names(self) -> tuple[str, ...]:
        return self.engine.d.oni_names

    def init(self, seeds: np.ndarray | list[int]) -> MomotaroState:
        return self.engine.init(seeds)

    def legal_mask(self, state: MomotaroState) -> np.ndarray:  # type: ignore[override]
        return self.engine.legal_mask(state)

    def _apply(self, state: MomotaroState, actions: np.ndarray, active: np.ndarray) -> None:  # type: ignore[override]
        self.engine.apply(state, actions, active)

    def observe(self, state: MomotaroState, seat: int | np.ndarray) -> np.ndarray:  # type: ignore[override]
        return self.observer.observe(state, seat)

    def action_label(self, action: int) -> str:
        return self.layout.label(action, self.oni_names)

    def describe_action(self, action: int) -> dict[str, Any]:
        return self.layout.describe(action, self.oni_names)

    def render_text(self, state: MomotaroState, index: int = 0, seat: int | None = None) -> str:  # type: ignore[override]
        return render.render_text(self.engine, state, index, seat)

    def to_position(self, state: MomotaroState, index: int = 0) -> dict[str, Any]:  # type: ignore[override]
        return position.to_position(self.engine, state, index)

    def from_position(self, position_: Mapping[str, Any], seed: int = 0) -> MomotaroState:
        return position.from_position(self.engine, position_, seed)
