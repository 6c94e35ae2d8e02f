"""Rules audit: each of the 16 effect opcodes (rules §2.11) on small tables, outcomes from the rules."""
from __future__ import annotations

from tests.ninja_slayer.audit_helpers import (NO_TARGET, PASS, Table, activate, aisatsu, cast, ch, damaged, enter,
                                              opp, position, seat)


def main_step(p0: dict, p1: dict, **options) -> Table:
    """P0 is the turn player and holds priority in its character step."""
    return Table(position(p0, p1, "character", "priority"), **options)


def declaring(p0: dict, p1: dict, **options) -> Table:
    """P0 is the turn player, asked to declare an アイサツ (6a)."""
    return Table(position(p0, p1, "declare", "declare"), **options)


def test_op0_none_vanilla_entry_takes_the_lowest_free_slot_untapped_and_new_with_no_trigger():
    """§2.11 #0 NONE does nothing; §2.6 an entry resolves into the lowest free slot, untapped, entered_this_turn."""
    t = main_step(seat(hand=["C01"], field=[None, "C09"]), seat())
    t.act(enter(0))
    assert t.stack_cards() == ["C01"] and t.field(0)[0] is None
    t.passes()
    s = t.slot(0, 0)
    assert s["card"] == "C01" and not s["tapped"] and s["entered"]
    assert t.pos["stack"] == [] and t.pos["pending"] == [] and t.decision == "priority" and t.to_play == 0


def test_op1_dmg_char_all_opp_chars_kills_each_at_threshold_and_on_destroyed_fires():
    """§2.11 #1 DMG_CHAR to each target; §2.3 death at damage ≥ カラテ; §2.10 ON_DESTROYED (C19: 1 to the opponent)."""
    t = main_step(seat(hand=["K03"], etel=3), seat(field=["C19", "C01", "C10"]))
    t.act(cast(0, NO_TARGET)).passes()
    assert t.field(1) == [None, None, "C10", None, None, None]
    assert t.slot(1, 2)["damage"] == 2
    assert t.grave(1) == ["C01", "C19"]
    t.resolve_all()  # C19's ON_DESTROYED: 1 damage to P0
    assert t.dmg(0) == 1 and t.grave(0) == ["K03"]


def test_op1_dmg_char_activated_on_any_character_including_my_own():
    """§2.11 #1 with C20's ANY_CHAR target: my own C01 (K1) takes 1 and is destroyed (§2.3)."""
    t = main_step(seat(field=["C20", "C01"], etel=1), seat(field=["C10"]))
    t.act(activate(0, 1)).resolve_all()
    assert t.field(0)[1] is None and "C01" in t.grave(0)


def test_op2_dmg_player_turns_over_one_card_per_point():
    """§2.11 #2 DMG_PLAYER via §2.5: each point moves the top card into the damage zone."""
    t = main_step(seat(hand=["K10"], etel=2), seat(deck=["C02", "C03", "C04", "C05"]))
    t.act(cast(0)).resolve_all()
    assert t.seat(1)["damage_up"] == 2 and t.deck(1) == ["C04", "C05"]
    assert sorted(t.seat(1)["damage_seen"]) == ["C02", "C03"]


def test_op3_draw_into_a_full_hand_burns_the_card_and_it_still_leaves_the_deck():
    """§2.11 #3 DRAW one at a time; §2.9 / §6.1.10 a draw into a full hand (10) goes to オヒガン; §6.3.1 lowest slot."""
    t = main_step(seat(hand=["K11"] + ["C01"] * 9, etel=2, deck=["C02", "C03", "C04", "C05"]), seat())
    t.act(cast(0)).resolve_all()
    assert t.hand(0)[0] == "C02" and t.hand(0).count("C01") == 9
    assert t.grave(0) == ["C03", "K11"] and t.deck(0) == ["C04", "C05"]


