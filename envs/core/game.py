"""The batched game interface that every game implements, and the State convention.

A game's state is a dataclass of numpy arrays, each with leading axis B (the batch). The common
members live in :class:`State`; a game subclasses it with its own arrays. Rules are functions of
the whole batch: ``legal_mask``, ``step`` and ``observe`` act on every game at once, or on the
subset selected by an ``active`` mask, and never loop over games.
"""
from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Mapping, TypeVar

import numpy as np

from .errors import IllegalActionError

S = TypeVar("S", bound="State")


@dataclasses.dataclass
class State:
    """Members every game's state carries (all with leading batch axis B).

    ``rewards[i, p]`` is what seat p earned on the last step of game i (zero otherwise);
    ``rng_key``/``rng_counter`` are game i's random stream (see :mod:`envs.core.rng`).
    """

    to_play: np.ndarray  # int8[B]: seat to act
    terminated: np.ndarray  # bool[B]
    truncated: np.ndarray  # bool[B]
    rewards: np.ndarray  # float32[B, P]
    rng_key: np.ndarray  # uint64[B]
    rng_counter: np.ndarray  # uint64[B]

    @property
    def batch_size(self) -> int:
        return int(self.to_play.shape[0])

    @property
    def done(self) -> np.ndarray:
        """bool[B]: the game is over (terminated or truncated)."""
        return self.terminated | self.truncated

    def arrays(self) -> dict[str, np.ndarray]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def copy(self: S) -> S:
        return type(self)(**{k: v.copy() for k, v in self.arrays().items()})

    def take(self: S, index: Any) -> S:
        """A new state holding the games selected by ``index`` (slice, mask or indices)."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return type(self)(**{k: v[index].copy() for k, v in self.arrays().items()})

    def put(self, index: Any, other: "State") -> None:
        """Overwrite the games selected by ``index`` with the games of ``other`` (in place)."""
        for k, v in self.arrays().items():
            v[index] = getattr(other, k)

    @staticmethod
    def concat(states: list[S]) -> S:
        """One batch holding the games of ``states`` in order (all of one game's State type)."""
        names = [f.name for f in dataclasses.fields(states[0])]
        return type(states[0])(**{k: np.concatenate([getattr(s, k) for s in states]) for k in names})

    def equals(self, other: "State") -> bool:
        """True when every array matches exactly (used for determinism checks)."""
        if type(self) is not type(other):
            return False
        mine, theirs = self.arrays(), other.arrays()
        return all(np.array_equal(v, theirs[k]) for k, v in mine.items())


class BatchGame(ABC):
    """One game's rules over a batch of B independent games.

    Subclasses set ``name``, ``num_players``, ``num_actions`` and ``observation_shape`` (they may
    depend on the rule options given to the constructor) and implement the abstract methods.
    ``step`` mutates the state in place and returns it; it checks legality first, so an illegal
    action raises :class:`IllegalActionError` before anything changes.
    """

    name: ClassVar[str]
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]

    @property
    def agent_names(self) -> tuple[str, ...]:
        return tuple(f"player_{p}" for p in range(self.num_players))

    # ---- the rules -----------------------------------------------------------------------
    @abstractmethod
    def init(self, seeds: np.ndarray | list[int]) -> State:
        """B new games; game i is seeded by ``seeds[i]``."""

    @abstractmethod
    def legal_mask(self, state: State) -> np.ndarray:
        """bool[B, A]: legal actions of the seat to play (all False where the game is over)."""

    @abstractmethod
    def _apply(self, state: State, actions: np.ndarray, active: np.ndarray) -> None:
        """Apply legal ``actions`` to the games where ``active`` (already validated)."""

    @abstractmethod
    def observe(self, state: State, seat: int | np.ndarray) -> np.ndarray:
        """float32[B, *observation_shape]: what ``seat`` (one per game, or one for all) may know."""

    def step(
        self, state: State, actions: np.ndarray, active: np.ndarray | None = None, *, check: bool = True,
        mask: np.ndarray | None = None,
    ) -> State:
        """Apply ``actions[i]`` to every game i where ``active[i]`` (default: every live game).

        Rewards of the previous step are cleared in the stepped games. With ``check`` (the
        default) every action is validated against the legal mask first — ``mask`` if the caller
        already computed it for this state, else ``legal_mask(state)``; callers that drew their
        actions from the mask themselves may pass ``check=False``.
        """
        actions = np.asarray(actions, dtype=np.int64).reshape(-1)
        if actions.shape[0] != state.batch_size:
            raise ValueError(f"expected {state.batch_size} actions, got {actions.shape[0]}")
        if active is None:
            active = ~state.done
        else:
            active = np.asarray(active, dtype=bool) & ~state.done
        if check:
            self.validate(state, actions, active, mask)
        state.rewards[active] = 0.0
        if active.any():
            self._apply(state, actions, active)
        return state

    def validate(self, state: State, actions: np.ndarray, active: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Raise :class:`IllegalActionError` for the first active game whose action is illegal.

        ``mask`` may pass the legal mask of ``state`` when the caller already has it.
        """
        idx = np.flatnonzero(active)
        if idx.size == 0:
            return
        acts = actions[idx]
        in_range = (acts >= 0) & (acts < self.num_actions)
        if not in_range.all():
            bad = int(np.flatnonzero(~in_range)[0])
            raise IllegalActionError(int(idx[bad]), int(acts[bad]), "out of range",
                                     f"actions are 0..{self.num_actions - 1}")
        if mask is None:
            mask = self.legal_mask(state)
        ok = mask[idx, acts]
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(int(idx[bad]), int(acts[bad]), self.action_label(int(acts[bad])))

    # ---- for people and positions --------------------------------------------------------
    @abstractmethod
    def action_label(self, action: int) -> str:
        """A short readable name of an action index."""

    def describe_action(self, action: int) -> dict[str, Any]:
        """A structured description of an action index (games override with more detail)."""
        return {"index": int(action), "label": self.action_label(action)}

    @abstractmethod
    def render_text(self, state: State, index: int = 0, seat: int | None = None) -> str:
        """A readable picture of game ``index``; with ``seat``, only what that seat may see."""

    @abstractmethod
    def to_position(self, state: State, index: int = 0) -> dict[str, Any]:
        """Game ``index`` as a JSON-safe dict."""

    @abstractmethod
    def from_position(self, position: Mapping[str, Any], seed: int = 0) -> State:
        """A batch of one game set up from ``position`` (future chance drawn from ``seed``)."""

    def state_from_positions(self, positions: list[Mapping[str, Any]], seeds: list[int] | None = None) -> State:
        """A batch built from several positions."""
        seeds = seeds if seeds is not None else list(range(len(positions)))
        return State.concat([self.from_position(p, s) for p, s in zip(positions, seeds)])  # type: ignore[arg-type]
