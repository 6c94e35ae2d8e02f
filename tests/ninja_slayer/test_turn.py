"""The turn: set-up, the steps and their windows (both knobs), cleanup, the safety truncation."""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.sampling import random_legal

from yuugi.envs.ninja_slayer.state import (DECISION_DECLARE, DECISION_ETEL, DECISION_PRIORITY, END_TRUNCATED, PHASE_CHAR,
                                     PHASE_DRAW, PHASE_END, PHASE_ETEL, PHASE_IKUSA_END, PHASE_IKUSA_START,
                                     PHASE_UNTAP)
from tests.ninja_slayer.helpers import END_AISATSU, PASS, SKIP_ETEL, char, etel_put, game, load, passes, seat, step, \
    table


def test_setup_hands_of_four_and_the_first_player_draws_one():
    g = game(auto_pass_forced=False)
    st = g.init(np.arange(64))
    # Each game starts at the first player's untap window, after 4 cards each.
    assert (st.phase == PHASE_UNTAP).all() and (st.to_play == st.first).all() and (st.turn == 1).all()
    assert ((st.hand >= 0).sum(axis=2) == 4).all()
    g.step(st, np.zeros(64, int))  # TP passes
    g.step(st, np.zeros(64, int))  # NTP passes: the draw step
    assert (st.phase == PHASE_DRAW).all()
    rows = np.arange(64)
    assert ((st.hand[rows, st.first] >= 0).sum(axis=1) == 5).all()  # draws 1 on the very first turn
    assert ((st.hand[rows, 1 - st.first] >= 0).sum(axis=1) == 4).all()


def test_first_player_is_random_and_decks_differ_per_seed():
    st = game().init(np.arange(200))
    assert 60 < st.first.sum() < 140
    assert len({tuple(d) for d in st.deck[:, 0, :10].tolist()}) > 150


def test_the_steps_in_order_with_every_window():
    g = game(auto_pass_forced=False)
    st = g.init(np.array([3]))
    seen = []

    def note():
        seen.append((int(st.phase[0]), int(st.decision[0])))

    note()
    passes(g, st)
    note()
    passes(g, st)  # draw window closes
    note()
    assert st.decision[0] == DECISION_ETEL  # the etel decision comes before the etel window
    step(g, st, SKIP_ETEL)
    note()
    passes(g, st)
    note()
    passes(g, st)
    note()
    passes(g, st)
    note()
    assert st.decision[0] == DECISION_DECLARE
    step(g, st, END_AISATSU)
    note()
    passes(g, st)
    note()
    tp = int(st.tp[0])
    passes(g, st)  # end window closes: cleanup, the other player's untap step
    assert st.tp[0] == 1 - tp and st.turn[0] == 2 and st.phase[0] == PHASE_UNTAP
    assert [p for p, _ in seen] == [PHASE_UNTAP, PHASE_DRAW, PHASE_ETEL, PHASE_ETEL, PHASE_CHAR, PHASE_IKUSA_START,
                                     5, PHASE_IKUSA_END, PHASE_END]


def test_compact_windows_skip_the_empty_steps():
    g = game(auto_pass_forced=False, priority_windows="compact")
    st = g.init(np.array([3]))
    assert st.decision[0] == DECISION_ETEL  # no untap / draw windows with an empty stack
    step(g, st, SKIP_ETEL)
    assert st.phase[0] == PHASE_CHAR and st.decision[0] == DECISION_PRIORITY
    passes(g, st)
    assert st.decision[0] == DECISION_DECLARE  # no ikusa-start window
    step(g, st, END_AISATSU)
    assert st.phase[0] == PHASE_END


def test_etel_put_moves_the_card_untapped():
    g = game(auto_pass_forced=False, priority_windows="compact")
    st = g.init(np.array([5]))
    me = int(st.tp[0])
    card = int(st.hand[0, me, 0])
    step(g, st, etel_put(0))
    assert st.hand[0, me, 0] == -1 and st.etel_count[0, me, card] == 1 and st.etel_untapped[0, me] == 1


def test_cleanup_clears_damage_and_modifiers_on_both_sides_and_keeps_tapped_states():
    pos = table(seat(field=[char("C10", damage=2, karate_mod=1, tapped=True, entered=True)]),
                seat(field=[char("C10", damage=1, kousaku_mod=2, redirected=True, kaizen=True)]),
                phase="end", decision="priority")
    g, st = load(pos)
    passes(g, st)
    assert (st.fld_dmg[0] == 0).all() and (st.fld_kmod[0] == 0).all() and (st.fld_wmod[0] == 0).all()
    assert not st.fld_redir[0].any() and not st.fld_kz[0].any() and not st.fld_entered[0].any()
    assert st.fld_tap[0, 0, 0]  # P0's character stays tapped until P0's own untap step


def test_truncation_after_the_cleanup_of_the_last_turn_is_a_draw():
    pos = table(seat(field=[]), seat(field=[]), phase="end", decision="priority")
    pos["turn"] = 5
    g, st = load(pos, max_turns=5)
    passes(g, st)
    assert st.truncated[0] and not st.terminated[0] and st.end_reason[0] == END_TRUNCATED
    assert st.rewards[0].tolist() == [0.0, 0.0] and not g.legal_mask(st).any()


def test_max_decisions_counts_agent_decisions_only():
    g = game(max_decisions=3)
    st = g.init(np.array([1]))
    for _ in range(3):
        assert not st.done[0]
        m = g.legal_mask(st)[0]
        step(g, st, int(np.flatnonzero(m)[0]))
    assert st.truncated[0] and st.n_decisions[0] == 3


def test_auto_pass_forced_takes_only_single_choice_decisions():
    g = game()
    st = g.init(np.arange(200))
    rng = np.random.default_rng(0)
    for _ in range(30):
        m = g.legal_mask(st)
        live = ~st.done
        assert (m[live].sum(axis=1) >= 2).all()  # every decision shown to an agent is a real choice
        g.step(st, random_legal(m, rng), mask=m)


def test_pass_is_always_legal_with_priority():
    g = game(auto_pass_forced=False)
    st = g.init(np.arange(50))
    rng = np.random.default_rng(1)
    for _ in range(40):
        m = g.legal_mask(st)
        prio = (st.decision == DECISION_PRIORITY) & ~st.done
        assert m[prio, PASS].all()
        g.step(st, random_legal(m, rng), mask=m)
