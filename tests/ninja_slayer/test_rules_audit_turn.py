"""Rules audit: every step of the turn sequence (§2.7), limits (§2.9), illegal actions (§5.3)."""
from __future__ import annotations

import pytest

from tests.ninja_slayer.audit_helpers import (END_AISATSU, NO_INTERRUPT, PASS, SKIP_ETEL, Table, activate, aisatsu,
                                              cast, ch, choose, damaged, enter, etel_put, interrupt, opp, position,
                                              seat)


def test_cleanup_then_the_next_turn_step_by_step():
    """§2.7 8: cleanup removes damage, this-turn modifiers and granted keywords, clears entered/redirected on both
    sides, keeps tapped states (§6.3.19); the other player becomes TP, turn + 1; §2.7 1 untap only the TP's
    characters and エテル; 2 draw 2; 3 the ETEL decision then a window; 4 character step with ENTER; 5 イクサ
    start; 6a declare; 7 イクサ end; 8 end."""
    p0 = seat(field=[ch("C10", tapped=True, damage=2, karate_mod=1, entered=True, redirected=True, kaizen=True)],
              etel=3, untapped=0)
    p1 = seat(deck=["C02", "C03", "C04", "C05"], hand=["C09"],
              field=[ch("C10", tapped=True, damage=4, kousaku_mod=2, entered=True, redirected=True, kaizen=True)],
              etel=2, untapped=0)
    t = Table(position(p0, p1, "end", "priority", turn=5))
    t.passes()
    p = t.pos
    assert p["turn"] == 6 and p["turn_player"] == 1 and p["phase"] == "untap" and t.to_play == 1
    for s in (t.slot(0, 0), t.slot(1, 0)):
        assert s["damage"] == 0 and s["karate_mod"] == 0 and s["kousaku_mod"] == 0
        assert not s["entered"] and not s["redirected"] and not s["kaizen"]
    assert t.slot(0, 0)["tapped"] and not t.slot(1, 0)["tapped"]
    assert t.seat(1)["etel_untapped"] == 2 and t.seat(0)["etel_untapped"] == 0
    assert t.decision == "priority"  # the untap window (W)
    t.passes()
    assert t.phase == "draw" and t.hand(1)[:3] == ["C09", "C02", "C03"] and t.deck(1) == ["C04", "C05"]
    t.passes()
    assert t.phase == "etel" and t.decision == "etel" and t.to_play == 1
    t.assert_illegal(cast(0, 0))  # §6.1.14 nothing before the ETEL decision
    t.act(etel_put(1))
    s = t.seat(1)
    assert len(s["etel"]) == 3 and s["etel_untapped"] == 3 and t.hand(1)[1] is None
    assert t.phase == "etel" and t.decision == "priority"  # the ETEL window after the decision
    t.assert_illegal(etel_put(2))  # once per turn
    t.passes()
    assert t.phase == "character" and t.legal(enter(0))
    t.passes()
    assert t.phase == "ikusa_start" and t.decision == "priority"
    t.assert_illegal(enter(0))
    t.passes()
    assert t.decision == "declare" and t.to_play == 1
    t.act(END_AISATSU)
    assert t.phase == "ikusa_end" and t.decision == "priority" and t.to_play == 1
    t.passes()
    assert t.phase == "end" and t.decision == "priority"
    t.passes()
    assert t.pos["turn"] == 7 and t.pos["turn_player"] == 0 and t.phase == "untap"


@pytest.mark.parametrize("turn, tp, first, drawn", [(1, 0, 0, 1), (1, 1, 1, 1), (2, 1, 0, 2), (3, 0, 0, 2)])
def test_the_first_players_first_turn_draws_one_and_every_other_draws_two(turn, tp, first, drawn):
    """§2.7 2 / §1.1: the TP draws 2, or 1 on the first player's first turn."""
    seats = [seat(deck=["C02", "C03", "C04", "C05"], hand=["C01"] * 4) for _ in range(2)]
    t = Table(position(*seats, "untap", "priority", turn_player=tp, turn=turn, first_player=first))
    t.passes()
    assert t.phase == "draw"
    hand = [c for c in t.hand(tp) if c is not None]
    assert len(hand) == 4 + drawn and len(t.deck(tp)) == 4 - drawn
    assert len([c for c in t.hand(1 - tp) if c is not None]) == 4


