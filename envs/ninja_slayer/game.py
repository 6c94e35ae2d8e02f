"""``NinjaSlayer``: the batched core of the two-player card game (rules compiled: :mod:`.engine`)."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from yuugi.envs.core.game import BatchGame, Setup
from yuugi.envs.core.metadata import GameMetadata

from . import actions as A
from . import observation, position, render
from .batch import Compiled
from .config import NinjaSlayerConfig
from .decks import parse_deck_specs
from .state import NinjaSlayerState, empty_state


class NinjaSlayer(BatchGame[NinjaSlayerState]):
    """ニンジャスレイヤーTCG over a batch. Options: see :class:`~.config.NinjaSlayerConfig`."""

    name = "ninja_slayer"

    def __init__(self, **options: Any) -> None:
        self.config = NinjaSlayerConfig.from_options(options)
        self.num_players = 2
        self.num_actions = A.NUM_ACTIONS
        card_width = observation.CARD_WIDTHS[self.config.observation]
        self.observation_shape = (observation.offsets(self.config.history, card_width)[1],)
        self._compiled: Compiled | None = None

    @property
    def compiled(self) -> Compiled:
        """The compiled kernels bound to this game's rule options and thread count."""
        c = self._compiled
        if c is None:
            c = self._compiled = Compiled(self.config)
        c.threads = self.threads
        return c

    setup_keys = ("decks",)  # per-episode: {"decks": (seat 0, seat 1)}, deck names or 50-card lists

    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        super().validate_setup(setup)
        if "decks" in setup:
            parse_deck_specs(setup["decks"])  # an OptionError naming the deck and the rule it breaks

    def init(self, seeds: np.ndarray | list[int], setup: Setup = None) -> NinjaSlayerState:
        """B new games with the configured pair of decks, or ``setup["decks"]`` for these games only."""
        # (the core hands this one validated mapping per group of games: see BatchGame.init)
        decks = parse_deck_specs(setup["decks"]) if isinstance(setup, Mapping) and "decks" in setup else None
        seeds = np.asarray(seeds)
        st = empty_state(len(seeds), self.config)
        self.compiled.init(st, seeds, decks)
        return st

    def init_with_decks(self, seeds: np.ndarray | list[int], decks: Any) -> NinjaSlayerState:
        """``init(seeds, {"decks": decks})`` (kept for older callers)."""
        return self.init(seeds, {"decks": decks})

    def legal_mask(self, state: NinjaSlayerState) -> np.ndarray:
        return self.compiled.legal_mask(state)

    def _apply(self, state: NinjaSlayerState, actions: np.ndarray, active: np.ndarray) -> None:
        # (writable C arrays of one dtype each: every call then runs the one compiled signature)
        self.compiled.apply(state, np.require(actions, np.int64, ["C", "W"]), np.require(active, bool, ["C", "W"]))

    def observe(self, state: NinjaSlayerState, seat: int | np.ndarray) -> np.ndarray:
        seats = np.empty(state.batch_size, np.int64)  # (a writable array: one compiled signature)
        seats[:] = seat
        return self.compiled.observe(state, seats)

    def step_fused(self, state: NinjaSlayerState, actions: np.ndarray, mask_out: np.ndarray, obs_out: np.ndarray, *,
                   reset_seeds: np.ndarray | None = None, rewards_out: np.ndarray | None = None) -> np.ndarray:
        """One batch step in one kernel call (see :meth:`BatchGame.step_fused`)."""
        return self.compiled.step_fused(state, actions, mask_out, obs_out, reset_seeds, rewards_out)

    def action_label(self, action: int) -> str:
        return A.action_label(action)

    def describe_action(self, action: int) -> dict[str, Any]:
        return A.describe_action(action)

    def render_text(
        self, state: NinjaSlayerState, index: int = 0, seat: int | None = None
    ) -> str:
        return render.render_text(state, index, self.config, seat)

    def to_position(self, state: NinjaSlayerState, index: int = 0) -> dict[str, Any]:
        return position.to_position(state, index, self.config)

    def from_position(self, position_: Mapping[str, Any], seed: int = 0) -> NinjaSlayerState:
        return position.from_position(position_, self.config, seed)

    @property
    def metadata(self) -> GameMetadata:
        # max_decisions: the engine truncates a game after max_decisions agent decisions (a decision
        # auto-taken under auto_pass_forced is not a step of the core), so no episode is longer. Zero-sum
        # (+1/-1, or 0/0 for a draw or truncation); chance: the shuffles, sealed packs and the first
        # player; imperfect information: hands and deck orders are hidden.
        return GameMetadata(num_players=2, utility="zero_sum", utility_sum=0.0, reward_range=(-1.0, 1.0),
                            max_decisions=self.config.max_decisions, chance=True, information="imperfect")

    def winner(self, state: NinjaSlayerState) -> np.ndarray:
        """int[B]: the winning seat of each finished game, -1 while playing or for a draw."""
        return np.where(state.terminated, state.winner, -1)
