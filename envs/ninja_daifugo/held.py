"""Which plays a hand can form (rules file "What can be played"), offered to the legal mask.

Only the plays the hand holds are visited: its singles; for each rank it holds, the groups its suits
make (with the joker, one card fewer); for each suit, the runs of consecutive ranks (with the joker,
runs missing one card, the joker standing for it). Each held play ``a`` is then legal when the rules
allow it against the field (``allowed[a]``, a row of :data:`~.tables.BEATS`) and it fits the lock
(``fits[a]``, a row of :data:`~.tables.LOCK_OK`). A field is answered only by plays of its form: a
lead may play anything, a single is answered by singles, a group by groups, a sequence by sequences.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules

from . import actions as A
from .cards import JOKER, NUM_RANKS, NUM_SUITS, lowest_card
from .tables import FC_EMPTY, FC_GROUP0, FC_SEQ0

_ONE = np.uint64(1)
_FOUR_BITS = np.uint64(15)


@rules
def holds(hand: np.uint64, cards: np.uint64) -> bool:
    """The hand holds every one of ``cards``."""
    return (hand & cards) == cards


@rules
def holds_card(hand: np.uint64, card: int) -> bool:
    return (hand >> np.uint64(card)) & _ONE != 0


@rules
def suits_at_rank(hand: np.uint64, rank: int) -> int:
    """The suits (bit s = suit s) the hand holds at ``rank``."""
    return int((hand >> np.uint64(4 * rank)) & _FOUR_BITS)


@rules
def ranks_in_suit(hand: np.uint64, suit: int) -> int:
    """The ranks (bit r = rank r) the hand holds in ``suit``."""
    ranks = 0
    for rank in range(NUM_RANKS):
        if holds_card(hand, 4 * rank + suit):
            ranks |= 1 << rank
    return ranks


@rules
def offer(a: int, allowed: np.ndarray, fits: np.ndarray, mask: np.ndarray) -> bool:
    """A held play is legal when the rules allow it and it fits the lock."""
    legal = allowed[a] and fits[a]
    mask[a] = legal
    return legal


@rules
def offer_singles(hand: np.uint64, allowed: np.ndarray, fits: np.ndarray, mask: np.ndarray) -> bool:
    """Any one card (the joker alone is the joker single). True when one of them is legal."""
    found = False
    rest = hand
    while rest:  # the cards held, lowest first
        found |= offer(A.SINGLE0 + lowest_card(rest), allowed, fits, mask)
        rest &= rest - _ONE
    return found


@rules
def offer_groups(group_suits: np.ndarray, hand: np.uint64, allowed: np.ndarray, fits: np.ndarray,
                 mask: np.ndarray) -> bool:
    """2-4 cards of one rank, or 1-4 of one rank and the joker standing for that rank.

    ``group_suits`` (tables.KernelTables): the suit subsets of one rank, the 4 single suits first (they
    make joker groups only), then those of 2-4 suits in the order of the group columns."""
    joker = holds_card(hand, JOKER)
    found = False
    for rank in range(NUM_RANKS):
        suits = suits_at_rank(hand, rank)
        if suits == 0:
            continue
        for m in range(group_suits.shape[0]):
            need = group_suits[m]
            if suits & need != need:
                continue
            if m >= NUM_SUITS:
                found |= offer(A.NAT_GROUP0 + 11 * rank + m - NUM_SUITS, allowed, fits, mask)
            if joker:
                found |= offer(A.JOKER_GROUP0 + 15 * rank + m, allowed, fits, mask)
    return found


@rules
def offer_sequences(seq_offset: np.ndarray, joker_seq_offset: np.ndarray, hand: np.uint64, allowed: np.ndarray,
                    fits: np.ndarray, mask: np.ndarray) -> bool:
    """3+ cards of one suit in consecutive ranks inside 3..2; the joker may stand for any one of them.

    ``seq_offset``/``joker_seq_offset`` (tables.KernelTables): where each length's columns start."""
    joker = holds_card(hand, JOKER)
    found = False
    for suit in range(NUM_SUITS):
        ranks = ranks_in_suit(hand, suit)
        for start in range(NUM_RANKS - 2):
            missing = 0
            gap = -1  # the position the joker must fill (when one card is missing)
            for length in range(1, NUM_RANKS - start + 1):  # the run from ``start``, one rank longer each time
                if not (ranks >> (start + length - 1)) & 1:
                    missing += 1
                    gap = length - 1
                    if missing > (1 if joker else 0):
                        break
                if length < 3:
                    continue
                if missing == 0:
                    found |= offer(A.NAT_SEQ0 + 66 * suit + seq_offset[length] + start, allowed, fits, mask)
                if joker:
                    first = A.JOKER_SEQ0 + 418 * suit + joker_seq_offset[length] + start * length
                    if missing == 0:  # the joker may stand for any card of the run
                        for position in range(length):
                            found |= offer(first + position, allowed, fits, mask)
                    else:
                        found |= offer(first + gap, allowed, fits, mask)
    return found


@rules
def offer_plays(T, hand: np.uint64, field_class: int, allowed: np.ndarray, fits: np.ndarray,
                mask: np.ndarray) -> bool:
    """The held plays of the form that answers the field (any form on a lead) into ``mask``;
    True when one of them is legal."""
    if field_class == FC_EMPTY:
        singles = offer_singles(hand, allowed, fits, mask)
        groups = offer_groups(T.group_suits, hand, allowed, fits, mask)
        sequences = offer_sequences(T.seq_offset, T.joker_seq_offset, hand, allowed, fits, mask)
        return singles or groups or sequences
    if field_class < FC_GROUP0:
        return offer_singles(hand, allowed, fits, mask)
    if field_class < FC_SEQ0:
        return offer_groups(T.group_suits, hand, allowed, fits, mask)
    return offer_sequences(T.seq_offset, T.joker_seq_offset, hand, allowed, fits, mask)