def test_op3_draw_that_empties_the_deck_loses_at_once():
    """§6.1.9 / §2.9: DRAW that takes the deck to 0 loses immediately, even by one's own effect."""
    t = main_step(seat(hand=["K11"], etel=2, deck=["C02"]), seat())
    t.act(cast(0)).passes()
    p = t.pos
    assert p["terminated"] and p["winner"] == 1 and p["end_reason"] == "deck_out"


def test_op4_buff_k_raises_the_death_threshold():
    """§2.11 #4 BUFF_K 'also raises the death threshold': C09 (K2, 1 damage) +2 survives 2 more damage (3 < 4)."""
    t = main_step(seat(hand=["K01"], etel=1, field=["C01"]), seat(hand=["K04"], field=[ch("C09", damage=1)]))
    t.act(cast(0, opp(0)), PASS, cast(0, 0))  # P0 K01 on C09; P1 answers K04 on its C09
    t.resolve_all()
    s = t.slot(1, 0)
    assert s["card"] == "C09" and s["damage"] == 3 and s["karate_mod"] == 2


def test_op5_buff_w_raises_player_damage_of_each_own_character():
    """§2.11 #5 BUFF_W (K16: +2 工作力 to ALL_OWN_CHARS); §2.7 6c the player takes the attacker's current 工作力."""
    t = declaring(seat(hand=["K16"], etel=3, field=["C01", "C02"]), seat(deck=["C01"] * 10))
    t.act(cast(0)).passes()
    assert t.decision == "declare" and [t.slot(0, s)["kousaku_mod"] for s in (0, 1)] == [2, 2]
    t.act(aisatsu(0)).passes()
    assert t.seat(1)["damage_up"] == 3  # W1 + 2


def test_op6_debuff_k_floors_at_zero_and_zero_damage_does_not_kill():
    """§2.11 #6 DEBUFF_K floored at 0; §2.3 `damage ≥ 1` clause: a 0-カラテ character with no damage lives,
    and 1 damage then kills it (1 ≥ 0)."""
    t = main_step(seat(hand=["K13"], etel=2, field=["C20"]), seat(field=["C01"]))
    t.act(cast(0, opp(0))).resolve_all()
    assert t.field(1)[0] == "C01" and t.slot(1, 0)["karate_mod"] in (-2, -1)
    t.act(activate(0, opp(0))).resolve_all()
    assert t.field(1)[0] is None and t.grave(1) == ["C01"]


def test_op7_tap_in_the_6a_window_switches_off_a_plain_interceptor():
    """§2.11 #7 TAP; §2.8 plain インターラプト needs to be untapped; §2.7 6b skipped with no legal interceptor."""
    t = declaring(seat(hand=["K06"], etel=1, field=["C01"]), seat(field=["C09"], deck=["C02"] * 5))
    t.act(aisatsu(0))
    t.act(cast(0, opp(0))).passes()  # K06 on C09 resolves in the 6a window
    assert t.slot(1, 0)["tapped"]
    t.passes()  # 6a window closes: no interrupt decision, damage to the player
    assert t.seat(1)["damage_up"] == 1 and t.slot(1, 0)["redirected"] is False


def test_op8_untap_on_the_opponents_turn_re_arms_a_plain_interceptor():
    """§2.11 #8 UNTAP (K07 on own character, cast by the NTP at instant speed, §1.1); the untapped C09 may
    then interrupt (§2.8) and takes the attacker's カラテ (§6.1.3)."""
    t = declaring(seat(field=["C03"]), seat(hand=["K07"], etel=2, field=[ch("C09", tapped=True)]))
    t.act(aisatsu(0), PASS, cast(0, 0)).passes()  # P1 untaps C09 in the 6a window
    assert not t.slot(1, 0)["tapped"]
    t.passes()
    assert t.decision == "interrupt" and t.to_play == 1
    t.act(273 + 0).passes()
    assert t.field(1)[0] is None and t.dmg(1) == 0  # C03's カラテ 3 ≥ C09's 2


