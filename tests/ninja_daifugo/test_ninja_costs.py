"""Costs, uses, one activation per turn, per-game reset and 極意 — rules file §1 item 6, §2.1
(effective cost), §2.2 D7, §5.2-4, §8 A21.

Effective cost = base (足止め 2, 手裏剣 3, 雷遁 4, 変化 2) − 1 at Lv5 (min 1) + 1 under D7.
Uses per game: Lv1 1, Lv2 2, Lv3 2, Lv4 3, Lv5 3. Points and uses reset every game; 極意 gives +1
starting point.
"""
from __future__ import annotations

import numpy as np
import pytest

from .ninja_helpers import (ASH, BASE_COST, HENGE, PASS, PICK, RAITON, SHU, USES, jutsu_legal, load, mask, ngame,
                            points, pos, seat0, step)

ACTION = {"ashidome": ASH(1), "shuriken": SHU(1), "raiton": RAITON, "henge": HENGE}
# A position where every jutsu's precondition holds for seat 0: a single 9 on the field (雷遁 ≤2
# cards), ♠9 in hand (変化 makes it legal), 3 cards (手裏剣).
HANDS = [["S9", "C4", "D5"], ["S6", "HT", "DJ"], ["S7", "HJ", "DQ"], ["SK", "HQ", "DK"]]
FIELD = {"cards": ["H9"], "owner": 3, "kind": "single"}


def _expected_cost(jutsu: str, level: int, d7: bool) -> int:
    cost = BASE_COST[jutsu] - (1 if level == 5 else 0)
    return min(max(cost, 1) + (1 if d7 else 0), 6)


CASES = [(j, lv, d7) for j in ("ashidome", "shuriken", "raiton", "henge") for lv in (1, 2, 3, 4, 5)
         for d7 in (False, True)]


@pytest.mark.parametrize("jutsu,level,d7", CASES)
def test_effective_cost(jutsu, level, d7):
    cost = _expected_cost(jutsu, level, d7)
    decl = 7 if d7 else 0
    g = ngame(seat0({jutsu: level}), declarations=(decl,))
    st = load(g, HANDS, to_play=0, field=FIELD, declaration=decl, points=[cost - 1, 0, 0, 0])
    assert ACTION[jutsu] not in jutsu_legal(g, st)
    st = load(g, HANDS, to_play=0, field=FIELD, declaration=decl, points=[cost, 0, 0, 0])
    assert ACTION[jutsu] in jutsu_legal(g, st)
    step(g, st, ACTION[jutsu])
    lv5_raiton_bonus = 1 if (jutsu == "raiton" and level == 5) else 0
    assert points(g, st)[0] == lv5_raiton_bonus
    assert pos(g, st)["uses_left"][0][jutsu] == USES[level] - 1


def test_explicit_cost_values():
    """The §2.1 table spelled out (base / Lv5 / D7 / D7+Lv5)."""
    table = {"ashidome": (2, 1, 3, 2), "shuriken": (3, 2, 4, 3), "raiton": (4, 3, 5, 4), "henge": (2, 1, 3, 2)}
    for j, (base, lv5, d7, d7lv5) in table.items():
        assert (_expected_cost(j, 1, False), _expected_cost(j, 5, False), _expected_cost(j, 1, True),
                _expected_cost(j, 5, True)) == (base, lv5, d7, d7lv5)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_uses_per_game_by_level_at_game_start(level):
    g = ngame({"jutsu": {"ashidome": level, "henge": level}}, series_games=1, declarations=(0,))
    st = g.init([3])
    p = pos(g, st)
    for seat in range(4):
        assert p["uses_left"][seat] == {"ashidome": USES[level], "henge": USES[level]}
        assert p["jutsu"][seat] == {"ashidome": level, "henge": level}


def test_uses_table_values():
    assert [USES[lv] for lv in (1, 2, 3, 4, 5)] == [1, 2, 2, 3, 3]


