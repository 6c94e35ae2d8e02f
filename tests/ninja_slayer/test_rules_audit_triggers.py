"""Rules audit: the triggers of §2.10 and the keywords of §2.8, outcomes from the rules."""
from __future__ import annotations

from tests.ninja_slayer.audit_helpers import (END_AISATSU, NO_INTERRUPT, PASS, Table, activate, aisatsu, cast, ch,
                                              choose, enter, interrupt, opp, position, seat)


def declaring(p0: dict, p1: dict, **options) -> Table:
    return Table(position(p0, p1, "declare", "declare"), **options)


def main_step(p0: dict, p1: dict, **options) -> Table:
    return Table(position(p0, p1, "character", "priority"), **options)


# ---- triggers (§2.10) ------------------------------------------------------------------------------
def test_on_aisatsu_goes_on_the_stack_before_the_interrupt_step():
    """§2.10 ON_AISATSU 'goes on the stack before the interrupt step'; §2.7 6a (W) then 6b (C04: +2 カラテ)."""
    t = declaring(seat(field=["C04"]), seat(field=["C09"]))
    t.act(aisatsu(0))
    assert t.slot(0, 0)["tapped"] and t.decision == "priority" and t.to_play == 0
    assert [(it["kind"], it["card"], it["op"]) for it in t.pos["stack"]] == [("trigger", "C04", "BUFF_K")]
    t.passes()
    assert t.slot(0, 0)["karate_mod"] == 2 and t.decision == "priority"  # the 6a window goes on, stack empty
    t.passes()
    assert t.decision == "interrupt" and t.to_play == 1
    t.act(NO_INTERRUPT).passes()
    assert t.dmg(1) == 1  # the player takes 工作力 (W1), not the pumped カラテ


def test_on_kill_fires_for_an_interceptor_destroyed_by_ikusa_damage():
    """§2.10 ON_KILL: 'destroyed by イクサ damage dealt by this character (including an interceptor)';
    C21 redirected onto C09 (K2) kills it and deals 2 to the opponent."""
    t = declaring(seat(field=["C21"]), seat(field=["C09"], deck=["C02", "C03", "C04"]))
    t.act(aisatsu(0)).passes().act(interrupt(0)).passes()
    assert t.field(1)[0] is None and t.grave(1) == ["C09"]
    t.resolve_all()
    assert t.seat(1)["damage_up"] == 2 and t.deck(1) == ["C04"]


def test_on_kill_c08_untaps_and_may_aisatsu_again():
    """C08 'ON_KILL: untap this character'; §2.11 #8 UNTAP 'lets a character アイサツ again this turn'; §6.1.6."""
    t = declaring(seat(field=["C08"]), seat(field=["C03", "C01"]))
    t.act(aisatsu(0, 0)).passes()
    assert t.field(1)[0] is None and t.slot(0, 0)["tapped"]
    t.resolve_all()
    assert not t.slot(0, 0)["tapped"]
    t.passes()
    assert t.decision == "declare" and t.legal(aisatsu(0, 1))
    t.act(aisatsu(0, 1)).passes().resolve_all()
    assert t.field(1) == [None] * 6 and t.grave(1) == ["C01", "C03"]


def test_on_kill_does_not_fire_for_a_later_death():
    """§6.3.5 ON_KILL fires only when the target dies in the rule check right after 6c damage: C21 (K3) leaves
    C10 (K5) at 3 damage; a later K13 (−2) kills it; no 2 damage to P1."""
    t = declaring(seat(field=["C21"], hand=["K13"], etel=1), seat(field=["C10"]))
    t.act(aisatsu(0, 0)).passes()
    # C10 is the target and the only character: no legal interceptor, 6b is skipped (§2.7 6b).
    assert t.decision == "priority" and t.slot(1, 0)["damage"] == 3
    t.act(cast(0, opp(0))).resolve_all()
    assert t.field(1)[0] is None and t.pos["stack"] == [] and t.dmg(1) == 0


def test_on_kill_and_on_destroyed_together_go_on_in_apnap_order():
    """§2.6 / §6.3.14 APNAP: the TP's trigger (C21 ON_KILL) is pushed first and resolves last; the NTP's
    (C19 ON_DESTROYED) resolves first."""
    t = declaring(seat(field=["C21"], deck=["C05"] * 5), seat(field=["C19"], deck=["C06"] * 5))
    t.act(aisatsu(0, 0)).passes()
    assert [(it["card"], it["controller"]) for it in t.pos["stack"]] == [("C21", 0), ("C19", 1)]
    t.passes()
    assert t.dmg(0) == 1 and t.dmg(1) == 0
    t.passes()
    assert t.dmg(1) == 2


