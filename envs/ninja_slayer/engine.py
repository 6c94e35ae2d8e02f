"""The rules of ninja_slayer as compiled scalar code about one game ``i`` of a batch.

``st`` is the state's namedtuple of arrays (``NinjaSlayerArrays``), ``ct`` the card table
(:data:`.tables.CARD_TABLE`, ``ct[CT_COST, card]``), ``cf`` the rule options (:func:`.tables.config_ints`).

Between two decisions the game runs automatic steps; ``st.op[i]`` names the next one (``OP_*`` of
:mod:`.state`) and :func:`advance` runs them until the game waits for a decision or is over:
a step ends → the next begins → the top of the stack resolves → its damage is dealt point by point →
the rule check → pending triggers and ウケミ effects go onto the stack → the priority window →
a decision is asked (taken by the engine when it is forced).

No rule here allocates an array, so every one compiles without numba's reference counting (``@rules``),
which would otherwise count references to each of the state's ~90 arrays on every call (with it, one
batch step cost over ten times as much). Hence a set of characters is an int of :func:`slot_bit` bits,
and the legal targets of a choice are answered one target at a time (:func:`target_legal`) instead of
built as a table.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules

from .actions import (ACTIVATE0, AISATSU0, CAST0, END_AISATSU, ENTER0, ETEL0, F_ACTIVATE, F_AISATSU, F_CAST,
                      F_END_AISATSU, F_ENTER, F_ETEL, F_INTERRUPT, F_NO_INTERRUPT, F_PASS, F_SKIP_ETEL, F_TARGET,
                      INTERRUPT0, NO_INTERRUPT, PASS, SKIP_ETEL, TARGET0)
from .cards import (OP_AMBUSH, OP_BOUNCE, OP_BUFF_K, OP_BUFF_W, OP_COUNTER, OP_DEBUFF_K, OP_DESTROY_LE, OP_DMG_CHAR,
                    OP_DMG_PLAYER, OP_DRAW, OP_GRANT_KAIZEN, OP_HEAL, OP_NONE, OP_RAMP, OP_TAP, OP_UNTAP, TK_ALL_OPP,
                    TK_ALL_OWN, TK_ANY_CHAR, TK_NONE, TK_OPP_CHAR, TK_OPP_PLAYER, TK_OWN_CHAR, TK_SELF, TK_SOURCE,
                    TK_STACK, TR_ACTIVATED, TR_IKUSA_END, TR_IKUSA_START, TR_ON_AISATSU, TR_ON_DESTROYED, TR_ON_ENTER,
                    TR_ON_KILL, TR_TURN_END, TR_TURN_START)
from .sizes import FIELD_SLOTS, HAND_SLOTS, LOSE_AT_DAMAGE, STACK_MAX, STACK_USER_MAX
from .state import (DECISION_DECLARE, DECISION_ETEL, DECISION_INTERRUPT, DECISION_PRIORITY, DECISION_TARGET,
                    END_DAMAGE, END_DECKOUT, END_NONE, END_TRUNCATED, ITEM_ACTIVATED, ITEM_ENTRY, ITEM_KOTODAMA,
                    ITEM_TRIGGER, ITEM_UKEMI, OP_ASK, OP_BEGIN_STEP, OP_DAMAGE, OP_END_STEP, OP_FLUSH, OP_RESOLVE,
                    OP_RULES, OP_WAIT, OP_WINDOW, PEND_MAX, PHASE_CHAR, PHASE_DAMAGE, PHASE_DECLARE, PHASE_DRAW,
                    PHASE_END, PHASE_ETEL, PHASE_IKUSA_END, PHASE_IKUSA_START, PHASE_INTERRUPT, PHASE_UNTAP)
from .tables import (CF_AUTO_PASS, CF_COMPACT, CF_DRAW_FROM_EMPTY, CF_INTERRUPT_TAPS, CF_MASK_USELESS,
                     CF_MAX_DECISIONS, CF_MAX_TURNS, CF_SICKNESS, CF_UKEMI_EVENT, CT_ACT_E, CT_ACT_J, CT_ACT_O,
                     CT_ARG, CT_COST, CT_HAYATE, CT_INTERRUPT, CT_IS_CHAR, CT_KAIZEN, CT_KARATE, CT_KOUSAKU,
                     CT_OPCODE, CT_TARGET, CT_TRIGGER, CT_UK_ARG, CT_UK_OP, CT_UK_TARGET, CT_UKEMI)

NO_TARGET = 12  # target index 12: no choice / the player / the stack (0..5 my slots, 6..11 the opponent's)
NUM_TARGETS = 13
_MAX_MICRO_STEPS = 100_000  # automatic steps per advance: a guard against an engine bug


# ---- zones ---------------------------------------------------------------------------------------
@rules
def deck_len(st, i, p):
    return int(st.deck_size[i, p]) - int(st.deck_ptr[i, p])


@rules
def lose(st, i, p, reason):
    """Seat ``p`` met a loss condition (the first reason recorded is kept); the game ends after the step."""
    st.loser[i, p] = True
    if st.end_reason[i] == END_NONE:
        st.end_reason[i] = reason


@rules
def check_deckout(st, cf, i, p):
    """Under ``reach_zero`` a deck that has just reached 0 cards loses at once."""
    if not cf[CF_DRAW_FROM_EMPTY] and deck_len(st, i, p) == 0:
        lose(st, i, p, END_DECKOUT)


@rules
def take_top(st, i, p):
    """The top card of seat ``p``'s deck (the caller made sure there is one); it leaves the deck."""
    ptr = int(st.deck_ptr[i, p])
    card = int(st.deck[i, p, ptr])
    st.deck_ptr[i, p] = ptr + 1
    st.deck_count[i, p, card] -= 1
    return card


@rules
def to_grave(st, i, p, card):
    st.grave[i, p, card] += 1


@rules
def to_hand(st, i, p, card, known):
    """Into the lowest empty hand slot; a full hand burns the card to オヒガン."""
    for h in range(HAND_SLOTS):
        if st.hand[i, p, h] < 0:
            st.hand[i, p, h] = card
            st.hand_known[i, p, h] = known
            return
    to_grave(st, i, p, card)


@rules
def leave_hand(st, i, p, h):
    st.hand[i, p, h] = -1
    st.hand_known[i, p, h] = False


