"""Decks: the four constructed decks D1..D4, the blitz sealed generator, explicit lists.

A constructed deck has exactly 50 cards, at most 4 copies of one card (a card is its name with its
二つ名, so one code) and at most 16 cards with ウケミ. A sealed deck is 5 packs of 8 cards used as
they are (40 cards, any number of copies, no ウケミ cap): each pack holds 5 different commons, 2
different uncommons and one rare slot (an SR with probability ``sr_rate``, else a rare).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from yuugi.envs.core import rng
from yuugi.envs.core.errors import OptionError

from . import cards as C

CONSTRUCTED_SIZE = 50
SEALED_SIZE = 40
MAX_COPIES = 4
MAX_UKEMI = 16

_DECK_TEXT = {
    "D1": "C01x4 C02x4 C04x4 C03x4 C07x4 C05x3 C17x3 C22x4 C08x2 C06x1 K04x4 K01x4 K10x4 K16x2 K06x3",
    "D2": "C09x4 C10x3 C11x4 C12x4 C13x2 C14x4 C16x4 C15x1 C32x3 C29x3 K05x3 K06x3 K09x3 K02x3 K08x4 K11x1 K13x1",
    "D3": "C17x4 C18x4 C19x4 C20x2 C21x3 C22x4 C23x2 C24x3 C26x3 C05x2 K01x4 K10x4 K03x2 K13x3 K12x3 K02x3",
    "D4": "C25x4 C28x3 C31x1 C27x3 C16x2 C26x4 C29x4 C30x2 C11x4 C10x2 C09x2 K14x2 K15x1 K07x3 K04x4 K05x3 "
          "K02x3 K13x3",
}
DECK_TITLES = {"D1": "Kurogane Aggro", "D2": "Kasumi Control", "D3": "Hibana Burn", "D4": "Tsukikage Ukemi"}
DECK_NAMES = tuple(_DECK_TEXT)
RANDOM_SPECS = ("constructed", "sealed", "any")


def _expand(text: str) -> tuple[int, ...]:
    out: list[int] = []
    for item in text.split():
        code, n = item.split("x")
        out += [C.card_index(code)] * int(n)
    return tuple(out)


def validate_constructed(cards: Any, what: str = "deck") -> tuple[int, ...]:
    """Card ids of an explicit constructed list (codes or ids), or ``OptionError`` naming the rule broken."""
    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__len__"):
        raise OptionError(f"{what} must be a list of 50 card codes such as 'C04', got {cards!r}")
    try:
        ids = tuple(C.card_index(c) for c in cards)
    except ValueError as e:
        raise OptionError(f"{what}: {e}") from None
    if len(ids) != CONSTRUCTED_SIZE:
        raise OptionError(f"{what} breaks the deck-size rule: a constructed deck has exactly 50 cards, got {len(ids)}")
    counts = np.bincount(ids, minlength=C.NUM_CARDS)
    over = np.flatnonzero(counts > MAX_COPIES)
    if over.size:
        raise OptionError(f"{what} breaks the 4-copy rule: at most 4 copies of a card (name with 二つ名), "
                          f"got {int(counts[over[0]])} of {C.CODES[over[0]]}")
    ukemi = int(C.HAS_UKEMI[list(ids)].sum())
    if ukemi > MAX_UKEMI:
        raise OptionError(f"{what} breaks the ウケミ cap: at most 16 cards with ウケミ, got {ukemi}")
    return ids


CONSTRUCTED: dict[str, tuple[int, ...]] = {k: validate_constructed(_expand(v), k) for k, v in _DECK_TEXT.items()}


def parse_deck_spec(spec: Any, seat: int) -> Any:
    """One seat's deck: a name (D1..D4, constructed, sealed, any) or a tuple of 50 validated card ids."""
    if isinstance(spec, str):
        if spec.upper() in CONSTRUCTED:
            return spec.upper()
        if spec.lower() in RANDOM_SPECS:
            return spec.lower()
        raise OptionError(f"decks[{seat}] (the deck of seat {seat}) must be one of {list(DECK_NAMES) + list(RANDOM_SPECS)} or a list "
                          f"of 50 card codes, got {spec!r}")
    return validate_constructed(spec, f"decks[{seat}] (the deck of seat {seat})")


def parse_deck_specs(value: Any) -> tuple[Any, Any]:
    """Both seats' decks: one spec for both, or a pair (one per seat)."""
    if isinstance(value, str):
        value = (value, value)
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise OptionError(f"decks must be a pair (seat 0, seat 1) of deck names or 50-card lists, got {value!r}")
    return (parse_deck_spec(value[0], 0), parse_deck_spec(value[1], 1))


_COMMONS = np.flatnonzero(C.RARITY == 0)
_UNCOMMONS = np.flatnonzero(C.RARITY == 1)
_RARES = np.flatnonzero(C.RARITY == 2)
_SRS = np.flatnonzero(C.RARITY == 3)


def sealed_decks(st: Any, g: np.ndarray, sr_rate: float) -> np.ndarray:
    """int8[n, 40]: one blitz sealed deck (5 packs of 8) per game in ``g``, from each game's own stream."""
    packs = []
    for _ in range(5):
        commons = _COMMONS[rng.permutations_at(st, g, len(_COMMONS))[:, :5]]
        uncommons = _UNCOMMONS[rng.permutations_at(st, g, len(_UNCOMMONS))[:, :2]]
        ctr = st.rng_counter[g]
        raw = rng.draw_uint64(st.rng_key[g], ctr, 3)  # the slot's kind, then an SR, then a rare
        st.rng_counter[g] = ctr
        sr = _SRS[rng.below_from(raw[:, 1], len(_SRS))]
        rare = _RARES[rng.below_from(raw[:, 2], len(_RARES))]
        packs += [commons, uncommons, np.where(rng.unit_from(raw[:, 0]) < sr_rate, sr, rare)[:, None]]
    return np.concatenate(packs, axis=1).astype(np.int8)
