"""Rules audit: edge cases of §2.6, §2.7, §6.1 and §6.3 combined on small tables."""
from __future__ import annotations

from tests.ninja_slayer.audit_helpers import (PASS, SKIP_ETEL, Table, aisatsu, cast, ch, enter, opp, position,
                                              seat)


def test_attack_target_replaced_by_a_new_object_in_its_slot_takes_no_damage():
    """§6.1.2 the target leaving before 6c: no damage, no fall back; targets compare objects (§6.3.7, §2.6).
    P0 attacks C09 in slot 0, bounces it, then K10 reveals C25 whose AMBUSH fills slot 0 before 6c."""
    t = Table(position(seat(field=["C03"], hand=["K09", "K10"], etel=4),
                       seat(field=["C09"], deck=["C25", "C02", "C02", "C02"]), "declare", "declare"))
    t.act(aisatsu(0, 0), cast(0, opp(0))).passes()  # K09 bounces C09
    assert t.field(1)[0] is None and "C09" in t.hand(1)
    t.act(cast(1)).passes().passes()  # K10: C25 revealed and nullified, C02 to damage; AMBUSH resolves
    assert t.field(1)[0] == "C25" and t.dmg(1) == 1
    t.passes()  # 6a window closes; C25 has no interrupt keyword: 6b skipped; 6c
    assert t.field(1)[0] == "C25" and t.slot(1, 0)["damage"] == 0 and t.dmg(1) == 1


def test_all_opp_chars_set_is_taken_on_resolution():
    """§2.6 'For ALL_* kinds, the affected set is computed on resolution': K03 also hits a C25 that an AMBUSH
    put on the field after K03 was cast."""
    t = Table(position(seat(hand=["K03", "K10"], etel=5), seat(field=["C10"], deck=["C25", "C02", "C02", "C02"]),
                       "character", "priority"))
    t.act(cast(0), cast(1)).passes().passes()  # K10 resolves (reveal C25, C02); AMBUSH resolves
    assert t.field(1)[:2] == ["C10", "C25"] and t.stack_cards() == ["K03"]
    t.passes()
    assert t.field(1)[:2] == ["C10", None] and t.grave(1) == ["C25"] and t.slot(1, 0)["damage"] == 2


def test_entry_resolving_onto_a_full_field_goes_to_ohigan_without_on_enter():
    """§6.3.15 'An entry that resolves with no free field slot sends the card to オヒガン with no ON_ENTER.'
    P0 enters C18 into its sixth slot; P1 answers K10; P0's revealed C25 ambushes into that slot first."""
    t = Table(position(seat(field=["C01"] * 5, hand=["C18"], etel=3, deck=["C25", "C05", "C05", "C05"]),
                       seat(hand=["K10"], etel=2, deck=["C02"] * 5), "character", "priority"))
    t.act(enter(0), PASS, cast(0)).passes()  # K10 resolves: P0 reveals C25 (AMBUSH) and C05
    assert [it["kind"] for it in t.pos["stack"]] == ["entry", "ukemi"]
    t.passes()
    assert t.field(0)[5] == "C25"
    t.passes()
    assert t.pos["stack"] == [] and t.grave(0) == ["C18"] and t.dmg(1) == 0 and t.decision == "priority"


def test_ukemi_source_of_a_triggered_ability_is_its_character():
    """§6.3.9 SOURCE for triggered abilities is the source character: C18's ON_ENTER damage reveals C14, whose
    ウケミ deals 2 to C18 (K3: survives with 2)."""
    t = Table(position(seat(hand=["C18"], etel=3), seat(deck=["C14", "C02", "C02"]), "character", "priority"))
    t.act(enter(0)).passes().passes()  # entry, then the trigger: C14 revealed
    assert [(it["op"], it["target_kind"]) for it in t.pos["stack"]] == [("DMG_CHAR", "SOURCE")]
    t.passes()
    assert t.slot(0, 0)["damage"] == 2 and t.dmg(1) == 0


def test_zero_karate_attacker_deals_nothing_to_a_character():
    """§2.7 6c 'Zero damage does nothing'; §6.3.19 current values at 6c: P1 debuffs the attacker to カラテ 0."""
    t = Table(position(seat(field=["C01"]), seat(field=["C01"], hand=["K13"], etel=1), "declare", "declare"))
    t.act(aisatsu(0, 0), PASS, cast(0, opp(0))).passes().passes()
    assert t.field(1)[0] == "C01" and t.slot(1, 0)["damage"] == 0


def test_draw_from_empty_rule_a_draw_from_an_empty_deck_loses_and_ramp_moves_nothing():
    """§6.3.10 draw_from_empty: a draw from an empty deck loses; RAMP from an empty deck moves nothing."""
    t = Table(position(seat(deck=[], hand=["K12"], etel=1), seat(), "character", "priority"),
              deckout_rule="draw_from_empty")
    t.act(cast(0)).passes()
    assert not t.over and len(t.seat(0)["etel"]) == 1
    t2 = Table(position(seat(deck=[]), seat(), "untap", "priority"), deckout_rule="draw_from_empty")
    t2.passes()
    p = t2.pos
    assert p["terminated"] and p["winner"] == 1 and p["end_reason"] == "deck_out"


def test_ukemi_draw_that_empties_the_deck_loses():
    """§2.9 deck-out by any draw; C27's ウケミ draw takes P1's deck to 0: P1 loses."""
    t = Table(position(seat(field=["C01"]), seat(deck=["C27", "C02"]), "declare", "declare"))
    t.act(aisatsu(0)).passes()
    assert not t.over and [it["card"] for it in t.pos["stack"]] == ["C27"]
    t.passes()
    p = t.pos
    assert p["terminated"] and p["winner"] == 0 and p["end_reason"] == "deck_out"


