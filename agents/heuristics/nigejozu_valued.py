"""逃げ上手 (nigejozu) by a learned win probability: the heuristic's decisions, every board valued by a network.

The heuristic (:mod:`.nigejozu`) compares the boards a decision can lead to by a hand-made estimate,
the *soft battle*. This policy keeps its decisions: each count die's placement, the reroll's
expectation over the 56 rolls, each card's best complete use; and values every board instead by a
small network, :class:`~yuugi.agents.win_network.WinNetwork`, that estimates the probability that the
side about to move wins. A board after one of this policy's actions is valued from the view of the side
that moves next (the opponent, or this policy again when the opponent's hand is empty); with both hands
empty the battle is computed (it has no dice left, so the soft battle with no troops in hand is exact up
to its temperature).

The network reads a turn start's facts (:func:`turn_features`: the observation's columns from the chip
values to ``to_move``), the soft battle's value of the same board (its strongest single feature) and
whether the side to move is the player the network learned about (1) or ``normal`` (0). It was
trained by :mod:`yuugi.training.train.value_iteration`: games of this policy against ``normal``, each
turn start labelled with whether its mover went on to win, one network per round, each round played
with the previous round's network (the first with ``normal`` on both sides). ``hard`` values boards by
two such networks together (:class:`~yuugi.agents.win_network.WinEnsemble`), fitted on different games.

``hard`` (``agents/weights/nigejozu_hard.npz``) plays this policy's choices: its record says how.
Everything runs with numpy alone.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from yuugi.agents.win_network import WinNetwork, win_network_of
from yuugi.envs.nigejozu import actions as A
from yuugi.envs.nigejozu.cards import NUM_EFFECTS
from yuugi.envs.nigejozu.observation import OFFSETS, TROOP_SCALE


from .nigejozu import NigejozuHeuristic, _Ctx

VALUE_WEIGHTS = Path(__file__).resolve().parent.parent / "weights" / "nigejozu_value.npz"

# The turn start's facts: the observation's columns from chip_value to to_move (map order throughout).
FIRST = OFFSETS["chip_value"].start
LAST = OFFSETS["to_move"].stop
NUM_FEATURES = LAST - FIRST
INPUTS = NUM_FEATURES + 2  # the facts, the soft battle's value / SOFT_SCALE, the learner flag
SOFT_SCALE = 40.0  # chip points per unit of the soft-battle input (a won game is usually worth 40-77)


def _cols(block: str) -> slice:
    s = OFFSETS[block]
    return slice(s.start - FIRST, s.stop - FIRST)


TROOPS_SELF, TROOPS_OPP, HAND, REMOVED = _cols("troops_self"), _cols("troops_opp"), _cols("hand"), _cols("removed")
ESCAPE, CARDS_SELF, CARDS_OPP = _cols("escape"), _cols("cards_self"), _cols("cards_opp")
CARD_USED, LOCKED, TO_MOVE = _cols("card_used"), _cols("cards_locked"), _cols("to_move")
# Blocks that hold (self, opponent) in that order, and the escape chip's (self, opponent) columns: the
# view of the other side swaps each pair.
_PAIRS = ((TROOPS_SELF, TROOPS_OPP), (slice(HAND.start, HAND.start + 1), slice(HAND.start + 1, HAND.stop)),
          (slice(REMOVED.start, REMOVED.start + 1), slice(REMOVED.start + 1, REMOVED.stop)),
          (slice(ESCAPE.start + 1, ESCAPE.start + 2), slice(ESCAPE.start + 2, ESCAPE.stop)),
          (CARDS_SELF, CARDS_OPP),
          (slice(CARD_USED.start, CARD_USED.start + 1), slice(CARD_USED.start + 1, CARD_USED.stop)))


def turn_features(observation: np.ndarray) -> np.ndarray:
    """float32[B, NUM_FEATURES]: the facts of each observation that a turn start's value reads."""
    return np.asarray(observation, dtype=np.float32)[:, FIRST:LAST].copy()


def other_side(features: np.ndarray) -> np.ndarray:
    """The same boards seen by the other side (every self/opponent pair swapped)."""
    out = features.copy()
    for mine, theirs in _PAIRS:
        out[:, mine], out[:, theirs] = features[:, theirs], features[:, mine]
    return out


def soft_values(heuristic: NigejozuHeuristic, features: np.ndarray) -> np.ndarray:
    """float64[n]: the heuristic's soft-battle value of each board, for the side whose view ``features`` are."""
    observation = np.zeros((len(features), OFFSETS["score"].stop), dtype=np.float32)
    observation[:, FIRST:LAST] = features
    ctx = _Ctx(observation)
    return NigejozuHeuristic.value(heuristic, ctx, ctx.rows, ctx.own, ctx.opp, ctx.hs, ctx.ho)


