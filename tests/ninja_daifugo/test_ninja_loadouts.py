"""Loadouts and ninja modes — rules file §1 items 1, 6–7, §2.1 (CPU loadouts, equip rules), §2.4,
§8 A29, A30.

faithful (default): seat 0 configurable; seats 1–3 are the CPUs ジライヤ (雷遁+手裏剣), お館様
(足止め+雷遁), モコ (変化+足止め), all Lv1, no school. symmetric: one loadout for every seat or a list
of four. A loadout: at most 2 jutsu, levels 1..5, school None/雷/変化/妨害, 極意 only with a Lv5 jutsu.
ninja="off": plain daifugō, every jutsu masked.
"""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError

from .ninja_helpers import ASH, HENGE, JUTSU_RANGE, RAITON, SHU, jutsu_legal, load, mask, ngame, points, pos, step

CPU_JUTSU = [{"raiton": 1, "shuriken": 1}, {"ashidome": 1, "raiton": 1}, {"henge": 1, "ashidome": 1}]


def test_default_mode_is_faithful_with_the_cpu_loadouts():
    g = make_game("ninja_daifugo", series_games=1, declarations=(0,))
    p = pos(g, g.init([0]))
    assert p["jutsu"][1:] == CPU_JUTSU
    assert p["uses_left"][1:] == [{k: 1 for k in d} for d in CPU_JUTSU]  # Lv1: once per game
    assert p["school"][1:] == [None, None, None]
    assert p["gokui"][1:] == [False, False, False]
    assert p["points"][1:] == [0, 0, 0]


@pytest.mark.parametrize("school", [None, "rai", "henge", "bogai"])
def test_faithful_seat0_configurable(school):
    spec = {"jutsu": {"henge": 5, "ashidome": 3}, "school": school, "gokui": True}
    g = ngame(spec, ninja="faithful")
    p = pos(g, g.init([1]))
    assert p["jutsu"][0] == {"henge": 5, "ashidome": 3}
    assert p["uses_left"][0] == {"henge": 3, "ashidome": 2}
    assert p["school"][0] == school
    assert p["gokui"][0] is True
    assert p["points"][0] == 1
    # The CPUs do not change with seat 0's loadout.
    assert p["jutsu"][1:] == CPU_JUTSU
    assert p["school"][1:] == [None, None, None]
    assert p["gokui"][1:] == [False, False, False]


def test_symmetric_one_dict_for_every_seat():
    spec = {"jutsu": {"shuriken": 4, "raiton": 2}, "school": "rai"}
    g = ngame(spec, ninja="symmetric")
    p = pos(g, g.init([2]))
    assert p["jutsu"] == [{"shuriken": 4, "raiton": 2}] * 4
    assert p["uses_left"] == [{"shuriken": 3, "raiton": 2}] * 4
    assert p["school"] == ["rai"] * 4


def test_symmetric_list_of_four():
    specs = [{"jutsu": {"ashidome": 1}}, {"jutsu": {"shuriken": 2}, "school": "bogai"},
             {"jutsu": {"raiton": 3, "henge": 5}, "gokui": True}, {}]
    g = ngame(specs, ninja="symmetric")
    p = pos(g, g.init([3]))
    assert p["jutsu"] == [{"ashidome": 1}, {"shuriken": 2}, {"raiton": 3, "henge": 5}, {}]
    assert p["uses_left"] == [{"ashidome": 1}, {"shuriken": 2}, {"raiton": 2, "henge": 3}, {}]
    assert p["school"] == [None, "bogai", None, None]
    assert p["gokui"] == [False, False, True, False]
    assert p["points"] == [0, 0, 1, 0]