def test_simultaneous_on_destroyed_triggers_in_slot_order():
    """§6.1.13 / §6.3.14 simultaneous destruction: triggers pushed by source slot (the lower slot first)."""
    t = main_step(seat(hand=["K03"], etel=3), seat(field=["C19", None, "C19"]))
    t.act(cast(0)).passes()
    assert [(it["card"], it["source_slot"]) for it in t.pos["stack"]] == [("C19", 0), ("C19", 2)]
    t.resolve_all()
    assert t.dmg(0) == 2


def test_ikusa_start_triggers_only_on_the_controllers_own_turn():
    """§2.10 IKUSA_START: 'that step of its controller's own turn' — P1's C06 does nothing on P0's turn."""
    t = main_step(seat(field=["C06"]), seat(field=["C06"]))
    t.passes()
    assert t.phase == "ikusa_start"
    assert [(it["card"], it["controller"]) for it in t.pos["stack"]] == [("C06", 0)]
    t.resolve_all()
    assert t.slot(0, 0)["kousaku_mod"] == 1 and t.slot(1, 0)["kousaku_mod"] == 0


def test_activated_ability_at_instant_speed_on_the_opponents_turn_removes_the_attacker():
    """§2.10 ACTIVATED 'instant speed'; §1.1 abilities whenever you hold priority; §6.1.1 the attacker leaving
    before 6c deals no damage. P1's C20 shoots P0's attacking C01 in the 6a window."""
    t = declaring(seat(field=["C01"]), seat(field=["C20"], etel=1))
    t.act(aisatsu(0), PASS, activate(0, opp(0))).resolve_all()
    assert t.field(0)[0] is None
    t.passes()  # 6a window closes; 6b skipped (the attacker left); 6c deals nothing; its window opens
    assert t.dmg(1) == 0 and t.decision == "priority" and t.phase == "damage"
    t.passes()
    assert t.decision == "declare"


def test_activated_ability_has_no_per_turn_limit_beyond_its_cost():
    """§2.10 ACTIVATED 'no per-turn limit beyond the cost': C20 twice with two エテル, not a third time."""
    t = main_step(seat(field=["C20"], etel=2), seat(field=["C10"]))
    t.act(activate(0, opp(0)), activate(0, opp(0)))
    assert not t.legal(activate(0, opp(0)))
    t.resolve_all()
    assert t.slot(1, 0)["damage"] == 2 and t.seat(0)["etel_untapped"] == 0


def test_ability_whose_source_left_still_resolves():
    """§2.6 'Ability items whose source has left the field still resolve (last-known information)':
    P1 destroys C20 (K2 ≤ 3 via K02) in response; C20's 1 damage still hits C10."""
    t = main_step(seat(field=["C20"], etel=1), seat(field=["C10"], hand=["K02"], etel=2))
    t.act(activate(0, opp(0)), PASS, cast(0, opp(0))).resolve_all()
    assert t.field(0)[0] is None and t.slot(1, 0)["damage"] == 1


def test_on_enter_target_is_chosen_as_the_trigger_goes_on_the_stack():
    """§2.6 CHOOSE_TARGET when the trigger is put on the stack; §2.10 ON_ENTER (C17: 1 damage to a chosen
    opposing character) — only occupied opposing slots are legal."""
    t = main_step(seat(hand=["C17"], etel=1), seat(field=[None, "C01", "C10"]))
    t.act(enter(0)).passes()
    assert t.decision == "target" and t.to_play == 0
    assert t.legal(choose(opp(1))) and t.legal(choose(opp(2))) and not t.legal(choose(opp(0)))
    assert not t.legal(choose(0)) and not t.legal(choose(12))
    t.act(choose(opp(1))).resolve_all()
    assert t.field(1)[1] is None and t.grave(1) == ["C01"]


def test_ukemi_is_controlled_by_the_damaged_player_and_costs_nothing():
    """§2.5 ウケミ: the damaged player controls it, no cost; C22's ウケミ deals 1 to its opponent (P0)."""
    t = declaring(seat(field=["C01"], deck=["C04"] * 5), seat(deck=["C22"] + ["C01"] * 5, etel=2, untapped=0))
    t.act(aisatsu(0)).passes()
    assert [(it["kind"], it["controller"]) for it in t.pos["stack"]] == [("ukemi", 1)]
    t.resolve_all()
    assert t.dmg(0) == 1 and t.dmg(1) == 0 and t.seat(1)["etel_untapped"] == 0 and t.grave(1) == ["C22"]