def test_op9_destroy_le_uses_current_karate_at_the_boundary():
    """§2.11 #9 DESTROY_LE n: destroyed iff current カラテ ≤ n (§6.1.12 current = printed + modifiers)."""
    t = main_step(seat(hand=["K02", "K02"], etel=4), seat(field=[ch("C10", karate_mod=-2), ch("C03", karate_mod=1)]))
    t.act(cast(0, opp(0))).resolve_all()
    assert t.field(1)[0] is None
    t.act(cast(1, opp(1))).resolve_all()
    assert t.field(1)[1] == "C03"


def test_op9_destroy_fires_on_destroyed():
    """§2.10 ON_DESTROYED fires on 'damage or DESTROY': K02 destroys C19, whose trigger deals 1 to P0."""
    t = main_step(seat(hand=["K02"], etel=2, deck=["C05"] + ["C01"] * 5), seat(field=["C19"]))
    t.act(cast(0, opp(0))).resolve_all()
    assert t.grave(1) == ["C19"] and t.dmg(0) == 1 and t.seat(0)["damage_seen"] == ["C05"]


def test_op10_bounce_clears_damage_and_modifiers_takes_the_lowest_hand_slot_and_is_not_destroyed():
    """§2.11 #10 BOUNCE to the owner's hand (§6.3.1 lowest empty slot); §2.10 ON_DESTROYED not on bounce."""
    t = main_step(seat(hand=["K09"], etel=2), seat(hand=["C01", None, "C02"], field=[ch("C19", damage=1,
                                                                                         karate_mod=2)]))
    t.act(cast(0, opp(0))).resolve_all()
    assert t.field(1)[0] is None and t.hand(1)[:3] == ["C01", "C19", "C02"]
    assert t.dmg(0) == 0 and "C19" not in t.grave(1)


def test_op10_bounce_into_a_full_hand_goes_to_ohigan():
    """§2.11 #10 '(or オヒガン if the hand is full)'; §2.9."""
    t = main_step(seat(hand=["K09"], etel=2), seat(hand=["C01"] * 10, field=["C10"]))
    t.act(cast(0, opp(0))).resolve_all()
    assert t.field(1)[0] is None and t.grave(1) == ["C10"] and t.hand(1) == ["C01"] * 10


def test_op11_ramp_puts_the_top_card_into_etel_tapped():
    """§2.11 #11 RAMP n: the top n cards of the controller's deck into its エテル zone, tapped."""
    t = main_step(seat(hand=["K12"], etel=3, deck=["C05", "C06", "C07"]), seat())
    t.act(cast(0))
    assert t.seat(0)["etel_untapped"] == 2  # the cost (1) is paid on entry (§2.4)
    t.resolve_all()
    s = t.seat(0)
    assert len(s["etel"]) == 4 and "C05" in s["etel"] and s["etel_untapped"] == 2 and t.deck(0) == ["C06", "C07"]


def test_op11_ramp_that_empties_the_deck_loses():
    """§6.1.9 RAMP that takes the deck to 0: immediate loss; §2.9 deck-out timing includes RAMP."""
    t = main_step(seat(hand=["K12"], etel=1, deck=["C05"]), seat())
    t.act(cast(0)).passes()
    p = t.pos
    assert p["terminated"] and p["winner"] == 1 and p["end_reason"] == "deck_out"


def test_op12_counter_removes_a_triggered_ability_which_simply_vanishes():
    """§2.6 / §6.3.13 COUNTER on a triggered ability: it vanishes (C18's ON_ENTER deals nothing)."""
    t = main_step(seat(hand=["C18"], etel=3), seat(hand=["K05"], etel=2))
    t.act(enter(0)).passes()  # the entry resolves; C18's trigger goes on the stack
    assert [it["kind"] for it in t.pos["stack"]] == ["trigger"]
    t.act(PASS, cast(0)).resolve_all()
    assert t.dmg(1) == 0 and t.field(0)[0] == "C18" and t.grave(0) == [] and t.grave(1) == ["K05"]


