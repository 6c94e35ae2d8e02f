"""手裏剣 (shuriken, throw a card) — rules file §2.1, §6.2, §8 A21, A28.

Two steps: the activation (with the target) puts the game in phase "shuriken", then a PICK_CARD of
a non-joker card moves it to the target's hand, where it is public. Preconditions: ≥2 cards and ≥1
non-joker. Lv1–2: next active opponent; Lv3+: any; Lv5: cost 2 and the target loses 1 point.
"""
from __future__ import annotations

import pytest

from yuugi.envs.core.errors import IllegalActionError

from .ninja_helpers import (ASH, PASS, PICK, SHU, is_legal, jutsu_legal, legal_set, load, mask, ngame, points, pos,
                            seat0, step)

HANDS = [["S5", "H9", "C4"], ["S6", "HT", "DJ"], ["S7", "HJ", "DQ"], ["S9", "HQ", "DK"]]


@pytest.mark.parametrize("level", [1, 2])
def test_lv1_2_only_next_active_opponent(level):
    g = ngame(seat0({"shuriken": level}))
    st = load(g, HANDS, to_play=0, points=[3, 0, 0, 0])
    assert jutsu_legal(g, st) == {SHU(1)}
    hands = [list(h) for h in HANDS]
    hands[1] = []
    st = load(g, hands, to_play=0, points=[3, 0, 0, 0], finish_positions=[None, 1, None, None])
    assert jutsu_legal(g, st) == {SHU(2)}


@pytest.mark.parametrize("level", [3, 4, 5])
def test_lv3_plus_any_active_opponent(level):
    g = ngame(seat0({"shuriken": level}))
    st = load(g, HANDS, to_play=0, points=[3, 0, 0, 0])
    assert jutsu_legal(g, st) == {SHU(1), SHU(2), SHU(3)}
    hands = [list(h) for h in HANDS]
    hands[3] = []
    st = load(g, hands, to_play=0, points=[3, 0, 0, 0], finish_positions=[None, None, None, 1])
    assert jutsu_legal(g, st) == {SHU(1), SHU(2)}


@pytest.mark.parametrize("level,pts,offered", [
    (1, 2, False), (1, 3, True), (4, 2, False), (4, 3, True), (5, 1, False), (5, 2, True)])
def test_cost_3_and_lv5_cost_2(level, pts, offered):
    g = ngame(seat0({"shuriken": level}))
    st = load(g, HANDS, to_play=0, points=[pts, 0, 0, 0])
    assert (SHU(1) in jutsu_legal(g, st)) == offered


def test_two_steps_card_moves_to_target_and_is_public():
    g = ngame(seat0({"shuriken": 1}))
    st = load(g, HANDS, to_play=0, points=[4, 1, 1, 1])
    step(g, st, SHU(1))
    p = pos(g, st)
    assert p["phase"] == "shuriken"
    assert p["shuriken_target"] == 1
    assert p["to_play"] == 0
    assert p["points"] == [1, 1, 1, 1]  # cost 3; Lv1: the target loses nothing
    assert p["uses_left"][0]["shuriken"] == 0
    # Only PICK_CARD of the cards in hand: no play, no pass, no jutsu.
    assert legal_set(g, st) == {"pick S5", "pick H9", "pick C4"}
    for o in range(4):
        assert "H9" not in p["known"][o][1]
    step(g, st, PICK("H9"))
    p = pos(g, st)
    assert p["phase"] == "play"
    assert p["shuriken_target"] is None
    assert sorted(p["hands"][0]) == sorted(["S5", "C4"])
    assert sorted(p["hands"][1]) == sorted(["S6", "HT", "DJ", "H9"])
    for o in range(4):  # the thrown card is public: every observer knows seat 1 holds it
        assert "H9" in p["known"][o][1], o
    # The turn continues: seat 0 still has to lead (no pass on an empty field), no second jutsu.
    assert p["to_play"] == 0
    assert not is_legal(g, st, PASS)
    assert is_legal(g, st, "S5")
    assert jutsu_legal(g, st) == set()
    step(g, st, "S5")
    assert pos(g, st)["to_play"] == 1


def test_after_the_throw_a_responder_may_pass():
    """§6.2: after a jutsu other than 変化, PASS stays legal on a non-empty field."""
    g = ngame(seat0({"shuriken": 1}))
    st = load(g, HANDS, to_play=0, points=[3, 0, 0, 0], field={"cards": ["D3"], "owner": 3, "kind": "single"})
    step(g, st, SHU(1))
    step(g, st, PICK("C4"))
    assert is_legal(g, st, PASS)
    step(g, st, PASS)
    assert pos(g, st)["to_play"] == 1


