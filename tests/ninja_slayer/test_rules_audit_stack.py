"""Rules audit: priority passing and the LIFO stack (§2.6, §1.1), fizzling on resolution (§6.1, §2.6)."""
from __future__ import annotations

from tests.ninja_slayer.audit_helpers import PASS, Table, activate, aisatsu, cast, enter, opp, position, seat


def main_step(p0: dict, p1: dict, turn_player: int = 0, **options) -> Table:
    return Table(position(p0, p1, "character", "priority", turn_player=turn_player), **options)


def test_pass_hands_priority_over_and_two_passes_on_an_empty_stack_end_the_step():
    """§2.6 PASS gives priority to the opponent; both passing with an empty stack ends the step (§2.7 (W))."""
    t = main_step(seat(), seat())
    t.act(PASS)
    assert t.to_play == 1 and t.phase == "character"
    t.act(PASS)
    assert t.phase == "ikusa_start" and t.to_play == 0


def test_an_action_resets_the_pass_count():
    """§2.6 'any action resets the consecutive-pass counter to 0': P0 passes, P1 casts and passes, and only
    P0's next pass resolves the item."""
    t = main_step(seat(field=["C01"]), seat(hand=["K04"], field=["C01"]))
    t.act(PASS, cast(0, 0))
    assert t.to_play == 1 and t.stack_cards() == ["K04"]
    t.act(PASS)
    assert t.to_play == 0 and t.stack_cards() == ["K04"]
    t.act(PASS)
    assert t.pos["stack"] == [] and t.slot(1, 0)["karate_mod"] == 2
    assert t.to_play == 0 and t.phase == "character"


def test_responses_to_responses_resolve_lifo_and_priority_returns_to_the_turn_player_each_time():
    """§2.6 LIFO; 'the top item resolves and the TP gets priority again'; COUNTER removes the item beneath.
    Stack: P0 K01 on C09, P1 K04 on C09, P0 C20 (1 damage) on C09, P1 K05 on C20's ability."""
    t = main_step(seat(hand=["K01"], etel=2, field=["C20"]), seat(hand=["K04", "K05"], etel=2, field=["C09"]))
    t.act(cast(0, opp(0)), PASS, cast(0, 0), PASS, activate(0, opp(0)), PASS, cast(1))
    assert [(it["kind"], it["card"], it["controller"]) for it in t.pos["stack"]] == [
        ("kotodama", "K01", 0), ("kotodama", "K04", 1), ("activated", "C20", 0), ("kotodama", "K05", 1)]
    assert t.to_play == 1
    t.passes()  # P1 passes, P0 passes: K05 resolves and removes C20's ability
    assert t.stack_cards() == ["K01", "K04"] and t.to_play == 0 and t.decision == "priority"
    assert t.slot(1, 0)["damage"] == 0
    t.passes()
    assert t.stack_cards() == ["K01"] and t.to_play == 0 and t.slot(1, 0)["karate_mod"] == 2
    t.passes()
    assert t.pos["stack"] == [] and t.to_play == 0
    assert t.field(1)[0] == "C09" and t.slot(1, 0)["damage"] == 2  # 2 < 4: alive
    assert t.grave(0) == ["K01"] and t.grave(1) == ["K04", "K05"]


def test_priority_goes_to_the_turn_player_after_resolution_on_the_non_turn_players_turn_too():
    """§2.6: after a resolution the TP (here P1) gets priority, whoever put the item on."""
    t = main_step(seat(hand=["K04"], field=["C01"]), seat(field=["C01"]), turn_player=1)
    assert t.to_play == 1
    t.act(PASS, cast(0, 0))  # P0 (the NTP) casts in P1's character step
    t.passes()
    assert t.pos["stack"] == [] and t.to_play == 1 and t.slot(0, 0)["karate_mod"] == 2


def test_a_target_replaced_by_a_new_character_in_its_slot_fizzles():
    """§2.6 targets re-checked on resolution: 'If a targeted instance has left the field ... the item does
    nothing'; a kotodama that does nothing still goes to オヒガン (§6.3.15). K01 aimed at C09 in slot 0; C09
    is destroyed, then an AMBUSH C25 takes slot 0 before K01 resolves: C25 takes nothing."""
    t = main_step(seat(hand=["K01", "K02", "K10"], etel=5), seat(field=["C09"], deck=["C25", "C01", "C01", "C01"]))
    t.act(cast(0, opp(0)), cast(1, opp(0))).passes()  # K02 destroys C09
    assert t.field(1)[0] is None and t.stack_cards() == ["K01"]
    t.act(cast(2)).passes()  # K10: P1 reveals C25 (AMBUSH) and C01
    assert [it["op"] for it in t.pos["stack"]] == ["DMG_CHAR", "AMBUSH"]
    t.passes()
    assert t.field(1)[0] == "C25"
    t.passes()
    assert t.pos["stack"] == [] and t.field(1)[0] == "C25" and t.slot(1, 0)["damage"] == 0
    assert sorted(t.grave(0)) == ["K01", "K02", "K10"]


def test_a_self_trigger_whose_source_left_fizzles():
    """§6.3.12 'A SELF ability whose source has left the field fizzles': C04 is destroyed above its own
    ON_AISATSU trigger; the trigger resolves doing nothing (no other character is pumped)."""
    t = Table(position(seat(field=["C04", "C01"]), seat(hand=["K01"], etel=1), "declare", "declare"))
    t.act(aisatsu(0), PASS, cast(0, opp(0))).passes()  # P1's K01 kills C04 (K1) above its trigger
    assert t.field(0)[0] is None and [it["card"] for it in t.pos["stack"]] == ["C04"]
    t.passes()
    assert t.pos["stack"] == [] and t.slot(0, 1)["karate_mod"] == 0


def test_entry_cannot_be_made_while_the_stack_is_non_empty():
    """§1.1 'Characters cannot be entered while the stack is non-empty'; §5.3 ENTER needs stack_len == 0."""
    t = main_step(seat(hand=["C01", "K04"], field=["C02"]), seat())
    t.act(cast(1, 0))
    t.assert_illegal(enter(0))
    t.passes()
    assert t.legal(enter(0))


def test_entry_on_the_stack_can_be_answered_and_resolves_into_the_field():
    """§2.6 an entry is a stack item; the opponent may respond (K01 kills C01) before it lands; the slot is
    chosen on resolution ('the lowest free field slot')."""
    t = main_step(seat(hand=["C09"], etel=1, field=["C01"]), seat(hand=["K01"], etel=1))
    t.act(enter(0), PASS, cast(0, opp(0)))
    assert [it["kind"] for it in t.pos["stack"]] == ["entry", "kotodama"]
    t.resolve_all()
    # K01 resolves first (LIFO) and frees slot 0, so the entry takes the lowest free slot, 0 (§2.6).
    assert t.field(0)[:2] == ["C09", None] and t.slot(0, 0)["entered"] and t.grave(0) == ["C01"]
