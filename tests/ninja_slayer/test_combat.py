"""アイサツ: attackers, the entry restriction and ハヤテ, interrupts (once per character per turn,
カイゼン against plain インターラプト), 6b skipped, attackers and targets leaving, ON_KILL."""
from __future__ import annotations

from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.state import DECISION_DECLARE, DECISION_INTERRUPT, DECISION_PRIORITY, PHASE_DAMAGE
from tests.ninja_slayer.helpers import (NO_INTERRUPT, PASS, aisatsu, cast, char, deck_len, interrupt, load, passes,
                                        seat, step, table)

ID = {c: C.card_index(c) for c in ("C01", "C02", "C08", "C09", "C10", "C11", "C19", "C21", "K06", "K09")}


def _attack(p0_field, p1_field, p1_hand=(), p1_etel=0, p0_hand=(), p0_etel=0, **opts):
    pos = table(seat(field=p0_field, hand=p0_hand, etel=p0_etel), seat(field=p1_field, hand=p1_hand, etel=p1_etel))
    return load(pos, **opts)


def test_a_new_character_cannot_attack_unless_it_has_hayate():
    g, st = _attack([char("C01", entered=True), char("C02", entered=True)], [])
    m = g.legal_mask(st)[0]
    assert not m[aisatsu(0, 6)] and m[aisatsu(1, 6)]
    g, st = _attack([char("C01", entered=True)], [], summoning_sickness=False)
    assert g.legal_mask(st)[0, aisatsu(0, 6)]


def test_tapped_characters_cannot_attack_and_targets_need_an_occupied_slot():
    g, st = _attack([char("C01", tapped=True), char("C01")], [None, char("C10", tapped=True)])
    m = g.legal_mask(st)[0]
    assert not m[aisatsu(0, 6)] and m[aisatsu(1, 6)] and m[aisatsu(1, 1)] and not m[aisatsu(1, 0)]


def test_no_legal_interceptor_skips_6b_and_its_window():
    g, st = _attack([char("C01")], [char("C01")])
    step(g, st, aisatsu(0, 6))
    passes(g, st)  # the 6a window closes; no interceptor: straight to 6c
    assert st.phase[0] == PHASE_DAMAGE and st.dmg_up[0, 1] == 1
    assert st.decision[0] == DECISION_PRIORITY


def test_plain_interrupt_needs_untapped_and_taps_kaizen_does_neither():
    g, st = _attack([char("C01")], [char("C09", tapped=True), char("C11", tapped=True)])
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    m = g.legal_mask(st)[0]
    assert st.decision[0] == DECISION_INTERRUPT
    assert not m[interrupt(0)] and m[interrupt(1)]
    step(g, st, interrupt(1))
    assert st.fld_tap[0, 1, 1] and st.tgt_slot[0] == 1  # was tapped already: KAIZEN redirects while tapped
    g, st = _attack([char("C01")], [char("C11")])
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    step(g, st, interrupt(0))
    assert not st.fld_tap[0, 1, 0]  # KAIZEN never taps


def test_granted_kaizen_also_redirects_while_tapped_without_tapping():
    g, st = _attack([char("C01")], [char("C01", tapped=True, kaizen=True)])
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    assert g.legal_mask(st)[0, interrupt(0)]


def test_interrupt_taps_false_lets_plain_interrupt_act_tapped():
    g, st = _attack([char("C01")], [char("C09", tapped=True)], interrupt_taps=False)
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    step(g, st, interrupt(0))
    assert st.fld_tap[0, 1, 0]  # it stays as it was (tapped) and redirects


def test_each_character_redirects_once_per_turn():
    g, st = _attack([char("C01"), char("C01")], [char("C11")])
    for a in (0, 1):
        step(g, st, aisatsu(a, 6))
        passes(g, st)
        if a == 0:
            step(g, st, interrupt(0))
            passes(g, st)  # 6b window
            passes(g, st)  # 6c window (C11 K2 took 1)
            assert st.decision[0] == DECISION_DECLARE
        else:
            # C11 already redirected this turn: no interceptor, 6b skipped, the player is hit.
            assert st.phase[0] == PHASE_DAMAGE and st.dmg_up[0, 1] == 1