@rules
def draw(st, cf, i, p):
    """Seat ``p`` draws a card (an empty deck loses under ``draw_from_empty``, else draws nothing)."""
    if deck_len(st, i, p) <= 0:
        if cf[CF_DRAW_FROM_EMPTY]:
            lose(st, i, p, END_DECKOUT)
        return
    to_hand(st, i, p, take_top(st, i, p), False)
    check_deckout(st, cf, i, p)


@rules
def ramp(st, cf, i, p):
    """The top card of the deck goes to the エテル zone tapped (an empty deck moves nothing)."""
    if deck_len(st, i, p) <= 0:
        return
    card = take_top(st, i, p)
    st.etel_count[i, p, card] += 1
    st.etel_total[i, p] += 1
    check_deckout(st, cf, i, p)


@rules
def take_damage_card(st, i, p, card):
    """A revealed card without ウケミ goes face up to the damage zone; the 10th loses."""
    st.dmg_up[i, p] += 1
    st.dmg_seen[i, p, card] += 1
    if int(st.dmg_up[i, p]) + int(st.dmg_down[i, p]) >= LOSE_AT_DAMAGE:
        lose(st, i, p, END_DAMAGE)


@rules
def karate(st, ct, i, p, s):
    """Current カラテ of a field slot (printed + modifier, at least 0); 0 for an empty slot."""
    card = int(st.fld_card[i, p, s])
    if card < 0:
        return 0
    return max(int(ct[CT_KARATE, card]) + int(st.fld_kmod[i, p, s]), 0)


@rules
def kousaku(st, ct, i, p, s):
    """Current 工作力 of a field slot (printed + modifier, at least 0); 0 for an empty slot."""
    card = int(st.fld_card[i, p, s])
    if card < 0:
        return 0
    return max(int(ct[CT_KOUSAKU, card]) + int(st.fld_wmod[i, p, s]), 0)


@rules
def free_slot(st, i, p):
    for s in range(FIELD_SLOTS):
        if st.fld_card[i, p, s] < 0:
            return s
    return -1


@rules
def clear_slot(st, i, p, s):
    st.fld_card[i, p, s] = -1
    st.fld_obj[i, p, s] = -1
    st.fld_tap[i, p, s] = False
    st.fld_entered[i, p, s] = False
    st.fld_redir[i, p, s] = False
    st.fld_kz[i, p, s] = False
    st.fld_dmg[i, p, s] = 0
    st.fld_kmod[i, p, s] = 0
    st.fld_wmod[i, p, s] = 0


# ---- the stack and the pending items (§2.6) -----------------------------------------------------
@rules
def push(st, i, kind, card, ctrl, op, arg, tk, src_slot, src_obj, tgt_player, tgt_slot, tgt_obj, ref):
    """One item on top of the stack (an item that would be the 17th is dropped)."""
    j = int(st.stk_len[i])
    if j >= STACK_MAX:
        return
    st.stk_kind[i, j] = kind
    st.stk_card[i, j] = card
    st.stk_ctrl[i, j] = ctrl
    st.stk_op[i, j] = op
    st.stk_arg[i, j] = arg
    st.stk_tk[i, j] = tk
    st.stk_src_slot[i, j] = src_slot
    st.stk_src_obj[i, j] = src_obj
    st.stk_tgt_player[i, j] = tgt_player
    st.stk_tgt_slot[i, j] = tgt_slot
    st.stk_tgt_obj[i, j] = tgt_obj
    st.stk_ref[i, j] = ref
    st.stk_len[i] = j + 1


@rules
def pend(st, i, kind, card, ctrl, op, arg, tk, src_slot, src_obj, tgt_player, tgt_slot, tgt_obj):
    """A trigger or ウケミ effect waits to go on the stack after the current event. Its key orders them:
    the turn player's first (they resolve last), ウケミ effects in reveal order, then triggers by slot."""
    order = int(st.ukemi_seq[i]) if kind == ITEM_UKEMI else max(src_slot, 0)
    key = (64 if ctrl != st.tp[i] else 0) + (32 if kind == ITEM_TRIGGER else 0) + order
    if kind == ITEM_UKEMI:
        st.ukemi_seq[i] += 1
    j = int(st.pend_len[i])
    if j >= PEND_MAX:
        return
    st.pend_kind[i, j] = kind
    st.pend_card[i, j] = card
    st.pend_ctrl[i, j] = ctrl
    st.pend_op[i, j] = op
    st.pend_arg[i, j] = arg
    st.pend_tk[i, j] = tk
    st.pend_src_slot[i, j] = src_slot
    st.pend_src_obj[i, j] = src_obj
    st.pend_tgt_player[i, j] = tgt_player
    st.pend_tgt_slot[i, j] = tgt_slot
    st.pend_tgt_obj[i, j] = tgt_obj
    st.pend_key[i, j] = key
    st.pend_used[i, j] = False
    st.pend_len[i] = j + 1


@rules
def pend_trigger(st, ct, i, p, slot, card, obj, trigger):
    """Pend the ``trigger`` ability of one character, if it has that trigger (SELF aims at the character)."""
    if ct[CT_TRIGGER, card] != trigger:
        return
    tk = int(ct[CT_TARGET, card])
    if tk == TK_SELF:
        pend(st, i, ITEM_TRIGGER, card, p, ct[CT_OPCODE, card], ct[CT_ARG, card], tk, slot, obj, p, slot, obj)
    else:
        pend(st, i, ITEM_TRIGGER, card, p, ct[CT_OPCODE, card], ct[CT_ARG, card], tk, slot, obj, -1, -1, -1)


@rules
def pend_field_triggers(st, ct, i, p, trigger):
    """Pend ``trigger`` for every character on seat ``p``'s field, in slot order."""
    for s in range(FIELD_SLOTS):
        card = int(st.fld_card[i, p, s])
        if card >= 0:
            pend_trigger(st, ct, i, p, s, card, int(st.fld_obj[i, p, s]), trigger)


@rules
def push_pending(st, i, j, tgt_player, tgt_slot, tgt_obj):
    push(st, i, st.pend_kind[i, j], st.pend_card[i, j], st.pend_ctrl[i, j], st.pend_op[i, j], st.pend_arg[i, j],
         st.pend_tk[i, j], st.pend_src_slot[i, j], st.pend_src_obj[i, j], tgt_player, tgt_slot, tgt_obj, -1)
    st.pend_used[i, j] = True


