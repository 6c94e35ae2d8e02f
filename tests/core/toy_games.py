"""A tiny correct game for the conformance harness, and variants broken in each way it checks.

``DiceNim``: a pile of 6..15 stones (drawn from the seed); the seat to play takes 1, 2 or 3 (at
most the pile); the one who takes the last stone wins (+1, the other -1). After every take that
leaves stones a die is rolled: a 6 gives the same seat another move. Each decision removes a
stone or more, so no game takes more than 15 decisions.

Each ``Broken*`` class breaks exactly one promise; ``tests/core/test_harness_catches.py`` shows
that exactly the matching check fails.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

import numpy as np

from yuugi.envs.core import rng
from yuugi.envs.faces.aec import BatchAECEnv
from yuugi.envs.core.errors import IllegalActionError, PositionError
from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.core.metadata import GameMetadata

MAX_PILE = 15
TAKES = (1, 2, 3)
OBS_SIZE = 8  # pile / 15, my turn, the last die one-hot (1..6)


@dataclasses.dataclass
class NimState(State):
    pile: np.ndarray  # int16[B]
    last_roll: np.ndarray  # int8[B]: 0 before the first roll


class DiceNim(BatchGame):
    name = "dice_nim"

    def __init__(self) -> None:
        self.num_players = 2
        self.num_actions = len(TAKES)
        self.observation_shape = (OBS_SIZE,)

    @property
    def metadata(self) -> GameMetadata:
        # Every decision takes >= 1 of at most 15 stones; the winner gets +1, the loser -1.
        return GameMetadata(num_players=2, utility="zero_sum", utility_sum=0.0, reward_range=(-1.0, 1.0),
                            max_decisions=MAX_PILE, chance=True, information="perfect")

    def _empty(self, b: int) -> NimState:
        return NimState(to_play=np.zeros(b, np.int8), terminated=np.zeros(b, bool), truncated=np.zeros(b, bool),
                        rewards=np.zeros((b, 2), np.float32), rng_key=np.zeros(b, np.uint64),
                        rng_counter=np.zeros(b, np.uint64), pile=np.zeros(b, np.int16),
                        last_roll=np.zeros(b, np.int8))

    def init(self, seeds: np.ndarray | list[int]) -> NimState:
        keys = rng.keys_from_seeds(np.asarray(seeds))
        st = self._empty(len(keys))
        st.rng_key[:] = keys
        g = np.arange(len(keys))
        st.pile[:] = 6 + rng.below_at(st, g, MAX_PILE - 5)
        st.to_play[:] = rng.below_at(st, g, 2)
        return st

    def legal_mask(self, state: NimState) -> np.ndarray:  # type: ignore[override]
        takes = np.asarray(TAKES)[None, :]
        return (takes <= state.pile[:, None]) & ~state.done[:, None]

    def _apply(self, state: NimState, actions: np.ndarray, active: np.ndarray) -> None:  # type: ignore[override]
        g = np.flatnonzero(active)
        state.pile[g] -= np.asarray(TAKES)[actions[g]].astype(np.int16)
        self._after_take(state, g)

    def _after_take(self, state: NimState, g: np.ndarray) -> None:
        won = g[state.pile[g] == 0]
        seat = state.to_play[won].astype(np.int64)
        state.rewards[won, seat] = 1.0
        state.rewards[won, 1 - seat] = -1.0
        state.terminated[won] = True
        go = g[state.pile[g] > 0]
        self._roll(state, go)

    def _roll(self, state: NimState, g: np.ndarray) -> None:
        roll = rng.dice_at(state, g, 1)[:, 0]
        state.last_roll[g] = roll
        switch = g[roll != 6]
        state.to_play[switch] = 1 - state.to_play[switch]

    def observe(self, state: NimState, seat: int | np.ndarray) -> np.ndarray:  # type: ignore[override]
        b = state.batch_size
        obs = np.zeros((b, OBS_SIZE), np.float32)
        obs[:, 0] = state.pile / MAX_PILE
        obs[:, 1] = (state.to_play == np.broadcast_to(np.asarray(seat), (b,))) & ~state.done
        rolled = np.flatnonzero(state.last_roll > 0)
        obs[rolled, 1 + state.last_roll[rolled]] = 1.0
        return obs

    def action_label(self, action: int) -> str:
        return f"take {TAKES[action]}"

    def render_text(self, state: NimState, index: int = 0, seat: int | None = None) -> str:  # type: ignore[override]
        return f"pile {int(state.pile[index])}, seat {int(state.to_play[index])} to play"

    def to_position(self, state: NimState, index: int = 0) -> dict[str, Any]:  # type: ignore[override]
        return {"pile": int(state.pile[index]), "to_play": int(state.to_play[index]),
                "last_roll": int(state.last_roll[index])}

    def from_position(self, position: Mapping[str, Any], seed: int = 0) -> NimState:
        st = self._empty(1)
        st.rng_key[:] = rng.keys_from_seeds([seed])
        for name, lo, hi in (("pile", 1, MAX_PILE), ("to_play", 0, 1), ("last_roll", 0, 6)):
            value = position.get(name, 0)
            if not isinstance(value, int) or not lo <= value <= hi:
                raise PositionError(name, f"must be an integer {lo}..{hi}, got {value!r}")
            getattr(st, name)[0] = value
        return st


def raw_env(game: BatchGame | None = None) -> BatchAECEnv:
    return BatchAECEnv(game or DiceNim())


# ---- one broken promise each ----------------------------------------------------------------------
class BrokenMaskAfterEnd(DiceNim):
    """Still offers "take 1" once the game is over."""

    def legal_mask(self, state: NimState) -> np.ndarray:  # type: ignore[override]
        mask = super().legal_mask(state)
        mask[state.done, 0] = True
        return mask


class BrokenIllegalActionMutates(DiceNim):
    """Rejects an illegal action, but only after taking a stone from the offending game."""

    def validate(self, state: State, actions: np.ndarray, active: np.ndarray, mask: np.ndarray | None = None) -> None:
        try:
            super().validate(state, actions, active, mask)
        except IllegalActionError as e:
            state.pile[e.game_index] -= 1
            raise


class BrokenBatchDependentRandomness(DiceNim):
    """Rolls every game's die from the stream of the first game stepped, so rows depend on row 0."""

    def _roll(self, state: NimState, g: np.ndarray) -> None:
        if not g.size:
            return
        key = np.repeat(state.rng_key[g[:1]], g.size)
        ctr = state.rng_counter[g]
        roll = rng.draw_below(key, ctr, 6) + 1
        state.rng_counter[g] = ctr
        state.last_roll[g] = roll
        switch = g[roll != 6]
        state.to_play[switch] = 1 - state.to_play[switch]


