"""The UECda competition's baseline client (``default`` of its kit) as a policy over our action space.

It plays low and simple, with no look-ahead:

* **Leading**: its lowest sequence if it holds one, else its lowest group of two or more (all the
  cards it holds of that rank), else its lowest single. Plays holding the joker come only when no
  play without it is left, so the joker goes last (as a single when nothing else is left).
* **Following**: the lowest play of the field's shape and size that beats it, within the lock (the
  legal mask already says which plays those are), a play without the joker before one with it;
  otherwise it passes.
* **Revolution** (and 11-back, where a rule set has it): the same with the order of the ranks reversed.
  The joker single stays the strongest.
* **Exchange** (and any other card pick): its lowest card.
* It never uses a ninjutsu, so it plays any daifugō rule set of this game, 4 or 5 players.

Everything is one lookup: each action has a sort key in each rank order, and the policy plays the
legal action with the smallest key.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo import observation as O
from yuugi.envs.ninja_daifugo.cards import JOKER, NUM_CARDS

# Key = order of preference, smallest first: (has the joker, shape: sequence < group < single, strength,
# more cards first). PASS comes after every play; jutsu are never chosen.
_CATEGORY = {A.K_SEQ: 0, A.K_GROUP: 1, A.K_SINGLE: 2, A.K_JSINGLE: 2}
_PASS_KEY = 1e8


def _strength(action: int, reversed_order: bool) -> float:
    """0 (weakest) .. 13 (the joker single) in the rank order in force."""
    kind = int(A.KIND[action])
    if kind == A.K_JSINGLE:
        return 13.0
    lo, hi = int(A.LO[action]), int(A.HI[action])
    return float(12 - hi if reversed_order else lo)


def _card_strength(card: int, reversed_order: bool) -> int:
    if card == JOKER:
        return 13
    rank = card // 4
    return 12 - rank if reversed_order else rank


def _keys(reversed_order: bool) -> np.ndarray:
    keys = np.full(A.NUM_ACTIONS, np.inf)
    keys[A.PASS] = _PASS_KEY
    for a in range(1, A.NUM_PLAY_ACTIONS):
        kind = int(A.KIND[a])
        keys[a] = (1e6 * bool(A.HAS_JOKER[a]) + 1e4 * _CATEGORY[kind] + 100 * _strength(a, reversed_order)
                   + (20 - int(A.SIZE[a])))
    for c in range(NUM_CARDS):
        keys[A.PICK0 + c] = 10 * _card_strength(c, reversed_order) + c % 4
    return keys


KEYS = np.stack([_keys(False), _keys(True)])  # [reversed order, action]


def _order_columns(width: int) -> tuple[int, int]:
    """Columns of the revolution and 11-back flags in an observation of this width (the layout of the
    game's observation for its player count)."""
    offsets_for = getattr(O, "offsets_for_width", None)
    offsets = offsets_for(width) if offsets_for is not None else (O.OFFSETS if width == O.OBS_SIZE else None)
    if offsets is None:
        raise ValueError(f"uecda_default: an observation of {width} columns is not one of ninja_daifugo's")
    return offsets["revolution"].start, offsets["eleven_back"].start


class UecdaDefault:
    """The UECda baseline client: lead the lowest, answer with the lowest that beats the field, else pass."""

    name = "uecda_default"

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        obs = np.asarray(observation)
        mask = np.asarray(mask, dtype=bool)
        revolution, eleven_back = _order_columns(obs.shape[-1])
        reversed_order = (obs[:, revolution] > 0.5) != (obs[:, eleven_back] > 0.5)
        keys = np.where(mask, KEYS[reversed_order.astype(np.int64)], np.inf)
        return keys.argmin(axis=1).astype(np.int64)
