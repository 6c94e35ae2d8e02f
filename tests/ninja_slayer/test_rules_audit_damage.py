"""Rules audit: damage to a player point by point and ウケミ (§2.5), deck-out and the 10th damage (§6.1.8,
§6.3.10), outcomes from the rules."""
from __future__ import annotations

from tests.ninja_slayer.audit_helpers import Table, activate, aisatsu, cast, ch, damaged, opp, position, seat


def hit_player(attacker: str, p1: dict, p0_extra: dict | None = None, **options) -> Table:
    """P0's attacker (not new) declares an アイサツ on P1; P1 has no interceptor; the 6a window closes."""
    t = Table(position(seat(field=[attacker], **(p0_extra or {})), p1, "declare", "declare"), **options)
    return t.act(aisatsu(0)).passes()


def test_ambush_revealed_mid_damage_waits_for_the_remaining_points_then_enters():
    """§2.5: point by point; a ウケミ card nullifies its point, goes to オヒガン, its effect pending; the next point
    continues; after all points the effect goes on the stack; AMBUSH puts the character on the field (lowest
    free slot, untapped) and §6.3.8 marks it entered this turn. C06 (W3) vs deck C01, C07, C02, C03."""
    t = hit_player("C06", seat(deck=["C01", "C07", "C02", "C03"]))
    s = t.seat(1)
    assert s["damage_up"] == 2 and sorted(s["damage_seen"]) == ["C01", "C02"] and t.deck(1) == ["C03"]
    assert t.grave(1) == ["C07"] and t.field(1) == [None] * 6
    assert [(it["kind"], it["op"], it["controller"]) for it in t.pos["stack"]] == [("ukemi", "AMBUSH", 1)]
    t.passes()
    c = t.slot(1, 0)
    assert c["card"] == "C07" and not c["tapped"] and c["entered"] and t.grave(1) == []


def test_two_ukemi_in_one_event_go_on_in_reveal_order_first_revealed_resolving_last():
    """§2.5 'the first revealed goes on first and therefore resolves last' (C27 draw, then C25 AMBUSH)."""
    t = hit_player("C06", seat(deck=["C27", "C01", "C25", "C02", "C03"]))
    assert [it["card"] for it in t.pos["stack"]] == ["C27", "C25"]
    assert t.dmg(1) == 1
    t.passes()
    assert t.field(1)[0] == "C25" and t.hand(1)[0] is None
    t.passes()
    assert t.hand(1)[0] == "C02" and t.deck(1) == ["C03"]


def test_deck_out_in_the_middle_of_damage_loses_at_once():
    """§2.5 step 4 / §2.9: the deck reaching 0 during damage loses at once; the remaining point is not dealt."""
    t = hit_player("C06", seat(deck=["C01", "C02"]))
    p = t.pos
    assert p["terminated"] and p["winner"] == 0 and p["end_reason"] == "deck_out"
    assert p["players"][1]["damage_up"] == 2


def test_a_ukemi_reveal_that_empties_the_deck_loses_and_its_effect_is_discarded():
    """§6.3.10 '... even if the revealed card had ウケミ (its effect is discarded)'."""
    t = hit_player("C06", seat(deck=["C02", "C25"]))
    p = t.pos
    assert p["terminated"] and p["winner"] == 0 and p["end_reason"] == "deck_out"
    assert p["stack"] == [] and t.field(1) == [None] * 6


def test_tenth_damage_and_empty_deck_at_once_the_tenth_damage_decides():
    """§6.3.10 'When the 10th damage and an empty deck coincide, the 10th damage decides.'"""
    t = hit_player("C01", seat(deck=["C02"], **damaged(9)))
    p = t.pos
    assert p["terminated"] and p["winner"] == 0 and p["end_reason"] == "damage"


def test_face_down_damage_counts_towards_ten():
    """§2.4 ジツ: 'Face-down cards still count towards the 10-damage loss'; §2.5 step 3 (up + down)."""
    t = hit_player("C01", seat(deck=["C02", "C03"], **damaged(4, 5)))
    p = t.pos
    assert p["terminated"] and p["winner"] == 0 and p["end_reason"] == "damage"


