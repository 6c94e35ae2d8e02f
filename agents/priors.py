"""Action priors: numpy functions that grade every action of a batch of decisions.

A prior-guided :class:`~agents.mlp.MLPPolicy` (residual policy learning) reads the prior as extra
inputs and adds it, through a learned linear map that starts as a multiple of the identity, to its
own logits. Training therefore starts from the prior's choices rather than from noise, and
MaskablePPO learns the corrections. A prior is named in the exported ``.npz`` and looked up here,
so playing against such a policy still needs only numpy.

Every prior returns float32[B, A] in ``[FLOOR, 0]``: 0 for the best legal action, ``FLOOR`` for
illegal ones, and ``FLOOR`` for every action of a row with no legal action (a finished game).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

Prior = Callable[[np.ndarray, np.ndarray], np.ndarray]
FLOOR = -3.0


class HeuristicScorePrior:
    """A heuristic's action scores, relative to the best legal one, in units of ``scale``.

    ``scores(observation, mask)`` of the heuristic must return one number per action on a common
    scale (nigejozu's are chip points of its board value). A row with a single legal action is not
    scored (the heuristic is only asked where there is a choice).
    """

    def __init__(self, heuristic: object, scale: float) -> None:
        self.heuristic = heuristic
        self.scale = float(scale)

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        mask = np.asarray(mask, dtype=bool)
        out = np.where(mask, np.float32(0.0), np.float32(FLOOR))
        choice = np.flatnonzero(mask.sum(axis=1) > 1)
        if len(choice):
            m = mask[choice]
            obs = np.asarray(observation, dtype=np.float32)[choice]
            s = self.heuristic.scores(obs, m)  # type: ignore[attr-defined]
            s = np.where(m & np.isfinite(s), s, -np.inf)
            rel = (s - s.max(axis=1, keepdims=True)) / self.scale
            out[choice] = np.maximum(rel, FLOOR)
        return out


class DaifugoHeuristicScores:
    """The scores :class:`agents.heuristics.ninja_daifugo.DaifugoHeuristic` ranks actions by, per action.

    The heuristic only returns its argmax (after a tiny random tie-break), so its scoring is
    restated here without the noise; ``tests/training/test_daifugo_recipe.py`` checks that the best
    legal score is the heuristic's choice. Units are the heuristic's: one rank of card strength.
    """

    def __init__(self) -> None:
        from envs.ninja_daifugo import actions as A
        from envs.ninja_daifugo.cards import JOKER, NUM_CARDS
        from envs.ninja_daifugo.observation import MAX_HAND, OFFSETS

        self.A, self.joker, self.max_hand, self.offsets = A, JOKER, MAX_HAND, OFFSETS
        self.plays = (A.KIND >= A.K_SINGLE) & (A.KIND <= A.K_SEQ)
        self.mid = np.where(self.plays & (A.LO >= 0), (A.LO + A.HI) / 2.0, 12.5)  # the joker single counts as top
        self.size = A.SIZE.astype(np.float64)
        cards = [int(c) for c in A.CARDS]
        self.has_two = np.array([bool(c >> 48 & 0xF) for c in cards]) & self.plays
        self.has_three = np.array([bool(c & 0xF) for c in cards]) & self.plays
        self.card_rank = np.array([c // 4 for c in range(NUM_CARDS - 1)] + [13], dtype=np.float64)

    def scores(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        A, off = self.A, self.offsets
        obs = np.asarray(observation, dtype=np.float32)
        reverse = (obs[:, off["revolution"].start] != obs[:, off["eleven_back"].start])[:, None]
        hand = obs[:, off["hand"]] > 0.5
        hand_size = hand.sum(axis=1, keepdims=True)
        counts = np.rint(obs[:, off["hand_counts"]] * self.max_hand)
        leading = (obs[:, off["field_kind"].start] > 0.5)[:, None]

        strength = np.where(reverse, 12.0 - self.mid, self.mid)
        strength = np.where(A.KIND == A.K_JSINGLE, 13.0, strength)
        control = (A.HAS_JOKER & self.plays) | np.where(reverse, self.has_three, self.has_two)
        score = np.where(self.plays, 10.0 + 3.0 * self.size - strength, 0.0)
        score = score - 25.0 * (control & (hand_size > 4) & ~leading)
        score = score + 3.0 * A.HAS8

        card_strength = np.where(reverse, 12.0 - self.card_rank, self.card_rank)
        card_strength[:, self.joker] = 13.0
        mean = (hand * card_strength).sum(axis=1, keepdims=True) / np.maximum(hand_size, 1)
        score = score + np.where(A.REVOLUTION, np.where(mean < 5.5, 20.0, -20.0), 0.0)

        picks = np.zeros_like(score)
        picks[:, A.PICK0:] = 50.0 - 3.0 * card_strength
        score = np.where(A.KIND == A.K_PICK, picks, score)

        best_play = np.where(np.asarray(mask, bool) & self.plays, score, -np.inf).max(axis=1, keepdims=True)
        nothing_good = ~leading & (best_play <= 0)
        jutsu = np.zeros_like(score)
        for d in (1, 2, 3):
            jutsu[:, A.ASHIDOME0 + d - 1] = np.where(counts[:, d] <= 3, 40.0, -5.0)
        jutsu[:, A.SHURIKEN0:A.SHURIKEN0 + 3] = np.where(hand_size >= 6, 30.0, -5.0)
        jutsu[:, A.RAITON] = np.where(nothing_good[:, 0], 30.0, -5.0)
        jutsu[:, A.HENGE] = np.where(nothing_good[:, 0], 25.0, -5.0)
        return np.where(A.KIND == A.K_JUTSU, jutsu, score)


def _daifugo_heuristic() -> Prior:
    # 2 points per unit (a pair of ranks of card strength): the prior spans 6 points below the best
    # action, so the head's starting gain of 4 makes a play one rank weaker e^2 times less likely.
    return HeuristicScorePrior(DaifugoHeuristicScores(), scale=2.0)


def _nigejozu_heuristic() -> Prior:
    from agents.heuristics.nigejozu import NigejozuHeuristic

    # 4 chip points per unit: the prior spans 12 chip points below the best action.
    return HeuristicScorePrior(NigejozuHeuristic(), scale=4.0)


PRIORS: dict[str, Callable[[], Prior]] = {"nigejozu_heuristic": _nigejozu_heuristic,
                                          "ninja_daifugo_heuristic": _daifugo_heuristic}


def make_prior(name: str) -> Prior:
    if name not in PRIORS:
        raise ValueError(f"unknown action prior {name!r}; priors: {sorted(PRIORS)}")
    return PRIORS[name]()
