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

from yuugi.envs.core.layout import block_offsets

from . import actions as A
from . import cards as C
from .config import FIELD_SLOTS, HAND_SLOTS, STACK_MAX
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


# ---- what the writer precomputes -------------------------------------------------------------------
# Every card slot of the layout (my hand, the opponent's known hand, both fields, the stack, the asked
# pending item, the last resolved card, the history) starts its F card features at a fixed column.
# The writer collects the card ids of all slots of a batch in one array, in this order, and writes
# the features of the occupied slots only (the output starts zeroed, an empty slot stays zeros).
_CARD_SECTIONS = ("hand", "opp_known_hand", "field", "stack", "pending", "last_resolved", "history")


def _as_float32(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.float64).astype(np.float32)


def _int8_table(fn) -> np.ndarray:
    """float32[256]: ``fn(v)`` for every int8 value v, indexed by the value's uint8 bit pattern."""
    return _as_float32(fn(np.arange(256, dtype=np.uint8).view(np.int8).astype(np.float64)))


_ARG_SCALE = _int8_table(lambda v: np.maximum(v, 0) / C.MAX_ARG)  # a stack item's argument
# per-card-id counts: min(count, 5) / 5 per int8 count (by its uint8 bit pattern), divided in float32 as
# the block always was (for every int8 it is exactly the float64 quotient rounded to float32)
_COUNT_FRACTION = (np.minimum(np.arange(256, dtype=np.uint8).view(np.int8), COUNT_SCALE).astype(np.float32)
                   / np.float32(COUNT_SCALE))
# counts block, per seat: deck, hand, エテル total, untapped エテル, face-up, face-down, healed, known hand
_COUNT_DIV = np.array([50.0, HAND_SLOTS, 20.0, 20.0, 10.0, 10.0, 10.0, HAND_SLOTS])
_COUNT_CAP = np.array([np.inf, np.inf, 1.0, 1.0, 1.0, 1.0, 1.0, np.inf])
# field block: printed カラテ and 工作力 per card id (int16[48, 2]), and what their current values are divided by
_PRINTED_KW = np.stack([C.KARATE, C.KOUSAKU], axis=1)
_KW_DIV = np.array([12.0, 8.0])


class _Plan:
    """Column tables of one layout (``history``) and the row offsets of one batch size."""

    def __init__(self, b: int, history: int) -> None:
        off, self.total = offsets(history)
        self.off = off
        self.r = np.arange(b)
        self.rs = self.r[:, None]
        self.row0 = self.r * self.total  # flat index of each row's first column
        hist_w = 2 + A.NUM_FAMILIES + F
        starts = {
            "hand": off["hand"].start + np.arange(HAND_SLOTS) * (F + 1),
            "opp_known_hand": off["opp_known_hand"].start + np.arange(HAND_SLOTS) * F,
            "field": off["field"].start + np.arange(2 * FIELD_SLOTS) * (F + FIELD_DYN),
            "stack": off["stack"].start + np.arange(STACK_MAX) * (F + STACK_DYN),
            "pending": np.array([off["pending"].start]),
            "last_resolved": np.array([off["last_resolved"].start]),
            "history": off["history"].start + np.arange(history) * hist_w + 2 + A.NUM_FAMILIES,
        }
        self.card_col = np.concatenate([starts[s] for s in _CARD_SECTIONS])  # [slots]: first feature column
        # flat index of each (row, card slot)'s first feature, in the order of the batch's card ids
        self.card_pos = (self.row0[:, None] + self.card_col[None, :]).reshape(-1)
        self.stack_col = starts["stack"]  # [16]
        self.hist_col = off["history"].start + np.arange(history) * hist_w  # [K]: by-me flag column
        self.hist_at = self.row0[:, None] + self.hist_col[None, :]  # [b, K]: flat index of each by-me flag
        self.phase_at = self.row0 + off["phase"].start  # [b]: flat index of each row's phase one-hot
        self.decision_at = self.row0 + off["decision"].start
        # scratch arrays that gather state arrays per seat, so that one "me first" reordering serves them all
        self.seat_ints = np.empty((b, 2, 8), np.int64)
        self.fld = np.empty((b, 2, FIELD_SLOTS, 8), np.int16)
        self.zones = np.empty((b, 2, 3, C.NUM_CARDS), np.int8)
        # the card ids of an empty stack and of no asked pending item (read-only: shared by every call)
        self.no_stack = np.full((b, STACK_MAX), -1, np.int8)
        self.no_pending = np.full((b, 1), -1, np.int8)
        self.no_stack.flags.writeable = self.no_pending.flags.writeable = False
        self.seat_of = (np.zeros(b, np.int64), np.ones(b, np.int64))  # the seat of every row, when one seat observes
        for arr in self.seat_of:
            arr.flags.writeable = False


