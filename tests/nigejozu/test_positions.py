"""Positions: JSON round trips and malformed positions rejected with the bad field named."""
from __future__ import annotations

import json

import numpy as np
import pytest

from yuugi.envs.core.errors import PositionError
from tests.nigejozu.helpers import CHIPS, card, game, load, position, prov, random_actions, step

SKIP = {"rng_key", "rng_counter", "rewards"}  # not part of a position


def assert_same_game(a, b) -> None:
    for k, v in a.arrays().items():
        if k not in SKIP:
            np.testing.assert_array_equal(v, getattr(b, k), err_msg=k)


def test_round_trip_through_json_along_random_games():
    g = game()
    st = g.init(np.arange(16))
    rng = np.random.default_rng(4)
    seen_phases = set()
    while not st.done.all():
        for i in range(16):
            pos = json.loads(json.dumps(g.to_position(st, i), ensure_ascii=False))
            seen_phases.add(pos["phase"])
            back = g.from_position(pos, seed=i)
            assert_same_game(st.take(i), back)
            assert g.to_position(back) == pos
        g.step(st, random_actions(g, st, rng))
    assert seen_phases == {"turn_start", "dice", "rerolled", "card", "over"}


def test_names_use_provinces_factions_and_cards():
    g, st = load(position({"京": (2, 1)}, to_play="ashikaga"))
    pos = g.to_position(st)
    assert pos["chips"] == CHIPS and pos["troops"]["京"] == [2, 1] and pos["troops"]["九州"] == [0, 0]
    assert pos["hands"] == {"hojo": 16, "ashikaga": 17} and pos["to_play"] == "ashikaga"
    assert pos["cards"] == {"hojo": ["神力", "退却", "忍"], "ashikaga": ["人質", "追放", "謀反"]}  # effect order E0..E11
    assert pos["escape"] is None and pos["used"] == {"hojo": None, "ashikaga": None}


def test_romaji_and_indices_are_accepted():
    pos = position({"kyo": (2, 1), "Ezo": (1, 0)}, to_play=1,
                   cards={"hojo": ["shinriki", "TAIKYAKU", 9], "ashikaga": ["tsuihou", "muhon", "hitojichi"]})
    g, st = load(pos)
    back = g.to_position(st)
    assert back["troops"]["京"] == [2, 1] and back["troops"]["蝦夷"] == [1, 0] and back["to_play"] == "ashikaga"
    assert sorted(back["cards"]["hojo"]) == sorted(["神力", "退却", "忍"])


def test_card_in_progress_round_trips():
    g, st = load(position({"京": (2, 1), "九州": (1, 0)}))
    step(g, st, card("忍"), prov("京"))
    pos = g.to_position(st)
    assert pos["phase"] == "card" and pos["card"] == {"effect": "忍", "step": 1, "selected": "京", "picks": 0}
    back = g.from_position(pos)
    assert_same_game(st, back)
    step(g, back, prov("九州"))
    assert g.to_position(back)["troops"]["九州"] == [2, 0]


@pytest.mark.parametrize("change,field", [
    ({"bogus": 1}, "bogus"),
    ({"game": "momotaro"}, "game"),
    ({"chips": {**CHIPS, "京": 2}}, "chips"),
    ({"chips": {k: v for k, v in CHIPS.items() if k != "京"}}, "chips.京"),
    ({"chips": {**CHIPS, "大阪": 3}}, "chips.大阪"),
    ({"troops": {"京": [19, 0]}}, "troops.京[0]"),
    ({"troops": {"京": [1, -1]}}, "troops.京[1]"),
    ({"troops": {"京": 3}}, "troops.京"),
    ({"hands": {"hojo": 18, "ashikaga": 17}, "troops": {"京": [1, 0]}}, "hands.hojo"),
    ({"hands": {"hojo": 18}}, "hands.ashikaga"),
    ({"removed": [1, 0], "hands": [17, 18]}, "removed"),
    ({"to_play": "minamoto"}, "to_play"),
    ({"escape": "hojo"}, "escape"),
    ({"cards": {"hojo": ["山越え"], "ashikaga": []}}, "cards.hojo[0]"),
    ({"cards": {"hojo": ["神力", "神力"], "ashikaga": []}}, "cards.hojo"),
    ({"cards": {"hojo": ["神力", "退却", "忍", "囮"], "ashikaga": []}}, "cards.hojo"),
    ({"cards": {"hojo": ["神力"], "ashikaga": ["山越え"]}}, "cards.ashikaga[0]"),
    ({"cards": {"hojo": ["火遁"], "ashikaga": []}}, "cards.hojo[0]"),
    ({"used": {"hojo": "囮", "ashikaga": None}}, "used.hojo"),
    ({"phase": "battle"}, "phase"),
    ({"phase": "dice"}, "dice"),
    ({"phase": "dice", "dice": [1, 2, 7]}, "dice[2]"),
    ({"dice": [1, 2, 3]}, "dice"),
    ({"phase": "over"}, "phase"),
    ({"phase": "card"}, "card"),
    ({"phase": "card", "card": {"effect": "忍"}, "used": {"hojo": "退却", "ashikaga": None}}, "card.effect"),
    ({"terminated": True}, "terminated"),
    ({"turn": -1}, "turn"),
])
def test_malformed_positions_name_the_field(change, field):
    pos = position({"京": (2, 1), "九州": (1, 0)})
    pos.update(change)
    with pytest.raises(PositionError) as err:
        game().from_position(pos)
    assert err.value.field == field, str(err.value)


