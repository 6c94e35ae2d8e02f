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
COUNT_SCALE = 5


def layout(history: int) -> tuple[tuple[str, int], ...]:
    return (
        ("scalars", 10), ("phase", NUM_PHASE_CODES), ("decision", NUM_DECISIONS), ("counts", 16), ("attack", 21),
        ("hand", HAND_SLOTS * (F + 1)), ("opp_known_hand", HAND_SLOTS * F),
        ("field", 2 * FIELD_SLOTS * (F + FIELD_DYN)),
        ("stack", STACK_MAX * (F + STACK_DYN)), ("pending", F + C.NUM_OPCODES + C.NUM_TARGET_KINDS + 5),
        ("deck_unseen", C.NUM_CARDS), ("grave", 2 * C.NUM_CARDS), ("etel", 2 * C.NUM_CARDS),
        ("damage", 2 * C.NUM_CARDS), ("last_resolved", F), ("history", history * (2 + A.NUM_FAMILIES + F)),
    )


def offsets(history: int) -> tuple[dict[str, slice], int]:
    return block_offsets(layout(history))


def _feat(card: np.ndarray) -> np.ndarray:
    """Card features of ids (-1 → zeros)."""
    return C.CARD_FEATURES[np.where(card < 0, C.NUM_CARDS, card)]


def _hot(block: np.ndarray, idx: np.ndarray, on: np.ndarray | None = None) -> None:
    """Set ``block[..., idx] = 1`` where ``0 <= idx < width`` (and ``on``); ``block`` is a view of the output."""
    ok = (idx >= 0) & (idx < block.shape[-1])
    if on is not None:
        ok &= on
    where = np.nonzero(ok)
    block[where + (idx[where],)] = 1.0