# ---- keywords (§2.8) -------------------------------------------------------------------------------
def test_hayate_may_aisatsu_the_turn_it_entered_and_others_may_not():
    """§2.8 ハヤテ exempts from the entry restriction; a new non-ハヤテ character cannot be an attacker."""
    t = declaring(seat(field=[ch("C02", entered=True), ch("C01", entered=True), ch("C03", entered=True)]), seat())
    assert t.legal(aisatsu(0)) and t.legal(aisatsu(2))
    t.assert_illegal(aisatsu(1))


def test_new_character_may_interrupt_be_targeted_and_pay_o():
    """§2.8 entry restriction: a new character 'may still interrupt, be targeted, and pay O costs' (§2.4)."""
    t = main_step(seat(field=[ch("C13", entered=True)]), seat(field=["C01"]))
    assert t.legal(activate(0, opp(0)))
    t.act(activate(0, opp(0))).resolve_all()
    assert t.slot(1, 0)["tapped"] and t.slot(0, 0)["tapped"]
    t2 = declaring(seat(field=["C01"]), seat(field=[ch("C09", entered=True)]))
    assert t2.legal(aisatsu(0, 0))
    t2.act(aisatsu(0)).passes()
    assert t2.decision == "interrupt" and t2.legal(interrupt(0))


def test_plain_interrupt_redirects_a_player_attack_taps_and_takes_karate():
    """§2.8 インターラプト: untapped, taps on redirecting; §6.1.3 the interceptor takes カラテ, not 工作力."""
    t = declaring(seat(field=["C03"]), seat(field=["C10"]))
    t.act(aisatsu(0)).passes().act(interrupt(0))
    s = t.slot(1, 0)
    assert s["tapped"] and s["redirected"]
    t.passes()
    assert t.slot(1, 0)["damage"] == 3 and t.dmg(1) == 0


def test_tapped_plain_interrupt_cannot_redirect_and_6b_is_skipped():
    """§2.8 plain インターラプト must be untapped; §2.7 6b skipped when no legal interceptor."""
    t = declaring(seat(field=["C01"]), seat(field=[ch("C09", tapped=True)]))
    t.act(aisatsu(0)).passes()
    assert t.decision != "interrupt" and t.dmg(1) == 1


def test_kaizen_redirects_while_tapped_and_does_not_tap():
    """§2.8 カイゼン 'may redirect while tapped and does not tap' (C11)."""
    t = declaring(seat(field=["C01"]), seat(field=[ch("C11", tapped=True), "C11"]))
    t.act(aisatsu(0)).passes()
    assert t.legal(interrupt(0)) and t.legal(interrupt(1))
    t.act(interrupt(1))
    assert not t.slot(1, 1)["tapped"] and t.slot(1, 1)["redirected"]


def test_granted_kaizen_on_a_plain_interrupter_never_taps():
    """§6.3.6 'A character with KAIZEN, printed or granted, never taps when it redirects, even if it also has
    plain INTERRUPT' (K08 on an untapped C09)."""
    t = declaring(seat(field=["C01"]), seat(field=["C09"], hand=["K08"]))
    t.act(aisatsu(0), PASS, cast(0, 0)).passes().passes()
    assert t.decision == "interrupt"
    t.act(interrupt(0))
    assert not t.slot(1, 0)["tapped"] and t.slot(1, 0)["redirected"]


def test_a_character_redirects_once_per_turn_even_with_kaizen():
    """§2.7 6b / §6.1.5 once per turn: a カイゼン character that redirected cannot redirect again this turn."""
    t = declaring(seat(field=["C02", "C02"]), seat(field=["C11"]))
    t.act(aisatsu(0)).passes().act(interrupt(0)).passes().passes()
    assert t.decision == "declare" and t.slot(1, 0)["redirected"]
    t.act(aisatsu(1)).passes()
    assert t.decision != "interrupt"  # the only interceptor already redirected: 6b skipped
    assert t.dmg(1) == 1


def test_the_interceptor_cannot_be_the_current_target():
    """§2.8 / §6.1.4 the interceptor must not be the current target; another keyword character may redirect."""
    t = declaring(seat(field=["C01"]), seat(field=["C11", "C09"]))
    t.act(aisatsu(0, 0)).passes()
    assert t.decision == "interrupt"
    t.assert_illegal(interrupt(0))
    t.act(interrupt(1)).passes()
    assert t.slot(1, 1)["damage"] == 1 and t.slot(1, 0)["damage"] == 0


