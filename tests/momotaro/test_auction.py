"""Hiring mode (rules §4): sealed bids, the tie's additional bid, janken among the still-tied,
TAKE/DECLINE, payment removing kibidango from the game."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.momotaro.observation import offsets

from .helpers import act, game, legal_labels

RETAINERS = ("I1", "I2", "I3", "S1", "S2", "S3", "K1", "K2", "K3")


def _card_on_auction(st) -> str:
    return RETAINERS[int(st.hire_deck[0, int(st.hire_pos[0])])]


def _owned(g, st, p: int) -> list[str]:
    return sorted(g.to_position(st)["players"][p]["cards"])


def test_highest_bid_takes_the_card_and_pays() -> None:
    g = game(3)
    st = g.init([11])
    card = _card_on_auction(st)
    act(g, st, "BID 3", "BID 5", "BID 0")
    assert st.kibi[0].tolist() == [15, 10, 15]  # only the winner pays; paid kibidango leave the game
    assert _owned(g, st, 1) == sorted(["W", card])
    assert st.last_bids[0].tolist() == [3, 5, 0]  # revealed together
    assert int(st.hire_pos[0]) == 1 and int(st.to_play[0]) == 0 and int(st.phase[0]) == 0


def test_bids_are_sealed_until_all_have_bid() -> None:
    g = game(3)
    base = g.init([5])
    a, b = base.copy(), base.copy()
    act(g, a, "BID 7")
    act(g, b, "BID 0")
    for seat in (1, 2):  # the other seats cannot tell the two bids apart
        assert np.array_equal(g.observe(a, seat), g.observe(b, seat))
    assert not np.array_equal(g.observe(a, 0), g.observe(b, 0))  # the bidder knows its own bid
    off = offsets(3)
    assert g.observe(a, 1)[0, off["has_bid"]].tolist() == [0, 0, 1]  # ...but it is public that seat 0 has bid
    # A tie reveals the first bids to everyone (the additional stage starts).
    act(g, a, "BID 7", "BID 2")
    assert int(a.phase[0]) == 1
    obs = g.observe(a, 2)[0]
    assert obs[off["bid_value"]].tolist() == pytest.approx([2 / 15, 7 / 15, 7 / 15])  # self, then seats 0 and 1
    assert obs[off["bid_known"]].tolist() == [1, 1, 1]


def test_tie_goes_to_an_additional_bid_on_top_of_the_first() -> None:
    g = game(3)
    st = g.init([2])
    card = _card_on_auction(st)
    act(g, st, "BID 5", "BID 5", "BID 2")
    assert int(st.phase[0]) == 1 and st.bidders[0].tolist() == [True, True, False]
    assert int(st.to_play[0]) == 0
    legal = legal_labels(g, st)
    assert "BID 10" in legal and "BID 11" not in legal  # additional <= kibidango - first bid
    act(g, st, "BID 1")
    assert int(st.to_play[0]) == 1  # seat 2 is not tied and does not bid again
    act(g, st, "BID 3")
    assert st.kibi[0].tolist() == [15, 7, 15]  # the winner pays 5 + 3; the losers pay nothing
    assert card in _owned(g, st, 1)


def test_second_tie_janken_among_the_still_tied_then_take() -> None:
    g = game(3)
    winners = {0: 0, 1: 0, 2: 0}
    for seed in range(300):
        st = g.init([seed])
        act(g, st, "BID 4", "BID 4", "BID 4", "BID 2", "BID 2", "BID 0")
        assert int(st.phase[0]) == 2  # TAKE / DECLINE
        assert legal_labels(g, st) == {"TAKE", "DECLINE"}
        winners[int(st.to_play[0])] += 1
    assert winners[2] == 0  # seat 2 added less: not in the janken
    assert 110 <= winners[0] <= 190 and 110 <= winners[1] <= 190  # uniform between the two
    st = g.init([0])
    card = _card_on_auction(st)
    act(g, st, "BID 4", "BID 4", "BID 4", "BID 2", "BID 2", "BID 0")
    w = int(st.to_play[0])
    act(g, st, "TAKE")
    expect = [15, 15, 15]
    expect[w] = 15 - 6  # first bid + additional bid
    assert st.kibi[0].tolist() == expect
    assert card in _owned(g, st, w)


def test_decline_discards_the_card_and_nobody_pays() -> None:
    g = game(2)
    st = g.init([4])
    card = _card_on_auction(st)
    act(g, st, "BID 3", "BID 3", "BID 1", "BID 1", "DECLINE")
    assert st.kibi[0].tolist() == [15, 15]
    assert g.to_position(st)["declined"] == [card]
    assert all(card not in _owned(g, st, p) for p in range(2))
    assert int(st.hire_pos[0]) == 1 and int(st.phase[0]) == 0 and int(st.to_play[0]) == 0


def test_everyone_bidding_zero_is_a_tie_of_everyone() -> None:
    g = game(4)
    counts = np.zeros(4, dtype=int)
    for seed in range(200):
        st = g.init([seed])
        act(g, st, *["BID 0"] * 4)
        assert st.bidders[0].all() and int(st.phase[0]) == 1
        act(g, st, *["BID 0"] * 4)
        counts[int(st.to_play[0])] += 1
    assert (counts > 25).all()  # janken among all four


def test_bids_are_limited_by_the_kibidango_held() -> None:
    g = game(2, kibi_per_player=3)
    st = g.init([0])
    assert g.num_actions == 3 + 96
    assert legal_labels(g, st) == {"BID 0", "BID 1", "BID 2", "BID 3"}
    act(g, st, "BID 3", "BID 0")
    assert int(st.to_play[0]) == 0
    assert legal_labels(g, st) == {"BID 0"}  # seat 0 paid all 3 kibidango


def test_nine_auctions_then_battle_starts_with_the_richest_player() -> None:
    """§5.1: round 1 starts with the player holding the most kibidango; 4 oni are dealt."""
    g = game(3)
    st = g.init([9])
    act(g, st, "BID 0", "BID 1", "BID 0")  # seat 1 pays 1
    for _ in range(8):
        act(g, st, "BID 0", "BID 0", "BID 1")  # seat 2 pays 8
    assert st.kibi[0].tolist() == [15, 14, 7]
    assert int(st.round[0]) == 1
    assert int((st.oni_at[0] == 1).sum()) == 4
    assert int(st.start_player[0]) == 0 and int(st.to_play[0]) == 0


def test_round_one_start_tie_is_a_uniform_janken() -> None:
    g = game(3)
    starts = np.zeros(3, dtype=int)
    for seed in range(150):
        st = g.init([seed])
        for _ in range(9):
            act(g, st, "BID 0", "BID 0", "BID 1")  # seat 2 spends 9; seats 0 and 1 tie on 15
        starts[int(st.start_player[0])] += 1
    assert starts[2] == 0 and starts[0] > 45 and starts[1] > 45