def test_draw_step_into_a_full_hand_burns_the_card():
    """§2.7 2: 'A draw with 10 cards in hand sends the drawn card to オヒガン'."""
    t = Table(position(seat(deck=["C02", "C03", "C04"], hand=["C01"] * 10), seat(), "untap", "priority"))
    t.passes()
    assert t.hand(0) == ["C01"] * 10 and t.grave(0) == ["C02", "C03"] and t.deck(0) == ["C04"]


def test_draw_step_that_empties_the_deck_loses():
    """§2.9 deck-out by a draw; §1.1 'When a player's deck reaches 0 cards, that player loses at once'."""
    t = Table(position(seat(deck=["C02", "C03"]), seat(), "untap", "priority"))
    t.passes()
    p = t.pos
    assert p["terminated"] and p["winner"] == 1 and p["end_reason"] == "deck_out"


def test_skip_etel_keeps_the_hand():
    """§2.7 3 SKIP_ETEL; then the ETEL window."""
    t = Table(position(seat(hand=["C02"]), seat(), "etel", "etel"))
    t.act(SKIP_ETEL)
    assert t.hand(0)[0] == "C02" and t.seat(0)["etel"] == [] and t.decision == "priority" and t.phase == "etel"


def test_ikusa_start_window_then_declaration_and_end_aisatsu_goes_to_ikusa_end():
    """§2.7 5 (W) then 6a DECLARE; END_AISATSU goes to step 7."""
    t = Table(position(seat(field=["C01"]), seat(), "ikusa_start", "priority"))
    t.passes()
    assert t.decision == "declare" and t.phase == "declare"
    t.act(END_AISATSU)
    assert t.phase == "ikusa_end"


def test_6b_window_opens_after_an_asked_interrupt_and_6c_window_after_damage():
    """§2.7 6b (W) after the decision (either answer, §6.3.3); 6c damage then (W); then back to 6a."""
    t = Table(position(seat(field=["C01"], hand=["K04"]), seat(field=["C09"]), "declare", "declare"))
    t.act(aisatsu(0)).passes()
    assert t.phase == "interrupt" and t.decision == "interrupt"
    t.act(NO_INTERRUPT)
    assert t.phase == "interrupt" and t.decision == "priority" and t.to_play == 0
    t.passes()
    assert t.phase == "damage" and t.decision == "priority" and t.dmg(1) == 1
    t.passes()
    assert t.decision == "declare"


# ---- limits (§2.9) ---------------------------------------------------------------------------------------
def test_enter_is_illegal_with_a_full_field():
    """§2.9 'ENTER is masked when the field is full' (6 characters)."""
    t = Table(position(seat(hand=["C01"], field=["C01"] * 6), seat(), "character", "priority"))
    t.assert_illegal(enter(0))


def test_voluntary_items_stop_at_twelve_but_pass_stays_legal():
    """§6.1.20 / §5.3: voluntary entries are masked at stack_len ≥ 12; PASS is always legal with priority."""
    item = {"kind": "kotodama", "card": "K04", "controller": 0, "op": "BUFF_K", "arg": 2,
            "target_kind": "OWN_CHAR", "target": {"player": 0, "slot": 0}}
    t = Table(position(seat(hand=["K04", "C01"], etel=3, field=["C20"]), seat(), "character", "priority",
                       stack=[item] * 12))
    t.assert_illegal(cast(0, 0))
    t.assert_illegal(activate(0, 0))
    assert t.legal(PASS)
    t2 = Table(position(seat(hand=["K04"], etel=3, field=["C20"]), seat(), "character", "priority",
                        stack=[item] * 11))
    assert t2.legal(cast(0, 0)) and t2.legal(activate(0, 0))


# ---- costs (§2.4) ---------------------------------------------------------------------------------------
def test_entry_cost_is_paid_by_tapping_exactly_n_etel_on_entry():
    """§2.4: a cost N taps N untapped エテル, paid on entry before the item goes on the stack."""
    t = Table(position(seat(hand=["C05", "C01"], etel=4), seat(), "character", "priority"))
    t.act(enter(0))
    assert t.seat(0)["etel_untapped"] == 1 and len(t.seat(0)["etel"]) == 4 and t.stack_cards() == ["C05"]