@pytest.mark.parametrize("jutsu", ["ashidome", "shuriken", "raiton", "henge"])
def test_exhausted_jutsu_not_offered(jutsu):
    g = ngame(seat0({jutsu: 4}))
    st = load(g, HANDS, to_play=0, field=FIELD, points=[6, 0, 0, 0], uses_left=[{jutsu: 0}, {}, {}, {}])
    assert jutsu_legal(g, st) == set()
    st = load(g, HANDS, to_play=0, field=FIELD, points=[6, 0, 0, 0], uses_left=[{jutsu: 1}, {}, {}, {}])
    assert ACTION[jutsu] in jutsu_legal(g, st)


def test_lv2_two_uses_then_exhausted():
    g = ngame(seat0({"ashidome": 2}))
    hands = [["S5", "H6", "D7", "CJ"], ["S6", "HT", "DJ"], ["S7", "HJ", "DQ"], ["S9", "HQ", "DK"]]
    st = load(g, hands, to_play=0, points=[6, 0, 0, 0])
    for k, card in enumerate(["S5", "H6"]):
        assert jutsu_legal(g, st) == {ASH(1)}
        step(g, st, ASH(1))
        assert pos(g, st)["uses_left"][0]["ashidome"] == 1 - k
        step(g, st, card)  # seat 1 skipped
        step(g, st, PASS)
        step(g, st, PASS)
        p = pos(g, st)
        assert p["field"] is None and p["to_play"] == 0
    assert points(g, st)[0] == 6 - 2 + 1 - 2 + 1  # two activations, two singles
    assert jutsu_legal(g, st) == set()  # uses exhausted, though 3 points would pay


def test_one_activation_per_turn_then_available_next_turn():
    g = ngame(seat0({"henge": 3, "ashidome": 3}))
    hands = [["S9", "C4", "D5"], ["S6", "HT", "DJ"], ["S7", "HJ", "DQ"], ["SK", "HQ", "DK"]]
    st = load(g, hands, to_play=0, field=FIELD, points=[6, 0, 0, 0])
    assert jutsu_legal(g, st) == {HENGE, ASH(1), ASH(2), ASH(3)}
    step(g, st, HENGE)
    assert jutsu_legal(g, st) == set()  # 4 points and uses left, but one per turn
    assert not mask(g, st)[ASH(1)]
    step(g, st, "S9")
    for _ in range(3):
        step(g, st, PASS)
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 0
    assert p["jutsu_used"] is False
    assert {ASH(1), ASH(2), ASH(3)} <= jutsu_legal(g, st)  # a new turn: 足止め is offered again


def test_no_jutsu_during_the_exchange():
    """A21: never during the exchange — only PICK_CARD actions."""
    g = ngame([{"jutsu": {"ashidome": 3, "shuriken": 3}}] * 4, series_games=2)
    hands = [["S5", "H6", "D7", "CJ"], ["S6", "HT", "DJ"], ["S7", "HJ", "DQ"], ["S9", "HQ", "DK"]]
    st = load(g, hands, to_play=0, phase="exchange", picks_left=2, game_index=1,
              titles=["daifugo", "fugo", "hinmin", "daihinmin"], points=[6, 6, 6, 6])
    assert jutsu_legal(g, st) == set()
    m = mask(g, st)
    assert set(int(i) for i in m.nonzero()[0]) == {PICK(c) for c in ("S5", "H6", "D7", "CJ")}


