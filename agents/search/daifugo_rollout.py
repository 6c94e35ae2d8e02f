"""The daifugō heuristic scored over the legal actions only: the same policy, for rollouts.

:class:`yuugi.agents.heuristics.ninja_daifugo.DaifugoHeuristic` scores all 2,389 actions of every row,
although a daifugō position offers a handful; in a search's rollouts that heuristic is 85% of the
time. This policy computes the same scores (the same formula and tables, read from that module)
for the legal (row, action) pairs only and plays the best, ties broken at random as there. A test
checks that both choose the same action on random positions when the tie-breaking noise is zero.
"""
from __future__ import annotations

import numpy as np

from yuugi.agents.heuristics.ninja_daifugo import _CARD_RANK, _HAS_THREE, _HAS_TWO, _MID, _PLAYS, _SIZE
from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import JOKER
from yuugi.envs.ninja_daifugo.observation import MAX_HAND, offsets_for_width
_CONTROL = np.stack([(A.HAS_JOKER & _PLAYS) | _HAS_TWO, (A.HAS_JOKER & _PLAYS) | _HAS_THREE])  # [reverse, action]
_STRENGTH = np.stack([np.where(A.KIND == A.K_JSINGLE, 13.0, _MID), np.where(A.KIND == A.K_JSINGLE, 13.0, 12.0 - _MID)])
_BASE = np.where(_PLAYS, 10.0 + 3.0 * _SIZE, 0.0)[None, :] - np.where(_PLAYS, _STRENGTH, 0.0) + 3.0 * A.HAS8
_CARD_STRENGTH = np.stack([_CARD_RANK, 12.0 - _CARD_RANK])
_CARD_STRENGTH[:, JOKER] = 13.0
_IS_PICK = A.KIND == A.K_PICK
_IS_JUTSU = A.KIND == A.K_JUTSU
_PICK_CARD = np.where(_IS_PICK, np.arange(A.NUM_ACTIONS) - A.PICK0, 0)
_ASHIDOME_TARGET = np.zeros(A.NUM_ACTIONS, dtype=np.int64)
_ASHIDOME_TARGET[A.ASHIDOME0:A.ASHIDOME0 + 3] = np.arange(1, 4)
_JUTSU_KIND = np.full(A.NUM_ACTIONS, -1)  # 0 足止め, 1 手裏剣, 2 雷遁, 3 変化
_JUTSU_KIND[A.ASHIDOME0:A.ASHIDOME0 + 3] = 0
_JUTSU_KIND[A.SHURIKEN0:A.SHURIKEN0 + 3] = 1
_JUTSU_KIND[A.RAITON], _JUTSU_KIND[A.HENGE] = 2, 3


class SparseDaifugoHeuristic:
    """``normal`` daifugō, scored on legal actions only (see the module docstring)."""

    name = "heuristic"

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        b = mask.shape[0]
        obs = observation
        at = offsets_for_width(obs.shape[1])  # 4 or 5 players (rules="uecda")
        if at is None:
            raise ValueError(f"not a ninja_daifugo observation: {obs.shape[1]} columns")
        reverse = (obs[:, at["revolution"].start] != obs[:, at["eleven_back"].start]).astype(np.int64)
        hand = obs[:, at["hand"]] > 0.5
        hand_size = hand.sum(axis=1)
        counts = np.rint(obs[:, at["hand_counts"]] * MAX_HAND)
        leading = obs[:, at["field_kind"].start] > 0.5
        mean = (hand * _CARD_STRENGTH[reverse]).sum(axis=1) / np.maximum(hand_size, 1)
        weak = mean < 5.5

        row, act = np.nonzero(mask)
        rv = reverse[row]
        score = _BASE[rv, act] - 25.0 * (_CONTROL[rv, act] & (hand_size[row] > 4) & ~leading[row])
        score += np.where(A.REVOLUTION[act], np.where(weak[row], 20.0, -20.0), 0.0)
        pick = _IS_PICK[act]
        score = np.where(pick, 50.0 - 3.0 * _CARD_STRENGTH[rv, _PICK_CARD[act]], score)
        jutsu = _IS_JUTSU[act]
        if jutsu.any():
            best_play = np.full(b, -np.inf)
            plays = _PLAYS[act]
            np.maximum.at(best_play, row[plays], score[plays])
            nothing_good = ~leading & (best_play <= 0)
            kind = _JUTSU_KIND[act]
            ashidome = np.where(counts[row, _ASHIDOME_TARGET[act]] <= 3, 40.0, -5.0)
            values = np.select([kind == 0, kind == 1, kind == 2, kind == 3],
                               [ashidome, np.where(hand_size[row] >= 6, 30.0, -5.0),
                                np.where(nothing_good[row], 30.0, -5.0), np.where(nothing_good[row], 25.0, -5.0)], 0.0)
            score = np.where(jutsu, values, score)
        score = score + rng.random(score.shape) * 1e-3
        # The best pair of each row: sort by row, then score descending, then action (the first maximum).
        order = np.lexsort((act, -score, row))
        first = np.ones(order.size, dtype=bool)
        first[1:] = row[order][1:] != row[order][:-1]
        out = np.zeros(b, dtype=np.int64)
        out[row[order][first]] = act[order][first]
        return out