# ---- characters entering and leaving --------------------------------------------------------------
@rules
def enter_character(st, ct, i, p, card):
    """Onto the lowest free slot, untapped and new (a full field sends it to オヒガン); ON_ENTER pends."""
    s = free_slot(st, i, p)
    if s < 0:
        to_grave(st, i, p, card)
        return
    clear_slot(st, i, p, s)
    st.fld_card[i, p, s] = card
    st.fld_obj[i, p, s] = st.next_obj[i]
    st.next_obj[i] += 1
    st.fld_entered[i, p, s] = True
    pend_trigger(st, ct, i, p, s, card, int(st.fld_obj[i, p, s]), TR_ON_ENTER)


@rules
def destroy(st, ct, i, p, s):
    """爆発四散: the character goes to オヒガン; its ON_DESTROYED pends."""
    card = int(st.fld_card[i, p, s])
    obj = int(st.fld_obj[i, p, s])
    clear_slot(st, i, p, s)
    to_grave(st, i, p, card)
    pend_trigger(st, ct, i, p, s, card, obj, TR_ON_DESTROYED)


@rules
def slot_bit(p, s):
    """The bit of field slot ``s`` of seat ``p`` in a set of characters (an int: bit ``6 * p + s``)."""
    return 1 << (FIELD_SLOTS * p + s)


@rules
def destroy_marked(st, ct, i, marked):
    """Destroy every character in the set ``marked`` (an int of :func:`slot_bit`), seat then slot order."""
    for p in range(2):
        for s in range(FIELD_SLOTS):
            if marked & slot_bit(p, s):
                destroy(st, ct, i, p, s)


# ---- targets ----------------------------------------------------------------------------------------
# A target index is what a choice points at, seen from seat ``me``: 0..5 my field slots, 6..11 the
# opponent's, 12 (NO_TARGET) no choice / the player / the stack.
@rules
def has_character(st, i, p):
    for s in range(FIELD_SLOTS):
        if st.fld_card[i, p, s] >= 0:
            return True
    return False


@rules
def target_legal(st, i, me, tk, t, mask_useless):
    """Target index ``t`` is legal now for an effect of target kind ``tk`` controlled by seat ``me``."""
    if t < 6:
        return (tk == TK_OWN_CHAR or tk == TK_ANY_CHAR) and st.fld_card[i, me, t] >= 0
    if t < NO_TARGET:
        return (tk == TK_OPP_CHAR or tk == TK_ANY_CHAR) and st.fld_card[i, 1 - me, t - 6] >= 0
    if tk == TK_NONE or tk == TK_SELF or tk == TK_OPP_PLAYER:
        return True
    if tk == TK_ALL_OPP:  # (mask_useless: only with something to affect)
        return has_character(st, i, 1 - me) or not mask_useless
    if tk == TK_ALL_OWN:
        return has_character(st, i, me) or not mask_useless
    if tk == TK_STACK:
        return st.stk_len[i] > 0
    return False  # TK_SOURCE is never chosen: a ウケミ effect aims at the source of its damage


@rules
def has_target(st, i, me, tk, mask_useless):
    """Some target index is legal for target kind ``tk`` (:func:`target_legal` of any ``t``), answered per
    kind: the priority checks ask it for every card in hand at every window, the hottest rule of a step."""
    if tk == TK_OWN_CHAR:
        return has_character(st, i, me)
    if tk == TK_OPP_CHAR:
        return has_character(st, i, 1 - me)
    if tk == TK_ANY_CHAR:
        return has_character(st, i, me) or has_character(st, i, 1 - me)
    return target_legal(st, i, me, tk, NO_TARGET, mask_useless)


@rules
def target_player(me, t):
    if t >= NO_TARGET:
        return -1
    return me if t < 6 else 1 - me


@rules
def target_slot(t):
    if t >= NO_TARGET:
        return -1
    return t if t < 6 else t - 6


@rules
def target_obj(st, i, me, t):
    if t >= NO_TARGET:
        return -1
    return int(st.fld_obj[i, target_player(me, t), target_slot(t)])


# ---- what a seat may do --------------------------------------------------------------------------
@rules
def may_enter(st, i, me, prio):
    """A character may be put onto the field: own character step, priority, empty stack, a free slot."""
    return (st.phase[i] == PHASE_CHAR and prio and me == st.tp[i] and st.stk_len[i] == 0
            and free_slot(st, i, me) >= 0)


@rules
def castable(ct, card, unt, heal_blocked):
    """A hand card that is an affordable kotodama (not a HEAL with nothing to heal under mask_useless)."""
    if card < 0 or ct[CT_IS_CHAR, card] or ct[CT_COST, card] > unt:
        return False
    return not (heal_blocked and ct[CT_OPCODE, card] == OP_HEAL)


@rules
def payable(ct, card, unt, tapped, face_up):
    """A field card's activated ability whose costs (エテル, オジギ, ジツ) can be paid."""
    if card < 0 or ct[CT_TRIGGER, card] != TR_ACTIVATED or ct[CT_ACT_E, card] > unt:
        return False
    return not (ct[CT_ACT_O, card] and tapped) and ct[CT_ACT_J, card] <= face_up


@rules
def heal_blocked(st, cf, i, me):
    return cf[CF_MASK_USELESS] and st.dmg_up[i, me] + st.dmg_down[i, me] == 0


@rules
def any_instant(st, ct, cf, i, me, prio):
    """Seat ``me`` has some ENTER, CAST or ACTIVATE action (``prio``: it holds priority, else it declares)."""
    if st.stk_len[i] >= STACK_USER_MAX:
        return False
    mask_useless = cf[CF_MASK_USELESS]
    unt = int(st.etel_untapped[i, me])
    enter = may_enter(st, i, me, prio)
    blocked = heal_blocked(st, cf, i, me)
    for h in range(HAND_SLOTS):
        card = int(st.hand[i, me, h])
        if card < 0:
            continue
        if ct[CT_IS_CHAR, card]:
            if enter and ct[CT_COST, card] <= unt:
                return True
        elif castable(ct, card, unt, blocked) and has_target(st, i, me, ct[CT_TARGET, card], mask_useless):
            return True
    face_up = int(st.dmg_up[i, me])
    for f in range(FIELD_SLOTS):
        card = int(st.fld_card[i, me, f])
        if (payable(ct, card, unt, st.fld_tap[i, me, f], face_up)
                and has_target(st, i, me, ct[CT_TARGET, card], mask_useless)):
            return True
    return False


