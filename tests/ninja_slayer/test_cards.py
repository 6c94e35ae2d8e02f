"""Every trigger, opcode and activated ability of the pool, on small tables."""
from __future__ import annotations

import pytest

from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.state import DECISION_TARGET, PHASE_IKUSA_START, PHASE_UNTAP
from tests.ninja_slayer.helpers import (activate, aisatsu, cast, char, choose, deck_len, enter, load, passes, seat,
                                        step, table)

ID = {c: i for i, c in enumerate(C.CODES)}


def _main(p0_hand=(), p1_field=("C10",), p0_field=("C01",), p0_etel=8, p0=None, p1=None, **opts):
    """P0 holds priority in its character step with エテル to spare; P1 has C10 (K5) by default."""
    pos = table(seat(hand=p0_hand, etel=p0_etel, field=[char(c) if isinstance(c, str) else c for c in p0_field],
                     **(p0 or {})),
                seat(field=[char(c) if isinstance(c, str) else c for c in p1_field], **(p1 or {})),
                phase="character", decision="priority")
    return load(pos, **opts)


def _resolve_all(g, st):
    while st.stk_len[0] > 0 and not st.done[0]:
        passes(g, st)


# ---- ON_ENTER ------------------------------------------------------------------------------------
@pytest.mark.parametrize("code, check", [
    ("C12", lambda st: st.fld_tap[0, 1, 0]),
    ("C15", lambda st: st.fld_card[0, 1, 0] == -1 and ID["C10"] in st.hand[0, 1]),
    ("C17", lambda st: st.fld_dmg[0, 1, 0] == 1),
    ("C23", lambda st: st.fld_dmg[0, 1, 0] == 2),
    ("C31", lambda st: st.fld_dmg[0, 1, 0] == 3),
])
def test_on_enter_with_a_chosen_opposing_target(code, check):
    g, st = _main([code])
    step(g, st, enter(0))
    passes(g, st)  # the entry resolves; the trigger asks its controller for a target
    assert st.fld_card[0, 0, 1] == ID[code] and st.fld_entered[0, 0, 1]
    assert st.decision[0] == DECISION_TARGET and st.to_play[0] == 0
    m = g.legal_mask(st)[0]
    assert m[choose(6)] and not m[choose(7)] and not m[choose(0)]  # only the opposing C10
    step(g, st, choose(6))
    _resolve_all(g, st)
    assert check(st)


def test_on_enter_without_a_legal_target_is_skipped():
    g, st = _main(["C12"], p1_field=())
    step(g, st, enter(0))
    passes(g, st)
    assert st.stk_len[0] == 0 and st.decision[0] != DECISION_TARGET


@pytest.mark.parametrize("code, check", [
    ("C18", lambda st: st.dmg_up[0, 1] == 1),
    ("C26", lambda st: (st.hand[0, 0] >= 0).sum() == 1 and deck_len(st, 0) == 19),
    ("C29", lambda st: st.etel_total[0, 0] == 9 and st.etel_untapped[0, 0] == 6 and deck_len(st, 0) == 19),
])
def test_on_enter_without_a_choice(code, check):
    g, st = _main([code])
    step(g, st, enter(0))
    _resolve_all(g, st)
    assert check(st)


