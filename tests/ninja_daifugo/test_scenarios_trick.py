"""Tricks, passing, going out and the end of a game (rules file §5.7–§5.9, §8 A1, A2, A5, A15)."""
from __future__ import annotations

import numpy as np
import pytest

from .scenario_helpers import ZERO_SUM, game, legal, legal_labels, load, pos, step, steps


def test_trick_ends_when_every_other_active_player_has_passed():
    g = game()
    st = load(g, [["S9", "C3", "C5"], ["D4", "D5"], ["H4", "H5"], ["S4", "S5"]])
    step(g, st, "S9")
    step(g, st, "pass")
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is not None and p["to_play"] == 3 and p["responses"] == 2
    step(g, st, "pass")
    p = pos(g, st)
    # A2: the owner never plays on his own cards: the field clears and he leads.
    assert p["field"] is None and p["to_play"] == 0 and p["responses"] == 0
    assert "S9" in p["discard"]
    assert "pass" not in legal_labels(g, st)


def test_trick_end_counts_only_active_players():
    g = game()
    # Seat 2 has finished; seat 0 plays, seats 1 and 3 pass ⇒ flush.
    st = load(g, [["S9", "C3", "C5"], ["D4", "D5"], [], ["S4", "S5"]], finish_positions=[None, None, 1, None])
    step(g, st, "S9")
    step(g, st, "pass")
    assert pos(g, st)["to_play"] == 3  # the finished seat 2 is skipped
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0


def test_trick_end_counter_restarts_after_a_play():
    g = game()
    st = load(g, [["S5", "C3", "C5"], ["S7", "D5"], ["H4", "H6"], ["S4", "H9"]])
    steps(g, st, ["S5", "pass", "pass"])  # seats 1, 2 pass
    step(g, st, "H9")  # seat 3 plays; every other active seat may answer again
    p = pos(g, st)
    assert p["responses"] == 0 and p["to_play"] == 0
    steps(g, st, ["pass", "pass"])  # seats 0, 1
    assert pos(g, st)["field"] is not None and pos(g, st)["to_play"] == 2
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 3


def test_pass_does_not_lock_you_out_by_default():
    """A1: a seat that passed may play again when someone else has played since (here under a ♠-lock)."""
    g = game()
    st = load(g, [["S5", "C3", "C9"], ["SJ", "HJ", "D5"], ["S7", "H6"], ["S4", "H4"]])
    step(g, st, "S5")
    step(g, st, "pass")  # seat 1 passes on the ♠5
    step(g, st, "S7")  # seat 2: ♠5 → ♠7 locks ♠
    step(g, st, "pass")  # seat 3
    step(g, st, "pass")  # seat 0
    p = pos(g, st)
    assert p["to_play"] == 1 and p["field"]["cards"] == ["S7"] and p["lock"] == ["S"]
    assert legal_labels(g, st) == {"pass", "SJ"}


def test_pass_does_not_lock_you_out_by_default_without_lock():
    g = game()
    st = load(g, [["S5", "C3", "C9"], ["HJ", "D5"], ["D7", "H6"], ["S4", "H4"]])
    steps(g, st, ["S5", "pass", "D7", "pass", "pass"])
    p = pos(g, st)
    assert p["to_play"] == 1 and p["lock"] is None
    assert legal(g, st, "HJ")
    step(g, st, "HJ")
    assert pos(g, st)["field"]["owner"] == 1


def test_pass_lockout_option():
    """pass_lockout=True: a seat that passed is skipped until the field clears."""
    g = game(pass_lockout=True)
    st = load(g, [["S5", "C3", "C9"], ["HJ", "D5"], ["D7", "H6"], ["S4", "H4"]])
    steps(g, st, ["S5", "pass", "D7"])  # seat 1 passed, seat 2 plays
    steps(g, st, ["pass", "pass"])  # seats 3 and 0
    p = pos(g, st)
    # Seat 1 is locked out: every seat other than the owner (seat 2) has passed ⇒ flush; seat 2 leads.
    assert p["field"] is None and p["to_play"] == 2