def test_points_uses_and_skips_reset_at_next_game():
    """§1-6 / §5.2-4: points (to 0, or 1 with 極意) and uses reset every game; skips do not carry over."""
    loadouts = [{"jutsu": {"ashidome": 2, "raiton": 5}, "gokui": True}, {"jutsu": {"henge": 4}}, {},
                {"jutsu": {"shuriken": 1}}]
    g = ngame(loadouts, series_games=2)
    hands = [["S5"], [], [], ["HK", "CK", "DK"]]
    st = load(g, hands, to_play=0, finish_positions=[None, 1, 2, None], points=[4, 3, 2, 5],
              uses_left=[{"ashidome": 0, "raiton": 1}, {"henge": 0}, {}, {"shuriken": 0}],
              skip_pending=[0, 0, 0, 2])
    step(g, st, "S5")  # seat 0 goes out 3rd; seat 3 is last ⇒ game 1 ends, game 2 starts
    p = pos(g, st)
    assert p["game_index"] == 1
    assert p["points"] == [1, 0, 0, 0]
    assert p["uses_left"] == [{"ashidome": 2, "raiton": 3}, {"henge": 3}, {}, {"shuriken": 1}]
    assert p["skip_pending"] == [0, 0, 0, 0]
    assert p["phase"] == "exchange"
    assert jutsu_legal(g, st) == set()


def test_gokui_starting_point_faithful():
    g = ngame({"jutsu": {"raiton": 5, "henge": 2}, "gokui": True}, ninja="faithful")
    for seed in (0, 1):
        st = g.init([seed])
        p = pos(g, st)
        assert p["points"] == [1, 0, 0, 0]
        assert p["gokui"] == [True, False, False, False]
    g = ngame({"jutsu": {"raiton": 5, "henge": 2}}, ninja="faithful")
    assert pos(g, g.init([0]))["points"] == [0, 0, 0, 0]


def test_gokui_starting_point_symmetric():
    g = ngame([{"jutsu": {"ashidome": 5}, "gokui": True}, {}, {"jutsu": {"henge": 5}, "gokui": True},
               {"jutsu": {"henge": 5}}])
    assert pos(g, g.init([0]))["points"] == [1, 0, 1, 0]


def test_d6_doubles_jutsu_gains_not_losses_or_costs():
    """D6 doubles every point *gain* (§2.2): the Lv5 雷遁 +1 and the 妨害 refund become +2; costs and
    the Lv5 target's −1 are not gains and stay as they are."""
    g = ngame(seat0({"raiton": 5}), declarations=(6,))
    st = load(g, HANDS, to_play=0, field=FIELD, declaration=6, points=[3, 0, 0, 0])
    step(g, st, RAITON)
    assert points(g, st)[0] == 0 + 2
    g = ngame(seat0({"ashidome": 1}, school="bogai"), declarations=(6,))
    st = load(g, HANDS, to_play=0, field=FIELD, declaration=6, points=[2, 0, 0, 0])
    step(g, st, ASH(1))
    assert points(g, st)[0] == 0 + 2
    g = ngame(seat0({"ashidome": 5}), declarations=(6,))
    st = load(g, HANDS, to_play=0, field=FIELD, declaration=6, points=[1, 3, 0, 0])
    step(g, st, ASH(1))
    assert points(g, st) == [0, 2, 0, 0]


def test_random_play_keeps_points_and_uses_in_range():
    """Points stay in 0..6 and uses in 0..(uses of the level) through whole random series."""
    g = ngame([{"jutsu": {"ashidome": 5, "shuriken": 3}, "school": "bogai", "gokui": True},
               {"jutsu": {"raiton": 2, "henge": 4}, "school": "rai"},
               {"jutsu": {"henge": 5, "raiton": 1}, "school": "henge"},
               {"jutsu": {"shuriken": 1, "ashidome": 2}}], series_games=2, declarations=(0, 6, 7))
    rng = np.random.default_rng(5)
    st = g.init([21, 22, 23])
    limits = [{"ashidome": 3, "shuriken": 2}, {"raiton": 2, "henge": 3}, {"henge": 3, "raiton": 1},
              {"shuriken": 1, "ashidome": 2}]
    for _ in range(1500):
        if st.terminated.all():
            break
        m = g.legal_mask(st)
        acts = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in m])
        g.step(st, acts)
        for i in range(3):
            p = g.to_position(st, i)
            assert all(0 <= x <= 6 for x in p["points"])
            for seat in range(4):
                for j, u in p["uses_left"][seat].items():
                    assert 0 <= u <= limits[seat][j]
    assert st.terminated.all()
