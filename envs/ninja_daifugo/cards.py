"""The 53-card deck: indices, readable names and uint64 hand bitmasks.

Card index ``c = 4 * r + s`` with rank ``r`` 0..12 = 3 4 5 6 7 8 9 T J Q K A 2 and suit ``s`` 0..3 =
♠ ♥ ♦ ♣ (S H D C); the joker is 52. A hand is a uint64 with bit c set when card c is held.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from yuugi.envs.core.jit import rules

NUM_CARDS = 53
JOKER = 52
NUM_RANKS = 13
NUM_SUITS = 4
RANK_CHARS = "3456789TJQKA2"
SUIT_CHARS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SPADE3 = 0
DIAMOND3 = 2
RANK_5, RANK_8, RANK_J = 2, 5, 8

BIT = np.array([1 << c for c in range(NUM_CARDS)], dtype=np.uint64)
ALL_CARDS = int((1 << NUM_CARDS) - 1)
_SHIFTS = np.arange(64, dtype=np.uint64)


def card_name(c: int) -> str:
    """``"S3"``, ``"HT"``, ..., ``"JK"``."""
    if c == JOKER:
        return "JK"
    return SUIT_CHARS[c % 4] + RANK_CHARS[c // 4]


def card_symbol(c: int) -> str:
    """``"♠3"``, ``"♥10"`` style, for rendering."""
    if c == JOKER:
        return "JK"
    r = RANK_CHARS[c // 4]
    return SUIT_SYMBOLS[c % 4] + ("10" if r == "T" else r)


def parse_card(name: str) -> int:
    """Inverse of :func:`card_name`; raises ``ValueError`` for anything else."""
    if not isinstance(name, str):
        raise ValueError(f"card must be a string like 'S3' or 'JK', got {name!r}")
    n = name.strip().upper()
    if n == "JK":
        return JOKER
    if len(n) == 2 and n[0] in SUIT_CHARS and n[1] in RANK_CHARS:
        return 4 * RANK_CHARS.index(n[1]) + SUIT_CHARS.index(n[0])
    raise ValueError(f"unknown card {name!r}: use suit S/H/D/C + rank 3-9/T/J/Q/K/A/2, or JK")


def cards_to_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def mask_to_cards(mask: int) -> list[int]:
    m = int(mask)
    return [c for c in range(NUM_CARDS) if (m >> c) & 1]


def mask_names(mask: int) -> list[str]:
    return [card_name(c) for c in mask_to_cards(mask)]


def unpack_bits(masks: np.ndarray, n: int = NUM_CARDS) -> np.ndarray:
    """bool[..., n]: bit c of each uint64 in ``masks``."""
    # One flat unpack: numpy unpacks one long run of bytes faster than many rows of 8.
    bytes_ = np.ascontiguousarray(masks, dtype=np.uint64).view(np.uint8).reshape(-1)
    bits = np.unpackbits(bytes_, bitorder="little").reshape(*np.shape(masks), 64)
    return bits[..., :n].view(bool)  # 0/1 bytes: a free view


def popcount(masks: np.ndarray) -> np.ndarray:
    """Number of set bits of each uint64 (int64 result)."""
    return np.bitwise_count(np.asarray(masks, dtype=np.uint64)).astype(np.int64)


_M1, _M2, _M4, _H01 = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F),
                       np.uint64(0x0101010101010101))
_S1, _S2, _S4, _S56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)


@rules
def count_cards(mask: np.uint64) -> int:
    """The number of cards in one hand bitmask (its set bits), inside compiled rules."""
    x = mask - ((mask >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return int((x * _H01) >> _S56)


_ONE = np.uint64(1)


@rules
def lowest_card(cards: np.uint64) -> int:
    """The lowest card of a non-empty set: the number of set bits below its lowest one. Loops over the
    cards of a set (``while rest: c = lowest_card(rest); ...; rest &= rest - 1``) visit only the cards
    it holds, a few of the 53 for most sets."""
    return count_cards((cards & (~cards + _ONE)) - _ONE)