INVALID = {
    "three_jutsu": {"jutsu": {"ashidome": 1, "shuriken": 1, "raiton": 1}},
    "level_6": {"jutsu": {"ashidome": 6}},
    "level_0": {"jutsu": {"henge": 0}},
    "unknown_jutsu": {"jutsu": {"katon": 1}},
    "gokui_without_lv5": {"jutsu": {"ashidome": 4, "henge": 4}, "gokui": True},
    "unknown_school": {"jutsu": {"ashidome": 1}, "school": "fire"},
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_loadout_faithful(case):
    with pytest.raises(OptionError):
        make_game("ninja_daifugo", series_games=1, ninja="faithful", loadouts=INVALID[case])


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_loadout_symmetric(case):
    with pytest.raises(OptionError):
        make_game("ninja_daifugo", series_games=1, ninja="symmetric", loadouts=INVALID[case])
    with pytest.raises(OptionError):
        make_game("ninja_daifugo", series_games=1, ninja="symmetric", loadouts=[{}, {}, INVALID[case], {}])


def test_symmetric_list_must_have_four():
    with pytest.raises(OptionError):
        make_game("ninja_daifugo", series_games=1, ninja="symmetric", loadouts=[{}, {}, {}])


def test_unknown_ninja_mode():
    with pytest.raises(OptionError):
        make_game("ninja_daifugo", series_games=1, ninja="bogus")


def test_valid_edge_loadouts_accepted():
    for spec in ({"jutsu": {}}, {"jutsu": {"ashidome": 5}, "gokui": True}, {"jutsu": {"henge": 1, "raiton": 5}},
                 {"jutsu": {"shuriken": 2}, "school": None}):
        make_game("ninja_daifugo", series_games=1, ninja="faithful", loadouts=spec)
        make_game("ninja_daifugo", series_games=1, ninja="symmetric", loadouts=spec)


def _cpu_turn_position(seat: int):
    hands = [["S5", "H6", "D7"], ["S6", "HT", "DJ"], ["S7", "HJ", "DQ"], ["C9", "C4", "D5"]]
    field = {"cards": ["H9"], "owner": (seat - 1) % 4, "kind": "single"}
    pts = [0, 0, 0, 0]
    pts[seat] = 6
    return hands, field, pts


@pytest.mark.parametrize("seat,expected", [
    (1, {RAITON, SHU(1)}),  # ジライヤ: 雷遁 + 手裏剣 (Lv1: next opponent only)
    (2, {ASH(1), RAITON}),  # お館様: 足止め + 雷遁
    (3, {HENGE, ASH(1)}),  # モコ: 変化 + 足止め (♣9 becomes legal with the boost)
])
def test_faithful_cpu_jutsu_in_play(seat, expected):
    g = ngame(None, ninja="faithful")
    hands, field, pts = _cpu_turn_position(seat)
    st = load(g, hands, to_play=seat, field=field, points=pts)
    assert jutsu_legal(g, st) == expected


def test_faithful_cpu_costs_are_base_and_points_follow_the_table():
    g = ngame(None, ninja="faithful")
    hands, field, _ = _cpu_turn_position(1)
    st = load(g, hands, to_play=1, field=field, points=[0, 3, 0, 0])
    assert jutsu_legal(g, st) == {SHU(1)}  # 手裏剣 3; 雷遁 needs 4
    st = load(g, hands, to_play=1, field=field, points=[0, 4, 0, 0])
    step(g, st, RAITON)
    assert points(g, st)[1] == 0
    step(g, st, "HT")
    assert points(g, st)[1] == 1  # CPUs earn points by the same table


def test_ninja_off_masks_all_jutsu():
    g = make_game("ninja_daifugo", series_games=1, declarations=(0,), ninja="off")
    hands = [["S9", "C4", "D5"], ["S6", "HT", "DJ"], ["S7", "HJ", "DQ"], ["SK", "HQ", "DK"]]
    st = load(g, hands, to_play=0, field={"cards": ["H9"], "owner": 3, "kind": "single"})
    assert not mask(g, st)[JUTSU_RANGE.start:JUTSU_RANGE.stop].any()


def test_ninja_off_random_games_never_offer_jutsu_or_points():
    g = make_game("ninja_daifugo", series_games=2, ninja="off")
    rng = np.random.default_rng(7)
    st = g.init([11, 12, 13, 14])
    for _ in range(1200):
        if st.terminated.all():
            break
        m = g.legal_mask(st)
        assert not m[:, JUTSU_RANGE.start:JUTSU_RANGE.stop].any()
        acts = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in m])
        g.step(st, acts)
        for i in range(4):
            assert g.to_position(st, i)["points"] == [0, 0, 0, 0]
