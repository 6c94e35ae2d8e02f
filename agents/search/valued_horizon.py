"""Horizons valued by a win network (:class:`ValuedHorizon`: rollouts stop a few turns ahead, where a game's
learned value judges them; ninja_slayer's is :class:`~yuugi.agents.search.slayer_value.ValuedTurnEnd`), and
nigejozu's, :class:`ValuedTurnsAhead`, valued by ``hard``'s win network.

nigejozu hides nothing but the dice to come, and ``hard`` judges a board by a learned probability of
winning (:class:`~yuugi.agents.win_network.WinNetwork`). Rollouts played to the end
with random moves judge a board worse than that network does: 128 of them per candidate left the
search level with ``hard``. Here a rollout plays ``turns`` whole turns with the rollout policy (``hard``:
the opponent replies as ``hard`` would, on freshly drawn dice) and the turn start it reaches is valued
by the network, so the search is one step of policy improvement over ``hard`` that simulates each
candidate through the opponent's reply instead of estimating it.

The network learned P(win) of a side that plays ``hard``'s way (its learner flag 1) or ``normal``'s (0)
against ``normal``. Beyond the horizon both sides play ``hard``'s way, which it never saw; the value
is the mean of the two flags' estimates, so neither side is credited with facing ``normal``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from yuugi.envs.core.game import BatchGame, State


class ValuedHorizon:
    """Stop a rollout once ``turns`` more turns have begun; value it there by a game's win network.

    Unbound (as listed in ``HORIZONS``) it only says where rollouts stop; :meth:`for_game` gives a copy
    bound to a game, whose observation the network reads (a subclass builds what it values with in
    :meth:`_bind` and values in :meth:`_value`).
    """

    def __init__(self, turns: int = 2, network: Any = None) -> None:
        if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
            raise ValueError(f"turns must be a positive integer, got {turns!r}")
        self.turns = turns
        self.network = network  # a WinNetwork, a file, or None for the shipped one
        self.game: BatchGame | None = None

    def __call__(self, origin: State, now: State) -> np.ndarray:
        return now.turn >= origin.turn + self.turns

    def for_game(self, game: BatchGame) -> "ValuedHorizon | None":
        bound = type(self)(self.turns, self.network)
        bound.game = game
        bound._bind()
        return bound

    def valued_by(self) -> str:
        """How :meth:`describe` names the network: "the win network" (the shipped one) or its file's name."""
        if self.network is None:
            return "the win network"
        if isinstance(self.network, (str, Path)):
            return f"the win network {Path(self.network).name}"
        if isinstance(self.network, (tuple, list)):
            names = [Path(m).name if isinstance(m, (str, Path)) else type(m).__name__ for m in self.network]
            return f"the win networks {' + '.join(names)} together"
        return f"the win network given ({type(self.network).__name__})"

    def value(self, state: State) -> np.ndarray:
        """float64[n, P]: each seat's expected reward from ``state`` (zero-sum, in (-1, 1))."""
        if self.game is None:
            raise RuntimeError("value needs the game's observation: bind the horizon with for_game(game) first")
        return self._value(state)

    def _bind(self) -> None:
        raise NotImplementedError

    def _value(self, state: State) -> np.ndarray:
        raise NotImplementedError


class ValuedTurnsAhead(ValuedHorizon):
    """nigejozu's: stop a rollout once ``turns`` more turns have been played; value it by hard's win network.

    The value is in the ``win_loss`` scheme's units (±1): under ``reward_scheme="score_diff"`` there is no
    such value, and :meth:`for_game` gives ``None`` (rollouts run to the end of the game). The network is
    a WinNetwork, a file, or None for hard's (agents/weights/nigejozu_value.npz).
    """

    def describe(self) -> str:
        return f"{self.turns} turn{'s' if self.turns != 1 else ''} ahead, valued by {self.valued_by()}"

    def for_game(self, game: BatchGame) -> "ValuedHorizon | None":
        """This horizon bound to ``game`` (its observation feeds the network), or None where rewards are not ±1."""
        if getattr(game.config, "reward_scheme", "win_loss") != "win_loss":
            return None
        return super().for_game(game)

    def _bind(self) -> None:
        from yuugi.agents.heuristics.nigejozu_valued import NigejozuValued

        self._valued = NigejozuValued(self.network)  # as the guide's and rollouts' hard build it

    def _value(self, state: State) -> np.ndarray:
        """Each seat's expected reward from turn starts ``state``, read from the mover's view."""
        from yuugi.agents.heuristics.nigejozu_valued import network_inputs, turn_features

        assert self.game is not None
        n = state.batch_size
        mover = state.to_play.astype(np.int64)
        features = turn_features(self.game.observe(state, mover))
        valued = self._valued
        as_learner = network_inputs(valued, features, np.ones(n, bool))  # the soft battle once, for both flags
        as_normal = as_learner.copy()
        as_normal[:, -1] = 0.0  # the learner flag is the last input
        p = 0.5 * (valued.network(as_learner) + valued.network(as_normal))
        out = np.empty((n, 2))
        out[np.arange(n), mover] = 2.0 * p - 1.0
        out[np.arange(n), 1 - mover] = 1.0 - 2.0 * p
        return out
