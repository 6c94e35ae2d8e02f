"""Static tables: the 58 legal card sets of rules file Appendix A and lookups over them.

A card set ("combo") is one of four patterns (§5.2-3): one card; 2 or 3 retainers of one type; one
Dog + one Monkey + one Pheasant; the warrior + one retainer. Combo ids follow Appendix A exactly.
``LEGAL_BY_HAND[h]`` is the row of combos a player holding the cards of bitmask ``h`` may send
(every card of the set still in play).
"""
from __future__ import annotations

import collections
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

# The tables the compiled rules read, passed to every kernel as one argument (never read as globals).
# Built once per rule set by ``config.Derived`` (powers and marks are options); see rules.py.
KernelTables = collections.namedtuple("KernelTables", (
    "card_power",  # int64[10]: printed power of the player cards (warrior first)
    "oni_power",  # int64[12]: printed power = treasure value
    "combo_oni_mod",  # int64[58, 12]: janken modifier of each card set against each oni
    "combo_cards",  # bool[58, 10]: COMBO_CARDS
    "combo_bits",  # int64[58]: the cards of each set as a bitmask (bit c = card c)
    "combo_size",  # int64[58]
    "combo_single_card",  # int64[58]: the one card of a single-card set, -1 for the others
    "yellow_potions",  # int64[12]: potions a yellow oni gives (0 for the others)
    "is_yellow",  # bool[12]
    "inv_card_power",  # float32[10]: 1 / printed power (the card_damage observation)
    "inv_oni_power",  # float32[12]: 1 / printed power (the oni_damage observation)
    "obs_offsets",  # int64[39]: first column of each block of the observation (observation.layout order)
))
