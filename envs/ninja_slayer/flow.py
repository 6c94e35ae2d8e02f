"""The turn (§2.7): what each step does when it begins, when its priority window opens, and where
the turn goes when a window closes (both players passed in succession with an empty stack).

Every function acts on games ``g`` that share the same micro-operation and sets each game's next
one (``st.op``), or asks a decision (``OP_ASK`` with ``st.decision`` and ``st.to_play``; the engine
then takes it if it is forced, else the game waits).
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.grouping import rows_by_code, single_code

from . import cards as C
from . import stack, zones
from .state import (DECISION_DECLARE, DECISION_ETEL, DECISION_INTERRUPT, DECISION_PRIORITY, END_TRUNCATED,
                    OP_ASK, OP_BEGIN_STEP, OP_DAMAGE, OP_END_STEP, OP_FLUSH, OP_RULES, OP_WAIT, OP_WINDOW, PHASE_CHAR,
                    PHASE_DAMAGE, PHASE_DECLARE, PHASE_DRAW, PHASE_END, PHASE_ETEL, PHASE_IKUSA_END,
                    PHASE_IKUSA_START, PHASE_INTERRUPT, PHASE_UNTAP, NinjaSlayerState)

# Windows that open under priority_windows="compact" with an empty stack (interrupt: only when asked).
_COMPACT_OPEN = np.zeros(10, dtype=bool)
_COMPACT_OPEN[[PHASE_CHAR, PHASE_DECLARE, PHASE_INTERRUPT, PHASE_END]] = True
_NEXT = np.array([PHASE_DRAW, PHASE_ETEL, PHASE_CHAR, PHASE_IKUSA_START, PHASE_DECLARE, PHASE_INTERRUPT,
                  PHASE_DAMAGE, PHASE_DECLARE, PHASE_END, PHASE_UNTAP], dtype=np.int8)
_STEP_TRIGGER = {PHASE_UNTAP: C.TR_TURN_START, PHASE_IKUSA_START: C.TR_IKUSA_START,
                 PHASE_IKUSA_END: C.TR_IKUSA_END, PHASE_END: C.TR_TURN_END}


def ask(st: NinjaSlayerState, g: np.ndarray, decision: int, who: np.ndarray) -> None:
    if len(g) == 0:
        return
    st.op[g] = OP_ASK
    st.decision[g] = decision
    st.to_play[g] = who
    if decision == DECISION_PRIORITY:
        st.prio[g] = who
        st.passes[g] = 0


def interceptors(st: NinjaSlayerState, g: np.ndarray, cfg) -> np.ndarray:
    """bool[n, 6]: the non-turn player's characters that may redirect the current アイサツ."""
    p = 1 - st.tp[g].astype(np.int64)
    card = st.fld_card[g, p].astype(np.int64)
    c = np.maximum(card, 0)
    kaizen = C.HAS_KAIZEN[c] | st.fld_kz[g, p]
    able = (card >= 0) & (kaizen | C.HAS_INTERRUPT[c])  # a superset (plain インターラプト may be tapped)
    if not np.count_nonzero(able):  # (the common case: no character that could intercept at all)
        return able
    plain = C.HAS_INTERRUPT[c] & (~st.fld_tap[g, p] | (not cfg.interrupt_taps))
    return ((card >= 0) & (st.fld_obj[g, p] != st.tgt_obj[g][:, None]) & ~st.fld_redir[g, p] & (kaizen | plain))


def attacker_valid(st: NinjaSlayerState, g: np.ndarray) -> np.ndarray:
    tp = st.tp[g].astype(np.int64)
    s = np.maximum(st.att_slot[g], 0)
    return (st.att_slot[g] >= 0) & (st.fld_obj[g, tp, s] == st.att_obj[g])


def begin_step(st: NinjaSlayerState, g: np.ndarray, cfg) -> None:
    """What each step does as it begins (one call per step present among ``g``)."""
    phase = st.phase[g]
    only = single_code(phase)
    if only is not None:  # one step (the common case)
        _BEGIN[only](st, g, st.tp[g].astype(np.int64), cfg)
        return
    for begin, rows in zip(_BEGIN, rows_by_code(phase, len(_BEGIN))):
        if rows is not None:
            gs = g[rows]
            begin(st, gs, st.tp[gs].astype(np.int64), cfg)


def _begin_untap(st: NinjaSlayerState, g: np.ndarray, tp: np.ndarray, cfg) -> None:
    st.fld_tap[g, tp] = False
    st.etel_untapped[g, tp] = st.etel_total[g, tp]
    _begin_triggers(st, g, tp, cfg)


def _begin_triggers(st: NinjaSlayerState, g: np.ndarray, tp: np.ndarray, cfg) -> None:
    """The step's triggers of the turn player's characters, then its window."""
    st.op[g] = OP_FLUSH
    stack.pend_field_triggers(st, g, tp, _STEP_TRIGGER[int(st.phase[g[0]])])


def _begin_draw(st: NinjaSlayerState, g: np.ndarray, tp: np.ndarray, cfg) -> None:
    st.op[g] = OP_FLUSH
    zones.draw(st, g, tp, cfg)
    second = st.turn[g] > 1  # the first player draws 1 on the game's first turn
    zones.draw(st, g[second], tp[second], cfg)


def _begin_etel(st: NinjaSlayerState, g: np.ndarray, tp: np.ndarray, cfg) -> None:
    ask(st, g, DECISION_ETEL, tp)


def _begin_window(st: NinjaSlayerState, g: np.ndarray, tp: np.ndarray, cfg) -> None:
    st.op[g] = OP_WINDOW


