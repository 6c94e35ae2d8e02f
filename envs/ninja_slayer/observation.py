"""The observation: what one seat sees at the table, as float32 in [0, 1] (self first, then the opponent).

Each card appears as its static features (``cards.CARD_FEATURES``: present, (id + 1)/48, type, cost,
カラテ, 工作力, 4 keyword bits, trigger, opcode, arg, target kind, ウケミ op and arg, activation cost;
an empty slot is all zeros), so a policy can read any pool. Never in it: the opponent's hand (apart
from cards it knows, because they were bounced there) and either deck's order.

| block | size | meaning |
|---|---|---|
| scalars | 10 | turn/60, my turn, I went first, I am to act, stack size/16, passes/2, interrupt asked, I hold priority, the top stack item is mine, game over |
| phase | 13 | step one-hot (untap, draw, etel, character, ikusa_start, declare, interrupt, damage, ikusa_end, end, 3 spare) |
| decision | 5 | etel, priority, declare, interrupt, target |
| counts | 2 × 8 | per seat: deck/50, hand/10, エテル total/20, untapped エテル/20, face-up damage/10, face-down damage/10, healed cards/10, known hand cards/10 |
| attack | 21 | attack on, attacker is mine, attacker slot (6), target is the player, target character (ego index 0..11) |
| hand | 10 × (F+1) | my hand slots: card features, known to the opponent |
| opp_known_hand | 10 × F | opponent hand slots that I know (zeros otherwise) |
| field | 2 × 6 × (F+9) | card features, tapped, damage/10, カラテ/12, 工作力/8, entered this turn, redirected, カイゼン granted, attacker, target |
| stack | 16 × (F+47) | bottom first: card features, item kind (5), controller is me, opcode (16), arg/9, target kind (10), target (ego index one-hot, 13), is the item a COUNTER on the stack targets |
| pending | F+31 | the trigger whose target is being asked: card, opcode (16), target kind (10), item kind (5) |
| deck_unseen | 48 | per card id, my cards still in my deck / 5 |
| grave | 2 × 48 | オヒガン per card id / 5 |
| etel | 2 × 48 | エテル zone per card id / 5 |
| damage | 2 × 48 | cards ever put into the damage zone per card id / 5 (healed ones included) |
| last_resolved | F | the card of the last item that resolved |
| history | K × (2+11+F) | the last K public actions, newest first: by me / by the opponent, action family (11), card shown |
"""
from __future__ import annotations

import numpy as np

from envs.core.layout import block_offsets

from . import actions as A
from . import cards as C
from .config import FIELD_SLOTS, HAND_SLOTS, STACK_MAX
from .zones import karate, kousaku
from .state import NUM_DECISIONS, NUM_PHASE_CODES, NinjaSlayerState

F = C.NUM_CARD_FEATURES
FIELD_DYN = 9
STACK_DYN = 5 + 1 + C.NUM_OPCODES + 1 + C.NUM_TARGET_KINDS + 13 + 1
COUNT_SCALE = 5.0


def layout(history: int) -> tuple[tuple[str, int], ...]:
    return (
        ("scalars", 10), ("phase", NUM_PHASE_CODES), ("decision", NUM_DECISIONS), ("counts", 16), ("attack", 21),
        ("hand", HAND_SLOTS * (F + 1)), ("opp_known_hand", HAND_SLOTS * F), ("field", 2 * FIELD_SLOTS * (F + FIELD_DYN)),
        ("stack", STACK_MAX * (F + STACK_DYN)), ("pending", F + C.NUM_OPCODES + C.NUM_TARGET_KINDS + 5),
        ("deck_unseen", C.NUM_CARDS), ("grave", 2 * C.NUM_CARDS), ("etel", 2 * C.NUM_CARDS),
        ("damage", 2 * C.NUM_CARDS), ("last_resolved", F), ("history", history * (2 + A.NUM_FAMILIES + F)),
    )


def offsets(history: int) -> tuple[dict[str, slice], int]:
    return block_offsets(layout(history))


