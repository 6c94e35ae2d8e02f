"""Scenario tests for the twelve strategy-card effects (rules file §3.3, §4.4 CARD(e), §4.8).

Board layout of every test: chip of P_k is k + 2 (九州 #2 .. 蝦夷 #12). Adjacency from §3.1:
九州: 四国 S, 種子島 S, 播磨 S | 四国: 九州 S, 播磨 S, 京 S | 種子島: 九州 S | 播磨: 九州 S, 四国 S, 京 L
京: 四国 S, 播磨 L, 敦賀 L, 三河 L | 敦賀: 京, 三河, 信濃 | 三河: 京, 敦賀, 信濃, 鎌倉
信濃: 敦賀, 三河, 奥州, 鎌倉 | 奥州: 信濃 L, 鎌倉 L, 蝦夷 S | 鎌倉: 三河, 信濃, 奥州 | 蝦夷: 奥州 S
"""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.core.errors import IllegalActionError
from tests.nigejozu.helpers import (board, card, legal, legal_cards, legal_provinces, load, position, prov, step,
                                    troops)

HOJO_CARDS = {"hojo": ["神力", "退却", "忍"], "ashikaga": ["追放", "謀反", "人質"]}  # C1 C2 C3 | C4 C5 C6
HOJO_CARDS_2 = {"hojo": ["囮", "加勢", "分隊"], "ashikaga": ["山越え", "上洛", "物見"]}  # C4 C5 C6 | C1 C2 C3


def _turn_passed(st, to: str = "ashikaga") -> None:
    assert st.phase[0] == 0, "back to the start of a turn"
    assert ["hojo", "ashikaga"][int(st.to_play[0])] == to


# ---- 加勢 E0 -------------------------------------------------------------------------------------
def test_kasei_places_one_from_hand_in_an_occupied_province():
    g, st = load(position({"京": (2, 0), "蝦夷": (1, 0), "信濃": (0, 1)}, cards=HOJO_CARDS_2))
    assert "加勢" in legal_cards(g, st)
    step(g, st, card("加勢"))
    assert legal_provinces(g, st) == {"京", "蝦夷"}
    assert legal(g, st) == {"PROVINCE 京", "PROVINCE 蝦夷"}, "a card cannot be abandoned for a roll"
    step(g, st, prov("京"))
    assert board(st) == {"京": (3, 0), "蝦夷": (1, 0), "信濃": (0, 1)}
    assert st.hand[0].tolist() == [18 - 4, 17]
    _turn_passed(st)
    assert g.to_position(st)["used"] == {"hojo": "加勢", "ashikaga": None}, "the marker is on 加勢"


def test_kasei_needs_a_troop_on_the_board():
    g, st = load(position({"信濃": (0, 1)}, cards=HOJO_CARDS_2))
    assert "加勢" not in legal_cards(g, st)


def test_kasei_emptying_the_hand_takes_the_escape_chip_and_locks_cards():
    g, st = load(position({"京": (17, 0), "信濃": (0, 2)}, cards=HOJO_CARDS_2))
    assert st.hand[0].tolist() == [1, 16]
    step(g, st, card("加勢"), prov("京"))
    assert int(st.escape[0]) == 0 and st.hand[0, 0] == 0
    _turn_passed(st)
    assert legal(g, st) == {"ROLL"}, "cards are locked for both once a hand is empty"


# ---- 物見 E1 -------------------------------------------------------------------------------------
def test_monomi_moves_one_troop_to_any_adjacent_province():
    g, st = load(position({"種子島": (0, 1), "京": (0, 2), "鎌倉": (3, 0)}, to_play="ashikaga", cards=HOJO_CARDS_2))
    step(g, st, card("物見"))
    assert legal_provinces(g, st) == {"種子島", "京"}
    step(g, st, prov("種子島"))
    assert legal_provinces(g, st) == {"九州"}, "種子島's only link is the sea link to 九州"
    step(g, st, prov("九州"))
    assert board(st) == {"九州": (0, 1), "京": (0, 2), "鎌倉": (3, 0)}
    _turn_passed(st, "hojo")