def observe(st: NinjaSlayerState, seat, cfg) -> np.ndarray:
    b = st.batch_size
    off, total = offsets(cfg.history)
    out = np.zeros((b, total), np.float32)

    def view(name: str, *shape: int) -> np.ndarray:
        return out[:, off[name]].reshape(b, *shape)

    r = np.arange(b)
    me = np.broadcast_to(np.asarray(seat, dtype=np.int64), (b,))
    opp = 1 - me
    sides = np.stack([me, opp], axis=1)  # [b, 2]
    rs = r[:, None]
    tp = st.tp.astype(np.int64)
    top = np.maximum(st.stk_len.astype(np.int64) - 1, 0)
    sc = view("scalars", 10)
    sc[:, 0] = np.minimum(st.turn / 60.0, 1.0)
    sc[:, 1] = tp == me
    sc[:, 2] = st.first == me
    sc[:, 3] = st.to_play == me
    sc[:, 4] = st.stk_len / STACK_MAX
    sc[:, 5] = st.passes / 2.0
    sc[:, 6] = st.interrupt_asked
    sc[:, 7] = (st.prio == me) & (st.decision == 1)
    sc[:, 8] = (st.stk_len > 0) & (st.stk_ctrl[r, top] == me)
    sc[:, 9] = st.done
    _hot(view("phase", NUM_PHASE_CODES), st.phase.astype(np.int64))
    _hot(view("decision", NUM_DECISIONS), st.decision.astype(np.int64))

    hand = st.hand[rs, sides]  # [b, 2, 10]
    known = st.hand_known[rs, sides]
    cnt = view("counts", 2, 8)
    cnt[:, :, 0] = (st.deck_size[rs, sides] - st.deck_ptr[rs, sides]) / 50.0
    cnt[:, :, 1] = (hand >= 0).sum(axis=2) / HAND_SLOTS
    cnt[:, :, 2] = np.minimum(st.etel_total[rs, sides] / 20.0, 1.0)
    cnt[:, :, 3] = np.minimum(st.etel_untapped[rs, sides] / 20.0, 1.0)
    cnt[:, :, 4] = np.minimum(st.dmg_up[rs, sides] / 10.0, 1.0)
    cnt[:, :, 5] = np.minimum(st.dmg_down[rs, sides] / 10.0, 1.0)
    cnt[:, :, 6] = np.minimum(st.grave_anon[rs, sides] / 10.0, 1.0)
    cnt[:, :, 7] = (known & (hand >= 0)).sum(axis=2) / HAND_SLOTS

    attacking = st.att_slot >= 0
    att = view("attack", 21)
    att[:, 0] = attacking
    att[:, 1] = attacking & (tp == me)
    att[:, 8] = attacking & (st.tgt_slot < 0)
    _hot(att[:, 2:8], st.att_slot.astype(np.int64), attacking)
    tgt_ego = np.where(opp == tp, st.tgt_slot, st.tgt_slot + 6).astype(np.int64)  # the target is the NTP's
    _hot(att[:, 9:21], tgt_ego, attacking & (st.tgt_slot >= 0))

    hv = view("hand", HAND_SLOTS, F + 1)
    hv[:, :, :F] = _feat(hand[:, 0].astype(np.int64))
    hv[:, :, F] = known[:, 0]
    view("opp_known_hand", HAND_SLOTS, F)[:] = _feat(np.where(known[:, 1], hand[:, 1], -1).astype(np.int64))

    fc = st.fld_card[rs, sides].astype(np.int64)  # [b, 2, 6]
    on = fc >= 0
    fv = view("field", 2, FIELD_SLOTS, F + FIELD_DYN)
    fv[..., :F] = _feat(fc)
    fv[..., F] = st.fld_tap[rs, sides]
    fv[..., F + 1] = np.minimum(st.fld_dmg[rs, sides] / 10.0, 1.0)
    fv[..., F + 2] = np.minimum(karate(st)[rs, sides] / 12.0, 1.0)
    fv[..., F + 3] = np.minimum(kousaku(st)[rs, sides] / 8.0, 1.0)
    fv[..., F + 4] = st.fld_entered[rs, sides]
    fv[..., F + 5] = st.fld_redir[rs, sides]
    fv[..., F + 6] = st.fld_kz[rs, sides]
    att_side = np.where(tp == me, 0, 1)
    a_rows = np.flatnonzero(attacking)
    fv[a_rows, att_side[a_rows], st.att_slot[a_rows], F + 7] = 1.0
    t_rows = np.flatnonzero(attacking & (st.tgt_slot >= 0))
    fv[t_rows, 1 - att_side[t_rows], st.tgt_slot[t_rows], F + 8] = 1.0
    fv[..., F:] *= on[..., None]

    if st.stk_len.any():
        present = np.arange(STACK_MAX)[None, :] < st.stk_len.astype(np.int64)[:, None]
        sv = view("stack", STACK_MAX, F + STACK_DYN)
        sv[..., :F] = _feat(np.where(present, st.stk_card, -1).astype(np.int64))
        k = F
        _hot(sv[..., k:k + 5], st.stk_kind.astype(np.int64), present)
        k += 5
        sv[..., k] = present & (st.stk_ctrl == me[:, None])
        k += 1
        _hot(sv[..., k:k + C.NUM_OPCODES], st.stk_op.astype(np.int64), present)
        k += C.NUM_OPCODES
        sv[..., k] = np.where(present, np.maximum(st.stk_arg, 0) / C.MAX_ARG, 0.0)
        k += 1
        _hot(sv[..., k:k + C.NUM_TARGET_KINDS], st.stk_tk.astype(np.int64), present)
        k += C.NUM_TARGET_KINDS
        tslot = st.stk_tgt_slot.astype(np.int64)
        sego = np.where(tslot < 0, 12, np.where(st.stk_tgt_player == me[:, None], tslot, tslot + 6))
        _hot(sv[..., k:k + 13], sego, present)
        k += 13
        ref = st.stk_ref.astype(np.int64)
        cr, ci = np.nonzero(present & (ref >= 0) & (st.stk_op == C.OP_COUNTER))
        sv[cr, ref[cr, ci], k] = 1.0

    asking = (st.decision == 4) & (st.pend_ask >= 0) & (st.to_play == me) & ~st.done
    if asking.any():
        i = np.maximum(st.pend_ask, 0).astype(np.int64)
        pv = view("pending", F + C.NUM_OPCODES + C.NUM_TARGET_KINDS + 5)
        pv[:, :F] = _feat(np.where(asking, st.pend_card[r, i], -1).astype(np.int64))
        _hot(pv[:, F:F + C.NUM_OPCODES], st.pend_op[r, i].astype(np.int64), asking)
        k = F + C.NUM_OPCODES
        _hot(pv[:, k:k + C.NUM_TARGET_KINDS], st.pend_tk[r, i].astype(np.int64), asking)
        k += C.NUM_TARGET_KINDS
        _hot(pv[:, k:k + 5], st.pend_kind[r, i].astype(np.int64), asking)

    view("deck_unseen", C.NUM_CARDS)[:] = np.minimum(st.deck_count[r, me], COUNT_SCALE) / COUNT_SCALE
    for name, zone in (("grave", st.grave), ("etel", st.etel_count), ("damage", st.dmg_seen)):
        view(name, 2, C.NUM_CARDS)[:] = np.minimum(zone[rs, sides], COUNT_SCALE) / COUNT_SCALE
    view("last_resolved", F)[:] = _feat(st.last_resolved.astype(np.int64))

    ha = st.hist_action.astype(np.int64)
    k_hist = ha.shape[1]
    hv = view("history", k_hist, 2 + A.NUM_FAMILIES + F)
    has = ha >= 0
    mine = st.hist_player == me[:, None]
    hv[..., 0] = has & mine
    hv[..., 1] = has & ~mine
    _hot(hv[..., 2:2 + A.NUM_FAMILIES], A.FAMILY[np.maximum(ha, 0)].astype(np.int64), has)
    hv[..., 2 + A.NUM_FAMILIES:] = _feat(st.hist_card.astype(np.int64))
    return out
