"""The observation of one seat in one game, compiled (the layout is :mod:`.observation`'s table).

``ct`` is the card table, ``off`` holds the first column of each block in layout order (``OB_*``), ``feat`` the static card
features (one row per card id; for ``observation="card_ids"`` the id column alone, :data:`CARD_TABLES`),
``count_frac``/``arg_scale`` the float32 value of every int8 count and stack argument (indexed by its uint8
bit pattern), so the floats are the very ones numpy wrote.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules

from . import cards as C
from . import tables as T
from .engine import karate, kousaku
from .observation import F, FIELD_DYN, STACK_DYN, offsets
from .sizes import FIELD_SLOTS, HAND_SLOTS, STACK_MAX

(OB_SCALARS, OB_PHASE, OB_DECISION, OB_COUNTS, OB_ATTACK, OB_HAND, OB_OPP_HAND, OB_FIELD, OB_STACK, OB_PENDING,
 OB_DECK, OB_GRAVE, OB_ETEL, OB_DAMAGE, OB_LAST, OB_HISTORY) = range(16)
NUM_OPCODES = C.NUM_OPCODES
NUM_TK = C.NUM_TARGET_KINDS
NUM_FAMILIES = 11
NUM_CARDS = C.NUM_CARDS
OP_COUNTER = C.OP_COUNTER


def block_starts(history: int, card: int = F) -> np.ndarray:
    """int64[16]: the first column of each block of the layout with ``history`` entries and ``card``
    floats per card."""
    off, _ = offsets(history, card)
    return np.array([s.start for s in off.values()], dtype=np.int64)


def _float_tables() -> tuple[np.ndarray, np.ndarray]:
    v = np.arange(256, dtype=np.uint8).view(np.int8)
    count_frac = np.minimum(v, 5).astype(np.float32) / np.float32(5)
    arg_scale = (np.maximum(v.astype(np.float64), 0) / C.MAX_ARG).astype(np.float32)
    return count_frac, arg_scale


COUNT_FRACTION, ARG_SCALE = _float_tables()


CARD_IDS = np.ascontiguousarray(C.CARD_FEATURES[:, C.CARD_ID_COLUMN:C.CARD_ID_COLUMN + 1], dtype=np.float32)
CARD_IDS.flags.writeable = False
# What the observation shows of each card id, by the rule option ``observation`` (float32[49, width], row 48
# an empty slot, zeros); each table's width is observation.CARD_WIDTHS's.
CARD_TABLES = {"full": T.CARD_FEATURES, "card_ids": CARD_IDS}


@rules
def put_card(out, at, feat, card):
    """The static features of ``card`` at column ``at`` (an empty slot, -1, stays zeros)."""
    if card < 0:
        return
    # Copied between views with an index from range(): LLVM vectorises that copy, but not one indexed
    # out[at + k] = feat[card, k] (numba's negative-index handling of at + k keeps it scalar): three
    # times as fast, about a fifth of the observation.
    n = feat.shape[1]
    dst = out[at:at + n]
    src = feat[card]
    for k in range(n):
        dst[k] = src[k]


@rules(inline=True)
def put_counts(dst, counts, count_frac):
    """``dst[c]``: the float of the int8 count ``counts[c]`` (its fraction of 5, at most 1), for every card id."""
    for c in range(dst.shape[0]):
        dst[c] = count_frac[np.uint8(counts[c])]


@rules
def observe_into(st, ct, feat, count_frac, arg_scale, fam, off, i, me, out):
    """What seat ``me`` sees of game ``i`` into ``out`` (float32[total]); each card as the ``fw`` floats of
    its row of ``feat`` (all 68 static features, or the id column alone for ``observation="card_ids"``)."""
    out[:] = 0.0
    fw = feat.shape[1]
    me = int(me)
    opp = 1 - me
    tp = int(st.tp[i])
    mine_turn = tp == me
    done = st.terminated[i] or st.truncated[i]
    stk_len = int(st.stk_len[i])

    # ---- scalars, phase, decision
    sc = off[OB_SCALARS]
    out[sc + 0] = min(st.turn[i] / 60.0, 1.0)
    out[sc + 1] = mine_turn
    out[sc + 2] = st.first[i] == me
    out[sc + 3] = st.to_play[i] == me
    out[sc + 4] = stk_len / STACK_MAX
    out[sc + 5] = st.passes[i] / 2.0
    out[sc + 6] = st.interrupt_asked[i]
    out[sc + 7] = st.prio[i] == me and st.decision[i] == 1
    out[sc + 8] = stk_len > 0 and st.stk_ctrl[i, max(stk_len - 1, 0)] == me
    out[sc + 9] = done
    out[off[OB_PHASE] + st.phase[i]] = 1.0
    out[off[OB_DECISION] + st.decision[i]] = 1.0

    # ---- counts per seat (me, opponent)
    for e in range(2):
        p = me if e == 0 else opp
        at = off[OB_COUNTS] + 8 * e
        held = 0
        known = 0
        for h in range(HAND_SLOTS):
            if st.hand[i, p, h] >= 0:
                held += 1
                if st.hand_known[i, p, h]:
                    known += 1
        out[at + 0] = (int(st.deck_size[i, p]) - int(st.deck_ptr[i, p])) / 50.0
        out[at + 1] = held / 10.0
        out[at + 2] = min(st.etel_total[i, p] / 20.0, 1.0)
        out[at + 3] = min(st.etel_untapped[i, p] / 20.0, 1.0)
        out[at + 4] = min(st.dmg_up[i, p] / 10.0, 1.0)
        out[at + 5] = min(st.dmg_down[i, p] / 10.0, 1.0)
        out[at + 6] = min(st.grave_anon[i, p] / 10.0, 1.0)
        out[at + 7] = known / 10.0

    # ---- the attack
    a_slot = int(st.att_slot[i])
    t_slot = int(st.tgt_slot[i])
    if a_slot >= 0:
        at = off[OB_ATTACK]
        out[at + 0] = 1.0
        out[at + 1] = mine_turn
        out[at + 8] = t_slot < 0
        out[at + 2 + a_slot] = 1.0
        if t_slot >= 0:  # the non-turn player's character, seen from me: 0..5 mine, 6..11 the opponent's
            out[at + 9 + (t_slot + 6 if mine_turn else t_slot)] = 1.0

    # ---- hands: mine (and whether the opponent knows each card), the opponent's cards I know
    for h in range(HAND_SLOTS):
        at = off[OB_HAND] + h * (fw + 1)
        put_card(out, at, feat, st.hand[i, me, h])
        out[at + fw] = st.hand_known[i, me, h]
        if st.hand_known[i, opp, h]:
            put_card(out, off[OB_OPP_HAND] + h * fw, feat, st.hand[i, opp, h])

    # ---- fields (me, opponent): card features, then tapped, damage, カラテ, 工作力, flags, attacker, target
    att_side = 0 if mine_turn else 1
    for e in range(2):
        p = me if e == 0 else opp
        for s in range(FIELD_SLOTS):
            card = int(st.fld_card[i, p, s])
            if card < 0:
                continue
            at = off[OB_FIELD] + (e * FIELD_SLOTS + s) * (fw + FIELD_DYN)
            put_card(out, at, feat, card)
            d = at + fw
            out[d + 0] = st.fld_tap[i, p, s]
            out[d + 1] = min(st.fld_dmg[i, p, s] / 10.0, 1.0)
            out[d + 2] = min(karate(st, ct, i, p, s) / 12.0, 1.0)
            out[d + 3] = min(kousaku(st, ct, i, p, s) / 8.0, 1.0)
            out[d + 4] = st.fld_entered[i, p, s]
            out[d + 5] = st.fld_redir[i, p, s]
            out[d + 6] = st.fld_kz[i, p, s]
            if a_slot >= 0 and e == att_side and s == a_slot:
                out[d + 7] = 1.0
            if a_slot >= 0 and t_slot >= 0 and e == 1 - att_side and s == t_slot:
                out[d + 8] = 1.0

    # ---- the stack, bottom first
    for k in range(stk_len):
        at = off[OB_STACK] + k * (fw + STACK_DYN)
        put_card(out, at, feat, st.stk_card[i, k])
        d = at + fw
        out[d + st.stk_kind[i, k]] = 1.0
        d += 5
        if st.stk_ctrl[i, k] == me:
            out[d] = 1.0
        d += 1
        out[d + st.stk_op[i, k]] = 1.0
        d += NUM_OPCODES
        out[d] = arg_scale[np.uint8(st.stk_arg[i, k])]
        d += 1
        out[d + st.stk_tk[i, k]] = 1.0
        d += NUM_TK
        tslot = int(st.stk_tgt_slot[i, k])
        if tslot < 0:
            out[d + 12] = 1.0
        elif st.stk_tgt_player[i, k] == me:
            out[d + tslot] = 1.0
        else:
            out[d + tslot + 6] = 1.0
        d += 13
        ref = int(st.stk_ref[i, k])
        if ref >= 0 and st.stk_op[i, k] == OP_COUNTER:  # marks the item it would cancel
            out[off[OB_STACK] + ref * (fw + STACK_DYN) + fw + (d - at - fw)] = 1.0

    # ---- the pending item whose target I am asked for
    if st.decision[i] == 4 and st.pend_ask[i] >= 0 and st.to_play[i] == me and not done:
        j = int(st.pend_ask[i])
        at = off[OB_PENDING]
        put_card(out, at, feat, st.pend_card[i, j])
        out[at + fw + st.pend_op[i, j]] = 1.0
        out[at + fw + NUM_OPCODES + st.pend_tk[i, j]] = 1.0
        out[at + fw + NUM_OPCODES + NUM_TK + st.pend_kind[i, j]] = 1.0

    # ---- per card id: my unseen deck cards, then オヒガン, エテル and damage (me, opponent)
    # (through views, as put_card: a range() index into a view needs no negative-index handling)
    put_counts(out[off[OB_DECK]:off[OB_DECK] + NUM_CARDS], st.deck_count[i, me], count_frac)
    for e in range(2):
        p = me if e == 0 else opp
        at = e * NUM_CARDS
        put_counts(out[off[OB_GRAVE] + at:off[OB_GRAVE] + at + NUM_CARDS], st.grave[i, p], count_frac)
        put_counts(out[off[OB_ETEL] + at:off[OB_ETEL] + at + NUM_CARDS], st.etel_count[i, p], count_frac)
        put_counts(out[off[OB_DAMAGE] + at:off[OB_DAMAGE] + at + NUM_CARDS], st.dmg_seen[i, p], count_frac)

    put_card(out, off[OB_LAST], feat, st.last_resolved[i])

    # ---- history, newest first: by me / by the opponent, the action's family, the card shown
    width = 2 + NUM_FAMILIES + fw
    for k in range(st.hist_action.shape[1]):
        at = off[OB_HISTORY] + k * width
        a = int(st.hist_action[i, k])
        if a >= 0:
            out[at + (0 if st.hist_player[i, k] == me else 1)] = 1.0
            out[at + 2 + fam[a]] = 1.0
        put_card(out, at + 2 + NUM_FAMILIES, feat, st.hist_card[i, k])
