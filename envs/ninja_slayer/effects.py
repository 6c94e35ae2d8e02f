"""Resolving the top item of the stack: character entries and the 16 effect opcodes (§2.11).

An item's targets are re-checked on resolution: a chosen character (and SELF, SOURCE) must still be
the same object on the field, else the item does nothing (a kotodama still goes to オヒガン). ALL_*
sets are computed on resolution. Abilities whose source left the field still resolve from their
recorded data, except SELF ones. Damage to a player is not dealt here: it is queued point by point
for the engine's damage micro-operation (:func:`yuugi.envs.ninja_slayer.rules.damage_point`).
"""
from __future__ import annotations

import numpy as np

from . import cards as C
from . import stack, zones
from .config import STACK_MAX
from .state import (ITEM_ACTIVATED, ITEM_ENTRY, ITEM_KOTODAMA, ITEM_TRIGGER, OP_DAMAGE, OP_RULES,
                    NinjaSlayerState)

_SINGLE = np.zeros(C.NUM_TARGET_KINDS, dtype=bool)
_SINGLE[[C.TK_SELF, C.TK_OPP_CHAR, C.TK_OWN_CHAR, C.TK_ANY_CHAR, C.TK_SOURCE]] = True


def enter_characters(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, card: np.ndarray) -> None:
    """Put characters onto the field (entry resolution, AMBUSH) and pend their ON_ENTER triggers."""
    g, p, s, card = zones.put_on_field(st, g, p, card)
    stack.pend_triggers(st, g, p, s, card, st.fld_obj[g, p, s], C.TR_ON_ENTER)


def destroy(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, s: np.ndarray) -> None:
    """爆発四散: characters go to オヒガン and pend ON_DESTROYED (one character per game)."""
    card = st.fld_card[g, p, s].astype(np.int64)
    obj = st.fld_obj[g, p, s].copy()
    zones.clear_slot(st, g, p, s)
    zones.to_grave(st, g, p, card)
    stack.pend_triggers(st, g, p, s, card, obj, C.TR_ON_DESTROYED)


def destroy_marked(st: NinjaSlayerState, g: np.ndarray, marked: np.ndarray) -> None:
    """Destroy every character marked in ``marked[n, 2, 6]``: in each game in seat then slot order (the
    order of its ON_DESTROYED triggers). Round k destroys the k-th marked character of every game that
    has one, so a call costs as many rounds as the most characters one game loses (usually one),
    not one per marked seat and slot."""
    if not np.count_nonzero(marked):  # (count_nonzero: the cheapest test at any size)
        return
    r, p, s = np.nonzero(marked)  # by game, then seat, then slot
    rank = np.arange(len(r)) - np.searchsorted(r, r)  # (searchsorted: the first entry of each game)
    rounds = int(rank.max()) + 1
    if rounds == 1:  # (the common case: one character per game)
        destroy(st, g[r], p, s)
        return
    for k in range(rounds):
        now = rank == k
        destroy(st, g[r[now]], p[now], s[now])


# The opcodes that act on the marked characters (a single target still there, or an ALL_* set).
_MARKING = (C.OP_DMG_CHAR, C.OP_BUFF_K, C.OP_BUFF_W, C.OP_DEBUFF_K, C.OP_TAP, C.OP_UNTAP, C.OP_GRANT_KAIZEN,
            C.OP_DESTROY_LE, C.OP_BOUNCE)
_ENTRY = C.NUM_OPCODES  # the count of character entries, after the opcodes'


_IS_MARKING = np.zeros(C.NUM_OPCODES, dtype=bool)
_IS_MARKING[list(_MARKING)] = True


def _resolve_marking(st: NinjaSlayerState, g: np.ndarray, i: np.ndarray, ctrl: np.ndarray, op: np.ndarray,
                     arg: np.ndarray, tk: np.ndarray) -> None:
    """The items (index ``i`` of games ``g``) whose opcode acts on the marked characters: a single
    target must still be the same object; ALL_* sets are taken now, before any item acts."""
    n = len(g)
    tp_ = st.stk_tgt_player[g, i].astype(np.int64)
    ts = st.stk_tgt_slot[g, i].astype(np.int64)
    to = st.stk_tgt_obj[g, i].astype(np.int64)
    alive = (ts >= 0) & (to >= 0)
    alive &= st.fld_obj[g, np.maximum(tp_, 0), np.maximum(ts, 0)] == to
    marked = np.zeros((n, 2, st.fld_card.shape[2]), dtype=bool)
    hit = _SINGLE[tk] & alive
    marked[hit.nonzero()[0], tp_[hit], ts[hit]] = True
    all_opp = tk == C.TK_ALL_OPP
    all_own = tk == C.TK_ALL_OWN
    if all_opp.any() or all_own.any():
        seat = np.arange(2)[None, :, None]
        marked |= (st.fld_card[g] >= 0) & ((all_opp[:, None, None] & (seat != ctrl[:, None, None]))
                                           | (all_own[:, None, None] & (seat == ctrl[:, None, None])))
    # (an item whose single target left simply does nothing: its marks are empty)
    # each game's one item, opcode by opcode (the opcodes present by a bincount: np.unique costs more)
    for code in np.bincount(op).nonzero()[0].tolist():
        sel = op == code
        gs, m, a = g[sel], marked[sel], arg[sel]
        if code in _MARK_ADD:
            arr = getattr(st, _MARK_ADD[code])
            if m.any():
                sign = -1 if code == C.OP_DEBUFF_K else 1
                arr[gs] += np.where(m, sign * a[:, None, None], 0).astype(arr.dtype)
        elif code in _MARK_SET:
            name, value = _MARK_SET[code]
            arr = getattr(st, name)
            if m.any():
                arr[gs] = np.where(m, value, arr[gs])
        elif code == C.OP_DESTROY_LE:
            destroy_marked(st, gs, m & (zones.karate(st, gs) <= a[:, None, None]))
        elif code == C.OP_BOUNCE:
            h = hit[sel]
            if h.any():
                gs, ps, ss = gs[h], tp_[sel][h], ts[sel][h]
                bounced = st.fld_card[gs, ps, ss].astype(np.int64)
                zones.clear_slot(st, gs, ps, ss)
                zones.to_hand(st, gs, ps, bounced, known=True)