def test_op12_counter_a_counter_lets_the_original_resolve():
    """§2.6 COUNTER records the item on top when entered; responses to responses resolve LIFO."""
    t = main_step(seat(hand=["K01", "K05"], etel=3), seat(hand=["K05"], etel=2, field=["C10"]))
    t.act(cast(0, opp(0)), PASS, cast(0), PASS, cast(1))  # K01, P1's K05 on it, P0's K05 on that
    assert t.stack_cards() == ["K01", "K05", "K05"]
    t.resolve_all()
    assert t.slot(1, 0)["damage"] == 2
    assert t.grave(0) == ["K01", "K05"] and t.grave(1) == ["K05"]


def test_op12_counter_on_an_ambush_leaves_the_card_in_ohigan():
    """§6.1.7 COUNTER on a ウケミ AMBUSH effect: the card stays in オヒガン and never enters."""
    t = declaring(seat(hand=["K05"], etel=2, field=["C01"]), seat(deck=["C25"] + ["C01"] * 5))
    t.act(aisatsu(0)).passes()
    assert [it["op"] for it in t.pos["stack"]] == ["AMBUSH"] and t.to_play == 0
    t.act(cast(0)).resolve_all()
    assert t.field(1) == [None] * 6 and t.grave(1) == ["C25"]


def test_op13_grant_kaizen_lets_a_tapped_character_redirect_and_ends_at_cleanup():
    """§2.11 #13 GRANT_KAIZEN until end of turn; §2.8 カイゼン redirects while tapped; §2.7 cleanup ends it."""
    t = declaring(seat(field=["C02"]), seat(hand=["K08"], field=[ch("C10", tapped=True)]))
    t.act(aisatsu(0), PASS, cast(0, 0)).passes()  # P1 grants カイゼン to its tapped C10
    assert t.slot(1, 0)["kaizen"]
    t.passes()
    assert t.decision == "interrupt" and t.legal(273)
    t.act(273).passes()
    assert t.dmg(1) == 0 and t.slot(1, 0)["damage"] == 1  # C10 took C02's カラテ 1
    t.passes()  # the 6c window closes: the declaration comes back
    assert t.decision == "declare"
    t.act(272).passes().passes()  # END_AISATSU; イクサ end and end windows close; cleanup
    assert t.pos["turn_player"] == 1 and not t.slot(1, 0)["kaizen"] and t.slot(1, 0)["damage"] == 0


def test_op14_ambush_with_a_full_field_leaves_the_card_in_ohigan():
    """§2.5 AMBUSH: 'If no slot is free ... nothing happens'; §2.9 field limit 6."""
    t = declaring(seat(field=["C01"]), seat(deck=["C07"] + ["C01"] * 5, field=[ch("C01", tapped=True)] * 6))
    t.act(aisatsu(0)).passes().resolve_all()
    assert t.field(1) == ["C01"] * 6 and t.grave(1) == ["C07"]


def test_op14_ambush_fires_on_enter():
    """§2.5 AMBUSH: 'Its ON_ENTER triggers' — C31 comes in and deals 3 to the chosen opposing character."""
    t = declaring(seat(field=["C03"]), seat(deck=["C31"] + ["C01"] * 5))
    t.act(aisatsu(0)).passes()  # 6c: C31 revealed, AMBUSH on the stack
    t.passes()  # AMBUSH resolves; C31 enters; its ON_ENTER asks P1 for a target
    assert t.field(1)[0] == "C31" and t.decision == "target" and t.to_play == 1
    t.act(280 + opp(0)).resolve_all()
    assert t.field(0)[0] is None and t.grave(0) == ["C03"]


def test_op15_heal_face_down_first_then_face_up():
    """§2.11 #15 HEAL n: up to n damage cards to オヒガン, face-down first (§6.1.18), counted as healed (§6.3.4)."""
    t = main_step(seat(hand=["K14"], etel=2, **damaged(3, 1)), seat())
    t.act(cast(0)).resolve_all()
    s = t.seat(0)
    assert s["damage_down"] == 0 and s["damage_up"] == 2 and s["healed"] == 2