def _feat(card: np.ndarray) -> np.ndarray:
    """Card features of ids (-1 → zeros)."""
    return C.CARD_FEATURES[np.where(card < 0, C.NUM_CARDS, card)]


def _onehot(idx: np.ndarray, n: int) -> np.ndarray:
    """float32[..., n]; an index outside 0..n-1 gives zeros."""
    out = np.zeros((*idx.shape, n), np.float32)
    ok = (idx >= 0) & (idx < n)
    np.put_along_axis(out, np.where(ok, idx, 0)[..., None].astype(np.int64), ok[..., None].astype(np.float32),
                      axis=-1)
    return out


def observe(st: NinjaSlayerState, seat, cfg) -> np.ndarray:
    b = st.batch_size
    r = np.arange(b)
    me = np.broadcast_to(np.asarray(seat, dtype=np.int64), (b,))
    opp = 1 - me
    sides = np.stack([me, opp], axis=1)  # [b, 2]
    rs = r[:, None]
    parts: list[np.ndarray] = []

    tp = st.tp.astype(np.int64)
    top = np.maximum(st.stk_len.astype(np.int64) - 1, 0)
    top_mine = (st.stk_len > 0) & (st.stk_ctrl[r, top] == me)
    parts.append(np.stack([
        np.minimum(st.turn / 60.0, 1.0), tp == me, st.first == me, st.to_play == me, st.stk_len / STACK_MAX,
        st.passes / 2.0, st.interrupt_asked, (st.prio == me) & (st.decision == 1), top_mine, st.done,
    ], axis=1).astype(np.float32))
    parts.append(_onehot(st.phase.astype(np.int64), NUM_PHASE_CODES))
    parts.append(_onehot(st.decision.astype(np.int64), NUM_DECISIONS))

    hand = st.hand[rs, sides]  # [b, 2, 10]
    known = st.hand_known[rs, sides]
    deck_len = st.deck_size[rs, sides] - st.deck_ptr[rs, sides]
    counts = np.stack([
        deck_len / 50.0, (hand >= 0).sum(axis=2) / HAND_SLOTS, np.minimum(st.etel_total[rs, sides] / 20.0, 1.0),
        np.minimum(st.etel_untapped[rs, sides] / 20.0, 1.0), np.minimum(st.dmg_up[rs, sides] / 10.0, 1.0),
        np.minimum(st.dmg_down[rs, sides] / 10.0, 1.0), np.minimum(st.grave_anon[rs, sides] / 10.0, 1.0),
        (known & (hand >= 0)).sum(axis=2) / HAND_SLOTS,
    ], axis=2)
    parts.append(counts.reshape(b, -1).astype(np.float32))

    attacking = st.att_slot >= 0
    mine_att = attacking & (tp == me)
    tgt_ego = np.where(st.tgt_slot < 0, -1, np.where(opp == tp, st.tgt_slot, st.tgt_slot + 6))  # target is NTP's
    parts.append(np.concatenate([
        np.stack([attacking, mine_att], axis=1).astype(np.float32),
        _onehot(np.where(attacking, st.att_slot, -1).astype(np.int64), FIELD_SLOTS),
        (attacking & (st.tgt_slot < 0)).astype(np.float32)[:, None],
        _onehot(np.where(attacking, tgt_ego, -1).astype(np.int64), 12),
    ], axis=1))

    my_hand = hand[:, 0].astype(np.int64)
    parts.append(np.concatenate([_feat(my_hand), known[:, 0, :, None].astype(np.float32)], axis=2).reshape(b, -1))
    opp_known = np.where(known[:, 1], hand[:, 1], -1).astype(np.int64)
    parts.append(_feat(opp_known).reshape(b, -1))

    fc = st.fld_card[rs, sides].astype(np.int64)  # [b, 2, 6]
    k = karate(st)[rs, sides]
    w = kousaku(st)[rs, sides]
    att_mask = np.zeros((b, 2, FIELD_SLOTS), bool)
    tgt_mask = np.zeros((b, 2, FIELD_SLOTS), bool)
    att_side = np.where(tp == me, 0, 1)
    a_rows = np.flatnonzero(attacking)
    att_mask[a_rows, att_side[a_rows], st.att_slot[a_rows]] = True
    t_rows = np.flatnonzero(attacking & (st.tgt_slot >= 0))
    tgt_mask[t_rows, 1 - att_side[t_rows], st.tgt_slot[t_rows]] = True
    dyn = np.stack([
        st.fld_tap[rs, sides], np.minimum(st.fld_dmg[rs, sides] / 10.0, 1.0), np.minimum(k / 12.0, 1.0),
        np.minimum(w / 8.0, 1.0), st.fld_entered[rs, sides], st.fld_redir[rs, sides], st.fld_kz[rs, sides],
        att_mask, tgt_mask,
    ], axis=3).astype(np.float32) * (fc >= 0)[..., None]
    parts.append(np.concatenate([_feat(fc), dyn], axis=3).reshape(b, -1))

    n_items = st.stk_len.astype(np.int64)
    present = np.arange(STACK_MAX)[None, :] < n_items[:, None]
    scard = np.where(present, st.stk_card, -1).astype(np.int64)
    sctrl = st.stk_ctrl.astype(np.int64)
    tslot = st.stk_tgt_slot.astype(np.int64)
    sego = np.where(tslot < 0, 12, np.where(st.stk_tgt_player == me[:, None], tslot, tslot + 6))
    ref = st.stk_ref.astype(np.int64)
    countered = np.zeros((b, STACK_MAX), bool)
    cr, ci = np.nonzero(present & (ref >= 0) & (st.stk_op == C.OP_COUNTER))
    countered[cr, ref[cr, ci]] = True
    sdyn = np.concatenate([
        _onehot(st.stk_kind.astype(np.int64), 5), (sctrl == me[:, None]).astype(np.float32)[..., None],
        _onehot(st.stk_op.astype(np.int64), C.NUM_OPCODES), (np.maximum(st.stk_arg, 0) / C.MAX_ARG)[..., None],
        _onehot(st.stk_tk.astype(np.int64), C.NUM_TARGET_KINDS), _onehot(sego, 13),
        countered.astype(np.float32)[..., None],
    ], axis=2) * present[..., None]
    parts.append(np.concatenate([_feat(scard), sdyn.astype(np.float32)], axis=2).reshape(b, -1))

    asking = (st.decision == 4) & (st.pend_ask >= 0) & (st.to_play == me) & ~st.done
    i = np.maximum(st.pend_ask, 0).astype(np.int64)
    pcard = np.where(asking, st.pend_card[r, i], -1).astype(np.int64)
    pend = np.concatenate([
        _feat(pcard), _onehot(np.where(asking, st.pend_op[r, i], -1).astype(np.int64), C.NUM_OPCODES),
        _onehot(np.where(asking, st.pend_tk[r, i], -1).astype(np.int64), C.NUM_TARGET_KINDS),
        _onehot(np.where(asking, st.pend_kind[r, i], -1).astype(np.int64), 5),
    ], axis=1)
    parts.append(pend)

    parts.append(np.minimum(st.deck_count[r, me] / COUNT_SCALE, 1.0).astype(np.float32))
    for zone in (st.grave, st.etel_count, st.dmg_seen):
        parts.append(np.minimum(zone[rs, sides] / COUNT_SCALE, 1.0).reshape(b, -1).astype(np.float32))
    parts.append(_feat(st.last_resolved.astype(np.int64)))

    ha = st.hist_action.astype(np.int64)
    hp = st.hist_player.astype(np.int64)
    has = ha >= 0
    who = np.stack([has & (hp == me[:, None]), has & (hp != me[:, None])], axis=2).astype(np.float32)
    fam = _onehot(np.where(has, A.FAMILY[np.maximum(ha, 0)], -1).astype(np.int64), A.NUM_FAMILIES)
    parts.append(np.concatenate([who, fam, _feat(st.hist_card.astype(np.int64))], axis=2).reshape(b, -1))
    return np.concatenate(parts, axis=1)
