"""足止め (ashidome, skip) — rules file §2.1, §5.6, §8 A21–A23, §9 scenario 9.

Lv1–2: only the next active opponent is a target; Lv3+: any active opponent; Lv5: cost 1 and the
target also loses 1 point (floor 0). The skip is a pending counter (stackable) consumed at the
target's next turn: on a non-empty field it counts as a response (trick end), on an empty field
the lead passes to the next active player.
"""
from __future__ import annotations

import pytest

from .ninja_helpers import ASH, SHU, load, ngame, points, pos, seat0, step, jutsu_legal

HANDS = [["S5", "H6", "D7", "C9"], ["S6", "HT", "DJ", "CQ"], ["S7", "HJ", "DQ", "CK"], ["S9", "HQ", "DK", "CA"]]


def _with_finished(seat: int):
    hands = [list(h) for h in HANDS]
    hands[seat] = []
    finish = [None] * 4
    finish[seat] = 1
    return hands, finish


@pytest.mark.parametrize("level", [1, 2])
def test_lv1_2_only_next_active_opponent(level):
    g = ngame(seat0({"ashidome": level}))
    st = load(g, HANDS, to_play=0, points=[2, 0, 0, 0])
    assert jutsu_legal(g, st) == {ASH(1)}
    # Also while answering a field.
    st = load(g, HANDS, to_play=0, points=[2, 0, 0, 0], field={"cards": ["C3"], "owner": 3, "kind": "single"})
    assert jutsu_legal(g, st) == {ASH(1)}


@pytest.mark.parametrize("level", [1, 2])
def test_lv1_2_next_active_skips_finished_seat(level):
    g = ngame(seat0({"ashidome": level}))
    hands, finish = _with_finished(1)
    st = load(g, hands, to_play=0, points=[2, 0, 0, 0], finish_positions=finish)
    assert jutsu_legal(g, st) == {ASH(2)}  # seat 2 is now the next active opponent


def test_relative_seats_for_another_actor():
    """Relative seat d = (target − actor) mod 4 (§6.1): seat 2's next opponent is seat 3 (+1),
    and seat 0 (+2) once seat 3 has finished."""
    g = ngame([{"jutsu": {"ashidome": 1}}] * 4)
    st = load(g, HANDS, to_play=2, points=[0, 0, 2, 0])
    assert jutsu_legal(g, st) == {ASH(1)}
    hands, finish = _with_finished(3)
    st = load(g, hands, to_play=2, points=[0, 0, 2, 0], finish_positions=finish)
    assert jutsu_legal(g, st) == {ASH(2)}
    step(g, st, ASH(2))
    assert pos(g, st)["skip_pending"] == [1, 0, 0, 0]


@pytest.mark.parametrize("level", [3, 4, 5])
def test_lv3_plus_any_active_opponent(level):
    g = ngame(seat0({"ashidome": level}))
    st = load(g, HANDS, to_play=0, points=[2, 0, 0, 0])
    assert jutsu_legal(g, st) == {ASH(1), ASH(2), ASH(3)}
    hands, finish = _with_finished(2)
    st = load(g, hands, to_play=0, points=[2, 0, 0, 0], finish_positions=finish)
    assert jutsu_legal(g, st) == {ASH(1), ASH(3)}  # a finished seat is no target


@pytest.mark.parametrize("level,pts,offered", [
    (1, 1, False), (1, 2, True), (3, 1, False), (4, 1, False), (4, 2, True), (5, 0, False), (5, 1, True)])
def test_cost_2_and_lv5_cost_1(level, pts, offered):
    g = ngame(seat0({"ashidome": level}))
    st = load(g, HANDS, to_play=0, points=[pts, 0, 0, 0])
    assert (ASH(1) in jutsu_legal(g, st)) == offered


@pytest.mark.parametrize("level", [1, 3, 4])
def test_activation_pays_adds_skip_and_keeps_turn(level):
    g = ngame(seat0({"ashidome": level}))
    st = load(g, HANDS, to_play=0, points=[4, 3, 3, 3])
    step(g, st, ASH(1))
    p = pos(g, st)
    assert p["skip_pending"] == [0, 1, 0, 0]
    assert p["points"] == [2, 3, 3, 3]  # cost 2; below Lv5 the target loses nothing
    assert p["uses_left"][0]["ashidome"] == {1: 1, 3: 2, 4: 3}[level] - 1
    assert p["to_play"] == 0  # the activator continues the turn
    assert p["jutsu_used"] is True
    assert jutsu_legal(g, st) == set()  # one activation per turn


def test_lv3_target_further_away_is_skipped():
    g = ngame(seat0({"ashidome": 3}))
    st = load(g, HANDS, to_play=0, points=[2, 0, 0, 0])
    step(g, st, ASH(2))
    assert pos(g, st)["skip_pending"] == [0, 0, 1, 0]
    step(g, st, "S5")
    assert pos(g, st)["to_play"] == 1  # seat 1 acts normally
    step(g, st, "pass")
    p = pos(g, st)
    assert p["to_play"] == 3  # seat 2 skipped
    assert p["skip_pending"] == [0, 0, 0, 0]
    assert p["field"] is not None and p["responses"] == 2  # pass + skip both count as responses
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0  # all three responded ⇒ flush, the owner leads