@rules
def ready_attacker(st, ct, cf, i, me, s):
    """The character in slot ``s`` may declare an アイサツ (untapped; summoning sickness unless ハヤテ)."""
    card = int(st.fld_card[i, me, s])
    if card < 0 or st.fld_tap[i, me, s]:
        return False
    if cf[CF_SICKNESS] and st.fld_entered[i, me, s] and not ct[CT_HAYATE, card]:
        return False
    return True


@rules
def interceptor(st, ct, cf, i, s):
    """The non-turn player's character in slot ``s`` may redirect the current アイサツ."""
    p = 1 - int(st.tp[i])
    card = int(st.fld_card[i, p, s])
    if card < 0 or st.fld_obj[i, p, s] == st.tgt_obj[i] or st.fld_redir[i, p, s]:
        return False
    if ct[CT_KAIZEN, card] or st.fld_kz[i, p, s]:
        return True
    return ct[CT_INTERRUPT, card] != 0 and (not st.fld_tap[i, p, s] or not cf[CF_INTERRUPT_TAPS])


@rules
def instants_into(st, ct, cf, i, me, prio, out):
    """ENTER, CAST and ACTIVATE actions into ``out``."""
    if st.stk_len[i] >= STACK_USER_MAX:
        return
    mask_useless = cf[CF_MASK_USELESS]
    unt = int(st.etel_untapped[i, me])
    enter = may_enter(st, i, me, prio)
    blocked = heal_blocked(st, cf, i, me)
    for h in range(HAND_SLOTS):
        card = int(st.hand[i, me, h])
        if card < 0:
            continue
        if ct[CT_IS_CHAR, card]:
            out[ENTER0 + h] = enter and ct[CT_COST, card] <= unt
        elif castable(ct, card, unt, blocked):
            tk = ct[CT_TARGET, card]
            for t in range(NUM_TARGETS):
                out[CAST0 + 13 * h + t] = target_legal(st, i, me, tk, t, mask_useless)
    face_up = int(st.dmg_up[i, me])
    for f in range(FIELD_SLOTS):
        card = int(st.fld_card[i, me, f])
        if payable(ct, card, unt, st.fld_tap[i, me, f], face_up):
            tk = ct[CT_TARGET, card]
            for t in range(NUM_TARGETS):
                out[ACTIVATE0 + 13 * f + t] = target_legal(st, i, me, tk, t, mask_useless)


@rules
def legal_into(st, ct, cf, i, out):
    """The legal actions of game ``i``'s seat to play into ``out`` (bool[293]); all False once it is over."""
    out[:] = False
    if st.terminated[i] or st.truncated[i]:
        return
    me = int(st.to_play[i])
    d = st.decision[i]
    if d == DECISION_ETEL:
        for h in range(HAND_SLOTS):
            out[ETEL0 + h] = st.hand[i, me, h] >= 0
        out[SKIP_ETEL] = True
    elif d == DECISION_PRIORITY:
        out[PASS] = True
        instants_into(st, ct, cf, i, me, True, out)
    elif d == DECISION_DECLARE:
        out[END_AISATSU] = True
        instants_into(st, ct, cf, i, me, False, out)
        for s in range(FIELD_SLOTS):
            if ready_attacker(st, ct, cf, i, me, s):
                for u in range(6):
                    out[AISATSU0 + 7 * s + u] = st.fld_card[i, 1 - me, u] >= 0
                out[AISATSU0 + 7 * s + 6] = True
    elif d == DECISION_INTERRUPT:
        out[NO_INTERRUPT] = True
        for s in range(FIELD_SLOTS):
            out[INTERRUPT0 + s] = interceptor(st, ct, cf, i, s)
    elif d == DECISION_TARGET:
        tk = st.pend_tk[i, max(int(st.pend_ask[i]), 0)]
        for t in range(NUM_TARGETS):
            out[TARGET0 + t] = target_legal(st, i, me, tk, t, cf[CF_MASK_USELESS])


# ---- decisions -----------------------------------------------------------------------------------
@rules
def ask(st, i, decision, who):
    st.op[i] = OP_ASK
    st.decision[i] = decision
    st.to_play[i] = who
    if decision == DECISION_PRIORITY:
        st.prio[i] = who
        st.passes[i] = 0


@rules
def close_window(st, i):
    """Both players passed in succession: the top of the stack resolves, or the step ends."""
    st.passes[i] = 0
    st.op[i] = OP_RESOLVE if st.stk_len[i] > 0 else OP_END_STEP


@rules
def pass_priority(st, i):
    passes = int(st.passes[i]) + 1
    if passes >= 2:
        close_window(st, i)
        return
    st.passes[i] = passes
    prio = 1 - int(st.prio[i])
    st.prio[i] = prio
    st.to_play[i] = prio
    st.op[i] = OP_ASK  # the other player's priority: taken by the engine if it is forced


@rules
def choose_target(st, i, me, t):
    j = int(st.pend_ask[i])
    push_pending(st, i, j, target_player(me, t), target_slot(t), target_obj(st, i, me, t))
    st.pend_ask[i] = -1
    st.op[i] = OP_FLUSH


@rules
def end_aisatsu(st, i):
    st.phase[i] = PHASE_IKUSA_END
    st.op[i] = OP_BEGIN_STEP