def test_pass_lockout_skips_passed_seat_in_turn_order():
    g = game(pass_lockout=True)
    st = load(g, [["S5", "C3", "C9", "SK"], ["HJ", "D5"], ["D3", "H6"], ["D9", "H4"]])
    steps(g, st, ["S5", "pass", "pass", "D9"])  # seats 1, 2 pass, seat 3 plays
    assert pos(g, st)["to_play"] == 0
    step(g, st, "SK")
    # Seats 1 and 2 passed this trick, so seat 3 answers next.
    assert pos(g, st)["to_play"] == 3
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0


def test_default_no_lockout_same_line_lets_passed_seats_answer():
    g = game()
    st = load(g, [["S5", "C3", "C9", "SK"], ["HJ", "D5"], ["D3", "H6"], ["D9", "H4"]])
    steps(g, st, ["S5", "pass", "pass", "D9", "SK"])
    assert pos(g, st)["to_play"] == 1


def test_player_going_out_leaves_field_and_next_active_leads_after_all_pass():
    """A15: the finisher's cards stay; if all pass, the next active player after the finisher leads."""
    g = game()
    st = load(g, [["H3", "H4"], ["S9"], ["D3", "D4"], ["C3", "C4"]], to_play=1,
              field={"cards": ["S7"], "owner": 0, "kind": "single"})
    step(g, st, "S9")
    p = pos(g, st)
    assert p["finish_positions"] == [None, 1, None, None]
    assert p["field"]["cards"] == ["S9"] and p["field"]["owner"] == 1
    assert p["to_play"] == 2
    step(g, st, "pass")  # seat 2
    step(g, st, "pass")  # seat 3
    assert pos(g, st)["field"] is not None  # the owner finished: all three active seats must answer
    assert pos(g, st)["to_play"] == 0
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 2


def test_going_out_with_an_8_cut_passes_the_lead_on():
    g = game()
    st = load(g, [["H3", "H4"], ["S8"], ["D3", "D4"], ["C3", "C4"]], to_play=1,
              field={"cards": ["S7"], "owner": 0, "kind": "single"})
    step(g, st, "S8")
    p = pos(g, st)
    assert p["field"] is None and p["finish_positions"][1] == 1
    assert p["to_play"] == 2


def test_finish_positions_and_rewards_at_game_end():
    g = game()
    # Seats 3 and 1 finished 1st and 2nd; seat 0 goes out 3rd, seat 2 is 4th.
    st = load(g, [["HA"], [], ["D3", "D4"], []], to_play=0, finish_positions=[None, 2, None, 1])
    step(g, st, "HA")
    p = pos(g, st)
    assert p["finish_positions"] == [3, 2, 4, 1]
    assert bool(st.terminated[0])
    np.testing.assert_allclose(st.rewards[0], [ZERO_SUM[2], ZERO_SUM[1], ZERO_SUM[3], ZERO_SUM[0]], atol=1e-6)
    assert not g.legal_mask(st)[0].any()


def test_no_reward_before_the_game_ends():
    g = game()
    st = load(g, [["HA", "C5"], ["D5", "H5"], ["D3", "D4"], ["C3", "C4"]])
    step(g, st, "HA")
    assert not st.rewards[0].any() and not bool(st.terminated[0])


def test_uecda_reward_scheme():
    g = game(reward_scheme="uecda")
    st = load(g, [["HA"], [], ["D3", "D4"], []], to_play=0, finish_positions=[None, 2, None, 1])
    step(g, st, "HA")
    np.testing.assert_allclose(st.rewards[0], [2.0, 3.0, 1.0, 4.0])


def test_last_two_players_game_end_when_second_to_last_goes_out_on_a_response():
    g = game()
    st = load(g, [[], ["S2"], [], ["H3", "H4"]], to_play=1, finish_positions=[1, None, 2, None],
              field={"cards": ["SK"], "owner": 3, "kind": "single"})
    step(g, st, "S2")
    assert pos(g, st)["finish_positions"] == [1, 3, 2, 4]
    assert bool(st.terminated[0])


@pytest.mark.parametrize("seed", range(3))
def test_first_lead_is_the_diamond3_holder(seed):
    g = game()
    st = g.init([seed * 7 + 1])
    p = pos(g, st)
    holder = [s for s in range(4) if "D3" in p["hands"][s]]
    assert p["to_play"] == holder[0]
    assert sorted(len(h) for h in p["hands"]) == [13, 13, 13, 14]
    assert p["phase"] == "play" and p["field"] is None
    assert "pass" not in legal_labels(g, st)