@pytest.mark.parametrize("target_d,start,expected", [
    (1, [3, 2, 0, 0], [2, 1, 0, 0]),
    (2, [3, 2, 0, 0], [2, 2, 0, 0]),  # seat 2 has 0: floor 0
    (3, [1, 0, 0, 6], [0, 0, 0, 5]),
])
def test_lv5_cost_1_and_target_loses_a_point(target_d, start, expected):
    g = ngame(seat0({"ashidome": 5}))
    st = load(g, HANDS, to_play=0, points=start)
    step(g, st, ASH(target_d))
    p = pos(g, st)
    assert p["points"] == expected
    skips = [0, 0, 0, 0]
    skips[target_d] = 1
    assert p["skip_pending"] == skips


def test_scenario_9_skip_counts_as_response():
    """§9-9: A plays; B skipped by 足止め; C, D pass ⇒ flush; A leads."""
    g = ngame(seat0({"ashidome": 1}))
    st = load(g, HANDS, to_play=0, points=[2, 0, 0, 0])
    step(g, st, ASH(1))
    step(g, st, "S5")
    p = pos(g, st)
    assert p["to_play"] == 2  # B's turn was consumed by the skip
    assert p["skip_pending"] == [0, 0, 0, 0]
    assert p["field"]["cards"] == ["S5"]
    step(g, st, "pass")  # C
    assert pos(g, st)["to_play"] == 3
    step(g, st, "pass")  # D
    p = pos(g, st)
    assert p["field"] is None
    assert p["to_play"] == 0
    assert "S5" in p["discard"]


def test_skip_on_would_be_lead_passes_lead_to_next_active():
    """§5.6 / A22: the trick ends while the owner (seat 1) has a pending skip ⇒ seat 2 leads."""
    g = ngame(seat0({"ashidome": 1}))
    field = {"cards": ["SK"], "owner": 1, "kind": "single"}
    st = load(g, HANDS, to_play=0, field=field, responses=2, passed=[False, False, True, True],
              points=[2, 0, 0, 0])
    step(g, st, ASH(1))  # next active opponent of seat 0 = seat 1, the field's owner
    step(g, st, "pass")  # third response ⇒ flush; seat 1 would lead but is skipped
    p = pos(g, st)
    assert p["field"] is None
    assert p["to_play"] == 2
    assert p["skip_pending"] == [0, 0, 0, 0]


def test_skip_on_would_be_lead_skips_finished_seats():
    """The lead passes to the next *active* player: seat 2 has finished, so seat 3 leads."""
    g = ngame(seat0({"ashidome": 1}))
    hands = [list(h) for h in HANDS]
    hands[2] = []
    field = {"cards": ["SK"], "owner": 1, "kind": "single"}
    st = load(g, hands, to_play=0, field=field, responses=1, passed=[False, False, False, True],
              points=[2, 0, 0, 0], finish_positions=[None, None, 1, None])
    step(g, st, ASH(1))
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None
    assert p["to_play"] == 3


def test_skip_counters_stack():
    """A23: a second 足止め on a seat with a pending skip makes 2; both are consumed in turn."""
    g = ngame(seat0({"ashidome": 1}))
    st = load(g, HANDS, to_play=0, points=[2, 0, 0, 0], skip_pending=[0, 1, 0, 0])
    step(g, st, ASH(1))
    assert pos(g, st)["skip_pending"] == [0, 2, 0, 0]
    step(g, st, "S5")
    p = pos(g, st)
    assert p["to_play"] == 2 and p["skip_pending"] == [0, 1, 0, 0]
    step(g, st, "pass")
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0  # skip + 2 passes end the trick
    step(g, st, "H6")
    p = pos(g, st)
    assert p["to_play"] == 2 and p["skip_pending"] == [0, 0, 0, 0]  # second skip consumed
    step(g, st, "HJ")
    step(g, st, "HQ")
    step(g, st, "pass")
    assert pos(g, st)["to_play"] == 1  # no skip left: seat 1 acts


def test_consecutive_skipped_seats():
    """§5.6: skips are consumed seat after seat until someone may act."""
    g = ngame(seat0({"ashidome": 1}))
    st = load(g, HANDS, to_play=0, points=[2, 0, 0, 0], skip_pending=[0, 0, 1, 0])
    step(g, st, ASH(1))
    step(g, st, "S5")
    p = pos(g, st)
    assert p["to_play"] == 3 and p["skip_pending"] == [0, 0, 0, 0]
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0


@pytest.mark.parametrize("school,level,start,expected", [
    (None, 1, 2, 0),
    ("bogai", 1, 2, 1),  # 妨害: full cost paid, then +1 back
    ("bogai", 5, 1, 1),
    ("bogai", 1, 6, 5),
    ("rai", 1, 2, 0),
    ("henge", 1, 2, 0),
])
def test_school_bogai_refund(school, level, start, expected):
    g = ngame(seat0({"ashidome": level}, school=school))
    st = load(g, HANDS, to_play=0, points=[start, 0, 0, 0])
    step(g, st, ASH(1))
    assert points(g, st)[0] == expected


def test_bogai_does_not_lower_the_points_needed():
    """§1-7: the refund comes after paying; the points needed to activate are unchanged."""
    g = ngame(seat0({"ashidome": 1, "shuriken": 1}, school="bogai"))
    st = load(g, HANDS, to_play=0, points=[1, 0, 0, 0])
    assert jutsu_legal(g, st) == set()
    st = load(g, HANDS, to_play=0, points=[2, 0, 0, 0])
    assert jutsu_legal(g, st) == {ASH(1)}
    st = load(g, HANDS, to_play=0, points=[3, 0, 0, 0])
    assert jutsu_legal(g, st) == {ASH(1), SHU(1)}
