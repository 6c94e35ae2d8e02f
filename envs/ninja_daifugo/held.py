"""Which plays a hand can form, in the column blocks of the legal mask (see :mod:`.tables`).

The legal mask is these held plays ANDed with one row of the rule table; only the block of columns
a field can be answered with is computed.
"""
from __future__ import annotations

import numpy as np

from . import actions as A
from . import tables as T
from .cards import JOKER, unpack_bits

_RANK_SHIFTS = (4 * np.arange(13)).astype(np.uint64)
_FIFTEEN = np.uint64(15)

# Masks and shifts that gather every fourth bit of a hand (one suit's 13 ranks) into a 13-bit
# pattern: each fold halves the gaps (4 -> 2 -> 1 bit per byte ...) with one shift, OR and AND.
_EVERY_FOURTH = np.uint64(0x1111111111111)  # bits 0, 4, ..., 48: the 13 cards of suit ♠ (the joker is bit 52)
_FOLDS = tuple((np.uint64(shift), np.uint64(keep)) for shift, keep in (
    (3, 0x0303030303030303), (6, 0x000F000F000F000F), (12, 0x000000FF000000FF), (24, 0xFFFF)))
_SUIT_SHIFTS = np.arange(4, dtype=np.uint64)


def _suit_patterns(hands: np.ndarray) -> np.ndarray:
    """int[n, 4]: the 13-bit rank pattern each suit holds."""
    x = (hands[:, None] >> _SUIT_SHIFTS) & _EVERY_FOURTH
    for shift, keep in _FOLDS:
        x = (x | (x >> shift)) & keep
    return x.astype(np.intp)


def _rank_patterns(hands: np.ndarray) -> np.ndarray:
    """int[n, 13]: the 4-bit suit pattern held at each rank."""
    return ((hands[:, None] >> _RANK_SHIFTS) & _FIFTEEN).astype(np.intp)


def held_plays(hands: np.ndarray) -> np.ndarray:
    """bool[n, 2328]: PASS plus every card play whose cards the hand holds."""
    n = hands.shape[0]
    out = np.empty((n, A.NUM_PLAY_ACTIONS), dtype=bool)
    bits = unpack_bits(hands)
    out[:, A.PASS] = True
    out[:, A.SINGLE0:A.NAT_GROUP0] = bits
    _held_groups(hands, bits[:, JOKER], out[:, A.NAT_GROUP0:A.NAT_SEQ0])
    _held_sequences(hands, bits[:, JOKER], out[:, A.NAT_SEQ0:])
    return out


def _held_groups(hands: np.ndarray, joker: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Writes bool[n, 338] into ``out``: natural then joker groups (columns 54..391)."""
    n = hands.shape[0]
    rank_pat = _rank_patterns(hands)
    out[:, :A.JOKER_GROUP0 - A.NAT_GROUP0] = np.take(T.GROUP_NAT_HOLD, rank_pat, axis=0).reshape(n, -1)
    joker_groups = out[:, A.JOKER_GROUP0 - A.NAT_GROUP0:]  # only hands holding the joker are looked up
    joker_groups[...] = False
    w = joker.nonzero()[0]
    if w.size:
        joker_groups[w] = np.take(T.GROUP_JOKER_HOLD, rank_pat[w] + 16, axis=0).reshape(w.size, -1)
    return out


def _held_sequences(hands: np.ndarray, joker: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Writes bool[n, 1936] into ``out``: natural then joker sequences (columns 392..2327)."""
    n = hands.shape[0]
    suit_pat = _suit_patterns(hands)
    out[:, :A.JOKER_SEQ0 - A.NAT_SEQ0] = np.take(T.SEQ_NAT_HOLD, suit_pat, axis=0).reshape(n, -1)
    # Joker sequences (72% of the columns) need the joker: only hands holding it are looked up.
    joker_seqs = out[:, A.JOKER_SEQ0 - A.NAT_SEQ0:]
    joker_seqs[...] = False
    w = joker.nonzero()[0]
    if w.size:
        joker_seqs[w] = np.take(T.SEQ_JOKER_HOLD, suit_pat[w] + 8192, axis=0).reshape(w.size, -1)
    return out


# The column blocks a field is answered with: a lead looks at every play; a single is answered by
# singles, a group by groups, a sequence by sequences (PASS aside).
BLOCK_LEAD, BLOCK_SINGLES, BLOCK_GROUPS, BLOCK_SEQUENCES = range(4)
BLOCKS = ((0, A.NUM_PLAY_ACTIONS), (A.SINGLE0, A.NAT_GROUP0), (A.NAT_GROUP0, A.NAT_SEQ0),
          (A.NAT_SEQ0, A.NUM_PLAY_ACTIONS))


# The block answering each field class: empty -> lead, then singles, groups, sequences (see tables).
_BLOCK_OF_CLASS = np.full(T.NUM_FIELD_CLASSES, BLOCK_SEQUENCES, dtype=np.int64)
_BLOCK_OF_CLASS[T.FC_EMPTY] = BLOCK_LEAD
_BLOCK_OF_CLASS[T.FC_EMPTY + 1:T.FC_GROUP0] = BLOCK_SINGLES
_BLOCK_OF_CLASS[T.FC_GROUP0:T.FC_SEQ0] = BLOCK_GROUPS


def field_block(fclass: np.ndarray) -> np.ndarray:
    """Which of :data:`BLOCKS` answers each field class."""
    return _BLOCK_OF_CLASS[fclass]


def held_block(hands: np.ndarray, block: int) -> np.ndarray:
    """bool[n, block width]: the plays of one block that the hands can form."""
    if block == BLOCK_LEAD:
        return held_plays(hands)
    if block == BLOCK_SINGLES:
        return unpack_bits(hands)
    joker = ((hands >> np.uint64(JOKER)) & np.uint64(1)).astype(bool)
    lo, hi = BLOCKS[block]
    held = np.empty((hands.shape[0], hi - lo), dtype=bool)
    return _held_groups(hands, joker, held) if block == BLOCK_GROUPS else _held_sequences(hands, joker, held)
