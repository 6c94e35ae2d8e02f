"""The final ranking (rules §5.7) and the rank-based rewards (§9)."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.momotaro.rules import rank_keys, rank_rewards

from .helpers import act, battle, find_seed, game, player


def _ranks(alive, treasure, retainers, kibi, scheme="winner"):
    n = len(alive)
    hand = np.zeros((1, n, 10), dtype=bool)
    for p, r in enumerate(retainers):
        hand[0, p, 0] = alive[p]
        hand[0, p, 1:1 + r] = True
    keys = rank_keys(np.array([alive]), np.array([treasure]), hand, np.array([kibi]))
    ranks, rewards = rank_rewards(keys, scheme)
    return ranks[0].tolist(), rewards[0].tolist()


def test_survivors_rank_above_the_eliminated_whatever_the_treasure() -> None:
    ranks, rewards = _ranks([True, False, True], [2, 30, 5], [0, 0, 0], [0, 0, 0])
    assert ranks == [2, 3, 1]
    assert rewards == pytest.approx([-0.5, -0.5, 1.0])


def test_all_dead_rank_by_treasure() -> None:
    ranks, _ = _ranks([False, False, False, False], [2, 30, 5, 0], [0, 0, 0, 0], [0, 0, 0, 0])
    assert ranks == [3, 1, 2, 4]


def test_tie_breaks_retainers_then_kibidango_then_shared() -> None:
    assert _ranks([True] * 3, [10, 10, 10], [1, 3, 2], [9, 0, 0])[0] == [3, 1, 2]
    assert _ranks([True] * 3, [10, 10, 10], [2, 2, 2], [1, 4, 3])[0] == [3, 1, 2]
    ranks, rewards = _ranks([True] * 4, [10, 10, 3, 3], [2, 2, 0, 0], [1, 1, 0, 0])
    assert ranks == [1, 1, 3, 3]
    # Shared first: the winners split what the others lose (zero-sum).
    assert rewards == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])


def test_linear_rewards() -> None:
    _, rewards = _ranks([True] * 4, [9, 7, 5, 3], [0] * 4, [0] * 4, scheme="linear")
    assert rewards == pytest.approx([1.0, 1 / 3, -1 / 3, -1.0])
    _, rewards = _ranks([True] * 3, [9, 9, 3], [0] * 3, [0] * 3, scheme="linear")
    assert rewards == pytest.approx([0.5, 0.5, -1.0])


def test_the_engine_ends_and_pays_by_rank() -> None:
    """Round 3, one oni left: player 0 defeats it and the game ends; player 1 (eliminated, more
    treasure) ranks below both survivors."""
    g = game(3)
    taken = {"R4": {"by": 0, "as": "treasure"}, "R5": {"by": 2, "as": "treasure"},
             "R6": {"by": 1, "as": "treasure"}, "B4": {"by": 1, "as": "treasure"},
             "B5": {"by": 1, "as": "treasure"}, "B6": {"by": 1, "as": "treasure"},
             "G4": {"by": 1, "as": "treasure"}, "G5": {"by": 1, "as": "treasure"},
             "G6": {"by": 1, "as": "treasure"}, "X6": {"by": 1, "as": "treasure"},
             "Y4": {"by": 2, "as": "treasure"}}
    players = [player({"W": 0, "I3": 0}), player({}, ["W"]), player({"W": 0})]
    pos = battle(3, players, {"Y2": 1}, round_=3, taken=taken, phase="choose_cards", target="Y2")
    st = find_seed(lambda s: g.from_position(pos, seed=s), lambda s: act(g, s, "SEND W+I3"),
                   lambda s: int(s.outcome[0]) == 0)
    act(g, st, "YELLOW TREASURE")
    assert st.terminated[0]
    # Treasure: player 0 4 + 2 = 6, player 2 5 + 4 = 9, player 1 (eliminated) 42.
    assert st.treasure[0].tolist() == [6, 42, 9]
    assert st.rewards[0].tolist() == pytest.approx([-0.5, -0.5, 1.0])
    assert float(st.rewards[0].sum()) == pytest.approx(0.0)
