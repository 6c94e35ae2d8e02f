"""ninja_slayer's learned value of a position, and the horizon that uses it: rollouts stop a turn ahead.

``hard`` (:mod:`yuugi.agents.lookahead`) plays the shipped network's choices, but looks a turn ahead:
each of the network's likely actions is played out to the end of the turn by the network at both
seats, and the position reached is valued by :class:`SlayerWinValue`, a :class:`~yuugi.agents.win_network.WinNetwork`
that estimates the probability that a seat goes on to win from what that seat sees.

The network reads the observation without its action history and without the stack items above the
fourth (:func:`value_features`: 3,322 of the 5,350 floats), and a last input, 1 for a seat that plays
as the network does (``hard``'s network, against ``normal`` in its training games; 0 for ``normal``).
It was fitted by :mod:`yuugi.training.train.slayer_value` on 100,000 games of the network against
``normal``, both deck families, one decision state in eighty kept, from both seats' views, each
labelled with whether that seat went on to win.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

from yuugi.agents.search.valued_horizon import ValuedHorizon
from yuugi.agents.win_network import WinNetwork, win_network_of
from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.ninja_slayer import observation as O
from yuugi.envs.ninja_slayer.config import STACK_MAX

VALUE_WEIGHTS = Path(__file__).resolve().parent.parent / "weights" / "ninja_slayer_value.npz"
# expert values with two networks fitted on different games (the mean of their log-odds): hard's and a
# second run's (training.train.slayer_value --seed 71).
EXPERT_VALUE_WEIGHTS = (VALUE_WEIGHTS, VALUE_WEIGHTS.with_name("ninja_slayer_value_2.npz"))
VALUED_STACK_ITEMS = 4  # stack items the value reads, bottom first (a deeper stack is rare and short-lived)
# The blocks read whole, before and after the stack (the action history is left out).
_BEFORE_STACK = ("scalars", "phase", "decision", "counts", "attack", "hand", "opp_known_hand", "field")
_AFTER_STACK = ("pending", "deck_unseen", "grave", "etel", "damage", "last_resolved")


def _value_columns(history: int) -> np.ndarray:
    blocks, _ = O.offsets(history)
    stack = blocks["stack"]
    per_item = (stack.stop - stack.start) // STACK_MAX
    parts = [np.arange(blocks[b].start, blocks[b].stop) for b in _BEFORE_STACK]
    parts.append(np.arange(stack.start, stack.start + VALUED_STACK_ITEMS * per_item))
    parts += [np.arange(blocks[b].start, blocks[b].stop) for b in _AFTER_STACK]
    return np.concatenate(parts)


NUM_FEATURES = _value_columns(1).size
INPUTS = NUM_FEATURES + 1  # the features and the learner flag


def value_features(observation: np.ndarray) -> np.ndarray:
    """float32[B, NUM_FEATURES]: what the value reads of full observations (any history length)."""
    width = observation.shape[1]
    history, rest = divmod(width - O.offsets(0)[1], O.offsets(1)[1] - O.offsets(0)[1])
    if rest or not 1 <= history <= 32:
        raise OptionError(f"the ninja_slayer value reads the full observation, not one {width} floats wide "
                          "(observation='card_ids' is not valued)")
    return np.asarray(observation, np.float32)[:, _value_columns(history)]


def network_inputs(observation: np.ndarray, learner: float | np.ndarray) -> np.ndarray:
    """float32[B, INPUTS]: the features of ``observation`` and the learner flag (1: the seat plays as the network)."""
    features = value_features(observation)
    flag = np.broadcast_to(np.asarray(learner, np.float32), (len(features),))[:, None]
    return np.concatenate([features, flag], axis=1)


class SlayerWinValue:
    """Each seat's expected reward from a position: ``P(seat 0 wins) − P(seat 1 wins)`` from the network,
    each seat's probability read from its own view as a seat that plays as the network."""

    def __init__(self, network: WinNetwork | str | Path | Sequence[WinNetwork | str | Path] | None = None) -> None:
        """``network``: a WinNetwork, a file, several of them valued together, or None for hard's."""
        self.network = win_network_of(VALUE_WEIGHTS if network is None else network).check_inputs(INPUTS, "ninja_slayer")

    def __call__(self, game: BatchGame, state: State) -> np.ndarray:
        """float64[n, 2]: each seat's expected reward (zero-sum, in (-1, 1))."""
        n = state.batch_size
        p = [self.network(network_inputs(game.observe(state, np.full(n, seat)), 1.0)) for seat in (0, 1)]
        v = p[0] - p[1]
        return np.stack([v, -v], axis=1)


class ValuedTurnEnd(ValuedHorizon):
    """ninja_slayer's: a rollout stops once ``turns`` more turns have begun, valued there by :class:`SlayerWinValue`."""

    def __init__(self, turns: int = 1, network: Any = None) -> None:
        super().__init__(turns, network)

    def describe(self) -> str:
        ahead = "the end of this turn" if self.turns == 1 else f"{self.turns} turns ahead"
        return f"{ahead}, valued by {self.valued_by()}"

    def _bind(self) -> None:
        self._win_value = SlayerWinValue(self.network)

    def _value(self, state: State) -> np.ndarray:
        assert self.game is not None
        return self._win_value(self.game, state)