def test_a_cost_that_cannot_be_paid_in_full_is_illegal():
    """§2.4 'A cost can only be entered if it can be paid in full': C05 (3) with 2 untapped of 5 エテル."""
    t = Table(position(seat(hand=["C05", "K02", "K04"], etel=5, untapped=2, field=["C20"]), seat(field=["C01"]),
                       "character", "priority"))
    t.assert_illegal(enter(0))
    assert t.legal(cast(1, opp(0))) and t.legal(cast(2, 0))
    t2 = Table(position(seat(hand=["K04"], field=["C20"]), seat(field=["C01"]), "character", "priority"))
    t2.assert_illegal(activate(0, opp(0)))  # E1 with no エテル
    assert t2.legal(cast(0, 0))  # cost 0


def test_jitsu_cost_turns_face_up_damage_face_down_and_needs_enough():
    """§2.4 J<n>: turn n face-up damage cards face down; face-down ones do not pay."""
    t = Table(position(seat(field=["C24"], **damaged(1, 3)), seat(), "character", "priority"))
    t.assert_illegal(activate(0))
    t = Table(position(seat(field=["C24"], **damaged(3, 0)), seat(), "character", "priority"))
    t.act(activate(0))
    assert t.seat(0)["damage_up"] == 1 and t.seat(0)["damage_down"] == 2


def test_o_cost_needs_the_character_untapped():
    """§2.4 O: 'It must be untapped.'"""
    t = Table(position(seat(field=[ch("C13", tapped=True)]), seat(field=["C01"]), "character", "priority"))
    t.assert_illegal(activate(0, opp(0)))


# ---- illegal actions (§5.3) raise IllegalActionError and leave the state unchanged --------------------
def test_illegal_actions_in_the_declaration():
    """§5.3 AISATSU: untapped, not new unless ハヤテ, the target slot occupied; PASS is not a DECLARE action."""
    t = Table(position(seat(field=[ch("C01", tapped=True), ch("C01", entered=True), "C01"], hand=["K05", "K01"],
                            etel=5),
                       seat(field=[None, "C01"]), "declare", "declare"))
    for a in (aisatsu(0), aisatsu(1), aisatsu(2, 0), aisatsu(3), PASS, SKIP_ETEL, enter(0), NO_INTERRUPT,
              interrupt(0), choose(6), cast(0), cast(1, 12), cast(1, opp(0)), cast(1, 2), cast(5, 12)):
        t.assert_illegal(a)
    assert t.legal(aisatsu(2, 1)) and t.legal(aisatsu(2)) and t.legal(END_AISATSU) and t.legal(cast(1, opp(1)))


def test_illegal_actions_for_the_non_turn_player_with_priority():
    """§5.3 ENTER only for the TP; §1.1 (1) only as TP in the character phase."""
    t = Table(position(seat(), seat(hand=["C01", "K04"], field=["C02"]), "character", "priority"))
    t.act(PASS)
    assert t.to_play == 1
    t.assert_illegal(enter(0))
    t.assert_illegal(END_AISATSU)
    assert t.legal(cast(1, 0))


def test_illegal_interrupts():
    """§5.3 INTERRUPT: occupied slot, not the current target, not redirected this turn, KAIZEN or untapped
    INTERRUPT; a character with no interrupt keyword cannot."""
    t = Table(position(seat(field=["C01"]), seat(field=["C09", ch("C11", redirected=True), "C01",
                                                          ch("C09", tapped=True), "C32"]),
                       "declare", "declare"))
    t.act(aisatsu(0, 0)).passes()
    assert t.decision == "interrupt"
    for a in (interrupt(0), interrupt(1), interrupt(2), interrupt(3), interrupt(5), PASS, choose(6)):
        t.assert_illegal(a)
    assert t.legal(interrupt(4)) and t.legal(NO_INTERRUPT)