# ---- kotodama: one per opcode ----------------------------------------------------------------------
@pytest.mark.parametrize("code, t, p1_field, check", [
    ("K01", 6, ("C10",), lambda st: st.fld_dmg[0, 1, 0] == 2),
    ("K02", 6, ("C09",), lambda st: st.fld_card[0, 1, 0] == -1 and st.grave[0, 1, ID["C09"]] == 1),
    ("K02", 6, ("C10",), lambda st: st.fld_card[0, 1, 0] == ID["C10"]),  # K5 > 3: nothing
    ("K03", 12, ("C09", "C10"), lambda st: st.fld_card[0, 1, 0] == -1 and st.fld_dmg[0, 1, 1] == 2),
    ("K04", 0, ("C10",), lambda st: st.fld_kmod[0, 0, 0] == 2),
    ("K06", 6, ("C10",), lambda st: st.fld_tap[0, 1, 0]),
    ("K08", 0, ("C10",), lambda st: st.fld_kz[0, 0, 0]),
    ("K09", 6, ("C10",), lambda st: st.fld_card[0, 1, 0] == -1 and st.hand_known[0, 1, 0]),
    ("K10", 12, ("C10",), lambda st: st.dmg_up[0, 1] == 2),
    ("K11", 12, ("C10",), lambda st: (st.hand[0, 0] >= 0).sum() == 2),
    ("K12", 12, ("C10",), lambda st: st.etel_total[0, 0] == 9),
    ("K13", 6, ({"card": "C10", "damage": 3},), lambda st: st.fld_card[0, 1, 0] == -1),  # K5−2 = 3 ≤ 3 damage
    ("K15", 6, ({"card": "C10", "karate_mod": 4},), lambda st: st.fld_card[0, 1, 0] == -1),  # K9 ≤ 9
    ("K15", 6, ({"card": "C10", "karate_mod": 5},), lambda st: st.fld_card[0, 1, 0] == ID["C10"]),  # K10
    ("K16", 12, ("C10",), lambda st: st.fld_wmod[0, 0, 0] == 2 and st.fld_wmod[0, 1, 0] == 0),
])
def test_kotodama(code, t, p1_field, check):
    g, st = _main([code], p1_field=p1_field)
    assert g.legal_mask(st)[0, cast(0, t)]
    step(g, st, cast(0, t))
    assert st.etel_untapped[0, 0] == 8 - C.COST[ID[code]]
    _resolve_all(g, st)
    assert check(st)
    assert st.grave[0, 0, ID[code]] == 1  # kotodama go to オヒガン after resolving


def test_untap_lets_a_character_attack_again():
    pos = table(seat(hand=["K07"], etel=2, field=[char("C01", tapped=True)]), seat(field=[]))
    g, st = load(pos)
    assert not g.legal_mask(st)[0, aisatsu(0, 6)]
    step(g, st, cast(0, 0))
    passes(g, st)
    assert g.legal_mask(st)[0, aisatsu(0, 6)]


def test_heal_takes_face_down_cards_first():
    g, st = _main(["K14"], p0={"damage_up": 2, "damage_down": 1, "damage_seen": ["C01"] * 3})
    step(g, st, cast(0, 12))
    _resolve_all(g, st)
    assert st.dmg_down[0, 0] == 0 and st.dmg_up[0, 0] == 1 and st.grave_anon[0, 0] == 2


def test_mask_useless_prunes_empty_all_effects_and_heal_without_damage():
    g, st = _main(["K03", "K14"], p1_field=())
    m = g.legal_mask(st)[0]
    assert m[cast(0, 12)] and m[cast(1, 12)]  # faithful default: legal even though useless
    g, st = _main(["K03", "K14"], p1_field=(), mask_useless=True)
    m = g.legal_mask(st)[0]
    assert not m[cast(0, 12)] and not m[cast(1, 12)]


# ---- activated abilities ---------------------------------------------------------------------------
def test_c13_taps_itself_to_tap_an_opposing_character():
    g, st = _main(p0_field=("C13",))
    step(g, st, activate(0, 6))
    assert st.fld_tap[0, 0, 0]
    assert not g.legal_mask(st)[0, activate(0, 6)]  # O needs it untapped
    _resolve_all(g, st)
    assert st.fld_tap[0, 1, 0]


def test_c20_pays_one_etel_and_may_hit_any_character():
    g, st = _main(p0_field=("C20",), p0_etel=1)
    m = g.legal_mask(st)[0]
    assert m[activate(0, 0)] and m[activate(0, 6)] and not m[activate(0, 12)]
    step(g, st, activate(0, 6))
    assert st.etel_untapped[0, 0] == 0 and not g.legal_mask(st)[0, activate(0, 6)]
    _resolve_all(g, st)
    assert st.fld_dmg[0, 1, 0] == 1


