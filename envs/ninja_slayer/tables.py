"""The static tables the compiled rules read, built once in Python and passed to every kernel.

* ``CARD_TABLE``: int64[rows, 48], one row per card property (``CT_*`` below), indexed by card id;
* ``CARD_FEATURES``: float32[49, F] (:data:`.cards.CARD_FEATURES`, row 48 an empty slot);
* ``FAMILY``: int64[293], the family of each action;
* the deck pools: the four constructed decks (int8[4, 50]) and the sealed packs' rarity pools;
* :func:`config_ints`: the rule options as one int64 array (``CF_*``).
"""
from __future__ import annotations

import numpy as np

from . import actions as A
from . import cards as C
from .decks import CONSTRUCTED, DECK_NAMES

(CT_IS_CHAR, CT_COST, CT_KARATE, CT_KOUSAKU, CT_TRIGGER, CT_ACT_E, CT_ACT_O, CT_ACT_J, CT_OPCODE, CT_ARG, CT_TARGET,
 CT_UK_OP, CT_UK_ARG, CT_UK_TARGET, CT_UKEMI, CT_INTERRUPT, CT_KAIZEN, CT_HAYATE) = range(18)

CARD_TABLE = np.stack([np.asarray(a, dtype=np.int64) for a in (
    C.IS_CHAR, C.COST, C.KARATE, C.KOUSAKU, C.TRIGGER, C.ACT_E, C.ACT_O, C.ACT_J, C.OPCODE, C.ARG, C.TARGET,
    C.UK_OP, C.UK_ARG, C.UK_TARGET, C.HAS_UKEMI, C.HAS_INTERRUPT, C.HAS_KAIZEN, C.HAS_HAYATE)])
CARD_FEATURES = np.ascontiguousarray(C.CARD_FEATURES, dtype=np.float32)
FAMILY = A.FAMILY.astype(np.int64)

CONSTRUCTED_DECKS = np.array([CONSTRUCTED[k] for k in DECK_NAMES], dtype=np.int8)  # [4, 50]
COMMONS = np.flatnonzero(C.RARITY == 0).astype(np.int64)
UNCOMMONS = np.flatnonzero(C.RARITY == 1).astype(np.int64)
RARES = np.flatnonzero(C.RARITY == 2).astype(np.int64)
SRS = np.flatnonzero(C.RARITY == 3).astype(np.int64)

# One seat's deck spec as a code: D1..D4 are 0..3, then a random constructed deck, a sealed deck, any of
# the five, and an explicit 50-card list (given beside it).
SPEC_CONSTRUCTED, SPEC_SEALED, SPEC_ANY, SPEC_LIST = 4, 5, 6, 7

(CF_DRAW_FROM_EMPTY, CF_UKEMI_EVENT, CF_SICKNESS, CF_INTERRUPT_TAPS, CF_COMPACT, CF_AUTO_PASS, CF_MASK_USELESS,
 CF_MAX_TURNS, CF_MAX_DECISIONS, CF_HISTORY) = range(10)

for _arr in (CARD_TABLE, CARD_FEATURES, FAMILY, CONSTRUCTED_DECKS, COMMONS, UNCOMMONS, RARES, SRS):
    _arr.flags.writeable = False


def config_ints(cfg) -> np.ndarray:
    """The rule options of ``cfg`` (a :class:`~.config.NinjaSlayerConfig`) as int64[10] (``CF_*``)."""
    return np.array([cfg.deckout_rule == "draw_from_empty", cfg.ukemi_nullifies == "event",
                     cfg.summoning_sickness, cfg.interrupt_taps, cfg.priority_windows == "compact",
                     cfg.auto_pass_forced, cfg.mask_useless, cfg.max_turns, cfg.max_decisions, cfg.history],
                    dtype=np.int64)


def deck_specs(specs) -> tuple[np.ndarray, np.ndarray]:
    """(int64[2] spec codes, int8[2, 50] explicit lists) of a parsed pair of deck specs."""
    kinds = np.zeros(2, np.int64)
    lists = np.full((2, 50), -1, np.int8)
    for seat, spec in enumerate(specs):
        if isinstance(spec, tuple):
            kinds[seat] = SPEC_LIST
            lists[seat] = np.array(spec, np.int8)
        elif spec in DECK_NAMES:
            kinds[seat] = DECK_NAMES.index(spec)
        else:
            kinds[seat] = {"constructed": SPEC_CONSTRUCTED, "sealed": SPEC_SEALED, "any": SPEC_ANY}[spec]
    return kinds, lists
