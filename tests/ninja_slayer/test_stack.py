"""The stack: LIFO responses to responses, priority back to the turn player, COUNTER, fizzling."""
from __future__ import annotations

import numpy as np

from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.state import DECISION_DECLARE, DECISION_PRIORITY, PHASE_CHAR
from tests.ninja_slayer.helpers import PASS, cast, char, enter, load, passes, seat, step, table

K = {c: C.card_index(c) for c in ("K01", "K04", "K05", "K09", "K13", "C09", "C10", "C01")}


def _priority_table(p0_hand, p1_hand, p1_field=("C10",), p0_etel=6, p1_etel=6):
    pos = table(seat(hand=p0_hand, etel=p0_etel, field=[char("C01")]),
                seat(hand=p1_hand, etel=p1_etel, field=[char(c) for c in p1_field]),
                phase="character", decision="priority")
    return load(pos)


def test_responses_to_responses_resolve_last_in_first_out():
    # P0: K01 (2 damage) on P1's C10 (K5); P1 answers K04 (+2 K) on C10; P0 answers K13 (−2 K) on C10.
    # They resolve last in, first out: K13, K04, K01.
    g, st = _priority_table(["K01", "K13"], ["K04"])
    step(g, st, cast(0, 6))
    assert st.to_play[0] == 0  # the caster keeps priority
    step(g, st, PASS)
    step(g, st, cast(0, 0))  # P1: Kiai on its own slot 0
    assert st.to_play[0] == 1
    step(g, st, PASS)
    step(g, st, cast(1, 6))  # P0: Jakuten-zuki on C10
    assert list(st.stk_card[0, :3]) == [K["K01"], K["K04"], K["K13"]]
    seen = []
    while st.stk_len[0] > 0:
        passes(g, st)
        seen.append(int(st.last_resolved[0]))
        # After each resolution the turn player (P0) gets priority again.
        assert st.decision[0] == DECISION_PRIORITY and st.to_play[0] == 0
    assert seen == [K["K13"], K["K04"], K["K01"]]
    # C10: 5 − 2 + 2 = 5 カラテ with 2 damage: alive.
    assert st.fld_card[0, 1, 0] == K["C10"] and st.fld_dmg[0, 1, 0] == 2 and st.fld_kmod[0, 1, 0] == 0


def test_priority_returns_to_the_turn_player_after_the_non_turn_players_item_resolves():
    g, st = _priority_table([], ["K04"])
    step(g, st, PASS, cast(0, 0))  # P0 passes, P1 casts
    assert st.to_play[0] == 1
    passes(g, st)  # P1 passes, P0 passes: resolves
    assert st.stk_len[0] == 0 and st.to_play[0] == 0 and st.passes[0] == 0


def test_counter_cancels_the_item_beneath_it():
    g, st = _priority_table(["K01"], ["K05"])
    step(g, st, cast(0, 6), PASS, cast(0, 12))  # P0 K01 on C10; P1 Kaeshi-waza (COUNTER) on it
    assert st.stk_ref[0, 1] == 0
    passes(g, st)
    assert st.stk_len[0] == 0  # both gone: the counter removed K01 from the stack
    assert st.grave[0, 0, K["K01"]] == 1 and st.grave[0, 1, K["K05"]] == 1
    assert st.fld_dmg[0, 1, 0] == 0


def test_counter_on_a_character_entry_sends_the_card_to_ohigan_without_entering():
    g, st = _priority_table(["C09"], ["K05"])
    step(g, st, enter(0))
    assert st.etel_untapped[0, 0] == 5  # the cost stays paid
    step(g, st, PASS, cast(0, 12))
    passes(g, st)
    assert st.grave[0, 0, K["C09"]] == 1 and (st.fld_card[0, 0] != K["C09"]).all()


def test_counter_needs_a_non_empty_stack():
    g, st = _priority_table([], ["K05"])
    step(g, st, PASS)
    assert not g.legal_mask(st)[0, cast(0, 12)]


def test_a_target_that_left_play_makes_the_effect_fizzle():
    # P0 casts K01 on C10, then (keeping priority) bounces C10 with K09 on top: K09 resolves first,
    # K01 then finds its target gone and does nothing, but still goes to オヒガン.
    g, st = _priority_table(["K01", "K09"], [])
    step(g, st, cast(0, 6), cast(1, 6))
    passes(g, st)
    assert st.fld_card[0, 1, 0] == -1 and K["C10"] in st.hand[0, 1] and st.hand_known[0, 1].any()
    passes(g, st)
    assert st.last_resolved[0] == K["K01"] and st.grave[0, 0, K["K01"]] == 1
    assert (st.fld_dmg[0, 1] == 0).all()


def test_a_character_re_entered_in_the_same_slot_is_a_new_object():
    # K01 targets C09 in slot 0; a bounce removes it and a new C09 enters slot 0 before K01 resolves.
    pos = table(seat(hand=["K01", "K09"], etel=6, field=[char("C01")]),
                seat(hand=["C09"], etel=6, field=[char("C09")]), phase="character", decision="priority")
    g, st = load(pos)
    old = int(st.fld_obj[0, 1, 0])
    step(g, st, cast(0, 6), cast(1, 6))
    passes(g, st)  # bounce resolves
    st.fld_card[0, 1, 0] = K["C09"]  # a different C09 object takes the slot (as a fresh entry would)
    st.fld_obj[0, 1, 0] = old + 100
    passes(g, st)
    assert st.fld_dmg[0, 1, 0] == 0  # the new object is not the target


def test_characters_enter_only_in_the_character_step_with_an_empty_stack():
    g, st = _priority_table(["C09", "K04"], [])
    assert st.phase[0] == PHASE_CHAR and g.legal_mask(st)[0, enter(0)]
    step(g, st, cast(1, 0))
    assert not g.legal_mask(st)[0, enter(0)]


def test_voluntary_entries_stop_at_twelve_items():
    g, st = _priority_table(["K04"] * 2, [])
    st.stk_len[0] = 12  # twelve items already (contents irrelevant to the mask)
    st.stk_kind[0, :12] = 3
    assert not g.legal_mask(st)[0, 22:152].any()


def test_declare_returns_after_an_instant_in_the_declaration():
    pos = table(seat(hand=["K04"], etel=1, field=[char("C01")]), seat(field=[char("C10")]))
    g, st = load(pos)
    step(g, st, cast(0, 0))
    assert st.decision[0] == DECISION_PRIORITY
    passes(g, st)
    assert st.decision[0] == DECISION_DECLARE and np.asarray(st.fld_kmod)[0, 0, 0] == 2


def test_triggers_and_ukemi_beyond_sixteen_items_are_dropped():
    # 16 K10 (2 damage to P1) on the stack: the top resolves (15 left) and reveals two ウケミ cards;
    # the first revealed becomes the 16th item, the second would be the 17th and is dropped.
    k10 = {"kind": "kotodama", "card": "K10", "controller": 0, "op": "DMG_PLAYER", "arg": 2,
           "target_kind": "OPP_PLAYER"}
    pos = table(seat(deck=["C01"] * 10), seat(deck=["C25", "C27"] + ["C01"] * 10),
                phase="character", decision="priority", stack=[dict(k10) for _ in range(16)])
    g, st = load(pos)
    passes(g, st)
    assert st.stk_len[0] == 16
    assert st.stk_card[0, 15] == C.card_index("C25") and st.stk_op[0, 15] == C.OP_AMBUSH
    assert st.grave[0, 1, C.card_index("C27")] == 1 and st.dmg_up[0, 1] == 0
