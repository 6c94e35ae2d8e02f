"""The battle phase worked by hand (rules file §4.5, §4.6) and the final score and rewards.

Test layout: chip n on P_(n-2): 九州 #2, 四国 #3, 種子島 #4, 播磨 #5, 京 #6, 敦賀 #7, 三河 #8, 信濃 #9,
奥州 #10, 鎌倉 #11, 蝦夷 #12.
"""
from __future__ import annotations

import json

import numpy as np

from tests.nigejozu.helpers import count_die, load, position, step

# Before Hojo's last placement (Ashikaga emptied first and holds the 逃げチップ). 15 troops a side.
WORKED = {
    "九州": (0, 1), "種子島": (0, 2), "播磨": (2, 2), "京": (1, 2), "敦賀": (2, 1), "三河": (4, 1), "信濃": (1, 2),
    "奥州": (1, 0), "鎌倉": (1, 1), "蝦夷": (0, 3),
}


def _worked_game(**options):
    pos = position(WORKED, to_play="hojo", escape="ashikaga", phase="rerolled", dice=[1, 5, 1])
    g, st = load(pos, troops_per_player=15, **options)
    assert st.hand[0].tolist() == [3, 0]
    step(g, st, count_die(2))  # die 5 -> 3 troops on chip 1+1 = 2 (九州): the last troops, the battle runs
    return g, st


def test_battle_worked_by_hand_with_reinforcements_flipping_provinces():
    g, st = _worked_game()
    assert st.terminated[0]
    battle = g.to_position(st)["battle"]
    # #2 九州 3:1 Hojo -> 援軍 to 播磨 (Hojo troops there; 四国/種子島 have none of Hojo's).
    # #3 四国 empty: chip set aside, no 援軍.  #4 種子島 Ashikaga alone.
    # #5 播磨 2+1 : 2 -> Hojo (without the 援軍 the 2:2 tie would go to the chip holder Ashikaga) -> 援軍 to 京.
    # #6 京 1+1 : 2 tie -> Ashikaga (逃げチップ) -> 援軍 to 敦賀 and 三河 (not to resolved 播磨).
    # #7 敦賀 2 : 1+1 tie -> Ashikaga (Hojo would have won without the 援軍) -> 援軍 to 三河 and 信濃.
    # #8 三河 4 : 1+2 -> Hojo -> 援軍 to 信濃 and 鎌倉.  #9 信濃 1+1 : 2+1 -> Ashikaga -> 援軍 to 鎌倉.
    # #10 奥州 Hojo alone -> 援軍 to 鎌倉 (蝦夷 has no Hojo troop).  #11 鎌倉 1+2 : 1+1 -> Hojo
    # (a 1:1 tie would have gone to Ashikaga).  #12 蝦夷 Ashikaga alone.
    assert battle["chips_taken"] == {
        "九州": "hojo", "四国": None, "種子島": "ashikaga", "播磨": "hojo", "京": "ashikaga", "敦賀": "ashikaga",
        "三河": "hojo", "信濃": "ashikaga", "奥州": "hojo", "鎌倉": "hojo", "蝦夷": "ashikaga",
    }
    assert battle["reinforcements"] == {
        "九州": [0, 0], "四国": [0, 0], "種子島": [0, 0], "播磨": [1, 0], "京": [1, 0], "敦賀": [0, 1], "三河": [0, 2],
        "信濃": [1, 1], "奥州": [0, 0], "鎌倉": [2, 1], "蝦夷": [0, 0],
    }
    assert battle["score"] == {"hojo": 2 + 5 + 8 + 10 + 11, "ashikaga": 4 + 6 + 7 + 9 + 12}
    assert battle["winner"] == "ashikaga"
    assert st.rewards[0].tolist() == [-1.0, 1.0]
    assert g.winner(st).tolist() == [1]
    text = g.render_text(st)
    assert "#5  播磨" in text and "score 北条 36 : 38 足利" in text
    json.dumps(g.to_position(st))


def test_worked_battle_with_score_diff_reward():
    g, st = _worked_game(reward_scheme="score_diff")
    np.testing.assert_allclose(st.rewards[0], [(36 - 38) / 77, (38 - 36) / 77], rtol=1e-6)


def test_two_reinforcements_per_win_option():
    g, st = _worked_game(reinf_per_win=2)
    rf = g.to_position(st)["battle"]["reinforcements"]
    # #2 Hojo -> 播磨 +2: 4 vs 2 Hojo -> 京 +2: 3 vs 2 Hojo now (京 flips back) ...
    assert rf["播磨"] == [2, 0] and rf["京"] == [2, 0]
    assert g.to_position(st)["battle"]["chips_taken"]["京"] == "hojo"