@rules(inline=True)  # one call site, in advance
def take_forced(st, ct, cf, i):
    """``OP_ASK``: a decision was just asked. Under ``auto_pass_forced`` the engine takes one that has
    exactly one legal action (not an agent decision: no history, no count); else the game waits."""
    st.op[i] = OP_WAIT
    if not cf[CF_AUTO_PASS]:
        return
    me = int(st.to_play[i])
    d = st.decision[i]
    if d == DECISION_ETEL:  # SKIP_ETEL with an empty hand
        for h in range(HAND_SLOTS):
            if st.hand[i, me, h] >= 0:
                return
        st.op[i] = OP_WINDOW
    elif d == DECISION_PRIORITY:  # PASS when no instant action is legal
        if any_instant(st, ct, cf, i, me, True):
            return
        if st.passes[i] == 0:
            # the window opens: a pass changes nothing either seat could play, so the other seat's
            # answer is known now; both pass: the window closes with priority on the second to pass
            if not any_instant(st, ct, cf, i, 1 - me, True):
                prio = 1 - int(st.prio[i])
                st.prio[i] = prio
                st.to_play[i] = prio
                close_window(st, i)
            else:
                pass_priority(st, i)
                st.op[i] = OP_WAIT  # handed over: the other seat has a choice
        else:
            pass_priority(st, i)
    elif d == DECISION_DECLARE:  # END_AISATSU when no アイサツ and no instant action is legal
        for s in range(FIELD_SLOTS):
            if ready_attacker(st, ct, cf, i, me, s):
                return
        if not any_instant(st, ct, cf, i, me, False):
            end_aisatsu(st, i)
    elif d == DECISION_TARGET:  # the target when exactly one is legal
        tk = st.pend_tk[i, max(int(st.pend_ask[i]), 0)]
        n = 0
        only = 0
        for t in range(NUM_TARGETS):
            if target_legal(st, i, me, tk, t, cf[CF_MASK_USELESS]):
                if n == 0:
                    only = t
                n += 1
        if n == 1:
            choose_target(st, i, me, only)


# ---- the turn (§2.7) --------------------------------------------------------------------------------
@rules
def attacker_valid(st, i):
    s = int(st.att_slot[i])
    return s >= 0 and st.fld_obj[i, st.tp[i], s] == st.att_obj[i]


@rules(inline=True)  # one call site, in advance
def begin_step(st, ct, cf, i):
    """What each step does as it begins."""
    tp = int(st.tp[i])
    phase = st.phase[i]
    if phase == PHASE_UNTAP:
        for s in range(FIELD_SLOTS):
            st.fld_tap[i, tp, s] = False
        st.etel_untapped[i, tp] = st.etel_total[i, tp]
        st.op[i] = OP_FLUSH
        pend_field_triggers(st, ct, i, tp, TR_TURN_START)
    elif phase == PHASE_DRAW:  # the first player draws 1 on the game's first turn, else 2
        st.op[i] = OP_FLUSH
        draw(st, cf, i, tp)
        if st.turn[i] > 1:
            draw(st, cf, i, tp)
    elif phase == PHASE_ETEL:
        ask(st, i, DECISION_ETEL, tp)
    elif phase == PHASE_CHAR or phase == PHASE_DECLARE:
        st.op[i] = OP_WINDOW
    elif phase == PHASE_IKUSA_START:
        st.op[i] = OP_FLUSH
        pend_field_triggers(st, ct, i, tp, TR_IKUSA_START)
    elif phase == PHASE_INTERRUPT:
        asked = False
        if attacker_valid(st, i):
            for s in range(FIELD_SLOTS):
                if interceptor(st, ct, cf, i, s):
                    asked = True
        st.interrupt_asked[i] = asked
        if asked:
            ask(st, i, DECISION_INTERRUPT, 1 - tp)
        else:
            st.phase[i] = PHASE_DAMAGE
            st.op[i] = OP_BEGIN_STEP
    elif phase == PHASE_DAMAGE:
        ikusa_damage(st, ct, i)
    elif phase == PHASE_IKUSA_END:
        st.op[i] = OP_FLUSH
        pend_field_triggers(st, ct, i, tp, TR_IKUSA_END)
    else:  # PHASE_END
        st.op[i] = OP_FLUSH
        pend_field_triggers(st, ct, i, tp, TR_TURN_END)


@rules
def ikusa_damage(st, ct, i):
    """6c: the attacker's カラテ to a character target, its 工作力 to the player (if both still valid)."""
    st.op[i] = OP_RULES
    if not attacker_valid(st, i):
        return
    tp = int(st.tp[i])
    opp = 1 - tp
    a = int(st.att_slot[i])
    ts = int(st.tgt_slot[i])
    if ts >= 0:
        if st.fld_obj[i, opp, ts] != st.tgt_obj[i]:
            return
        k = karate(st, ct, i, tp, a)
        if k > 0:
            st.fld_dmg[i, opp, ts] += k
            st.kill_obj[i] = st.tgt_obj[i]
            st.kill_src_slot[i] = st.att_slot[i]
            st.kill_src_obj[i] = st.att_obj[i]
    else:
        w = kousaku(st, ct, i, tp, a)
        if w > 0:
            st.dmg_left[i] = w
            st.dmg_player[i] = opp
            st.dmg_src_player[i] = tp
            st.dmg_src_slot[i] = st.att_slot[i]
            st.dmg_src_obj[i] = st.att_obj[i]
            st.op[i] = OP_DAMAGE


@rules(inline=True)  # one call site, in advance
def window(st, cf, i):
    """After a chain settles: the declaration, the turn player's priority, or (compact) the step ends."""
    tp = int(st.tp[i])
    phase = st.phase[i]
    if phase == PHASE_DECLARE and st.att_slot[i] < 0 and st.stk_len[i] == 0:
        ask(st, i, DECISION_DECLARE, tp)
        return
    if not cf[CF_COMPACT]:
        ask(st, i, DECISION_PRIORITY, tp)
        return
    compact_open = phase == PHASE_CHAR or phase == PHASE_DECLARE or phase == PHASE_INTERRUPT or phase == PHASE_END
    if st.stk_len[i] > 0 or compact_open:
        ask(st, i, DECISION_PRIORITY, tp)
    else:
        st.op[i] = OP_END_STEP


@rules
def next_phase(phase):
    if phase == PHASE_DAMAGE:
        return PHASE_DECLARE  # the next アイサツ
    if phase == PHASE_IKUSA_END:
        return PHASE_END
    if phase == PHASE_END:
        return PHASE_UNTAP
    return phase + 1


@rules(inline=True)  # one call site, in advance
def end_step(st, cf, i):
    """A window closed with an empty stack: the next step (or the cleanup and the next turn)."""
    phase = int(st.phase[i])
    st.op[i] = OP_BEGIN_STEP
    if phase == PHASE_DAMAGE:
        clear_attack(st, i)
    st.phase[i] = next_phase(phase)
    if phase == PHASE_END:
        cleanup(st, cf, i)