_PLANS: dict[tuple[int, int], _Plan] = {}


def _plan(b: int, history: int) -> _Plan:
    plan = _PLANS.get((b, history))
    if plan is None:
        if len(_PLANS) > 32:
            _PLANS.clear()
        plan = _PLANS[(b, history)] = _Plan(b, history)
    return plan


def _windows(flat: np.ndarray, width: int) -> np.ndarray:
    """A view of the flat output in which row k is ``flat[k:k + width]``: writing a card's features at
    flat index k is then one row assignment (the rows overlap; each card slot is written once)."""
    step = flat.strides[0]
    return np.ndarray((flat.size - width + 1, width), flat.dtype, buffer=flat, strides=(step, step))


def observe(st: NinjaSlayerState, seat, cfg) -> np.ndarray:
    b = st.batch_size
    plan = _plan(b, cfg.history)
    off, total, r, rs = plan.off, plan.total, plan.r, plan.rs
    out = np.zeros((b, total), np.float32)
    flat = out.reshape(-1)
    ones: list[np.ndarray] = []  # flat indices of the one-hot entries, set to 1 at the end

    seat_arr = np.asarray(seat, dtype=np.int64)
    if seat_arr.ndim == 0 or b == 1:  # one seat for every game: "me first" is a view
        s0 = int(seat_arr.reshape(-1)[0])
        me = plan.seat_of[s0]

        def ego(x: np.ndarray) -> np.ndarray:
            return x if s0 == 0 else x[:, ::-1]
    else:
        me = np.broadcast_to(seat_arr, (b,))
        sides = np.stack([me, 1 - me], axis=1)  # [b, 2]

        def ego(x: np.ndarray) -> np.ndarray:
            return x[rs, sides]

    tp = st.tp.astype(np.int64)
    stk_len = st.stk_len.astype(np.int64)
    done = st.done

    # ---- scalars, phase, decision
    sc = out[:, off["scalars"]]
    sc[:, 0] = np.minimum(st.turn / 60.0, 1.0)
    mine_turn = tp == me
    sc[:, 1] = mine_turn
    sc[:, 2] = st.first == me
    sc[:, 3] = st.to_play == me
    sc[:, 5] = st.passes / 2.0
    sc[:, 6] = st.interrupt_asked
    sc[:, 7] = (st.prio == me) & (st.decision == 1)
    sc[:, 9] = done  # (4 and 8, the stack size and whose item is on top, are written with the stack)
    ones.append(plan.phase_at + st.phase)
    ones.append(plan.decision_at + st.decision)

    # ---- counts per seat (me, opponent)
    hand = ego(st.hand)  # [b, 2, 10]
    known = ego(st.hand_known)
    raw = plan.seat_ints
    held = st.hand >= 0
    np.subtract(st.deck_size, st.deck_ptr, out=raw[..., 0])
    held.sum(axis=2, out=raw[..., 1])
    raw[..., 2] = st.etel_total
    raw[..., 3] = st.etel_untapped
    raw[..., 4] = st.dmg_up
    raw[..., 5] = st.dmg_down
    raw[..., 6] = st.grave_anon
    (st.hand_known & held).sum(axis=2, out=raw[..., 7])
    out[:, off["counts"]].reshape(b, 2, 8)[:] = np.minimum(ego(raw) / _COUNT_DIV, _COUNT_CAP)

    # ---- the attack (in most positions none: its block, and the field's attacker and target flags, stay zeros)
    attacking = st.att_slot >= 0
    any_attack = np.count_nonzero(attacking) > 0
    if any_attack:
        aimed = attacking & (st.tgt_slot >= 0)
        att = out[:, off["attack"]]
        att[:, 0] = attacking
        att[:, 1] = attacking & mine_turn
        att[:, 8] = attacking & (st.tgt_slot < 0)
        a_rows = attacking.nonzero()[0]
        t_rows = aimed.nonzero()[0]
        a_slot = st.att_slot[a_rows].astype(np.int64)
        t_slot = st.tgt_slot[t_rows].astype(np.int64)
        ones.append(plan.row0[a_rows] + off["attack"].start + 2 + a_slot)
        # the target is the non-turn player's character, seen from me: 0..5 mine, 6..11 the opponent's
        ones.append(plan.row0[t_rows] + off["attack"].start + 9 + np.where(mine_turn[t_rows], t_slot + 6, t_slot))

    # ---- hand: my cards (features below) and whether the opponent knows each
    out[:, off["hand"]].reshape(b, HAND_SLOTS, F + 1)[:, :, F] = known[:, 0]

    # ---- fields (me, opponent): the dynamic columns after each card's features
    fld = plan.fld  # int16[b, 2, 6, 8]: card, tapped, damage, カラテ and 工作力 modifiers, 3 flags
    for j, arr in enumerate((st.fld_card, st.fld_tap, st.fld_dmg, st.fld_kmod, st.fld_wmod, st.fld_entered,
                             st.fld_redir, st.fld_kz)):
        fld[..., j] = arr
    fld = ego(fld)
    fc = fld[..., 0].astype(np.int64)
    on = fc >= 0
    c = np.maximum(fc, 0)
    dyn = np.zeros((b, 2, FIELD_SLOTS, FIELD_DYN), np.float32)
    dyn[..., 0] = fld[..., 1]
    dyn[..., 1] = np.minimum(fld[..., 2] / 10.0, 1.0)
    # current カラテ / 12 and 工作力 / 8 (printed + modifier, floored at 0, capped at 1), in one pass
    dyn[..., 2:4] = np.minimum(np.maximum(_PRINTED_KW.take(c, axis=0) + fld[..., 3:5], 0) / _KW_DIV, 1.0)
    dyn[..., 4:7] = fld[..., 5:8]
    if any_attack:
        att_side = np.where(mine_turn, 0, 1)  # the attacker is the turn player's
        dyn[a_rows, att_side[a_rows], a_slot, 7] = 1.0
        dyn[t_rows, 1 - att_side[t_rows], t_slot, 8] = 1.0
    dyn *= on[..., None]
    out[:, off["field"]].reshape(b, 2, FIELD_SLOTS, F + FIELD_DYN)[..., F:] = dyn

    # ---- the stack, bottom first (its card features below); empty in most positions: no cards, zeros
    stack_cards = plan.no_stack
    if np.count_nonzero(stk_len):
        top = np.maximum(stk_len - 1, 0)
        sc[:, 4] = stk_len / STACK_MAX
        sc[:, 8] = (stk_len > 0) & (st.stk_ctrl[r, top] == me)
        present = np.arange(STACK_MAX)[None, :] < stk_len[:, None]
        stack_cards = np.where(present, st.stk_card, -1)
        pr, pi = np.nonzero(present)
        base = plan.row0[pr] + plan.stack_col[pi] + F
        k = 0
        ones.append(base + k + st.stk_kind[pr, pi])  # item kind (5)
        k += 5
        ones.append((base + k)[st.stk_ctrl[pr, pi] == me[pr]])  # the controller is me
        k += 1
        ones.append(base + k + st.stk_op[pr, pi])  # opcode (16)
        k += C.NUM_OPCODES
        flat[base + k] = _ARG_SCALE[st.stk_arg[pr, pi].view(np.uint8)]  # arg / 9
        k += 1
        ones.append(base + k + st.stk_tk[pr, pi])  # target kind (10)
        k += C.NUM_TARGET_KINDS
        tslot = st.stk_tgt_slot[pr, pi].astype(np.int64)
        sego = np.where(tslot < 0, 12, np.where(st.stk_tgt_player[pr, pi] == me[pr], tslot, tslot + 6))
        ones.append(base + k + sego)  # the target, ego index (13)
        k += 13
        ref = st.stk_ref[pr, pi].astype(np.int64)
        counter = (ref >= 0) & (st.stk_op[pr, pi] == C.OP_COUNTER)  # marks the item it would cancel
        ones.append(plan.row0[pr[counter]] + plan.stack_col[ref[counter]] + F + k)

    # ---- the pending item whose target I am asked for
    asking = st.decision == 4  # (tested first: the other conditions matter only at this decision)
    if np.count_nonzero(asking):
        asking &= (st.pend_ask >= 0) & (st.to_play == me) & ~done
    pend_card = plan.no_pending
    if np.count_nonzero(asking):
        pend_card = np.full((b, 1), -1, dtype=np.int8)
        ar = asking.nonzero()[0]
        i = st.pend_ask[ar].astype(np.int64)
        pend_card[ar, 0] = st.pend_card[ar, i]
        base = plan.row0[ar] + off["pending"].start + F
        ones.append(base + st.pend_op[ar, i])
        ones.append(base + C.NUM_OPCODES + st.pend_tk[ar, i])
        ones.append(base + C.NUM_OPCODES + C.NUM_TARGET_KINDS + st.pend_kind[ar, i])

    # ---- per-card-id counts: my unseen deck cards, then オヒガン, エテル and damage (me, opponent)
    zones = plan.zones  # int8[b, 2, 3, 48]
    zones[:, :, 0] = st.grave
    zones[:, :, 1] = st.etel_count
    zones[:, :, 2] = st.dmg_seen
    zones = ego(zones)
    # (one look-up per count: _COUNT_FRACTION holds min(count, 5) / 5 for every int8 count)
    out[:, off["deck_unseen"]] = _COUNT_FRACTION.take(st.deck_count[r, me].view(np.uint8))
    out[:, off["grave"].start:off["damage"].stop].reshape(b, 3, 2, C.NUM_CARDS)[:] = (
        _COUNT_FRACTION.take(zones.view(np.uint8)).transpose(0, 2, 1, 3))

    # ---- history: by me / by the opponent, the action's family (its card features below)
    # (computed for every entry, then the recorded ones taken: cheaper than gathering them first)
    ha = st.hist_action
    recorded = ha >= 0
    ones.append((plan.hist_at + (st.hist_player != me[:, None]))[recorded])
    ones.append((plan.hist_at + 2 + A.FAMILY.take(ha))[recorded])  # (-1 takes the last family: not kept)

    # ---- card features of every occupied card slot, then the one-hot entries
    cards = np.concatenate([hand[:, 0], np.where(known[:, 1], hand[:, 1], -1), fc.reshape(b, -1), stack_cards,
                            pend_card, st.last_resolved[:, None], st.hist_card], axis=1)
    cards = cards.reshape(-1)
    # (flat indices and np.take: cheaper than a 2-d nonzero and gather; mode="clip" only spares numpy a
    # buffered copy, every id taken is a card)
    at = (cards >= 0).nonzero()[0]
    _windows(flat, F)[plan.card_pos[at]] = np.take(C.CARD_FEATURES, cards[at], axis=0, mode="clip")
    flat[np.concatenate(ones)] = 1.0
    return out