# ---- 人質 E2 -------------------------------------------------------------------------------------
def test_hitojichi_moves_an_enemy_troop_into_an_adjacent_own_province():
    g, st = load(position({"播磨": (2, 0), "敦賀": (1, 0), "蝦夷": (1, 0), "京": (0, 1)}, to_play="ashikaga"))
    step(g, st, card("人質"))
    assert legal_provinces(g, st) == {"播磨", "敦賀"}, "蝦夷 is not next to any Ashikaga troop"
    step(g, st, prov("敦賀"))
    assert legal_provinces(g, st) == {"京"}, "Y must be adjacent and Ashikaga-occupied"
    step(g, st, prov("京"))
    assert board(st) == {"播磨": (2, 0), "京": (1, 1), "蝦夷": (1, 0)}
    _turn_passed(st, "hojo")


def test_hitojichi_unusable_when_no_enemy_troop_is_next_to_yours():
    g, st = load(position({"九州": (3, 0), "蝦夷": (0, 2)}, to_play="ashikaga"))
    assert "人質" not in legal_cards(g, st)
    assert "謀反" in legal_cards(g, st)


# ---- 追放 E3 -------------------------------------------------------------------------------------
def test_tsuihou_expels_an_enemy_troop_from_a_shared_province():
    g, st = load(position({"京": (2, 1), "九州": (1, 0), "鎌倉": (0, 3)}, to_play="ashikaga"))
    step(g, st, card("追放"))
    assert legal_provinces(g, st) == {"京"}
    step(g, st, prov("京"))
    assert legal_provinces(g, st) == {"四国", "播磨", "敦賀", "三河"}
    step(g, st, prov("三河"))
    assert board(st) == {"京": (1, 1), "三河": (1, 0), "九州": (1, 0), "鎌倉": (0, 3)}


def test_tsuihou_needs_a_shared_province():
    g, st = load(position({"京": (2, 0), "三河": (0, 1)}, to_play="ashikaga"))
    assert "追放" not in legal_cards(g, st)


# ---- 謀反 E4 -------------------------------------------------------------------------------------
def test_muhon_returns_the_enemy_troop_to_its_hand_and_replaces_it():
    g, st = load(position({"京": (2, 0), "九州": (1, 0), "鎌倉": (0, 1)}, to_play="ashikaga"))
    step(g, st, card("謀反"))
    assert legal_provinces(g, st) == {"京", "九州"}
    step(g, st, prov("九州"))
    assert board(st) == {"京": (2, 0), "九州": (0, 1), "鎌倉": (0, 1)}
    assert st.hand[0].tolist() == [15 + 1, 17 - 1]
    _turn_passed(st, "hojo")


def test_muhon_option_removes_the_enemy_troop_from_the_game():
    g, st = load(position({"京": (2, 0), "鎌倉": (0, 1)}, to_play="ashikaga"), muhon_returns_to_hand=False)
    step(g, st, card("謀反"), prov("京"))
    assert board(st) == {"京": (1, 1), "鎌倉": (0, 1)}
    assert st.hand[0].tolist() == [16, 16] and st.removed[0].tolist() == [1, 0]
    assert g.to_position(st)["removed"] == {"hojo": 1, "ashikaga": 0}


def test_muhon_needs_an_enemy_troop_on_the_board():
    g, st = load(position({"鎌倉": (0, 1)}, to_play="ashikaga"))
    assert "謀反" not in legal_cards(g, st)


# ---- 囮 E5 ---------------------------------------------------------------------------------------
def test_otori_moves_one_own_and_two_enemy_troops():
    g, st = load(position({"京": (1, 2), "信濃": (3, 1)}, cards=HOJO_CARDS_2))
    step(g, st, card("囮"))
    assert legal_provinces(g, st) == {"京"}, "信濃 has only one enemy troop"
    step(g, st, prov("京"))
    assert legal_provinces(g, st) == {"四国", "播磨", "敦賀", "三河"}
    step(g, st, prov("播磨"))
    assert board(st) == {"播磨": (1, 2), "信濃": (3, 1)}


def test_otori_needs_two_enemy_troops_with_one_of_yours():
    g, st = load(position({"京": (1, 1), "信濃": (0, 2)}, cards=HOJO_CARDS_2))
    assert "囮" not in legal_cards(g, st)