def test_illegal_actions_of_each_decision_kind():
    """§5.3: ENTER needs a character card, CAST a kotodama, ETEL_PUT a hand card, ACTIVATE an ACTIVATED ability
    with a legal target; in ETEL, INTERRUPT and TARGET decisions only their own families are legal."""
    t = Table(position(seat(hand=["K04", "C01", None, "K05"], field=["C01", "C24", "C20"], etel=3, **damaged(2)),
                       seat(field=["C01"]), "character", "priority"))
    for a in (enter(0), cast(1, 12), cast(1, 0), cast(2, 0), etel_put(0), SKIP_ETEL, activate(0, 12),
              activate(1, opp(0)), activate(2, 12), activate(3, opp(0)), cast(3, 12), choose(6)):
        t.assert_illegal(a)
    assert t.legal(enter(1)) and t.legal(activate(1, 12)) and t.legal(activate(2, opp(0))) and t.legal(cast(0, 0))
    e = Table(position(seat(hand=["C01", None, "K04"], field=["C01"]), seat(), "etel", "etel"))
    for a in (PASS, etel_put(1), cast(2, 0), enter(0), END_AISATSU):
        e.assert_illegal(a)
    assert e.legal(etel_put(0)) and e.legal(etel_put(2)) and e.legal(SKIP_ETEL)
    i = Table(position(seat(field=["C01"]), seat(field=["C09", "C20"], hand=["K04"], etel=2), "declare", "declare"))
    i.act(aisatsu(0)).passes()
    assert i.decision == "interrupt"
    for a in (PASS, cast(0, 0), activate(1, opp(0)), END_AISATSU):
        i.assert_illegal(a)
    g = Table(position(seat(hand=["C17"], etel=1), seat(field=["C01"]), "character", "priority"))
    g.act(enter(0)).passes()
    assert g.decision == "target"
    for a in (PASS, choose(12), choose(0), choose(7), cast(0, opp(0))):
        g.assert_illegal(a)


def test_the_declaration_comes_back_after_both_players_items_resolve():
    """§2.7 6a: CAST in DECLARE keeps priority, normal priority play follows, and 'when the stack is empty
    again, the DECLARE decision comes back' (P1 answers with K13; both resolve LIFO)."""
    t = Table(position(seat(field=["C01"], hand=["K04"]), seat(hand=["K13"], etel=1), "declare", "declare"))
    t.act(cast(0, 0))
    assert t.decision == "priority" and t.to_play == 0
    t.act(PASS, cast(0, opp(0)))
    t.passes()
    assert t.stack_cards() == ["K04"] and t.decision == "priority" and t.to_play == 0
    assert t.slot(0, 0)["karate_mod"] == -2
    t.passes()
    assert t.pos["stack"] == [] and t.decision == "declare" and t.slot(0, 0)["karate_mod"] == 0


def test_raw_env_illegal_action_raises_and_changes_nothing():
    """Issue build item 2 / §5.3: an illegal action raises IllegalActionError in the raw AEC env, state untouched."""
    import numpy as np

    from yuugi.envs import ninja_slayer_v0
    from yuugi.envs.core.errors import IllegalActionError

    env = ninja_slayer_v0.raw_env()
    env.reset(seed=3)
    agent = env.agent_selection
    obs = env.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    after = env.observe(agent)
    assert env.agent_selection == agent
    assert np.array_equal(after["observation"], obs["observation"])
    assert np.array_equal(after["action_mask"], obs["action_mask"])


def test_cleanup_ending_a_pump_does_not_kill_a_damaged_character():
    """§2.7 8 cleanup removes damage and ends modifiers together, with no rule check in between (the rule check
    runs after resolutions, damage events and cost payments, §2.6): C10 at K5+2 with 6 damage survives."""
    t = Table(position(seat(), seat(field=[ch("C10", damage=6, karate_mod=2)]), "end", "priority"))
    t.passes()
    s = t.slot(1, 0)
    assert s is not None and s["card"] == "C10" and s["damage"] == 0 and s["karate_mod"] == 0


def test_the_non_turn_player_acts_in_the_untap_window_after_the_turn_player_passes():
    """§2.7 1 (W): the TP gets priority first, then the NTP may cast (instant speed, §1.1): P1 taps P0's freshly
    untapped C03 with K06, so C03 cannot アイサツ this turn."""
    t = Table(position(seat(field=[ch("C03", tapped=True)], deck=["C02"] * 5),
                       seat(hand=["K06"], etel=1), "end", "priority", turn_player=1))
    t.passes()  # P1's end: cleanup; P0's untap step
    assert t.pos["turn_player"] == 0 and t.phase == "untap" and t.to_play == 0 and not t.slot(0, 0)["tapped"]
    t.act(PASS)
    assert t.to_play == 1
    t.act(cast(0, opp(0))).passes()
    assert t.slot(0, 0)["tapped"] and t.phase == "untap" and t.to_play == 0