def test_unreachable_card_steps_are_rejected():
    used = {"hojo": "忍", "ashikaga": None}
    bad_x = {"effect": "忍", "step": 1, "selected": "蝦夷", "picks": 0}
    with pytest.raises(PositionError, match="card.selected"):
        game().from_position(position({"京": (2, 1), "九州": (1, 0)}, phase="card", used=used, card=bad_x))
    with pytest.raises(PositionError, match="card.picks"):  # 退却 ends after exactly 3 picks
        game().from_position(position({"京": (2, 1), "九州": (1, 0)}, phase="card",
                                      used={"hojo": "退却", "ashikaga": None}, card={"effect": "退却", "picks": 3}))
    with pytest.raises(PositionError, match="card.picks"):  # 1 pick made, 2 to go, 1 troop left
        game().from_position(position({"九州": (1, 0), "京": (0, 1)}, phase="card",
                                      used={"hojo": "退却", "ashikaga": None}, card={"effect": "退却", "picks": 1}))
    with pytest.raises(PositionError, match="card.step"):
        game().from_position(position({"京": (2, 1), "九州": (1, 0)}, phase="card",
                                      used={"hojo": "退却", "ashikaga": None}, card={"effect": "退却", "step": 1}))


def test_finished_position_recomputes_and_checks_the_battle():
    g, st = load(position({"京": (12, 0), "九州": (0, 12)}, phase="over", escape="ashikaga", hands=[0, 0]),
                 troops_per_player=12)
    pos = g.to_position(st)
    assert pos["battle"]["score"] == {"hojo": 6, "ashikaga": 2} and pos["terminated"] is True
    assert st.terminated[0] and not g.legal_mask(st).any()
    pos["battle"]["score"]["hojo"] = 7
    with pytest.raises(PositionError, match="battle"):
        g.from_position(pos)


# ---- issue 11: derived quantities and type confusion (each failed before the schema) -------------
def test_troops_beyond_the_side_total_are_rejected_when_hands_are_derived():
    # 10 + 9 = 19 hojo troops on the board, one more than troops_per_player=18 (rules §2): no hand of -1
    pos = position({"京": (10, 1), "九州": (9, 0)})
    with pytest.raises(PositionError) as err:
        game().from_position(pos)
    assert err.value.field == "troops" and "18" in str(err.value)


def test_derived_hands_round_trip():
    # all 18 hojo troops on the board: hand 0, and hojo holds the escape chip
    g, st = load(position({"京": (10, 1), "九州": (8, 0)}, to_play="ashikaga", escape="hojo"))
    assert st.hand[0].tolist() == [0, 17]
    pos = g.to_position(st)
    assert pos["hands"] == {"hojo": 0, "ashikaga": 17} and g.to_position(g.from_position(pos)) == pos


def _finished():
    g, st = load(position({"京": (12, 0), "九州": (0, 12)}, phase="over", escape="ashikaga", hands=[0, 0]),
                 troops_per_player=12)
    return g, g.to_position(st)


def test_numpy_integers_in_the_battle_record_are_integers():
    g, pos = _finished()
    pos["battle"]["reinforcements"]["京"] = [np.int64(x) for x in pos["battle"]["reinforcements"]["京"]]
    pos["battle"]["score"]["hojo"] = np.int32(pos["battle"]["score"]["hojo"])
    assert g.to_position(g.from_position(pos))["battle"] == _finished()[1]["battle"]


@pytest.mark.parametrize("path,value", [
    (("battle", "reinforcements", "京"), np.int64(1)),
    (("battle", "reinforcements", "京"), [np.int64(1), 0, 0]),
    (("battle", "reinforcements", "京"), [float("nan"), 0]),
    (("battle", "score", "hojo"), 6.0),
    (("battle", "winner"), ["hojo"]),
    (("battle", "chips_taken", "京"), {}),
])
def test_malformed_battle_records_name_the_field(path, value):
    g, pos = _finished()
    node = pos
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(PositionError) as err:
        g.from_position(pos)
    assert err.value.field.startswith(".".join(path)), str(err.value)


@pytest.mark.parametrize("change,field", [
    ({"to_play": ["hojo"]}, "to_play"),
    ({"to_play": True}, "to_play"),
    ({"escape": {}}, "escape"),
    ({"turn": 0.0}, "turn"),
    ({"turn": False}, "turn"),
    ({"terminated": 0}, "terminated"),
    ({"chips": {**CHIPS, "京": 6.0}}, "chips.京"),
    ({"troops": {"京": [2.0, 1]}}, "troops.京[0]"),
    ({"troops": {("京",): [2, 1]}}, "troops.('京',)"),
    ({"phase": ["dice"]}, "phase"),
    ({"phase": "dice", "dice": [1, 2, 3.0]}, "dice[2]"),
    ({"phase": "dice", "dice": [1, 2, float("nan")]}, "dice[2]"),
    ({"cards": {"hojo": [["神力"]], "ashikaga": []}}, "cards.hojo[0]"),
    ({"used": {"hojo": {}, "ashikaga": None}}, "used.hojo"),
])
def test_type_confusion_names_the_field(change, field):
    test_malformed_positions_name_the_field(change, field)


@pytest.mark.parametrize("seed", [-1, 2 ** 64])
def test_bad_seed_is_a_clear_error(seed):
    with pytest.raises(ValueError, match="seed"):
        game().from_position(position({"京": (2, 1)}), seed=seed)
