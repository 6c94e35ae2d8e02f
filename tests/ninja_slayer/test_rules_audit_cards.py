"""Rules audit: cards whose rows test_cards.py does not exercise (or only in part), each doing what its row of
the card table (§3.1) says."""
from __future__ import annotations

from tests.ninja_slayer.audit_helpers import (END_AISATSU, NO_INTERRUPT, Table, activate, aisatsu, ch, choose, enter,
                                              interrupt, opp, position, seat)


def declaring(p0: dict, p1: dict, **options) -> Table:
    return Table(position(p0, p1, "declare", "declare"), **options)


def test_c16_ambushes_and_interrupts_the_same_turn_taking_the_next_attack():
    """C16 'UKEMI INTERRUPT; UKEMI: put this card onto your field'; §6.3.8 an AMBUSH character 'may interrupt at
    once'; plain インターラプト taps. C02 (W1) reveals C16; then C06 (K6) is redirected onto it and kills it."""
    t = declaring(seat(field=["C02", "C06"]), seat(deck=["C16"] + ["C01"] * 5))
    t.act(aisatsu(0)).passes().passes()  # 6c: C16 revealed; AMBUSH resolves
    assert t.field(1)[0] == "C16" and t.dmg(1) == 0
    t.passes()
    assert t.decision == "declare"
    t.act(aisatsu(1)).passes()
    assert t.decision == "interrupt" and t.legal(interrupt(0))
    t.act(interrupt(0))
    assert t.slot(1, 0)["tapped"]
    t.passes()
    assert t.field(1)[0] is None and t.grave(1) == ["C16"] and t.dmg(1) == 0


def test_c10_wall_survives_c03_and_heals_at_cleanup():
    """C10 (K5 INTERRUPT) redirects C03's (K3) player attack; 3 < 5: survives (§2.3); damage gone at cleanup."""
    t = declaring(seat(field=["C03"]), seat(field=["C10"]))
    t.act(aisatsu(0)).passes().act(interrupt(0)).passes()
    assert t.field(1)[0] == "C10" and t.slot(1, 0)["damage"] == 3 and t.dmg(1) == 0
    t.passes().act(END_AISATSU).passes().passes()
    assert t.pos["turn_player"] == 1 and t.slot(1, 0)["damage"] == 0


def test_c32_costs_nothing_deals_no_player_damage_and_interrupts():
    """C32 (cost 0, K1 W0, UKEMI INTERRUPT): enters with no エテル; W0 on the player reveals nothing (§6.1.17)."""
    t = Table(position(seat(hand=["C32"]), seat(deck=["C02"] * 5), "character", "priority"))
    t.act(enter(0)).passes()
    assert t.field(0)[0] == "C32"
    t2 = declaring(seat(field=["C32"]), seat(deck=["C02"] * 5))
    t2.act(aisatsu(0)).passes()
    assert t2.dmg(1) == 0 and t2.deck(1) == ["C02"] * 5
    t3 = declaring(seat(field=["C01"]), seat(field=[ch("C32", entered=True)]))
    t3.act(aisatsu(0)).passes()
    assert t3.legal(interrupt(0))
    t3.act(interrupt(0)).passes()
    assert t3.field(1)[0] is None and t3.grave(1) == ["C32"]  # 1 ≥ 1


def test_c05_hayate_attacks_the_turn_it_entered_with_plus_one_kousaku():
    """C05 (K3 W2 HAYATE, ON_AISATSU +1 工作力): new and attacking, it deals 3 to the player."""
    t = declaring(seat(field=[ch("C05", entered=True)]), seat(deck=["C02"] * 6))
    t.act(aisatsu(0)).passes().passes()
    assert t.dmg(1) == 3


def test_c12_taps_an_interceptor_on_entry_so_the_attack_goes_through():
    """C12 'ON_ENTER: tap target opposing character'; a tapped plain interrupter cannot redirect (§2.8)."""
    t = Table(position(seat(hand=["C12"], etel=2, field=["C03"]), seat(field=["C09"], deck=["C02"] * 5),
                       "character", "priority"))
    t.act(enter(0)).passes().act(choose(opp(0))).passes()
    assert t.slot(1, 0)["tapped"]
    t.passes().passes()  # character step and イクサ start close
    assert t.decision == "declare"
    t.act(aisatsu(0)).passes()
    assert t.decision != "interrupt" and t.dmg(1) == 1


def test_c09_plain_interrupt_once_then_the_next_attack_goes_through():
    """C09 (K2 INTERRUPT): after redirecting (tapped, redirected) it cannot guard the second attack."""
    t = declaring(seat(field=["C01", "C01"]), seat(field=["C09"], deck=["C02"] * 6))
    t.act(aisatsu(0)).passes().act(interrupt(0)).passes()
    assert t.slot(1, 0)["damage"] == 1 and t.dmg(1) == 0
    t.passes().act(aisatsu(1)).passes()
    assert t.decision != "interrupt" and t.dmg(1) == 1


def test_c02_and_c01_stats():
    """C01 (K1 W1, cost 0) and C02 (K1 W1, cost 1, HAYATE): W1 to the player, K1 to a character."""
    t = declaring(seat(field=["C01", ch("C02", entered=True)]), seat(field=["C10"], deck=["C03"] * 6))
    t.act(aisatsu(0)).passes().act(NO_INTERRUPT).passes()
    assert t.dmg(1) == 1
    t.passes().act(aisatsu(1, 0)).passes()
    assert t.slot(1, 0)["damage"] == 1


def test_c13_activates_in_the_declaration_to_tap_an_interceptor_first():
    """C13 '[O]: tap target opposing character'; §5.3 ACTIVATE is legal in DECLARE; the tapped C09 then cannot
    interrupt (§2.8) and the other attacker's 工作力 reaches the player."""
    t = declaring(seat(field=["C13", "C01"]), seat(field=["C09"], deck=["C02"] * 5))
    assert t.legal(activate(0, opp(0)))
    t.act(activate(0, opp(0))).passes()
    assert t.decision == "declare" and t.slot(1, 0)["tapped"] and t.slot(0, 0)["tapped"]
    assert not t.legal(aisatsu(0))
    t.act(aisatsu(1)).passes()
    assert t.decision != "interrupt" and t.dmg(1) == 1
