"""Static tables: the 58 legal card sets of rules file Appendix A and lookups over them.

A card set ("combo") is one of four patterns (§5.2-3): one card; 2 or 3 retainers of one type; one
Dog + one Monkey + one Pheasant; the warrior + one retainer. Combo ids follow Appendix A exactly.
``LEGAL_BY_HAND[h]`` is the row of combos a player holding the cards of bitmask ``h`` may send
(every card of the set still in play).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .cards import CARD_NAMES, NUM_CARDS, WARRIOR

P_SINGLE, P_SAME_TYPE, P_THREE_TYPES, P_WARRIOR_PLUS = 0, 1, 2, 3
PATTERN_NAMES = ("single", "same_type", "three_types", "warrior_plus")


def _build_combos() -> list[tuple[int, tuple[int, ...]]]:
    combos: list[tuple[int, tuple[int, ...]]] = [(P_SINGLE, (c,)) for c in range(NUM_CARDS)]
    for t in range(3):  # Dog, Monkey, Pheasant: cards 1+3t .. 3+3t
        cards = (1 + 3 * t, 2 + 3 * t, 3 + 3 * t)
        for pair in combinations(cards, 2):
            combos.append((P_SAME_TYPE, pair))
        combos.append((P_SAME_TYPE, cards))
    for i in (1, 2, 3):
        for s in (4, 5, 6):
            for k in (7, 8, 9):
                combos.append((P_THREE_TYPES, (i, s, k)))
    for r in range(1, NUM_CARDS):
        combos.append((P_WARRIOR_PLUS, (WARRIOR, r)))
    return combos


COMBOS = _build_combos()
NUM_COMBOS = len(COMBOS)
assert NUM_COMBOS == 58, NUM_COMBOS
COMBO_PATTERN = np.array([p for p, _ in COMBOS], dtype=np.int8)
COMBO_CARDS = np.zeros((NUM_COMBOS, NUM_CARDS), dtype=bool)
for _k, (_p, _cards) in enumerate(COMBOS):
    COMBO_CARDS[_k, list(_cards)] = True
COMBO_SIZE = COMBO_CARDS.sum(axis=1).astype(np.int8)
# The one card of a single-card set (-1 for sets of several cards).
COMBO_SINGLE_CARD = np.where(COMBO_SIZE == 1, COMBO_CARDS.argmax(axis=1), -1).astype(np.int8)
COMBO_NAMES = tuple("+".join(CARD_NAMES[c] for c in cards) for _, cards in COMBOS)
COMBO_BY_CARDS = {frozenset(cards): k for k, (_, cards) in enumerate(COMBOS)}

# Hand bitmask (bit c = card c in play) -> legal combos.
POW2 = (1 << np.arange(NUM_CARDS)).astype(np.int64)
_COMBO_BITS = (COMBO_CARDS.astype(np.int64) * POW2).sum(axis=1)
LEGAL_BY_HAND = (np.arange(1 << NUM_CARDS)[:, None] & _COMBO_BITS[None, :]) == _COMBO_BITS[None, :]
