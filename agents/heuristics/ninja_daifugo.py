"""A club player's daifugō: shed weak cards first, keep 2s and the joker for control, and start a
revolution when the hand is weak. Every legal action gets a score; the best one is played.

* Plays: more cards and weaker ranks score higher (``10 + 3 n − strength``); a play that uses a
  control card (the joker, or a 2 — a 3 in revolution) while the hand is still large scores below
  PASS, so the player waits; an 8-cut earns a small bonus (it wins the lead).
* Revolution: strongly wanted when the hand's average strength is low, avoided when it is high.
* Exchange gifts and 手裏剣 throws: the weakest card.
* Jutsu: 足止め on an opponent close to going out, 手裏剣 while the hand is big, 雷遁 or 変化 when
  nothing good can be played on the field.
* A lead never passes (the UECda game allows it; it only gives the lead away).

It plays either player count: the observation's width says which layout to read (4 or 5 players).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import JOKER, NUM_CARDS
from yuugi.envs.ninja_daifugo.observation import MAX_HAND, offsets_for_width

_PLAYS = (A.KIND >= A.K_SINGLE) & (A.KIND <= A.K_SEQ)
_MID = np.where(_PLAYS & (A.LO >= 0), (A.LO + A.HI) / 2.0, 12.5)  # the joker single counts as top
_SIZE = A.SIZE.astype(np.float64)
_HAS_TWO = np.array([bool(int(A.CARDS[a]) >> 48 & 0xF) for a in range(A.NUM_ACTIONS)]) & _PLAYS
_HAS_THREE = np.array([bool(int(A.CARDS[a]) & 0xF) for a in range(A.NUM_ACTIONS)]) & _PLAYS
_CARD_RANK = np.array([c // 4 for c in range(NUM_CARDS - 1)] + [13], dtype=np.float64)


class DaifugoHeuristic:
    name = "heuristic"

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        score = self.scores(observation, mask)
        # Small noise breaks ties between equal plays without favouring low indices.
        score = score + rng.random(score.shape) * 1e-3
        return np.where(mask, score, -np.inf).argmax(axis=1).astype(np.int64)

    def scores(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """float[B, A]: every action's score (illegal ones too; ``act`` plays the best legal one)."""
        obs = observation
        OFFSETS = offsets_for_width(obs.shape[1])  # noqa: N806 - the layout of this player count
        if OFFSETS is None:
            raise ValueError(f"DaifugoHeuristic: an observation of {obs.shape[1]} columns is not ninja_daifugo's")
        reverse = (obs[:, OFFSETS["revolution"].start] != obs[:, OFFSETS["eleven_back"].start])[:, None]
        hand = obs[:, OFFSETS["hand"]] > 0.5
        hand_size = hand.sum(axis=1, keepdims=True)
        # Card counts of the relative seats self, +1, +2, ... (rounded: k / MAX_HAND * MAX_HAND is not exact).
        counts = np.rint(obs[:, OFFSETS["hand_counts"]] * MAX_HAND)
        leading = (obs[:, OFFSETS["field_kind"].start] > 0.5)[:, None]

        strength = np.where(reverse, 12.0 - _MID, _MID)  # 0 weakest .. 12 strongest
        strength = np.where(A.KIND == A.K_JSINGLE, 13.0, strength)
        control = (A.HAS_JOKER & _PLAYS) | np.where(reverse, _HAS_THREE, _HAS_TWO)
        score = np.where(_PLAYS, 10.0 + 3.0 * _SIZE - strength, 0.0)
        score = score - 25.0 * (control & (hand_size > 4) & ~leading)
        score = score + 3.0 * A.HAS8

        card_strength = np.where(reverse, 12.0 - _CARD_RANK, _CARD_RANK)
        card_strength[:, JOKER] = 13.0
        mean = (hand * card_strength).sum(axis=1, keepdims=True) / np.maximum(hand_size, 1)
        weak_hand = mean < 5.5
        score = score + np.where(A.REVOLUTION, np.where(weak_hand, 20.0, -20.0), 0.0)

        picks = np.zeros_like(score)
        picks[:, A.PICK0:] = 50.0 - 3.0 * card_strength
        score = np.where(A.KIND == A.K_PICK, picks, score)

        best_play = np.where(mask & _PLAYS, score, -np.inf).max(axis=1, keepdims=True)
        nothing_good = ~leading & (best_play <= 0)
        jutsu = np.zeros_like(score)
        for d in (1, 2, 3):
            jutsu[:, A.ASHIDOME0 + d - 1] = np.where(counts[:, d] <= 3, 40.0, -5.0)
        jutsu[:, A.SHURIKEN0:A.SHURIKEN0 + 3] = np.where(hand_size >= 6, 30.0, -5.0)
        jutsu[:, A.RAITON] = np.where(nothing_good[:, 0], 30.0, -5.0)
        jutsu[:, A.HENGE] = np.where(nothing_good[:, 0], 25.0, -5.0)
        score = np.where(A.KIND == A.K_JUTSU, jutsu, score)
        score[:, A.PASS] = np.where(leading[:, 0], -100.0, 0.0)
        return score