def test_compact_windows_open_only_where_the_spec_says():
    """§2.7 / §6.3.3 priority_windows='compact': windows at 4, after 6a, after an asked 6b and at 8; every other
    window opens only with a non-empty stack (C06's IKUSA_START trigger)."""
    t = Table(position(seat(), seat(field=["C06"], hand=["C02"]), "end", "priority"), priority_windows="compact")
    t.passes()  # P0's end window closes; P1's untap and draw steps open no window
    assert t.pos["turn_player"] == 1 and t.decision == "etel"
    t.act(SKIP_ETEL)
    assert t.phase == "character" and t.decision == "priority"
    t.passes()
    assert t.phase == "ikusa_start" and t.decision == "priority" and t.stack_cards() == ["C06"]
    t.passes()
    assert t.decision == "declare" and t.slot(1, 0)["kousaku_mod"] == 1
    t.act(aisatsu(0)).passes()  # after 6a: window; no interceptor; 6c: no window; back to 6a
    assert t.dmg(0) == 4 and t.decision == "declare"
    t.act(272)
    assert t.phase == "end" and t.decision == "priority"


def test_triggers_beyond_sixteen_items_are_dropped():
    """§6.3.18 / §6.1.20: an item that would be the 17th is dropped. K03 on top of 15 other items kills two
    C19s: the first ON_DESTROYED is the 16th item, the second is dropped, so P0 takes 1 damage, not 2."""
    pump = {"kind": "kotodama", "card": "K04", "controller": 0, "op": "BUFF_K", "arg": 2,
            "target_kind": "OWN_CHAR", "target": {"player": 0, "slot": 0}}
    k03 = {"kind": "kotodama", "card": "K03", "controller": 0, "op": "DMG_CHAR", "arg": 2,
           "target_kind": "ALL_OPP_CHARS", "target": None}
    t = Table(position(seat(field=["C01"]), seat(field=["C19", "C19"]), "character", "priority",
                       stack=[pump] * 15 + [k03]))
    t.passes()
    assert len(t.pos["stack"]) == 16 and t.pos["stack"][-1]["card"] == "C19"
    t.resolve_all()
    assert t.dmg(0) == 1 and t.slot(0, 0)["karate_mod"] == 30


def test_debuff_death_fires_on_destroyed():
    """§6.1.12 a DEBUFF to ≤ damage kills at the next rule check; §2.10 ON_DESTROYED (C19: 1 to P0)."""
    t = Table(position(seat(hand=["K13"], etel=1), seat(field=[ch("C19", damage=1)]), "character", "priority"))
    t.act(cast(0, opp(0))).resolve_all()
    assert t.grave(1) == ["C19"] and t.dmg(0) == 1


def test_damage_accumulates_across_attacks_and_the_killing_attacker_gets_on_kill():
    """§6.1.6 several attackers on one target; §2.3 damage stays until the end phase; C21 (K3) finishes C10
    (K5, 3 damage from C03) and its ON_KILL deals 2."""
    t = Table(position(seat(field=["C03", "C21"]), seat(field=["C10"]), "declare", "declare"))
    t.act(aisatsu(0, 0)).passes().passes()
    assert t.slot(1, 0)["damage"] == 3 and t.decision == "declare"
    t.act(aisatsu(1, 0)).passes()
    assert t.field(1)[0] is None
    t.resolve_all()
    assert t.dmg(1) == 2


def test_cleanup_clears_the_current_attack():
    """§6.3.19 'Cleanup also clears the current attack'."""
    t = Table(position(seat(field=["C01"]), seat(), "declare", "declare"))
    t.act(aisatsu(0)).passes().passes().act(272).passes().passes()
    assert t.pos["turn_player"] == 1 and t.pos["attack"] is None


def test_auto_pass_forced_takes_single_choice_decisions_without_changing_the_outcome():
    """§2.7 auto_pass_forced=True: forced passes, a single legal target and a lone END_AISATSU are taken by the
    engine; C17's ON_ENTER still kills the only opposing C01, and play runs to P1's ETEL decision."""
    t = Table(position(seat(hand=["C17"], etel=1), seat(field=["C01"], deck=["C02"] * 6), "character", "priority"),
              auto_pass_forced=True)
    t.act(enter(0))
    assert t.grave(1) == ["C01"] and t.field(0)[0] == "C17"
    assert t.pos["turn_player"] == 1 and t.decision == "etel" and t.hand(1)[:2] == ["C02", "C02"]


def test_summoning_sickness_off_lets_a_new_character_attack():
    """§6.2 summoning_sickness=False: the entry restriction of §2.8 is lifted."""
    t = Table(position(seat(field=[ch("C01", entered=True)]), seat(), "declare", "declare"),
              summoning_sickness=False)
    assert t.legal(aisatsu(0))


def test_granted_kaizen_makes_a_keywordless_character_an_interceptor():
    """§5.3 INTERRUPT: 'it has KAIZEN (printed or granted)'; K08 on a tapped C01 with no keyword."""
    t = Table(position(seat(field=["C03"]), seat(field=[ch("C01", tapped=True)], hand=["K08"]), "declare",
                       "declare"))
    t.act(aisatsu(0), PASS, cast(0, 0)).passes().passes()
    assert t.decision == "interrupt"
    t.act(273).passes()
    assert t.field(1)[0] is None and t.dmg(1) == 0


def test_heal_larger_than_the_zone_heals_what_there_is():
    """§2.11 #15 HEAL n moves 'up to n' cards."""
    t = Table(position(seat(hand=["K14"], etel=2, damage_up=1, damage_seen=["C01"]), seat(), "character",
                       "priority"))
    t.act(cast(0)).resolve_all()
    assert t.dmg(0) == 0 and t.seat(0)["healed"] == 1