def test_lv3_throw_to_a_far_seat():
    g = ngame(seat0({"shuriken": 3}))
    st = load(g, HANDS, to_play=0, points=[3, 0, 0, 0])
    step(g, st, SHU(3))
    assert pos(g, st)["shuriken_target"] == 3
    step(g, st, PICK("S5"))
    p = pos(g, st)
    assert "S5" in p["hands"][3] and "S5" not in p["hands"][0]
    assert all("S5" in p["known"][o][3] for o in range(4))


def test_joker_cannot_be_thrown():
    g = ngame(seat0({"shuriken": 1}))
    hands = [["S5", "JK", "C4"]] + HANDS[1:]
    st = load(g, hands, to_play=0, points=[3, 0, 0, 0])
    step(g, st, SHU(1))
    assert legal_set(g, st) == {"pick S5", "pick C4"}
    assert not mask(g, st)[PICK("JK")]
    with pytest.raises(IllegalActionError):
        step(g, st, PICK("JK"))


@pytest.mark.parametrize("hand,offered", [
    (["S5"], False),  # one card: would empty the hand
    (["JK"], False),
    (["JK", "S5"], True),  # two cards, one non-joker
    (["S5", "C4"], True),
])
def test_precondition_two_cards_and_a_non_joker(hand, offered):
    g = ngame(seat0({"shuriken": 3}))
    hands = [hand] + HANDS[1:]
    st = load(g, hands, to_play=0, points=[6, 0, 0, 0])
    assert bool(jutsu_legal(g, st)) == offered


def test_joker_plus_one_card_throws_the_natural():
    g = ngame(seat0({"shuriken": 1}))
    hands = [["JK", "S5"]] + HANDS[1:]
    st = load(g, hands, to_play=0, points=[3, 0, 0, 0])
    step(g, st, SHU(1))
    assert legal_set(g, st) == {"pick S5"}
    step(g, st, PICK("S5"))
    p = pos(g, st)
    assert p["hands"][0] == ["JK"]  # never empties the hand
    assert p["finish_positions"][0] is None


@pytest.mark.parametrize("target_d,start,expected", [
    (1, [2, 3, 0, 0], [0, 2, 0, 0]),
    (2, [5, 3, 0, 0], [3, 3, 0, 0]),  # target at 0: floor 0
    (3, [2, 0, 0, 1], [0, 0, 0, 0]),
])
def test_lv5_cost_2_target_loses_a_point(target_d, start, expected):
    g = ngame(seat0({"shuriken": 5}))
    st = load(g, HANDS, to_play=0, points=start)
    step(g, st, SHU(target_d))
    step(g, st, PICK("C4"))
    assert points(g, st) == expected
    assert "C4" in pos(g, st)["hands"][target_d]


@pytest.mark.parametrize("level", [1, 3, 4])
def test_below_lv5_target_keeps_points(level):
    g = ngame(seat0({"shuriken": level}))
    st = load(g, HANDS, to_play=0, points=[3, 4, 4, 4])
    step(g, st, SHU(1))
    step(g, st, PICK("C4"))
    assert points(g, st) == [0, 4, 4, 4]


@pytest.mark.parametrize("school,level,start,expected", [
    (None, 1, 3, 0), ("bogai", 1, 3, 1), ("bogai", 5, 2, 1), ("rai", 1, 3, 0), ("henge", 1, 3, 0)])
def test_school_bogai_refund(school, level, start, expected):
    g = ngame(seat0({"shuriken": level}, school=school))
    st = load(g, HANDS, to_play=0, points=[start, 0, 0, 0])
    step(g, st, SHU(1))
    step(g, st, PICK("C4"))
    assert points(g, st)[0] == expected


def test_shuriken_then_no_other_jutsu_this_turn():
    """A21: one activation per turn, even with points for 足止め left."""
    g = ngame(seat0({"shuriken": 3, "ashidome": 3}))
    st = load(g, HANDS, to_play=0, points=[6, 0, 0, 0])
    assert jutsu_legal(g, st) == {SHU(1), SHU(2), SHU(3), ASH(1), ASH(2), ASH(3)}
    step(g, st, SHU(2))
    step(g, st, PICK("H9"))
    assert jutsu_legal(g, st) == set()
    assert pos(g, st)["points"][0] == 3