# ---- 神力 E6 -------------------------------------------------------------------------------------
def test_shinriki_moves_two_across_a_sea_link_only():
    g, st = load(position({"奥州": (2, 0), "信濃": (3, 0), "九州": (1, 0), "京": (0, 1)}))
    step(g, st, card("神力"))
    assert legal_provinces(g, st) == {"奥州"}, "信濃 has no sea link; 九州 has only one troop"
    step(g, st, prov("奥州"))
    assert legal_provinces(g, st) == {"蝦夷"}, "奥州's land neighbours are not offered"
    step(g, st, prov("蝦夷"))
    assert board(st) == {"蝦夷": (2, 0), "信濃": (3, 0), "九州": (1, 0), "京": (0, 1)}


def test_shinriki_unusable_when_no_pair_has_a_sea_link():
    g, st = load(position({"信濃": (5, 0), "九州": (1, 0), "京": (0, 1)}))
    assert "神力" not in legal_cards(g, st)


# ---- 山越え E7 -----------------------------------------------------------------------------------
def test_yamagoe_unusable_when_all_troops_are_in_sea_surrounded_provinces():
    # The seed's own example: 九州, 四国, 種子島, 蝦夷 have no land border.
    g, st = load(position({"九州": (0, 3), "四国": (0, 2), "種子島": (0, 2), "蝦夷": (0, 4), "京": (1, 0)},
                          to_play="ashikaga", cards=HOJO_CARDS_2))
    assert "山越え" not in legal_cards(g, st)
    assert {"物見", "上洛"} <= legal_cards(g, st), "other cards stay usable"
    with pytest.raises(IllegalActionError):
        g.step(st, np.array([card("山越え")]))


def test_yamagoe_moves_two_across_a_land_border_only():
    g, st = load(position({"京": (0, 2), "九州": (0, 4), "鎌倉": (1, 0)}, to_play="ashikaga", cards=HOJO_CARDS_2))
    step(g, st, card("山越え"))
    assert legal_provinces(g, st) == {"京"}
    step(g, st, prov("京"))
    assert legal_provinces(g, st) == {"播磨", "敦賀", "三河"}, "四国 is a sea link"
    step(g, st, prov("敦賀"))
    assert board(st) == {"敦賀": (0, 2), "九州": (0, 4), "鎌倉": (1, 0)}


def test_yamagoe_needs_two_troops_in_one_province():
    g, st = load(position({"京": (0, 1), "三河": (0, 1), "鎌倉": (1, 0)}, to_play="ashikaga", cards=HOJO_CARDS_2))
    assert "山越え" not in legal_cards(g, st)


# ---- 退却 E8 -------------------------------------------------------------------------------------
def test_taikyaku_returns_exactly_three_one_pick_at_a_time():
    g, st = load(position({"京": (2, 0), "九州": (1, 0), "信濃": (0, 1)}))
    step(g, st, card("退却"))
    assert legal_provinces(g, st) == {"京", "九州"}
    step(g, st, prov("九州"))
    assert legal_provinces(g, st) == {"京"}, "recomputed after each pick"
    assert int(st.to_play[0]) == 0
    step(g, st, prov("京"), prov("京"))
    assert board(st) == {"信濃": (0, 1)}
    assert st.hand[0].tolist() == [18, 17]
    _turn_passed(st)


def test_taikyaku_needs_n_troops_on_the_board():
    g, st = load(position({"京": (1, 0), "九州": (1, 0), "信濃": (0, 1)}))
    assert "退却" not in legal_cards(g, st)
    g2, st2 = load(position({"京": (1, 0), "九州": (1, 0), "信濃": (0, 1)}), taikyaku_n=2)
    assert "退却" in legal_cards(g2, st2)
    step(g2, st2, card("退却"), prov("京"), prov("九州"))
    assert board(st2) == {"信濃": (0, 1)} and int(st2.to_play[0]) == 1, "taikyaku_n=2 ends after two picks"


# ---- 忍 E9 ---------------------------------------------------------------------------------------
def test_shinobi_moves_one_to_another_own_province_anywhere():
    g, st = load(position({"九州": (1, 0), "蝦夷": (2, 0), "京": (0, 1)}))
    step(g, st, card("忍"))
    assert legal_provinces(g, st) == {"九州", "蝦夷"}
    step(g, st, prov("蝦夷"))
    assert legal_provinces(g, st) == {"九州"}, "no adjacency needed, but the destination must be own-occupied"
    step(g, st, prov("九州"))
    assert board(st) == {"九州": (2, 0), "蝦夷": (1, 0), "京": (0, 1)}