def test_the_interceptor_cannot_be_the_current_target_and_a_character_target_can_be_redirected():
    g, st = _attack([char("C01")], [char("C11"), char("C10")])
    step(g, st, aisatsu(0, 0))  # attack C11 in slot 0
    passes(g, st)
    m = g.legal_mask(st)[0]
    assert not m[interrupt(0)] and m[interrupt(1)]
    step(g, st, interrupt(1))
    passes(g, st)
    assert st.fld_dmg[0, 1, 1] == 1 and st.fld_dmg[0, 1, 0] == 0


def test_the_attacker_leaving_before_6c_deals_no_damage():
    # P1 bounces the attacker in the 6a window (K09 on P0's slot 0 is target index 6 for P1).
    g, st = _attack([char("C01")], [char("C01")], p1_hand=["K09"], p1_etel=2)
    step(g, st, aisatsu(0, 6), PASS, cast(0, 6))
    passes(g, st)  # K09 resolves
    assert st.fld_card[0, 0, 0] == -1
    passes(g, st)  # 6a window closes; 6b skipped (attacker gone); 6c deals nothing
    assert st.dmg_up[0, 1] == 0


def test_the_target_leaving_before_6c_deals_no_damage_and_does_not_fall_back():
    g, st = _attack([char("C01")], [char("C01")], p0_hand=["K09"], p0_etel=2)
    step(g, st, aisatsu(0, 0), cast(0, 6))  # P0 attacks P1's C01 then bounces it itself
    passes(g, st)
    passes(g, st)
    assert st.dmg_up[0, 1] == 0 and st.fld_card[0, 1, 0] == -1


def test_on_kill_fires_only_for_the_ikusa_target_destroyed_by_6c():
    # C08 (K4, ON_KILL: untap itself) kills C09 (K2).
    g, st = _attack([char("C08")], [char("C01")])
    step(g, st, aisatsu(0, 0))
    passes(g, st)
    assert st.fld_card[0, 1, 0] == -1
    assert st.stk_len[0] == 1 and st.stk_card[0, 0] == ID["C08"]
    passes(g, st)
    assert not st.fld_tap[0, 0, 0]  # untapped: may アイサツ again
    passes(g, st)
    assert g.legal_mask(st)[0, aisatsu(0, 6)]


def test_on_kill_c21_deals_two_to_the_opponent_and_on_destroyed_c19_deals_one_back():
    g, st = _attack([char("C21")], [char("C19")])
    step(g, st, aisatsu(0, 0))
    passes(g, st)
    # APNAP: the turn player's ON_KILL goes on first, the non-turn player's ON_DESTROYED on top.
    assert [int(c) for c in st.stk_card[0, :2]] == [ID["C21"], ID["C19"]]
    passes(g, st)
    assert st.dmg_up[0, 0] == 1  # C19: 1 to P0
    passes(g, st)
    assert st.dmg_up[0, 1] == 2  # C21: 2 to P1


def test_tap_before_the_declaration_switches_off_a_plain_interceptor():
    g, st = _attack([char("C01")], [char("C09")], p0_hand=["K06"], p0_etel=1)
    step(g, st, cast(0, 6))
    passes(g, st)
    assert st.fld_tap[0, 1, 0]
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    assert st.phase[0] == PHASE_DAMAGE and st.dmg_up[0, 1] == 1


def test_zero_kousaku_attack_on_the_player_reveals_nothing():
    g, st = _attack([char("C09")], [])
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    assert st.dmg_up[0, 1] == 0 and deck_len(st, 1) == 20


def test_no_interrupt_answer_still_opens_the_6b_window():
    g, st = _attack([char("C01")], [char("C09")])
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    step(g, st, NO_INTERRUPT)
    assert st.decision[0] == DECISION_PRIORITY and st.to_play[0] == 0