@rules
def clear_attack(st, i):
    st.att_slot[i] = -1
    st.att_obj[i] = -1
    st.tgt_slot[i] = -1
    st.tgt_obj[i] = -1
    st.interrupt_asked[i] = False


@rules
def cleanup(st, cf, i):
    """End of turn: damage and this-turn modifiers vanish on both sides; the other player's turn."""
    for p in range(2):
        for s in range(FIELD_SLOTS):
            st.fld_dmg[i, p, s] = 0
            st.fld_kmod[i, p, s] = 0
            st.fld_wmod[i, p, s] = 0
            st.fld_kz[i, p, s] = False
            st.fld_entered[i, p, s] = False
            st.fld_redir[i, p, s] = False
    clear_attack(st, i)
    if st.turn[i] >= cf[CF_MAX_TURNS]:
        st.truncated[i] = True
        st.end_reason[i] = END_TRUNCATED
        st.op[i] = OP_WAIT
    st.turn[i] += 1
    st.tp[i] = 1 - st.tp[i]
    st.phase[i] = PHASE_UNTAP


# ---- resolving the top of the stack (§2.11) -----------------------------------------------------
@rules
def single_target(tk):
    return tk == TK_SELF or tk == TK_OPP_CHAR or tk == TK_OWN_CHAR or tk == TK_ANY_CHAR or tk == TK_SOURCE


@rules(inline=True)  # one call site, in resolve_top
def resolve_marking(st, ct, i, j, ctrl, op, arg, tk):
    """An effect on characters: a single target that is still the same object, or an ALL_* set taken now."""
    tp_ = int(st.stk_tgt_player[i, j])
    ts = int(st.stk_tgt_slot[i, j])
    to = int(st.stk_tgt_obj[i, j])
    alive = ts >= 0 and to >= 0 and st.fld_obj[i, max(tp_, 0), ts] == to
    hit = single_target(tk) and alive
    marked = 0  # the characters it affects (a set of slot_bit)
    if hit:
        marked |= slot_bit(tp_, ts)
    if tk == TK_ALL_OPP or tk == TK_ALL_OWN:
        for p in range(2):
            if (tk == TK_ALL_OPP) == (p != ctrl):
                for s in range(FIELD_SLOTS):
                    if st.fld_card[i, p, s] >= 0:
                        marked |= slot_bit(p, s)
    for p in range(2):
        for s in range(FIELD_SLOTS):
            if not marked & slot_bit(p, s):
                continue
            if op == OP_DMG_CHAR:
                st.fld_dmg[i, p, s] += arg
            elif op == OP_BUFF_K:
                st.fld_kmod[i, p, s] += arg
            elif op == OP_DEBUFF_K:
                st.fld_kmod[i, p, s] -= arg
            elif op == OP_BUFF_W:
                st.fld_wmod[i, p, s] += arg
            elif op == OP_TAP:
                st.fld_tap[i, p, s] = True
            elif op == OP_UNTAP:
                st.fld_tap[i, p, s] = False
            elif op == OP_GRANT_KAIZEN:
                st.fld_kz[i, p, s] = True
    if op == OP_DESTROY_LE:
        for p in range(2):
            for s in range(FIELD_SLOTS):
                if karate(st, ct, i, p, s) > arg:
                    marked &= ~slot_bit(p, s)
        destroy_marked(st, ct, i, marked)
    elif op == OP_BOUNCE and hit:
        bounced = int(st.fld_card[i, tp_, ts])
        clear_slot(st, i, tp_, ts)
        to_hand(st, i, tp_, bounced, True)


@rules
def is_marking(op):
    return (op == OP_DMG_CHAR or op == OP_BUFF_K or op == OP_BUFF_W or op == OP_DEBUFF_K or op == OP_TAP
            or op == OP_UNTAP or op == OP_GRANT_KAIZEN or op == OP_DESTROY_LE or op == OP_BOUNCE)


@rules(inline=True)  # one call site, in advance
def resolve_top(st, ct, cf, i):
    """The top item resolves: a character enters, or its effect happens (player damage is queued)."""
    j = int(st.stk_len[i]) - 1
    kind = int(st.stk_kind[i, j])
    card = int(st.stk_card[i, j])
    ctrl = int(st.stk_ctrl[i, j])
    op = int(st.stk_op[i, j])
    arg = int(st.stk_arg[i, j])
    tk = int(st.stk_tk[i, j])
    st.stk_len[i] = j
    st.last_resolved[i] = card
    st.op[i] = OP_RULES
    if kind == ITEM_ENTRY:
        enter_character(st, ct, i, ctrl, card)
        return
    if is_marking(op):
        resolve_marking(st, ct, i, j, ctrl, op, arg, tk)
    elif op == OP_DMG_PLAYER:
        if arg > 0:
            has_src = kind == ITEM_TRIGGER or kind == ITEM_ACTIVATED
            st.dmg_left[i] = arg
            st.dmg_player[i] = 1 - ctrl if tk == TK_OPP_PLAYER else ctrl
            st.dmg_src_player[i] = ctrl
            st.dmg_src_slot[i] = st.stk_src_slot[i, j] if has_src else -1
            st.dmg_src_obj[i] = st.stk_src_obj[i, j] if has_src else -1
            st.op[i] = OP_DAMAGE
    elif op == OP_DRAW:
        for _ in range(arg):
            draw(st, cf, i, ctrl)
    elif op == OP_RAMP:
        for _ in range(arg):
            ramp(st, cf, i, ctrl)
    elif op == OP_HEAL:  # face-down damage first, then face-up, to オヒガン unidentified
        down = min(arg, int(st.dmg_down[i, ctrl]))
        up = min(arg - down, int(st.dmg_up[i, ctrl]))
        st.dmg_down[i, ctrl] -= down
        st.dmg_up[i, ctrl] -= up
        st.grave_anon[i, ctrl] += down + up
    elif op == OP_COUNTER:  # cancels the item it targets, if that is still the item below it
        ref = int(st.stk_ref[i, j])
        if ref >= 0 and ref == j - 1:
            k2 = st.stk_kind[i, ref]
            if k2 == ITEM_ENTRY or k2 == ITEM_KOTODAMA:
                to_grave(st, i, st.stk_ctrl[i, ref], st.stk_card[i, ref])
            st.stk_len[i] = j - 1
    elif op == OP_AMBUSH:  # the character comes back from オヒガン, if there and there is room
        if st.grave[i, ctrl, card] > 0 and free_slot(st, i, ctrl) >= 0:
            st.grave[i, ctrl, card] -= 1
            enter_character(st, ct, i, ctrl, card)
    if kind == ITEM_KOTODAMA:
        to_grave(st, i, ctrl, card)