def test_shinobi_needs_two_occupied_provinces():
    g, st = load(position({"蝦夷": (6, 0), "京": (0, 1)}))
    assert "忍" not in legal_cards(g, st)


# ---- 分隊 E10 ------------------------------------------------------------------------------------
def test_buntai_moves_half_rounded_down():
    g, st = load(position({"京": (5, 0), "九州": (1, 0), "信濃": (0, 1)}, cards=HOJO_CARDS_2))
    step(g, st, card("分隊"))
    assert legal_provinces(g, st) == {"京"}
    step(g, st, prov("京"))
    assert legal_provinces(g, st) == {"四国", "播磨", "敦賀", "三河"}
    step(g, st, prov("四国"))
    assert board(st) == {"京": (3, 0), "四国": (2, 0), "九州": (1, 0), "信濃": (0, 1)}


def test_buntai_needs_two_in_a_province():
    g, st = load(position({"京": (1, 0), "九州": (1, 0), "信濃": (0, 1)}, cards=HOJO_CARDS_2))
    assert "分隊" not in legal_cards(g, st)


# ---- 上洛 E11 ------------------------------------------------------------------------------------
def test_jouraku_gathers_troops_in_kyo_until_no_source_is_left():
    g, st = load(position({"四国": (0, 1), "播磨": (0, 2), "信濃": (0, 3), "京": (1, 0)}, to_play="ashikaga",
                          cards=HOJO_CARDS_2))
    step(g, st, card("上洛"))
    assert legal(g, st) == {"PROVINCE 四国", "PROVINCE 播磨"}, "DONE only after one move; 信濃 is not next to 京"
    step(g, st, prov("播磨"))
    assert legal(g, st) == {"PROVINCE 四国", "PROVINCE 播磨", "DONE"}
    step(g, st, prov("播磨"), prov("四国"))
    assert board(st) == {"京": (1, 3), "信濃": (0, 3)}
    _turn_passed(st, "hojo")  # finished by itself: no troop left next to 京


def test_jouraku_done_after_one_move():
    g, st = load(position({"三河": (0, 4), "京": (1, 0)}, to_play="ashikaga", cards=HOJO_CARDS_2))
    step(g, st, card("上洛"), prov("三河"), "DONE")
    assert board(st) == {"京": (1, 1), "三河": (0, 3)}
    _turn_passed(st, "hojo")


def test_jouraku_needs_a_troop_next_to_kyo():
    g, st = load(position({"京": (0, 2), "信濃": (0, 1), "九州": (1, 0)}, to_play="ashikaga", cards=HOJO_CARDS_2))
    assert "上洛" not in legal_cards(g, st)


# ---- card rules common to all ---------------------------------------------------------------------
def test_only_own_faces_of_own_cards_and_only_once_per_game():
    g, st = load(position({"京": (2, 2), "九州": (1, 1)}))
    assert legal_cards(g, st) == {"神力", "退却", "忍"}, "only Hojo's faces (京 has a sea link to 四国)"
    step(g, st, card("忍"), prov("京"), prov("九州"))
    step(g, st, "ROLL", "COUNT_DIE 0")  # Ashikaga places
    assert int(st.to_play[0]) == 0
    assert legal_cards(g, st) == set(), "Hojo's marker is used"


def test_cards_illegal_after_rolling():
    g, st = load(position({"京": (2, 2), "九州": (1, 1)}))
    step(g, st, "ROLL")
    assert legal_cards(g, st) == set()


def test_single12_model_lets_each_card_be_held_by_either_side():
    pos = position({"三河": (0, 2), "九州": (1, 0)}, to_play="ashikaga",
                   cards={"hojo": ["山越え", "物見", "上洛"], "ashikaga": ["神力", "加勢", "忍"]})
    g, st = load(pos, card_model="single12")
    assert legal_cards(g, st) == {"加勢"}, "神力 needs 2 with a sea link, 忍 two occupied provinces"
    step(g, st, card("加勢"), prov("三河"))
    assert troops(st, "三河") == (0, 3)