def test_c24_jitsu_turns_two_damage_cards_face_down():
    g, st = _main(p0_field=("C24",), p0={"damage_up": 1, "damage_seen": ["C01"]})
    assert not g.legal_mask(st)[0, activate(0, 12)]  # J2 needs 2 face-up damage cards
    g, st = _main(p0_field=("C24",), p0={"damage_up": 2, "damage_seen": ["C01"] * 2})
    step(g, st, activate(0, 12))
    assert st.dmg_up[0, 0] == 0 and st.dmg_down[0, 0] == 2
    _resolve_all(g, st)
    assert st.dmg_up[0, 1] == 2


# ---- step triggers ---------------------------------------------------------------------------------
def test_ikusa_start_c06_pumps_every_own_character():
    g, st = _main(p0_field=("C06", "C01"))
    passes(g, st)  # the character step closes
    assert st.phase[0] == PHASE_IKUSA_START and st.stk_len[0] == 1
    passes(g, st)
    assert st.fld_wmod[0, 0, :2].tolist() == [1, 1] and st.fld_wmod[0, 1, 0] == 0


def test_on_aisatsu_c05_pumps_its_own_kousaku():
    pos = table(seat(field=[char("C05")]), seat(field=[]))
    g, st = load(pos)
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    passes(g, st)
    assert st.dmg_up[0, 1] == 3  # W2 + 1


def test_turn_start_c30_heals_its_controller_at_its_own_turn_start():
    pos = table(seat(field=[]), seat(field=[char("C30")], damage_up=1, damage_down=1, damage_seen=["C01"] * 2),
                phase="end", decision="priority")
    g, st = load(pos)
    passes(g, st)  # P0's end phase closes; cleanup; P1's untap step: C30's trigger goes on the stack
    assert st.phase[0] == PHASE_UNTAP and st.tp[0] == 1 and st.stk_len[0] == 1
    passes(g, st)
    assert st.dmg_down[0, 1] == 0 and st.dmg_up[0, 1] == 1


def test_turn_start_triggers_only_on_their_controllers_turn():
    pos = table(seat(field=[char("C30")], damage_up=1, damage_seen=["C01"]), seat(field=[]),
                phase="end", decision="priority")
    g, st = load(pos)
    passes(g, st)
    assert st.tp[0] == 1 and st.stk_len[0] == 0


@pytest.mark.parametrize("code", ["C07", "C16", "C25", "C28", "C23", "C31"])
def test_every_ambush_card_enters_from_a_reveal(code):
    pos = table(seat(field=[char("C01")]), seat(deck=[code] + ["C01"] * 5, field=[]))
    g, st = load(pos)
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    assert st.stk_op[0, 0] == C.OP_AMBUSH
    passes(g, st)
    assert st.fld_card[0, 1, 0] == ID[code]


@pytest.mark.parametrize("code, check", [
    ("C27", lambda st: (st.hand[0, 1] >= 0).sum() == 1),
    ("C32", lambda st: (st.hand[0, 1] >= 0).sum() == 1),
    ("K08", lambda st: (st.hand[0, 1] >= 0).sum() == 1),
    ("K11", lambda st: (st.hand[0, 1] >= 0).sum() == 1),
    ("K12", lambda st: st.etel_total[0, 1] == 1),
    ("K10", lambda st: st.dmg_up[0, 0] == 1),
    ("K14", lambda st: st.dmg_up[0, 1] == 0 and st.grave_anon[0, 1] == 1),
    ("K15", lambda st: st.fld_card[0, 0, 0] == -1),
])
def test_ukemi_effects(code, check):
    p1 = {"damage_up": 1, "damage_seen": ["C01"]} if code == "K14" else {}
    pos = table(seat(field=[char("C01")]), seat(deck=[code] + ["C01"] * 5, field=[], **p1))
    g, st = load(pos)
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    _resolve_all(g, st)
    assert check(st)
