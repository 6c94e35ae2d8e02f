"""Which card may be picked next into a constructed deck, by the rules of :mod:`yuugi.envs.ninja_slayer.decks`.

A deck is built one card at a time from the 48 of the pool. A pick is allowed while the deck stays
completable into a legal constructed deck: fewer than ``CONSTRUCTED_SIZE`` cards so far, fewer
than ``MAX_COPIES`` of this card, and, for a card with ウケミ, fewer than ``MAX_UKEMI`` ウケミ cards
so far. The limits are the deck module's constants (never restated here), and a finished deck is
checked by its validator, ``validate_constructed``. Every partial deck that follows these picks can
be finished: the pool has 32 cards without ウケミ (128 copies), far more than a deck needs.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.errors import ActionTypeError, IllegalActionError
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.decks import CONSTRUCTED_SIZE, MAX_COPIES, MAX_UKEMI

NUM_CARDS = C.NUM_CARDS


def pick_mask(counts: np.ndarray) -> np.ndarray:
    """bool[48]: the cards that may be picked next, given ``counts[c]`` copies of each chosen so far."""
    counts = np.asarray(counts)
    total = int(counts.sum())
    ukemi = int(counts[C.HAS_UKEMI].sum())
    if total >= CONSTRUCTED_SIZE:
        return np.zeros(NUM_CARDS, dtype=bool)
    return (counts < MAX_COPIES) & (~C.HAS_UKEMI | (ukemi < MAX_UKEMI))


def check_pick(counts: np.ndarray, card: object) -> int:
    """The card index of a legal pick, or ``IllegalActionError`` naming the card and the rule it breaks."""
    if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
        raise ActionTypeError(card, NUM_CARDS)
    c = int(card)
    if not 0 <= c < NUM_CARDS:
        raise IllegalActionError(0, c, "not a card", f"picks are 0..{NUM_CARDS - 1} "
                                                     f"({C.CODES[0]}..{C.CODES[-1]} in the card table's order)")
    counts = np.asarray(counts)
    total = int(counts.sum())
    if total >= CONSTRUCTED_SIZE:
        raise IllegalActionError(0, c, C.CODES[c], f"the deck already has its {CONSTRUCTED_SIZE} cards")
    if counts[c] >= MAX_COPIES:
        raise IllegalActionError(0, c, C.CODES[c], f"it would be copy {int(counts[c]) + 1} of {C.CODES[c]}: the "
                                                   f"4-copy rule allows at most {MAX_COPIES} copies of a card "
                                                   f"(name with 二つ名)")
    ukemi = int(counts[C.HAS_UKEMI].sum())
    if C.HAS_UKEMI[c] and ukemi >= MAX_UKEMI:
        raise IllegalActionError(0, c, C.CODES[c], f"{C.CODES[c]} has ウケミ and the deck already holds {ukemi}: "
                                                   f"the ウケミ cap allows at most {MAX_UKEMI} cards with ウケミ")
    return c


def deck_codes(counts: np.ndarray) -> list[str]:
    """The deck as card codes in the table's order (``["C01", "C01", ...]``)."""
    return [C.CODES[c] for c in range(NUM_CARDS) for _ in range(int(counts[c]))]
