"""雷遁 (raiton, flush) — rules file §2.1, §1-3, §8 A24, A25.

Clears the field now (like an 8-cut by the activator: field, lock, 11-back, previous-play record
and responses reset; the revolution is untouched) and the activator leads. Lv1–2 only when the
field play has ≤2 cards; Lv3+ any size; Lv5 cost 3 and +1 point after the flush. Field must be
non-empty. Base cost 4. Not a "play that cleared the field" for school 雷.
"""
from __future__ import annotations

import pytest

from .ninja_helpers import PASS, RAITON, is_legal, jutsu_legal, load, ngame, points, pos, seat0, step

HANDS = [["S4", "H5", "CT", "HA"], ["S6", "HT", "CJ"], ["HJ", "CQ", "SA"], ["HQ", "CK", "S2"]]
FIELDS = {
    "single": {"cards": ["SK"], "owner": 3, "kind": "single"},
    "pair": {"cards": ["S9", "H9"], "owner": 3, "kind": "group"},
    "triple": {"cards": ["S7", "H7", "D7"], "owner": 3, "kind": "group"},
    "seq3": {"cards": ["C4", "C5", "C6"], "owner": 3, "kind": "sequence"},
    "seq4": {"cards": ["D9", "DT", "DJ", "DQ"], "owner": 3, "kind": "sequence"},
    "quad": {"cards": ["S3", "H3", "D3", "C3"], "owner": 3, "kind": "group"},
}
SMALL = ("single", "pair")
LARGE = ("triple", "seq3", "seq4", "quad")


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("field", SMALL + LARGE)
def test_lv1_2_only_on_field_of_at_most_two_cards(level, field):
    g = ngame(seat0({"raiton": level}))
    st = load(g, HANDS, to_play=0, field=FIELDS[field], points=[4, 0, 0, 0])
    assert (RAITON in jutsu_legal(g, st)) == (field in SMALL)


@pytest.mark.parametrize("level", [3, 4, 5])
@pytest.mark.parametrize("field", SMALL + LARGE)
def test_lv3_plus_any_field_size(level, field):
    g = ngame(seat0({"raiton": level}))
    st = load(g, HANDS, to_play=0, field=FIELDS[field], points=[4, 0, 0, 0])
    assert RAITON in jutsu_legal(g, st)


@pytest.mark.parametrize("level", [1, 3, 5])
def test_not_on_an_empty_field(level):
    g = ngame(seat0({"raiton": level}))
    st = load(g, HANDS, to_play=0, points=[6, 0, 0, 0])
    assert RAITON not in jutsu_legal(g, st)


@pytest.mark.parametrize("level,pts,offered", [
    (1, 3, False), (1, 4, True), (4, 3, False), (4, 4, True), (5, 2, False), (5, 3, True)])
def test_cost_4_and_lv5_cost_3(level, pts, offered):
    g = ngame(seat0({"raiton": level}))
    st = load(g, HANDS, to_play=0, field=FIELDS["single"], points=[pts, 0, 0, 0])
    assert (RAITON in jutsu_legal(g, st)) == offered


def test_clears_field_and_lock_keeps_revolution_activator_leads():
    g = ngame(seat0({"raiton": 3}))
    st = load(g, HANDS, to_play=0, field=FIELDS["triple"], lock=["S", "H", "D"], revolution=True,
              responses=2, passed=[False, True, True, False], points=[5, 0, 0, 0])
    step(g, st, RAITON)
    p = pos(g, st)
    assert p["field"] is None
    assert p["lock"] is None
    assert p["revolution"] is True  # A24: 雷遁 never ends a revolution
    assert p["to_play"] == 0
    assert p["points"] == [1, 0, 0, 0]
    assert p["uses_left"][0]["raiton"] == 1
    assert {"S7", "H7", "D7"} <= set(p["discard"])
    assert not is_legal(g, st, PASS)  # the activator must lead
    assert is_legal(g, st, "S4") and is_legal(g, st, "HA")
    assert jutsu_legal(g, st) == set()
    # A fresh trick: the responses were reset, so one pass after the lead does not end it.
    step(g, st, "S4")
    assert pos(g, st)["to_play"] == 1
    step(g, st, PASS)
    step(g, st, PASS)
    p = pos(g, st)
    assert p["field"]["cards"] == ["S4"] and p["to_play"] == 3
    assert p["lock"] is None


def test_lead_after_raiton_is_free_of_the_old_lock():
    """The ♠-lock of the old trick is gone: the new lead may be any card, any suit."""
    g = ngame(seat0({"raiton": 1}))
    st = load(g, HANDS, to_play=0, field={"cards": ["SK"], "owner": 3, "kind": "single"}, lock=["S"],
              points=[4, 0, 0, 0])
    assert not is_legal(g, st, "H5") and not is_legal(g, st, "CT")
    step(g, st, RAITON)
    assert is_legal(g, st, "H5") and is_legal(g, st, "CT") and is_legal(g, st, "S4")


def test_clears_eleven_back():
    g = ngame(seat0({"raiton": 1}), declarations=(8,))
    st = load(g, HANDS, to_play=0, field={"cards": ["SJ"], "owner": 3, "kind": "single"}, eleven_back=True,
              declaration=8, points=[4, 0, 0, 0])
    step(g, st, RAITON)
    p = pos(g, st)
    assert p["eleven_back"] is False and p["field"] is None


@pytest.mark.parametrize("level,start,expected", [(1, 4, 0), (4, 6, 2), (5, 3, 1), (5, 6, 4), (5, 4, 2)])
def test_lv5_gains_a_point_after_the_flush(level, start, expected):
    g = ngame(seat0({"raiton": level}))
    st = load(g, HANDS, to_play=0, field=FIELDS["pair"], points=[start, 0, 0, 0])
    step(g, st, RAITON)
    assert points(g, st)[0] == expected


@pytest.mark.parametrize("level,start,expected", [(1, 4, 0), (5, 3, 1)])
def test_school_rai_gets_nothing_for_raiton(level, start, expected):
    """A25: 雷遁 is a jutsu, not a play: school 雷 gets no +1 (Lv5 still gets its own +1)."""
    g = ngame(seat0({"raiton": level}, school="rai"))
    st = load(g, HANDS, to_play=0, field=FIELDS["single"], points=[start, 0, 0, 0])
    step(g, st, RAITON)
    assert points(g, st)[0] == expected


def test_other_seats_points_untouched():
    g = ngame(seat0({"raiton": 5}))
    st = load(g, HANDS, to_play=0, field=FIELDS["single"], points=[3, 2, 4, 6])
    step(g, st, RAITON)
    assert points(g, st) == [1, 2, 4, 6]
