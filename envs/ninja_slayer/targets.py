"""Target indices (ego-centric) and which of them each target kind allows.

A target index ``t`` (0..12) is relative to the acting seat ``me``: 0..5 are my field slots, 6..11
the opponent's slots 0..5, 12 means "no choice / the player / the stack".
"""
from __future__ import annotations

import numpy as np

from . import cards as C
from .seat_rows import seat_rows, seat_slots
from .state import NinjaSlayerState

NO_TARGET = 12
NUM_TARGETS = 13


def table(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, mask_useless: bool) -> np.ndarray:
    """bool[n, kinds, 13]: for each target kind, the target indices legal for seat ``me`` now."""
    n = len(g)
    rows = seat_rows(g, me)
    own = seat_slots(st.fld_card, rows) >= 0
    opp = seat_slots(st.fld_card, rows ^ 1) >= 0  # (the other seat's row)
    out = np.zeros((n, C.NUM_TARGET_KINDS, NUM_TARGETS), dtype=bool)
    out[:, _ALWAYS[mask_useless], NO_TARGET] = True  # (one write for the kinds that need nothing)
    if mask_useless:  # ALL_* only with something to affect
        out[:, C.TK_ALL_OPP, NO_TARGET] = opp.any(axis=1)
        out[:, C.TK_ALL_OWN, NO_TARGET] = own.any(axis=1)
    out[:, C.TK_STACK, NO_TARGET] = st.stk_len[g] > 0
    out[:, C.TK_OPP_CHAR, 6:12] = opp
    out[:, C.TK_OWN_CHAR, 0:6] = own
    out[:, C.TK_ANY_CHAR, 0:6] = own
    out[:, C.TK_ANY_CHAR, 6:12] = opp
    return out


# The kinds whose "no choice" target is always legal (per mask_useless: the ALL_* kinds only without it).
_ALWAYS = {False: np.array([C.TK_NONE, C.TK_SELF, C.TK_OPP_PLAYER, C.TK_ALL_OPP, C.TK_ALL_OWN]),
           True: np.array([C.TK_NONE, C.TK_SELF, C.TK_OPP_PLAYER])}


def available(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, mask_useless: bool) -> np.ndarray:
    """bool[n, kinds]: some target index is legal for the kind (``table(...).any(axis=2)``, cheaper)."""
    own = (st.fld_card[g, me] >= 0).any(axis=1)
    opp = (st.fld_card[g, 1 - me] >= 0).any(axis=1)
    out = np.zeros((len(g), C.NUM_TARGET_KINDS), dtype=bool)
    out[:, [C.TK_NONE, C.TK_SELF, C.TK_OPP_PLAYER]] = True
    out[:, C.TK_ALL_OPP] = opp if mask_useless else True
    out[:, C.TK_ALL_OWN] = own if mask_useless else True
    out[:, C.TK_STACK] = st.stk_len[g] > 0
    out[:, C.TK_OPP_CHAR] = opp
    out[:, C.TK_OWN_CHAR] = own
    out[:, C.TK_ANY_CHAR] = own | opp
    return out


def decode(me: np.ndarray, t: np.ndarray, st: NinjaSlayerState, g: np.ndarray) -> tuple[np.ndarray, ...]:
    """(seat, slot, object id) of target index ``t`` for seat ``me``; (-1, -1, -1) for index 12."""
    t = np.asarray(t, dtype=np.int64)
    char = t < NO_TARGET
    player = np.where(t < 6, me, 1 - me)
    slot = np.where(t < 6, t, t - 6)
    obj = st.fld_obj[g, np.where(char, player, 0), np.where(char, slot, 0)]
    return (np.where(char, player, -1), np.where(char, slot, -1), np.where(char, obj, -1))


def encode(me: np.ndarray, player: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """Target index of (seat, slot) seen by ``me``; 12 when ``slot`` is -1."""
    return np.where(slot < 0, NO_TARGET, np.where(player == me, slot, slot + 6))