# What the marking opcodes do to the marked characters: add the item's argument to a counter
# (DEBUFF_K subtracts it), or set a flag.
_MARK_ADD = {C.OP_DMG_CHAR: "fld_dmg", C.OP_BUFF_K: "fld_kmod", C.OP_BUFF_W: "fld_wmod", C.OP_DEBUFF_K: "fld_kmod"}
_MARK_SET = {C.OP_TAP: ("fld_tap", True), C.OP_UNTAP: ("fld_tap", False), C.OP_GRANT_KAIZEN: ("fld_kz", True)}


def resolve_top(st: NinjaSlayerState, g: np.ndarray, cfg) -> None:
    """Resolve the top item of each game in ``g``; sets the next micro-operation.

    Each part below runs only when some resolving item needs it (``count``: how many items of each
    opcode resolve, character entries last), and only on the games whose item needs it.
    """
    i = st.stk_len[g].astype(np.int64) - 1
    top = g * STACK_MAX + i  # the flat index of each top item (np.take is cheaper than [g, i])
    kind, card, ctrl, op, arg, tk = (np.take(a, top).astype(np.int64) for a in (
        st.stk_kind, st.stk_card, st.stk_ctrl, st.stk_op, st.stk_arg, st.stk_tk))
    st.stk_len[g] -= 1
    st.last_resolved[g] = card
    st.op[g] = OP_RULES

    entry = kind == ITEM_ENTRY
    count = np.bincount(np.where(entry, _ENTRY, op), minlength=_ENTRY + 1).tolist()
    if count[_ENTRY]:
        enter_characters(st, g[entry], ctrl[entry], card[entry])

    def rows(code: int) -> np.ndarray:
        return ~entry & (op == code)

    if any(count[code] for code in _MARKING):
        sel = ~entry & _IS_MARKING[op]
        _resolve_marking(st, g[sel], i[sel], ctrl[sel], op[sel], arg[sel], tk[sel])

    # Player effects (DRAW, RAMP, HEAL act on the controller; DMG_PLAYER on its target player).
    if count[C.OP_DMG_PLAYER]:
        sel = rows(C.OP_DMG_PLAYER) & (arg > 0)
        if sel.any():
            gs = g[sel]
            victim = np.where(tk[sel] == C.TK_OPP_PLAYER, 1 - ctrl[sel], ctrl[sel])
            has_src = (kind[sel] == ITEM_TRIGGER) | (kind[sel] == ITEM_ACTIVATED)
            st.dmg_left[gs] = arg[sel]
            st.dmg_player[gs] = victim
            st.dmg_src_player[gs] = ctrl[sel]
            st.dmg_src_slot[gs] = np.where(has_src, st.stk_src_slot[gs, i[sel]], -1)
            st.dmg_src_obj[gs] = np.where(has_src, st.stk_src_obj[gs, i[sel]], -1)
            st.op[gs] = OP_DAMAGE
    for code, fn in ((C.OP_DRAW, zones.draw), (C.OP_RAMP, zones.ramp)):
        if count[code]:
            sel = rows(code)
            for k in range(1, int(arg[sel].max(initial=0)) + 1):
                now = sel & (arg >= k)
                fn(st, g[now], ctrl[now], cfg)
    if count[C.OP_HEAL]:
        sel = rows(C.OP_HEAL)
        gs, ps, a = g[sel], ctrl[sel], arg[sel]
        down = np.minimum(a, st.dmg_down[gs, ps])
        up = np.minimum(a - down, st.dmg_up[gs, ps])
        st.dmg_down[gs, ps] -= down.astype(np.int16)
        st.dmg_up[gs, ps] -= up.astype(np.int16)
        st.grave_anon[gs, ps] += (down + up).astype(np.int16)
    if count[C.OP_COUNTER]:
        ref = st.stk_ref[g, i].astype(np.int64)
        sel = rows(C.OP_COUNTER) & (ref >= 0) & (ref == st.stk_len[g] - 1)
        if sel.any():
            gs, j = g[sel], ref[sel]
            k2 = st.stk_kind[gs, j]
            is_card = (k2 == ITEM_ENTRY) | (k2 == ITEM_KOTODAMA)
            zones.to_grave(st, gs[is_card], st.stk_ctrl[gs, j][is_card].astype(np.int64),
                           st.stk_card[gs, j][is_card].astype(np.int64))
            st.stk_len[gs] -= 1
    if count[C.OP_AMBUSH]:
        sel = rows(C.OP_AMBUSH)
        gs, ps, cs = g[sel], ctrl[sel], card[sel]
        there = (st.grave[gs, ps, cs] > 0) & (zones.free_slot(st, gs, ps) >= 0)
        gs, ps, cs = gs[there], ps[there], cs[there]
        st.grave[gs, ps, cs] -= 1
        enter_characters(st, gs, ps, cs)

    koto = kind == ITEM_KOTODAMA
    if np.count_nonzero(koto):
        zones.to_grave(st, g[koto], ctrl[koto], card[koto])
