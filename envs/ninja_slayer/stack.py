"""The コトダマ空間 (the stack) and the pending list of triggers and ウケミ effects.

``push`` puts one item per game on top of the stack (an item that would be the 17th is dropped);
``pend`` records a triggered ability or a ウケミ effect that waits to be put on the stack after the
current event. Pending items carry a sort key that gives the order of §2.6: the turn player's items
first (they resolve last), within a player ウケミ effects in reveal order, then triggers by source
slot; equal keys keep insertion order.
"""
from __future__ import annotations

import numpy as np

from . import cards as C
from .config import STACK_MAX
from .state import ITEM_TRIGGER, ITEM_UKEMI, PEND_MAX, NinjaSlayerState

_NEG = np.int64(-1)


def _write(st: NinjaSlayerState, prefix: str, g: np.ndarray, i: np.ndarray, ok: np.ndarray, vals: dict) -> None:
    """Write one item per game at index ``i`` (only where ``ok``, unless every game fits).

    Each field is written at the flat positions ``g * 16 + i`` by ``ndarray.put``: a dozen fields per
    item, and one flat put costs about half an ``[g, i]`` assignment."""
    if np.count_nonzero(ok) < len(ok):
        g, i = g[ok], i[ok]
        vals = {name: (np.asarray(v)[ok] if np.ndim(v) else v) for name, v in vals.items()}
    at = g * getattr(st, f"{prefix}_kind").shape[1] + i
    for name, v in vals.items():
        getattr(st, f"{prefix}_{name}").put(at, v)


def push(st: NinjaSlayerState, g: np.ndarray, *, kind, card, ctrl, op, arg, tk, src_slot=_NEG, src_obj=_NEG,
         tgt_player=_NEG, tgt_slot=_NEG, tgt_obj=_NEG, ref=_NEG) -> None:
    n = len(g)
    if n == 0:
        return
    i = st.stk_len[g].astype(np.int64)
    ok = i < STACK_MAX
    vals = dict(kind=kind, card=card, ctrl=ctrl, op=op, arg=arg, tk=tk, src_slot=src_slot, src_obj=src_obj,
                tgt_player=tgt_player, tgt_slot=tgt_slot, tgt_obj=tgt_obj, ref=ref)
    _write(st, "stk", g, i, ok, vals)
    st.stk_len[g[ok]] += 1


def pend(st: NinjaSlayerState, g: np.ndarray, *, kind, card, ctrl, op, arg, tk, src_slot=_NEG, src_obj=_NEG,
         tgt_player=_NEG, tgt_slot=_NEG, tgt_obj=_NEG) -> None:
    n = len(g)
    if n == 0:
        return
    ctrl = np.asarray(ctrl, dtype=np.int64)
    kind_c = np.asarray(kind)
    order = np.where(kind_c == ITEM_UKEMI, st.ukemi_seq[g], np.maximum(src_slot, 0))
    key = (ctrl != st.tp[g]) * 64 + (kind_c == ITEM_TRIGGER) * 32 + order
    st.ukemi_seq[g] += (kind_c == ITEM_UKEMI)
    i = st.pend_len[g].astype(np.int64)
    ok = i < PEND_MAX
    vals = dict(kind=kind_c, card=card, ctrl=ctrl, op=op, arg=arg, tk=tk, src_slot=src_slot, src_obj=src_obj,
                tgt_player=tgt_player, tgt_slot=tgt_slot, tgt_obj=tgt_obj, key=key, used=False)
    _write(st, "pend", g, i, ok, vals)
    st.pend_len[g[ok]] += 1


def pend_triggers(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, slot: np.ndarray, card: np.ndarray,
                  obj: np.ndarray, trigger: int) -> None:
    """Pend the ``trigger`` ability of each given character that has one (one character per game)."""
    has = C.TRIGGER[card] == trigger
    if not np.count_nonzero(has):  # (the common case: nothing to pend, nothing to prepare)
        return
    g, p, slot, card, obj = g[has], p[has], slot[has], card[has], obj[has]
    self_tk = C.TARGET[card] == C.TK_SELF
    pend(st, g, kind=ITEM_TRIGGER, card=card, ctrl=p, op=C.OPCODE[card], arg=C.ARG[card], tk=C.TARGET[card],
         src_slot=slot, src_obj=obj, tgt_player=np.where(self_tk, p, -1), tgt_slot=np.where(self_tk, slot, -1),
         tgt_obj=np.where(self_tk, obj, -1))


def pend_field_triggers(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, trigger: int) -> None:
    """Pend ``trigger`` for every character on seat ``p``'s field (slot order)."""
    cards = st.fld_card[g, p]
    has = _HAS_TRIGGER[trigger].take(cards)
    if not np.count_nonzero(has):
        return
    cards = cards.astype(np.int64)
    for s in has.any(axis=0).nonzero()[0]:
        on = has[:, s]
        gs = g[on]
        pend_triggers(st, gs, p[on], np.full(len(gs), s), cards[on, s], st.fld_obj[gs, p[on], s], trigger)


# Per trigger, per card id: the card has that trigger (one more entry, False, for an empty slot: id -1).
_HAS_TRIGGER = np.append(C.TRIGGER[None, :] == np.arange(C.NUM_TRIGGERS)[:, None], np.zeros((C.NUM_TRIGGERS, 1), bool),
                         axis=1)