# ---- damage, the rule check, the pending items ------------------------------------------------------
@rules(inline=True)  # one call site, in advance
def damage_point(st, ct, cf, i):
    """One point of damage to a player: turn over the top card (§2.5); a ウケミ card pends its effect."""
    p = int(st.dmg_player[i])
    if deck_len(st, i, p) <= 0:
        if cf[CF_DRAW_FROM_EMPTY]:
            lose(st, i, p, END_DECKOUT)
        st.dmg_left[i] = 0
        st.op[i] = OP_RULES
        return
    card = take_top(st, i, p)
    ukemi = ct[CT_UKEMI, card] != 0
    if ukemi:
        to_grave(st, i, p, card)
        tk = int(ct[CT_UK_TARGET, card])
        if tk == TK_SOURCE and st.dmg_src_obj[i] >= 0:
            pend(st, i, ITEM_UKEMI, card, p, ct[CT_UK_OP, card], ct[CT_UK_ARG, card], tk, -1, -1,
                 st.dmg_src_player[i], st.dmg_src_slot[i], st.dmg_src_obj[i])
        else:
            pend(st, i, ITEM_UKEMI, card, p, ct[CT_UK_OP, card], ct[CT_UK_ARG, card], tk, -1, -1, -1, -1, -1)
    else:
        take_damage_card(st, i, p, card)
    check_deckout(st, cf, i, p)
    st.dmg_left[i] -= 1
    if ukemi and cf[CF_UKEMI_EVENT]:
        st.dmg_left[i] = 0
    if st.dmg_left[i] <= 0:
        st.dmg_left[i] = 0
        st.op[i] = OP_RULES


@rules(inline=True)  # one call site, in advance
def rule_check(st, ct, i):
    """Destroy every character with damage ≥ 1 and ≥ its カラテ (ON_KILL for the watched イクサ target)."""
    st.op[i] = OP_FLUSH
    dying = 0  # a set of slot_bit
    killed = False
    for p in range(2):
        for s in range(FIELD_SLOTS):
            dmg = int(st.fld_dmg[i, p, s])
            if dmg >= 1 and st.fld_card[i, p, s] >= 0 and dmg >= karate(st, ct, i, p, s):
                dying |= slot_bit(p, s)
                if st.kill_obj[i] >= 0 and st.fld_obj[i, p, s] == st.kill_obj[i]:
                    killed = True
    if st.kill_obj[i] >= 0:
        if killed:
            tp = int(st.tp[i])
            s = int(st.kill_src_slot[i])
            if s >= 0 and st.fld_obj[i, tp, s] == st.kill_src_obj[i]:
                pend_trigger(st, ct, i, tp, s, int(st.fld_card[i, tp, s]), int(st.kill_src_obj[i]), TR_ON_KILL)
        st.kill_obj[i] = -1
    destroy_marked(st, ct, i, dying)


@rules(inline=True)  # one call site, in advance
def flush(st, ct, i):
    """The next pending item goes on the stack (its controller is asked for a target if it chooses one)."""
    best = -1
    for j in range(int(st.pend_len[i])):
        if not st.pend_used[i, j] and (best < 0 or st.pend_key[i, j] < st.pend_key[i, best]):
            best = j
    if best < 0:
        st.pend_len[i] = 0
        st.ukemi_seq[i] = 0
        st.op[i] = OP_WINDOW
        return
    tk = int(st.pend_tk[i, best])
    if tk == TK_OPP_CHAR or tk == TK_OWN_CHAR or tk == TK_ANY_CHAR:
        ctrl = int(st.pend_ctrl[i, best])
        if has_target(st, i, ctrl, tk, False) and st.stk_len[i] < STACK_MAX:
            st.pend_ask[i] = best
            ask(st, i, DECISION_TARGET, ctrl)
        else:
            st.pend_used[i, best] = True  # no legal target (or no room): skipped
    else:
        push_pending(st, i, best, st.pend_tgt_player[i, best], st.pend_tgt_slot[i, best], st.pend_tgt_obj[i, best])


@rules(inline=True)  # called only by advance
def finish_losses(st, i):
    """End the game if a loss condition was met (both seats at once: a draw)."""
    l0 = st.loser[i, 0]
    l1 = st.loser[i, 1]
    if not (l0 or l1) or st.terminated[i] or st.truncated[i]:
        return
    st.terminated[i] = True
    st.op[i] = OP_WAIT
    if l0 != l1:
        st.winner[i] = 1 if l0 else 0
        sign = np.float32(-1.0) if l0 else np.float32(1.0)
    else:
        st.winner[i] = -1
        sign = np.float32(0.0)
    st.rewards[i, 0] = sign
    st.rewards[i, 1] = -sign


@rules
def advance(st, ct, cf, i):
    """Run the automatic steps until the game waits for a decision or is over."""
    for _ in range(_MAX_MICRO_STEPS):
        op = st.op[i]
        if op == OP_WAIT:
            return True
        if op == OP_END_STEP:
            end_step(st, cf, i)
        elif op == OP_BEGIN_STEP:
            begin_step(st, ct, cf, i)
            finish_losses(st, i)
        elif op == OP_RESOLVE:
            resolve_top(st, ct, cf, i)
            finish_losses(st, i)
        elif op == OP_DAMAGE:
            damage_point(st, ct, cf, i)
            finish_losses(st, i)
        elif op == OP_RULES:
            rule_check(st, ct, i)
        elif op == OP_FLUSH:
            flush(st, ct, i)
        elif op == OP_WINDOW:
            window(st, cf, i)
        elif op == OP_ASK:
            take_forced(st, ct, cf, i)
        else:
            return False
    return False


