"""Placement turns (rules file §4.4, §4.8, §4.9): roll, the one full reroll, the count die, short
hands, the escape chip, the hand-empty card lock-out and consecutive turns."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.core.errors import IllegalActionError
from tests.nigejozu.helpers import CHIPS, PROVINCES, board, count_die, legal, legal_cards, load, position, step


def _at_chip(n: int) -> str:
    return PROVINCES[n - 2]  # test layout: chip n on P_(n-2)


def test_roll_then_one_full_reroll_then_count_only():
    g, st = load(position({"京": (2, 2)}))
    assert legal(g, st) >= {"ROLL"} and "REROLL" not in legal(g, st)
    step(g, st, "ROLL")
    first = st.dice[0].tolist()
    assert first == sorted(first) and all(1 <= d <= 6 for d in first)
    assert "REROLL" in legal(g, st) and "ROLL" not in legal(g, st)
    assert not legal_cards(g, st), "after rolling you cannot switch to a card"
    step(g, st, "REROLL")
    assert g.to_position(st)["phase"] == "rerolled"
    labels = legal(g, st)
    assert "REROLL" not in labels and "ROLL" not in labels and not legal_cards(g, st), "one reroll per turn"
    assert labels <= {"COUNT_DIE 0", "COUNT_DIE 1", "COUNT_DIE 2"} and "COUNT_DIE 0" in labels
    before = st.copy()
    with pytest.raises(IllegalActionError):
        g.step(st, np.array([13]))
    assert st.equals(before)


def test_reroll_replaces_the_dice_from_the_stream():
    # Over many seeds, the rerolled dice differ from the first roll in most games (same in 1/56 or so).
    g, st = load(position({"京": (2, 2)}))
    st = st.concat([g.from_position(g.to_position(st), seed=s) for s in range(200)])
    g.step(st, np.zeros(200, dtype=np.int64))
    first = st.dice.copy()
    g.step(st, np.full(200, 13))
    assert (st.dice != first).any(axis=1).mean() > 0.8
    assert (np.diff(st.dice, axis=1) >= 0).all()


def test_seed_example_three_four_five():
    # §4.9: 3·4·5, the 4 is the count die -> chip 3+5 = 8, 2 troops.
    g, st = load(position({_at_chip(8): (1, 0), "鎌倉": (0, 1)}, phase="dice", dice=[5, 3, 4]))
    assert st.dice[0].tolist() == [3, 4, 5]
    step(g, st, count_die(1))
    assert board(st)[_at_chip(8)] == (3, 0)
    assert st.hand[0].tolist() == [18 - 3, 17]
    assert int(st.to_play[0]) == 1 and g.to_position(st)["phase"] == "turn_start"


@pytest.mark.parametrize("die,count", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_count_table(die, count):
    # Three equal dice: the only split is pair 2·die + single die.
    g, st = load(position({"鎌倉": (0, 1)}, phase="rerolled", dice=[die] * 3))
    assert legal(g, st) == {"COUNT_DIE 0"}, "equal dice collapse to one choice"
    step(g, st, count_die(0))
    assert board(st)[_at_chip(2 * die)] == (count, 0)


def test_duplicate_dice_are_masked_and_each_split_is_correct():
    g, st = load(position({"鎌倉": (0, 1)}, phase="dice", dice=[2, 5, 2]))
    assert legal(g, st) == {"REROLL", "COUNT_DIE 0", "COUNT_DIE 2"}
    g2, st2 = g, st.copy()
    step(g, st, count_die(0))  # count die 2 -> 1 troop, pair 2+5 = 7
    assert board(st) == {_at_chip(7): (1, 0), "鎌倉": (0, 1)}
    step(g2, st2, count_die(2))  # count die 5 -> 3 troops, pair 2+2 = 4
    assert board(st2) == {_at_chip(4): (3, 0), "鎌倉": (0, 1)}


def test_short_hand_places_what_is_left_and_takes_the_escape_chip():
    g, st = load(position({"京": (16, 0), "鎌倉": (0, 5)}, phase="dice", dice=[6, 6, 6]))
    assert st.hand[0].tolist() == [2, 13]
    step(g, st, count_die(0))
    assert board(st)[_at_chip(12)] == (2, 0) and st.hand[0, 0] == 0
    assert g.to_position(st)["escape"] == "hojo"


def test_hand_empty_locks_cards_for_both_and_the_other_plays_consecutive_turns():
    # Hojo has one troop left; Ashikaga still holds three usable cards.
    pos = position({"京": (17, 1), "九州": (0, 3)}, to_play="hojo", phase="rerolled", dice=[1, 1, 1])
    g, st = load(pos)
    step(g, st, count_die(0))
    assert st.hand[0].tolist() == [0, 14] and g.to_position(st)["escape"] == "hojo"
    assert g.to_position(st)["to_play"] == "ashikaga"
    assert legal(g, st) == {"ROLL"}, "cards locked once either hand is empty"
    for _ in range(3):  # Ashikaga now takes every turn
        step(g, st, "ROLL", count_die(0))
        assert g.to_position(st)["to_play"] == "ashikaga"
        assert legal(g, st) == {"ROLL"}
    assert g.to_position(st)["escape"] == "hojo", "only the first to empty a hand takes the chip"


def test_cards_are_usable_while_both_hands_hold_troops():
    g, st = load(position({"京": (17, 1), "九州": (0, 3)}, to_play="ashikaga"))
    assert st.hand[0].tolist() == [1, 14]
    assert legal_cards(g, st) == {"追放", "謀反"}


def test_second_to_empty_does_not_take_the_chip_and_the_battle_follows():
    pos = position({"京": (18, 0), "鎌倉": (0, 16)}, to_play="ashikaga", escape="hojo", phase="dice",
                   dice=[1, 2, 6])
    g, st = load(pos)
    step(g, st, count_die(2))  # count 6 -> 3 troops but only 2 left
    assert board(st)[_at_chip(3)] == (0, 2)
    assert st.terminated[0] and g.to_position(st)["escape"] == "hojo"
    assert g.to_position(st)["phase"] == "over"
    assert not g.legal_mask(st).any()


def test_start_player_and_setup_are_random_but_valid():
    g, _ = load(position())
    st = g.init(np.arange(400))
    assert set(st.to_play.tolist()) == {0, 1}
    assert 0.4 < st.to_play.mean() < 0.6
    assert (np.sort(st.chip, axis=1) == np.arange(2, 13)).all(), "chips 2..12 once each"
    assert len({tuple(r) for r in st.chip.tolist()}) > 390, "chips shuffled per game"
    assert (st.held.sum(axis=2) == 3).all() and (st.hand == 18).all() and (st.troops == 0).all()
    # paired6 (§3.3): the 6 cards (Hojo face, Ashikaga face) are dealt 3 and 3, so for every card exactly
    # one side holds its face; Hojo only ever holds Hojo faces.
    effects = ("加勢", "物見", "人質", "追放", "謀反", "囮", "神力", "山越え", "退却", "忍", "分隊", "上洛")
    pairs = [("神力", "山越え"), ("退却", "上洛"), ("忍", "物見"), ("囮", "追放"), ("加勢", "謀反"), ("分隊", "人質")]
    for h, a in pairs:
        hojo_has, ashikaga_has = st.held[:, 0, effects.index(h)], st.held[:, 1, effects.index(a)]
        assert (hojo_has ^ ashikaga_has).all(), f"card {h}/{a} goes to exactly one side"
        assert not st.held[:, 0, effects.index(a)].any() and not st.held[:, 1, effects.index(h)].any()
    splits = {tuple(np.flatnonzero(r)) for r in st.held[:, 0]}
    assert len(splits) == 20, "all 20 ways to deal 3 of 6 cards occur"


def test_chip_layout_helper_matches_rules_example():
    assert CHIPS["九州"] == 2 and CHIPS["蝦夷"] == 12 and _at_chip(8) == "三河"