def network_inputs(heuristic: NigejozuHeuristic, features: np.ndarray, learner_moves: np.ndarray) -> np.ndarray:
    """float32[n, INPUTS]: what :class:`WinNetwork` reads for turn starts ``features`` (the mover's view)."""
    soft = soft_values(heuristic, features) / SOFT_SCALE
    return np.concatenate([features, soft[:, None], np.asarray(learner_moves, np.float32)[:, None]],
                          axis=1).astype(np.float32)


class NigejozuValued(NigejozuHeuristic):
    """The heuristic's decisions with each board valued by a :class:`WinNetwork` (this policy's P(win))."""

    name = "valued"

    def __init__(self, network: WinNetwork | str | Path | Sequence[WinNetwork | str | Path] | None = None,
                 rules: Mapping[str, Any] | None = None) -> None:
        super().__init__(rules=rules)
        self.network = win_network_of(VALUE_WEIGHTS if network is None else network).check_inputs(INPUTS, "nigejozu")
        self._features = np.zeros((0, NUM_FEATURES), np.float32)  # the rows being scored (set by scores)
        self._card_played = False  # boards valued while a card is being weighed: its marker is spent

    def win_probability(self, features: np.ndarray, own: np.ndarray, opp: np.ndarray, hs: np.ndarray,
                        ho: np.ndarray) -> np.ndarray:
        """float64[n]: this side's chance to win once its turn ends with troops ``own``/``opp`` (map order)
        and hands ``hs``/``ho``; ``features`` are its turn's facts before, one row per board."""
        after = features.copy()
        after[:, TROOPS_SELF] = own / TROOP_SCALE
        after[:, TROOPS_OPP] = opp / TROOP_SCALE
        after[:, HAND.start] = hs / TROOP_SCALE
        after[:, HAND.start + 1] = ho / TROOP_SCALE
        if self._card_played:
            after[:, CARD_USED.start] = 1.0
        # The first side to empty its hand takes the escape chip at the end of its turn.
        took = (hs <= 0) & (after[:, ESCAPE].argmax(axis=1) == 0)
        after[took, ESCAPE] = 0.0
        after[took, ESCAPE.start + 1] = 1.0
        # Cards lock once a hand is empty.
        after[:, LOCKED.start] = np.maximum(after[:, LOCKED.start], (hs <= 0) | (ho <= 0))
        after[:, TO_MOVE.start] = 1.0
        # The opponent moves next while it holds troops; else this side plays on.
        opponent_moves = ho > 0
        mover_view = np.where(opponent_moves[:, None], other_side(after), after)
        p = self.network(network_inputs(self, mover_view, ~opponent_moves))
        p = np.where(opponent_moves, 1.0 - p, p)
        over = (hs <= 0) & (ho <= 0)
        if over.any():
            # The battle follows at once: more chips win, equal chips go to the escape chip's holder.
            margin = soft_values(self, after[over])
            holder = after[over, ESCAPE].argmax(axis=1) == 1
            p[over] = np.where(margin > 0.5, 1.0, np.where(margin < -0.5, 0.0, holder.astype(np.float64)))
        return p

    def value(self, ctx: _Ctx, r: np.ndarray, own: np.ndarray, opp: np.ndarray, hs: np.ndarray, ho: np.ndarray
              ) -> np.ndarray:
        if len(r) == 0:
            return np.zeros(0)
        return self.win_probability(self._features[r], np.asarray(own, np.float64), np.asarray(opp, np.float64),
                                    np.asarray(hs, np.float64), np.asarray(ho, np.float64))

    def scores(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """float64[B, 29]: every action's P(win) for the placements, the reroll, the roll and the cards;
        the steps of a card being resolved by the board each leads to."""
        self._features = turn_features(observation)
        self._card_played = False
        return super().scores(observation, mask)

    def _card_scores(self, ctx: _Ctx, card_rows: np.ndarray, mask: np.ndarray, roll_of: np.ndarray,
                     score: np.ndarray) -> None:
        # The heuristic weighs a card as a gain over the roll in chip points, less a threshold; here a
        # card turn is valued as what it is: the board after the card's best use, the marker spent,
        # the opponent to move, against the roll's expected P(win).
        self._card_played = True
        try:
            for effect in range(NUM_EFFECTS):
                rows = card_rows[mask[card_rows, A.CARD0 + effect]]
                if len(rows):
                    score[rows, A.CARD0 + effect] = self._card_value(ctx, rows, effect)
        finally:
            self._card_played = False
