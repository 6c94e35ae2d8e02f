"""The rules' worked micro-example: C04 Sabiyari attacks, C09 Kasumi-kabe may interrupt, step by step."""
from __future__ import annotations

from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.state import (DECISION_DECLARE, DECISION_INTERRUPT, DECISION_PRIORITY, PHASE_DAMAGE,
                                     PHASE_DECLARE, PHASE_INTERRUPT)
from tests.ninja_slayer.helpers import (NO_INTERRUPT, aisatsu, cast, char, interrupt, load, passes, seat, step,
                                        table)

C04, C09, C25, K04 = (C.card_index(c) for c in ("C04", "C09", "C25", "K04"))


def _setup(p1_deck=None):
    # P0 (turn player) has C04 (K1 W1, not new) untapped; P1 has C09 (K2, INTERRUPT) and 1 untapped エテル.
    pos = table(seat(field=[char("C04")]), seat(deck=p1_deck, field=[char("C09")], etel=1, hand=["K04"]))
    return load(pos)


def _declare_and_buff(g, st):
    # 6a: AISATSU(a=0, u=6): C04 taps and its ON_AISATSU trigger (BUFF_K 2 SELF) goes on the stack.
    step(g, st, aisatsu(0, 6))
    assert st.fld_tap[0, 0, 0]
    assert st.stk_len[0] == 1 and st.stk_card[0, 0] == C04 and st.stk_op[0, 0] == C.OP_BUFF_K
    assert st.decision[0] == DECISION_PRIORITY and st.to_play[0] == 0  # the turn player gets priority first
    step(g, st, 0)  # P0 passes
    assert st.to_play[0] == 1
    step(g, st, 0)  # P1 passes: the trigger resolves, C04 is K3
    assert st.stk_len[0] == 0 and st.fld_kmod[0, 0, 0] == 2
    assert st.phase[0] == PHASE_DECLARE and st.to_play[0] == 0  # the window after 6a, TP first again
    passes(g, st)  # both pass with an empty stack: on to 6b
    assert st.phase[0] == PHASE_INTERRUPT and st.decision[0] == DECISION_INTERRUPT and st.to_play[0] == 1


def test_6a_then_6b_interrupt_then_6c_destroys_the_interceptor():
    g, st = _setup()
    _declare_and_buff(g, st)
    step(g, st, interrupt(0))  # 6b: C09 taps (plain INTERRUPT), is marked, becomes the target
    assert st.fld_tap[0, 1, 0] and st.fld_redir[0, 1, 0] and st.tgt_slot[0] == 0
    assert st.decision[0] == DECISION_PRIORITY and st.to_play[0] == 0  # the 6b window
    passes(g, st)
    # 6c: C09 takes 3 (C04's カラテ, not its 工作力): 3 >= 2, destroyed.
    assert st.fld_card[0, 1, 0] == -1 and st.grave[0, 1, C09] == 1
    assert st.dmg_up[0, 1] == 0
    assert st.phase[0] == PHASE_DAMAGE
    passes(g, st)  # the 6c window closes: back to the declaration
    assert st.phase[0] == PHASE_DECLARE and st.decision[0] == DECISION_DECLARE and st.att_slot[0] == -1


def test_6b_with_kiai_the_interceptor_survives_and_heals_at_end_of_turn():
    g, st = _setup()
    _declare_and_buff(g, st)
    step(g, st, interrupt(0), 0)  # interrupt; P0 passes in the 6b window
    assert st.to_play[0] == 1
    step(g, st, cast(0, 0))  # P1 casts K04 Kiai (+2 K) on its slot 0
    assert st.to_play[0] == 1 and st.stk_card[0, 0] == K04  # the caster keeps priority
    passes(g, st)  # P1 passes, P0 passes: Kiai resolves, C09 is K4
    assert st.fld_kmod[0, 1, 0] == 2 and st.to_play[0] == 0
    passes(g, st)  # 6c: 3 damage against K4, C09 survives
    assert st.fld_card[0, 1, 0] == C09 and st.fld_dmg[0, 1, 0] == 3
    # End the turn: the damage and Kiai's modifier are cleared.
    step(g, st, 0, 0, 272)  # close the 6c window, END_AISATSU
    while st.turn[0] == 3:
        passes(g, st)
    assert st.fld_dmg[0, 1, 0] == 0 and st.fld_kmod[0, 1, 0] == 0 and st.fld_card[0, 1, 0] == C09


def test_no_interrupt_the_player_takes_one_point_and_c25_ambushes():
    g, st = _setup(p1_deck=["C25"] + ["C01"] * 10)
    _declare_and_buff(g, st)
    step(g, st, NO_INTERRUPT)
    passes(g, st)  # the 6b window closes: 6c deals C04's 工作力 1 to P1, who turns over C25 (ウケミ AMBUSH)
    assert st.dmg_up[0, 1] == 0  # the point was nullified
    assert st.stk_len[0] == 1 and st.stk_op[0, 0] == C.OP_AMBUSH and st.stk_ctrl[0, 0] == 1
    assert st.grave[0, 1, C25] == 1
    passes(g, st)  # the AMBUSH resolves: C25 enters P1's field, new this turn
    assert st.fld_card[0, 1, 1] == C25 and st.fld_entered[0, 1, 1] and st.grave[0, 1, C25] == 0
