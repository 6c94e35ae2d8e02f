"""Damage to a player: one card per point, ウケミ in the middle, deck-out and the 10th damage."""
from __future__ import annotations

from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.state import END_DAMAGE, END_DECKOUT
from tests.ninja_slayer.helpers import aisatsu, cast, char, deck_len, load, passes, seat, step, table

ID = {c: C.card_index(c) for c in ("C01", "C06", "C14", "C22", "C25", "C27", "K10", "K15")}


def _hit_player(p1_deck, attacker="C06", p1=None, **opts):
    """P0's attacker (C06: K6 W3 by default) hits P1 for its 工作力, nobody can interrupt."""
    p1 = p1 or {}
    pos = table(seat(field=[char(attacker)]), seat(deck=p1_deck, **p1))
    g, st = load(pos, **opts)
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    return g, st


def test_ukemi_in_the_middle_of_multi_point_damage_then_the_next_point_continues():
    g, st = _hit_player(["C01", "C25", "C01", "C01"])
    # Points: C01 → damage zone, C25 → nullified (AMBUSH pending), C01 → damage zone.
    assert st.dmg_up[0, 1] == 2 and deck_len(st, 1) == 1
    assert st.grave[0, 1, ID["C25"]] == 1 and st.stk_len[0] == 1 and st.stk_op[0, 0] == C.OP_AMBUSH
    passes(g, st)
    assert st.fld_card[0, 1, 0] == ID["C25"] and st.fld_entered[0, 1, 0]


def test_ukemi_effects_go_on_in_reveal_order_the_first_resolving_last():
    g, st = _hit_player(["C27", "C25", "C01", "C01"])
    assert [int(c) for c in st.stk_card[0, :2]] == [ID["C27"], ID["C25"]]
    passes(g, st)
    assert st.last_resolved[0] == ID["C25"]


def test_ukemi_nullifies_event_cancels_the_rest_of_the_damage():
    g, st = _hit_player(["C01", "C25", "C01", "C01"], ukemi_nullifies="event")
    assert st.dmg_up[0, 1] == 1 and deck_len(st, 1) == 2


def test_deck_out_in_the_middle_of_damage_loses_at_once():
    g, st = _hit_player(["C01", "C01"])
    assert st.terminated[0] and st.winner[0] == 0 and st.end_reason[0] == END_DECKOUT
    assert st.dmg_up[0, 1] == 2 and st.rewards[0].tolist() == [1.0, -1.0]


def test_a_ukemi_card_that_empties_the_deck_still_loses_and_its_effect_is_discarded():
    g, st = _hit_player(["C01", "C25"])
    assert st.terminated[0] and st.winner[0] == 0 and st.end_reason[0] == END_DECKOUT
    assert st.stk_len[0] == 0 and (st.fld_card[0, 1] == -1).all()


def test_tenth_damage_and_an_empty_deck_at_once_the_tenth_damage_decides():
    g, st = _hit_player(["C01"], attacker="C01", p1={"damage_up": 9, "damage_seen": ["C01"] * 9})
    assert st.terminated[0] and st.winner[0] == 0 and st.end_reason[0] == END_DAMAGE


def test_tenth_damage_in_the_middle_discards_the_remaining_points_and_pending_ukemi():
    g, st = _hit_player(["C25", "C01", "C01"], p1={"damage_up": 9, "damage_seen": ["C01"] * 9})
    assert st.terminated[0] and st.end_reason[0] == END_DAMAGE
    assert deck_len(st, 1) == 1 and st.stk_len[0] == 0


def test_draw_from_empty_reaching_zero_is_harmless_and_revealing_from_empty_loses():
    g, st = _hit_player(["C01", "C01"], deckout_rule="draw_from_empty")
    assert st.terminated[0] and st.end_reason[0] == END_DECKOUT and st.dmg_up[0, 1] == 2
    g, st = _hit_player(["C01", "C01", "C01"], deckout_rule="draw_from_empty")
    assert not st.done[0] and st.dmg_up[0, 1] == 3


def test_ukemi_source_hits_the_attacker():
    # C14's ウケミ: 2 damage to the damage source character (the attacker C01, K1): destroyed.
    g, st = _hit_player(["C14", "C01", "C01", "C01"], attacker="C01")
    assert st.stk_len[0] == 1 and st.stk_tgt_slot[0, 0] == 0 and st.stk_tgt_player[0, 0] == 0
    passes(g, st)
    assert st.fld_card[0, 0, 0] == -1 and st.grave[0, 0, ID["C01"]] == 1


def test_ukemi_source_from_kotodama_damage_does_nothing():
    pos = table(seat(hand=["K10"], etel=2, field=[]), seat(deck=["C14", "K15"] + ["C01"] * 5, field=[char("C01")]),
                phase="character", decision="priority")
    g, st = load(pos)
    step(g, st, cast(0, 12))
    passes(g, st)  # K10: 2 damage to P1: C14 and K15 both ウケミ with SOURCE: no source, both fizzle
    assert st.stk_len[0] == 2 and (st.stk_tgt_slot[0, :2] == -1).all()
    passes(g, st)
    passes(g, st)
    assert st.dmg_up[0, 1] == 0 and st.fld_card[0, 1, 0] == ID["C01"] and st.grave[0, 1, ID["K15"]] == 1


def test_ukemi_dmg_player_hits_the_attacker_side():
    g, st = _hit_player(["C22", "C01", "C01", "C01"])
    passes(g, st)  # C22's ウケミ: 1 damage to P0
    assert st.dmg_up[0, 0] == 1 and st.dmg_up[0, 1] == 2