class BrokenObservationOutOfBounds(DiceNim):
    """Scales the pile by 10 instead of 15, so piles above 10 leave the declared Box(0, 1)."""

    def observe(self, state: NimState, seat: int | np.ndarray) -> np.ndarray:  # type: ignore[override]
        obs = super().observe(state, seat)
        obs[:, 0] = state.pile / 10
        return obs


class BrokenPositionLosesField(DiceNim):
    """Positions drop the last die, which the observation shows: loading forgets it."""

    def to_position(self, state: NimState, index: int = 0) -> dict[str, Any]:  # type: ignore[override]
        pos = super().to_position(state, index)
        del pos["last_roll"]
        return pos


class BrokenRewardsNotZeroSum(DiceNim):
    """Declares zero-sum but the loser pays only half."""

    def _after_take(self, state: NimState, g: np.ndarray) -> None:
        super()._after_take(state, g)
        lost = state.rewards[g] < 0
        state.rewards[g] = np.where(lost, -0.5, state.rewards[g])


class BrokenNeverEnds(DiceNim):
    """Refills the pile instead of ending the game."""

    def _after_take(self, state: NimState, g: np.ndarray) -> None:
        empty = g[state.pile[g] == 0]
        state.pile[empty] = 10
        self._roll(state, g)


class SwappedRewardsAEC(BatchAECEnv):
    """An AEC face that credits each step's rewards to the wrong seats."""

    def step(self, action: int | None) -> None:
        super().step(action)
        agents = list(self.rewards)
        self.rewards = {a: self.rewards[agents[(k + 1) % len(agents)]] for k, a in enumerate(agents)}


BROKEN: dict[str, tuple[type[DiceNim], Any]] = {
    # check name -> (game class, raw env factory over a game)
    "mask": (BrokenMaskAfterEnd, raw_env),
    "illegal_action": (BrokenIllegalActionMutates, raw_env),
    "batch": (BrokenBatchDependentRandomness, raw_env),
    "observation": (BrokenObservationOutOfBounds, raw_env),
    "position": (BrokenPositionLosesField, raw_env),
    "rewards": (BrokenRewardsNotZeroSum, raw_env),
    "termination": (BrokenNeverEnds, raw_env),
    "aec": (DiceNim, SwappedRewardsAEC),
}