def _tie_game(**options):
    # Hojo emptied first (九州 #2 and 三河 #8: 10); Ashikaga's last placement completes 京 #6 + 種子島 #4 = 10.
    pos = position({"九州": (6, 0), "三河": (6, 0), "京": (0, 6), "種子島": (0, 3)}, to_play="ashikaga",
                   escape="hojo", phase="dice", dice=[2, 5, 2])
    g, st = load(pos, troops_per_player=12, **options)
    step(g, st, count_die(2))  # die 5 -> 3 troops on chip 2+2 = 4 (種子島)
    return g, st


def test_score_tie_goes_to_the_escape_chip_holder():
    g, st = _tie_game()
    assert g.to_position(st)["battle"]["score"] == {"hojo": 10, "ashikaga": 10}
    assert st.rewards[0].tolist() == [1.0, -1.0]
    assert g.to_position(st)["battle"]["winner"] == "hojo"


def test_score_tie_with_score_diff_reward_gives_zero():
    g, st = _tie_game(reward_scheme="score_diff")
    assert st.rewards[0].tolist() == [0.0, 0.0]
    assert g.winner(st).tolist() == [0]


def test_sole_occupants_take_their_chips_and_empty_provinces_score_for_nobody():
    # 九州 #2 Hojo alone (12 troops); 種子島 #4 Ashikaga alone with 1 troop: no 援軍 reaches it because
    # Hojo has no troop there.
    pos = position({"九州": (12, 0), "種子島": (0, 1), "蝦夷": (0, 11)}, phase="over", escape="hojo",
                   to_play="ashikaga", hands=[0, 0])
    g, st = load(pos, troops_per_player=12)
    b = g.to_position(st)["battle"]
    assert b["chips_taken"]["種子島"] == "ashikaga" and b["reinforcements"]["種子島"] == [0, 0]
    assert b["score"] == {"hojo": 2, "ashikaga": 4 + 12}
    assert [p for p, w in b["chips_taken"].items() if w is None] == ["四国", "播磨", "京", "敦賀", "三河", "信濃", "奥州", "鎌倉"]
    assert st.rewards[0].tolist() == [0.0, 0.0], "loading a finished game is not a step"


# ---- an independent oracle: the rules file's §4.5 pseudo-code, transcribed in plain Python -------
ADJ = {
    0: [1, 2, 3], 1: [0, 3, 4], 2: [0], 3: [0, 1, 4], 4: [1, 3, 5, 6], 5: [4, 6, 7], 6: [4, 5, 7, 9],
    7: [5, 6, 8, 9], 8: [7, 9, 10], 9: [6, 7, 8], 10: [8],
}  # §3.1 adjacency lists, land or sea


def oracle(troops, chip, escape, per=1):
    prov_of = {c: p for p, c in enumerate(chip)}
    reinf = [[0, 0] for _ in range(11)]
    score, resolved, winners = [0, 0], set(), {}
    for n in range(2, 13):
        p = prov_of[n]
        t0, t1 = troops[p]
        if t0 == 0 and t1 == 0:
            resolved.add(p)
            continue
        if t0 == 0 or t1 == 0:
            w = 0 if t0 > 0 else 1
        else:
            s0, s1 = t0 + reinf[p][0], t1 + reinf[p][1]
            w = 0 if s0 > s1 else 1 if s1 > s0 else escape
        score[w] += n
        winners[p] = w
        resolved.add(p)
        for q in ADJ[p]:
            if q not in resolved and troops[q][w] > 0:
                reinf[q][w] += per
    return score, winners, reinf


def test_battle_matches_the_rules_pseudo_code_on_random_boards():
    from yuugi.envs import make_game

    rng = np.random.default_rng(11)
    for per in (1, 2):
        g = make_game("nigejozu", reinf_per_win=per, troops_per_player=18)
        st = g.init(np.arange(300))
        for i in range(300):
            # Random final boards: 18 troops a side spread over random provinces (many contested).
            for side in (0, 1):
                spots = rng.choice(11, size=rng.integers(1, 8), replace=False)
                st.troops[i, :, side] = np.bincount(rng.choice(spots, size=18), minlength=11)
        st.hand[:] = 0
        st.escape[:] = rng.integers(0, 2, size=300)
        from yuugi.envs.nigejozu.batch import battle

        battle(st, np.arange(300), g.config)
        for i in range(300):
            score, winners, reinf = oracle(st.troops[i].tolist(), st.chip[i].tolist(), int(st.escape[i]), per)
            assert st.score[i].tolist() == score
            assert {p: int(w) for p, w in enumerate(st.winner_of[i]) if w >= 0} == winners
            assert st.reinf[i].tolist() == reinf