def _begin_interrupt(st: NinjaSlayerState, g: np.ndarray, tp: np.ndarray, cfg) -> None:
    asked = attacker_valid(st, g) & interceptors(st, g, cfg).any(axis=1)
    st.interrupt_asked[g] = asked
    ask(st, g[asked], DECISION_INTERRUPT, 1 - tp[asked])
    skip = g[~asked]
    st.phase[skip] = PHASE_DAMAGE
    st.op[skip] = OP_BEGIN_STEP


def _begin_damage(st: NinjaSlayerState, g: np.ndarray, tp: np.ndarray, cfg) -> None:
    ikusa_damage(st, g)


_BEGIN = (_begin_untap, _begin_draw, _begin_etel, _begin_window, _begin_triggers, _begin_window, _begin_interrupt,
          _begin_damage, _begin_triggers, _begin_triggers)
assert len(_BEGIN) == PHASE_END + 1


def ikusa_damage(st: NinjaSlayerState, g: np.ndarray) -> None:
    """6c: the attacker's カラテ to a character target, its 工作力 to the player (if both still valid)."""
    st.op[g] = OP_RULES
    tp = st.tp[g].astype(np.int64)
    opp = 1 - tp
    a = np.maximum(st.att_slot[g], 0)
    ok = attacker_valid(st, g)
    char = st.tgt_slot[g] >= 0
    ts = np.maximum(st.tgt_slot[g], 0)
    tgt_ok = st.fld_obj[g, opp, ts] == st.tgt_obj[g]
    sel = ok & char & tgt_ok
    if np.count_nonzero(sel):
        gs = g[sel]
        k = zones.karate(st, gs)[np.arange(len(gs)), tp[sel], a[sel]]
        hit = k > 0
        gs, k = gs[hit], k[hit]
        st.fld_dmg[gs, opp[sel][hit], ts[sel][hit]] += k.astype(np.int16)
        st.kill_obj[gs] = st.tgt_obj[gs]
        st.kill_src_slot[gs] = st.att_slot[gs]
        st.kill_src_obj[gs] = st.att_obj[gs]
    sel = ok & ~char
    if np.count_nonzero(sel):
        gs = g[sel]
        w = zones.kousaku(st, gs)[np.arange(len(gs)), tp[sel], a[sel]]
        hit = w > 0
        gs = gs[hit]
        st.dmg_left[gs] = w[hit]
        st.dmg_player[gs] = opp[sel][hit]
        st.dmg_src_player[gs] = tp[sel][hit]
        st.dmg_src_slot[gs] = st.att_slot[gs]
        st.dmg_src_obj[gs] = st.att_obj[gs]
        st.op[gs] = OP_DAMAGE


def window(st: NinjaSlayerState, g: np.ndarray, cfg) -> None:
    """After a chain settles: the turn player gets priority, the declaration, or the step ends."""
    tp = st.tp[g].astype(np.int64)
    phase = st.phase[g]
    declare = phase == PHASE_DECLARE  # (tested first: the other conditions matter only in this step)
    if np.count_nonzero(declare):
        declare &= (st.att_slot[g] < 0) & (st.stk_len[g] == 0)
        n_declare = np.count_nonzero(declare)
        if n_declare:
            ask(st, g[declare], DECISION_DECLARE, tp[declare])
            if n_declare == len(g):
                return
            rest = ~declare
            g, tp, phase = g[rest], tp[rest], phase[rest]
    # the rest: a priority window, or (compact) the step ends where this window does not open
    if cfg.priority_windows == "all":
        ask(st, g, DECISION_PRIORITY, tp)
        return
    open_ = (st.stk_len[g] > 0) | _COMPACT_OPEN[phase]
    ask(st, g[open_], DECISION_PRIORITY, tp[open_])
    st.op[g[~open_]] = OP_END_STEP


def end_step(st: NinjaSlayerState, g: np.ndarray, cfg) -> None:
    """A window closed with an empty stack: the next step (or the cleanup and the next turn)."""
    phase = st.phase[g].astype(np.int64)
    st.op[g] = OP_BEGIN_STEP
    after_damage = g[phase == PHASE_DAMAGE]
    if len(after_damage):
        st.att_slot[after_damage] = -1
        st.att_obj[after_damage] = -1
        st.tgt_slot[after_damage] = -1
        st.tgt_obj[after_damage] = -1
        st.interrupt_asked[after_damage] = False
    st.phase[g] = _NEXT[phase]
    end = phase == PHASE_END
    if np.count_nonzero(end):
        cleanup(st, g[end], cfg)


def cleanup(st: NinjaSlayerState, g: np.ndarray, cfg) -> None:
    """End of turn: damage and this-turn modifiers vanish on both sides; the other player's turn."""
    if len(g) == 0:
        return
    st.fld_dmg[g] = 0
    st.fld_kmod[g] = 0
    st.fld_wmod[g] = 0
    st.fld_kz[g] = False
    st.fld_entered[g] = False
    st.fld_redir[g] = False
    st.att_slot[g] = -1
    st.att_obj[g] = -1
    st.tgt_slot[g] = -1
    st.tgt_obj[g] = -1
    st.interrupt_asked[g] = False
    over = st.turn[g] >= cfg.max_turns
    st.truncated[g[over]] = True
    st.end_reason[g[over]] = END_TRUNCATED
    st.op[g[over]] = OP_WAIT
    st.turn[g] += 1
    st.tp[g] = 1 - st.tp[g]
    st.phase[g] = PHASE_UNTAP
