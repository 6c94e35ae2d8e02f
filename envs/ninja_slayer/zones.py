"""Moving cards between zones, for a set of games ``g`` and one seat ``p[i]`` per game.

Every function takes one card (or one event) per game in ``g`` (``g`` holds distinct games), so
fancy-indexed writes never collide. Loss conditions met by an event are recorded in ``st.loser``
at once; the engine ends those games after the current micro-operation (``rules.finish_losses``).
"""
from __future__ import annotations

import numpy as np

from . import cards as C
from .config import FIELD_SLOTS, HAND_SLOTS, LOSE_AT_DAMAGE
from .seat_rows import seat_rows
from .state import END_DAMAGE, END_DECKOUT, END_NONE, NinjaSlayerState

_HAND_IDX = np.arange(HAND_SLOTS)
_FIELD_IDX = np.arange(FIELD_SLOTS)


def deck_len(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray) -> np.ndarray:
    return (st.deck_size[g, p] - st.deck_ptr[g, p]).astype(np.int64)


def lose(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, reason: int) -> None:
    """Record that seat ``p`` met a loss condition (the first reason recorded is kept)."""
    if len(g) == 0:
        return
    st.loser[g, p] = True
    st.end_reason[g] = np.where(st.end_reason[g] == END_NONE, reason, st.end_reason[g])


def check_deckout(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, cfg, left: np.ndarray | None = None) -> None:
    """Under ``reach_zero`` a deck that has just reached 0 cards loses at once (``left``: the decks'
    sizes, where the caller already knows them)."""
    if cfg.deckout_rule == "reach_zero":
        empty = (deck_len(st, g, p) if left is None else left) == 0
        if np.count_nonzero(empty):  # (rare: no selection to make otherwise)
            lose(st, g[empty], p[empty], END_DECKOUT)


def take_top(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The top card of each deck (callers make sure it is not empty); it leaves the deck."""
    ptr = st.deck_ptr[g, p]
    card = st.deck[g, p, ptr].astype(np.int64)
    st.deck_ptr[g, p] = ptr + 1
    st.deck_count[g, p, card] -= 1
    return card


def to_hand(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, card: np.ndarray, known: bool) -> None:
    """Into the lowest empty hand slot; a full hand burns the card to オヒガン (``hand_overflow="burn"``)."""
    free = st.hand[g, p] < 0
    has = free.any(axis=1)
    slot = np.argmax(free, axis=1)
    if np.count_nonzero(has) == len(g):  # room in every hand (the common case): no selection, nothing burns
        st.hand[g, p, slot] = card
        st.hand_known[g, p, slot] = known
        return
    gi, pi, si = g[has], p[has], slot[has]
    st.hand[gi, pi, si] = card[has]
    st.hand_known[gi, pi, si] = known
    to_grave(st, g[~has], p[~has], card[~has])


def to_grave(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, card: np.ndarray) -> None:
    st.grave[g, p, card] += 1


def draw(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, cfg) -> None:
    """Each seat ``p`` draws one card (an empty deck loses under ``draw_from_empty``, else draws nothing)."""
    if len(g) == 0:
        return
    left = deck_len(st, g, p)
    has = left > 0
    if np.count_nonzero(has) < len(g):  # (an empty deck: rare)
        if cfg.deckout_rule == "draw_from_empty":
            lose(st, g[~has], p[~has], END_DECKOUT)
        g, p, left = g[has], p[has], left[has]
    card = take_top(st, g, p)
    to_hand(st, g, p, card, known=False)
    check_deckout(st, g, p, cfg, left - 1)  # (one card fewer than before the draw)


def ramp(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, cfg) -> None:
    """The top card of each deck goes to its owner's エテル zone tapped (an empty deck moves nothing)."""
    has = deck_len(st, g, p) > 0
    g, p = g[has], p[has]
    card = take_top(st, g, p)
    st.etel_count[g, p, card] += 1
    st.etel_total[g, p] += 1
    check_deckout(st, g, p, cfg)


def take_damage_card(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, card: np.ndarray) -> None:
    """A revealed card without ウケミ goes face up to the damage zone; the 10th loses."""
    st.dmg_up[g, p] += 1
    st.dmg_seen[g, p, card] += 1
    dead = (st.dmg_up[g, p] + st.dmg_down[g, p]) >= LOSE_AT_DAMAGE
    lose(st, g[dead], p[dead], END_DAMAGE)


def karate(st: NinjaSlayerState, g=slice(None)) -> np.ndarray:
    """int[...,2,6]: current カラテ (printed + modifiers, floored at 0); 0 on empty slots."""
    card = st.fld_card[g]
    return np.where(card >= 0, np.maximum(C.KARATE[np.maximum(card, 0)] + st.fld_kmod[g], 0), 0)


def kousaku(st: NinjaSlayerState, g=slice(None)) -> np.ndarray:
    card = st.fld_card[g]
    return np.where(card >= 0, np.maximum(C.KOUSAKU[np.maximum(card, 0)] + st.fld_wmod[g], 0), 0)


def free_slot(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The lowest empty field slot of each seat, -1 when the field is full."""
    free = st.fld_card[g, p] < 0
    return np.where(free.any(axis=1), np.argmax(free, axis=1), -1)


def clear_slot(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, s: np.ndarray) -> None:
    # (nine fields written at the flat positions of [g, p, s] by ndarray.put: half the cost of [g, p, s])
    at = seat_rows(g, p) * FIELD_SLOTS + s
    st.fld_card.put(at, -1)
    st.fld_obj.put(at, -1)
    for arr in (st.fld_tap, st.fld_entered, st.fld_redir, st.fld_kz):
        arr.put(at, False)
    for arr in (st.fld_dmg, st.fld_kmod, st.fld_wmod):
        arr.put(at, 0)


def put_on_field(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, card: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each card onto its seat's lowest free slot, untapped and new; a full field sends it to オヒガン.

    Returns the games, seats, slots and cards that did enter (for their ON_ENTER triggers).
    """
    slot = free_slot(st, g, p)
    ok = slot >= 0
    to_grave(st, g[~ok], p[~ok], card[~ok])
    g, p, s, card = g[ok], p[ok], slot[ok], card[ok]
    clear_slot(st, g, p, s)
    st.fld_card[g, p, s] = card
    st.fld_obj[g, p, s] = st.next_obj[g]
    st.next_obj[g] += 1
    st.fld_entered[g, p, s] = True
    return g, p, s, card