# ---- applying an action --------------------------------------------------------------------------
@rules
def shown_card(st, i, me, a):
    """The card an action shows (the hand card played, the field card acting), -1 for none."""
    if ETEL0 <= a < SKIP_ETEL:
        return int(st.hand[i, me, a - ETEL0])
    if ENTER0 <= a < CAST0:
        return int(st.hand[i, me, a - ENTER0])
    if CAST0 <= a < ACTIVATE0:
        return int(st.hand[i, me, (a - CAST0) // 13])
    if ACTIVATE0 <= a < AISATSU0:
        return int(st.fld_card[i, me, (a - ACTIVATE0) // 13])
    if AISATSU0 <= a < END_AISATSU:
        return int(st.fld_card[i, me, (a - AISATSU0) // 7])
    if INTERRUPT0 <= a < NO_INTERRUPT:
        return int(st.fld_card[i, me, a - INTERRUPT0])
    return -1


@rules
def record(st, i, me, a):
    """Shift the public action history and record (player, action, card shown)."""
    card = shown_card(st, i, me, a)
    for k in range(st.hist_action.shape[1] - 1, 0, -1):
        st.hist_action[i, k] = st.hist_action[i, k - 1]
        st.hist_player[i, k] = st.hist_player[i, k - 1]
        st.hist_card[i, k] = st.hist_card[i, k - 1]
    st.hist_action[i, 0] = a
    st.hist_player[i, 0] = me
    st.hist_card[i, 0] = card


@rules(inline=True)  # one call site, in apply_action
def play(st, ct, cf, fam, i, a):
    """One legal action of the seat to play; sets the game's next automatic step."""
    me = int(st.to_play[i])
    f = fam[a]
    if f == F_PASS:
        pass_priority(st, i)
    elif f == F_ETEL:
        h = a - ETEL0
        card = int(st.hand[i, me, h])
        leave_hand(st, i, me, h)
        st.etel_count[i, me, card] += 1
        st.etel_total[i, me] += 1
        st.etel_untapped[i, me] += 1
        st.op[i] = OP_WINDOW
    elif f == F_SKIP_ETEL or f == F_NO_INTERRUPT:
        st.op[i] = OP_WINDOW
    elif f == F_ENTER:
        h = a - ENTER0
        card = int(st.hand[i, me, h])
        leave_hand(st, i, me, h)
        st.etel_untapped[i, me] -= ct[CT_COST, card]
        push(st, i, ITEM_ENTRY, card, me, OP_NONE, 0, TK_NONE, -1, -1, -1, -1, -1, -1)
        ask(st, i, DECISION_PRIORITY, me)
    elif f == F_CAST:
        h = (a - CAST0) // 13
        t = (a - CAST0) % 13
        card = int(st.hand[i, me, h])
        leave_hand(st, i, me, h)
        st.etel_untapped[i, me] -= ct[CT_COST, card]
        tk = int(ct[CT_TARGET, card])
        ref = int(st.stk_len[i]) - 1 if tk == TK_STACK else -1
        push(st, i, ITEM_KOTODAMA, card, me, ct[CT_OPCODE, card], ct[CT_ARG, card], tk, -1, -1,
             target_player(me, t), target_slot(t), target_obj(st, i, me, t), ref)
        ask(st, i, DECISION_PRIORITY, me)
    elif f == F_ACTIVATE:
        s = (a - ACTIVATE0) // 13
        t = (a - ACTIVATE0) % 13
        card = int(st.fld_card[i, me, s])
        obj = int(st.fld_obj[i, me, s])
        st.etel_untapped[i, me] -= ct[CT_ACT_E, card]  # costs: エテル, then オジギ, then ジツ
        if ct[CT_ACT_O, card]:
            st.fld_tap[i, me, s] = True
        st.dmg_up[i, me] -= ct[CT_ACT_J, card]
        st.dmg_down[i, me] += ct[CT_ACT_J, card]
        tk = int(ct[CT_TARGET, card])
        if tk == TK_SELF:
            push(st, i, ITEM_ACTIVATED, card, me, ct[CT_OPCODE, card], ct[CT_ARG, card], tk, s, obj, me, s, obj, -1)
        else:
            push(st, i, ITEM_ACTIVATED, card, me, ct[CT_OPCODE, card], ct[CT_ARG, card], tk, s, obj,
                 target_player(me, t), target_slot(t), target_obj(st, i, me, t), -1)
        ask(st, i, DECISION_PRIORITY, me)
    elif f == F_AISATSU:
        s = (a - AISATSU0) // 7
        u = (a - AISATSU0) % 7
        card = int(st.fld_card[i, me, s])
        obj = int(st.fld_obj[i, me, s])
        st.fld_tap[i, me, s] = True
        st.att_slot[i] = s
        st.att_obj[i] = obj
        if u == 6:  # the player
            st.tgt_slot[i] = -1
            st.tgt_obj[i] = -1
        else:
            st.tgt_slot[i] = u
            st.tgt_obj[i] = st.fld_obj[i, 1 - me, u]
        st.interrupt_asked[i] = False
        pend_trigger(st, ct, i, me, s, card, obj, TR_ON_AISATSU)
        st.op[i] = OP_FLUSH
    elif f == F_END_AISATSU:
        end_aisatsu(st, i)
    elif f == F_INTERRUPT:
        s = a - INTERRUPT0
        card = int(st.fld_card[i, me, s])
        st.tgt_slot[i] = s
        st.tgt_obj[i] = st.fld_obj[i, me, s]
        st.fld_redir[i, me, s] = True
        if cf[CF_INTERRUPT_TAPS] and not (ct[CT_KAIZEN, card] or st.fld_kz[i, me, s]):  # カイゼン never taps
            st.fld_tap[i, me, s] = True
        st.op[i] = OP_WINDOW
    elif f == F_TARGET:
        choose_target(st, i, me, a - TARGET0)


@rules
def apply_action(st, ct, cf, fam, i, a):
    """An agent decision: recorded, counted, played; then the game runs to its next decision (a game
    past ``max_decisions`` decisions is truncated)."""
    record(st, i, int(st.to_play[i]), a)
    st.n_decisions[i] += 1
    play(st, ct, cf, fam, i, a)
    ok = advance(st, ct, cf, i)
    if st.n_decisions[i] >= cf[CF_MAX_DECISIONS] and not st.terminated[i] and not st.truncated[i]:
        st.truncated[i] = True
        st.end_reason[i] = END_TRUNCATED
    return ok