def test_tenth_damage_mid_event_discards_remaining_points_and_pending_ukemi():
    """§6.1.8: the 10th damage card ends the game at once; remaining points and pending ウケミ are discarded."""
    t = hit_player("C06", seat(deck=["C25", "C01", "C02", "C03", "C04"], **damaged(9)))
    p = t.pos
    assert p["terminated"] and p["winner"] == 0 and p["end_reason"] == "damage"
    assert t.deck(1) == ["C02", "C03", "C04"] and p["stack"] == [] and t.field(1) == [None] * 6


def test_ninth_damage_does_not_end_the_game():
    """§2.5 step 3: the loss is at 10, not before."""
    t = hit_player("C01", seat(deck=["C02", "C03"], **damaged(8)))
    assert not t.over and t.dmg(1) == 9


def test_ukemi_chain_across_players():
    """§2.5: C22's ウケミ (1 damage to its opponent) reveals P0's C25, whose AMBUSH P0 controls (§6.1.19)."""
    t = hit_player("C01", seat(deck=["C22", "C01", "C01"]), p0_extra={"deck": ["C25", "C05", "C05"]})
    assert t.dmg(1) == 0
    t.passes()  # C22's effect resolves: P0 reveals C25 (nullified)
    assert t.dmg(0) == 0 and [(it["op"], it["controller"]) for it in t.pos["stack"]] == [("AMBUSH", 0)]
    t.passes()
    assert t.field(0)[1] == "C25" and t.slot(0, 1)["entered"]


def test_ukemi_source_of_an_activated_ability_is_its_character():
    """§6.3.9 SOURCE for activated abilities is the source character: C24's ジツ damage reveals C14 (2 damage
    to the source); C24 (K3) survives with 2 damage."""
    t = Table(position(seat(field=["C24"], **damaged(2)), seat(deck=["C14", "C01", "C01", "C01"]),
                       "character", "priority"))
    t.act(activate(0)).passes()
    assert [(it["op"], it["target_kind"]) for it in t.pos["stack"]] == [("DMG_CHAR", "SOURCE")]
    t.passes()
    assert t.slot(0, 0)["damage"] == 2 and t.dmg(1) == 1


def test_ukemi_source_that_left_the_field_does_nothing():
    """§2.5 'If SOURCE is no longer on the field, the effect does nothing': C19 (destroyed) hits P0, who
    reveals C14; the C14 effect fizzles and P1's other character is untouched."""
    t = Table(position(seat(hand=["K02"], etel=2, deck=["C14", "C05", "C05"]), seat(field=["C19", "C10"]),
                       "character", "priority"))
    t.act(cast(0, opp(0))).resolve_all()
    assert t.grave(0) == ["C14", "K02"] and t.dmg(0) == 0
    assert t.slot(1, 1)["damage"] == 0 and t.field(1)[0] is None


def test_ukemi_from_kotodama_damage_has_no_source():
    """§6.3.9 SOURCE is nothing for kotodama damage: K10 reveals K15 (destroy SOURCE); nothing is destroyed."""
    t = Table(position(seat(hand=["K10"], etel=2, field=["C01"]), seat(deck=["K15", "C01", "C01"]),
                       "character", "priority"))
    t.act(cast(0)).resolve_all()
    assert t.field(0)[0] == "C01" and t.grave(1) == ["K15"] and t.dmg(1) == 1


def test_draw_from_empty_reaching_zero_by_damage_is_harmless():
    """§6.3.10 draw_from_empty: 'reaching 0 cards is harmless'."""
    t = hit_player("C01", seat(deck=["C02"]), deckout_rule="draw_from_empty")
    assert not t.over and t.deck(1) == [] and t.dmg(1) == 1


def test_ukemi_source_from_ukemi_damage_is_nothing():
    """§6.3.9 SOURCE is nothing for ウケミ damage: P1's C22 ウケミ hits P0, who reveals C14 (2 damage to SOURCE);
    no character is damaged, neither P0's attacker nor P1's C01."""
    t = hit_player("C03", seat(deck=["C22", "C02", "C02"], field=[ch("C01", tapped=True)]),
                   p0_extra={"deck": ["C14", "C05", "C05"]})
    t.passes()  # C22's effect: P0 reveals C14
    assert [(it["op"], it["controller"]) for it in t.pos["stack"]] == [("DMG_CHAR", 0)]
    t.passes()
    assert t.slot(0, 0)["damage"] == 0 and t.slot(1, 0)["damage"] == 0 and t.field(1)[0] == "C01"
    assert t.pos["stack"] == []
