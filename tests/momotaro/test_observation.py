"""The observation (rules §8): seats relative to the observer, public counts, deck compositions."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.momotaro.observation import layout, obs_size, offsets

from .helpers import act, battle, game, player


@pytest.mark.parametrize("n", [2, 3, 4])
def test_size_and_bounds(n: int) -> None:
    g = game(n)
    assert obs_size(n) == sum(s for _, s in layout(n)) == 56 * n + 144
    st = g.init(np.arange(5))
    for seat in range(n):
        obs = g.observe(st, seat)
        assert obs.shape == (5, obs_size(n)) and obs.dtype == np.float32
        assert (obs >= 0).all() and (obs <= 1).all()


def test_seats_are_relative_to_the_observer() -> None:
    g = game(3)
    pos = battle(3, [player({"W": 0}, kibidango=3), player({"W": 1, "I3": 2}, kibidango=6),
                     player({"W": 0}, kibidango=9)], {"R6": 2, "B4": 0, "G4": 0, "X6": 0})
    st = g.from_position(pos)
    off = offsets(3)
    obs = g.observe(st, 1)[0]
    assert obs[off["kibidango"]].tolist() == pytest.approx([6 / 15, 9 / 15, 3 / 15])
    assert obs[off["own_seat"]].tolist() == [0, 1, 0]
    assert obs[off["to_play"]].tolist() == [0, 0, 1]  # seat 0 plays: two seats after seat 1
    own = obs[off["cards_in_play"]][:10]
    assert own.tolist() == [1, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert obs[off["card_damage"]][:10][[0, 3]].tolist() == pytest.approx([1 / 3, 2 / 3])
    r6 = g.oni_names.index("R6")
    assert obs[off["oni_field"]].sum() == 4 and obs[off["oni_damage"]][r6] == pytest.approx(2 / 6)
    assert obs[off["oni_deck"]].sum() == 8
    assert obs[off["round"]].tolist() == [0, 1, 0, 0]


def test_hiring_deck_shows_as_a_composition() -> None:
    g = game(2)
    st = g.init([3])
    off = offsets(2)
    obs = g.observe(st, 0)[0]
    current = int(st.hire_deck[0, 0])
    assert obs[off["auction_card"]].argmax() == current
    deck = obs[off["hiring_deck"]]
    assert deck.sum() == 8 and deck[current] == 0
    act(g, st, "BID 1", "BID 0")
    obs = g.observe(st, 1)[0]
    assert obs[off["hiring_deck"]].sum() == 7
    assert obs[off["last_bid"]].tolist() == pytest.approx([0.0, 1 / 15])  # self (seat 1) first