def test_redirect_allowed_after_the_original_target_left():
    """§6.3.7 'The defender may redirect even after the original target has left the field.'"""
    t = declaring(seat(field=["C03"], hand=["K01"], etel=1), seat(field=["C01", "C10"]))
    t.act(aisatsu(0, 0), cast(0, opp(0))).passes()  # K01 kills the target C01 in the 6a window
    assert t.field(1)[0] is None
    t.passes()
    assert t.decision == "interrupt" and t.legal(interrupt(1))
    t.act(interrupt(1)).passes()
    assert t.slot(1, 1)["damage"] == 3


def test_the_interceptor_leaving_before_6c_deals_no_damage_and_no_fallback():
    """§6.1.2 the interceptor leaves before 6c: no damage; the attack does not fall back to the player."""
    t = declaring(seat(field=["C03"], hand=["K02"], etel=2), seat(field=["C09"]))
    t.act(aisatsu(0)).passes().act(interrupt(0))
    t.act(cast(0, opp(0))).resolve_all()  # P0 destroys the interceptor in the 6b window
    assert t.field(1)[0] is None
    t.passes()  # the 6b window closes; 6c deals nothing; its window opens
    assert t.dmg(1) == 0 and t.seat(1)["deck"] == ["C01"] * 20
    t.passes()
    assert t.decision == "declare" and t.dmg(1) == 0


def test_ukemi_card_in_hand_does_nothing():
    """§2.8 ウケミ 'only matters when the card is turned over by damage'; a K10 in hand stays there."""
    t = declaring(seat(field=["C01"]), seat(hand=["K10"], deck=["C01"] * 5))
    t.act(aisatsu(0)).passes()
    assert t.dmg(1) == 1 and t.hand(1)[0] == "K10" and t.pos["stack"] == []


def test_tapped_characters_can_be_attacked_and_are_not_tapped_by_it():
    """§2.8 'Tapped characters can be targeted by AISATSU normally, and being targeted does not tap them.'"""
    t = declaring(seat(field=["C03", "C03"]), seat(field=[ch("C01", tapped=True), "C01"]))
    assert t.legal(aisatsu(0, 0)) and t.legal(aisatsu(0, 1))
    t.act(aisatsu(1, 1)).passes()
    assert t.field(1)[1] is None and t.slot(1, 0)["tapped"]
    t.passes().act(END_AISATSU)
    assert t.phase == "ikusa_end"


def test_turn_start_triggers_go_on_in_the_untap_step_before_the_draw():
    """§2.7 1: untap, then pending TURN_START triggers go on the stack, then (W); §2.10 TURN_START of its
    controller's own turn. Two C30s: each heals 1 (face-down first, §6.1.18) before the draw step."""
    p1 = seat(field=[ch("C30", tapped=True), "C30"], deck=["C02", "C03", "C04"], damage_up=2, damage_down=1,
              damage_seen=["C01"] * 3)
    t = Table(position(seat(field=["C30"], damage_up=1, damage_seen=["C01"]), p1, "end", "priority"))
    t.passes()
    assert t.phase == "untap" and t.pos["turn_player"] == 1
    assert [(it["card"], it["controller"], it["source_slot"]) for it in t.pos["stack"]] == [("C30", 1, 0),
                                                                                           ("C30", 1, 1)]
    assert not t.slot(1, 0)["tapped"]
    t.resolve_all()
    assert t.phase == "untap" and t.seat(1)["damage_down"] == 0 and t.seat(1)["damage_up"] == 1
    assert t.seat(0)["damage_up"] == 1 and t.deck(1) == ["C02", "C03", "C04"]


def test_two_ikusa_start_pumps_stack_up():
    """§2.10 IKUSA_START; C06 'each of your characters +1 工作力': two C06s give +2 to each."""
    t = Table(position(seat(field=["C06", "C06", "C01"]), seat(), "character", "priority"))
    t.passes()
    assert len(t.pos["stack"]) == 2
    t.resolve_all()
    assert [t.slot(0, s)["kousaku_mod"] for s in range(3)] == [2, 2, 2]


def test_6c_uses_current_values_after_a_pump_in_the_6a_window():
    """§6.3.19 '6c damage uses current values at 6c': K04 on the attacker after the declaration kills C09 (K2)
    with カラテ 3; K16 after a player declaration adds 2 to the player damage."""
    t = declaring(seat(field=["C01"], hand=["K04"]), seat(field=["C09", "C11"]))
    t.act(aisatsu(0, 0), cast(0, 0)).passes().passes()
    assert t.decision == "interrupt"
    t.act(NO_INTERRUPT).passes()
    assert t.field(1)[0] is None
    t2 = declaring(seat(field=["C01"], hand=["K16"], etel=3), seat(deck=["C02"] * 6))
    t2.act(aisatsu(0), cast(0)).passes().passes()
    assert t2.dmg(1) == 3
