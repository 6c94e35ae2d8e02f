"""PettingZoo conformance of the nigejozu AEC face, the registry, options, labels and rendering."""
from __future__ import annotations

import json

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

from yuugi.envs import make, make_game, make_raw, nigejozu_v0
from yuugi.envs.core.errors import IllegalActionError, OptionError
from yuugi.envs.nigejozu.observation import LAYOUT, OBS_SIZE, OFFSETS
from tests.nigejozu.helpers import load, position

# PettingZoo's api_test recommends player_<n> names and Box/Discrete observation spaces; the project
# uses faction names and PettingZoo-classic's Dict(observation, action_mask) on purpose.
pytestmark = [
    pytest.mark.filterwarnings("ignore:We recommend agents to be named:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:.*ignoring unknown reset option:UserWarning"),
]


def test_api_test_passes():
    api_test(nigejozu_v0.raw_env(), num_cycles=300)


def test_api_test_passes_with_options():
    api_test(nigejozu_v0.raw_env(card_model="single12", troops_per_player=12, taikyaku_n=2,
                                 muhon_returns_to_hand=False, reward_scheme="score_diff"), num_cycles=200)


def test_seed_test_passes():
    seed_test(nigejozu_v0.env, num_cycles=300)


def test_registry_and_spaces():
    g = make_game("nigejozu")
    assert isinstance(g, nigejozu_v0.Game)
    env = make_raw("nigejozu")
    assert env.possible_agents == ["hojo", "ashikaga"]
    assert env.metadata["name"] == "nigejozu_v0"
    assert env.action_space("hojo").n == 29
    assert env.observation_space("ashikaga")["observation"].shape == (241,)
    wrapped = pettingzoo.make("aec", "yuugi/nigejozu-v0") if hasattr(pettingzoo, "make") else make("nigejozu")
    wrapped.reset(seed=1)
    assert wrapped.agent_selection in ("hojo", "ashikaga")


def test_full_game_through_the_aec_env_ends_with_opposite_rewards():
    env = make("nigejozu")
    env.reset(seed=7)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=1000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["observation"].min() >= 0 and obs["observation"].max() <= 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) == [-1.0, 1.0]


def test_raw_env_rejects_illegal_action_and_keeps_state():
    env = nigejozu_v0.raw_env()
    env.reset(seed=5)
    before = env.state()
    with pytest.raises(IllegalActionError, match="REROLL"):
        env.step(13)  # no dice rolled yet
    assert env.state() == before


def test_reset_from_position():
    env = nigejozu_v0.raw_env()
    pos = position({"京": (2, 1)}, to_play="ashikaga")
    env.reset(seed=0, options={"position": pos})
    assert env.agent_selection == "ashikaga"
    assert env.state()["troops"]["京"] == [2, 1]


def test_options_are_validated():
    with pytest.raises(OptionError, match="bogus"):
        make_game("nigejozu", bogus=1)
    for bad in ({"troops_per_player": 19}, {"taikyaku_n": 0}, {"card_model": "paired12"},
                {"reward_scheme": "win"}, {"muhon_returns_to_hand": 1}, {"reinf_per_win": 0},
                {"face_pairing": [("神力", "山越え")] * 6}, {"face_pairing": "x"}):
        with pytest.raises(OptionError, match=next(iter(bad))):
            make_game("nigejozu", **bad)


def test_face_pairing_option_changes_what_each_side_can_hold():
    pairing = [("山越え", "神力"), ("上洛", "退却"), ("物見", "忍"), ("追放", "囮"), ("謀反", "加勢"), ("人質", "分隊")]
    g = make_game("nigejozu", face_pairing=pairing)
    st = g.init(np.arange(50))
    assert not st.held[:, 0, 6].any() and st.held[:, 0, 7].any(), "Hojo now holds 山越え, never 神力"


def test_action_labels_and_descriptions():
    g = make_game("nigejozu")
    labels = [g.action_label(a) for a in range(29)]
    assert len(set(labels)) == 29
    assert labels[0] == "ROLL" and labels[13] == "REROLL" and labels[28] == "DONE"
    assert labels[1] == "CARD 加勢" and labels[12] == "CARD 上洛" and labels[14] == "COUNT_DIE 0"
    assert labels[17] == "PROVINCE 九州" and labels[21] == "PROVINCE 京" and labels[27] == "PROVINCE 蝦夷"
    d = g.describe_action(8)
    assert d["kind"] == "card" and d["name"] == "山越え" and d["romaji"] == "yamagoe"
    assert g.describe_action(21)["province"] == 4
    kinds = {g.describe_action(a)["kind"] for a in range(29)}
    assert kinds == {"roll", "card", "reroll", "count_die", "province", "done"}
    json.dumps([g.describe_action(a) for a in range(29)], ensure_ascii=False)
    with pytest.raises(ValueError):
        g.action_label(29)


def test_render_shows_map_troops_chips_hands_cards_and_dice():
    g, st = load(position({"京": (3, 1), "蝦夷": (0, 1)}, phase="dice", dice=[3, 4, 5]))
    text = g.render_text(st)
    assert "京    #6   3:1" in text and "蝦夷  #12  0:1" in text
    assert "hand 15" in text and "hand 16" in text
    assert "神力[裏 山越え]" in text
    assert "COUNT_DIE 1: 2 to 三河 #8" in text
    env = nigejozu_v0.raw_env(render_mode="ansi")
    env.reset(seed=3)
    assert "九州" in env.render()


def test_observation_layout_and_perspective():
    assert sum(n for _, n in LAYOUT) == OBS_SIZE == 241
    g, st = load(position({"京": (3, 1)}, to_play="ashikaga", escape=None))
    hojo, ashikaga = g.observe(st, 0)[0], g.observe(st, 1)[0]
    # 京 is P4 and carries chip 6 in the test layout.
    assert hojo[OFFSETS["chip"]][4 * 11 + 6 - 2] == 1 and hojo[OFFSETS["chip"]].sum() == 11
    assert hojo[OFFSETS["troops_self"]][4] == pytest.approx(3 / 18)
    assert ashikaga[OFFSETS["troops_self"]][4] == pytest.approx(1 / 18)
    assert ashikaga[OFFSETS["troops_opp"]][4] == pytest.approx(3 / 18)
    assert ashikaga[OFFSETS["to_move"]][0] == 1 and hojo[OFFSETS["to_move"]][0] == 0
    assert hojo[OFFSETS["escape"]].tolist() == [1, 0, 0]
    np.testing.assert_array_equal(g.observe(st, np.array([1]))[0], ashikaga)
    # The card a side holds appears as "self" for it and "opp" for the other.
    np.testing.assert_array_equal(hojo[OFFSETS["cards_self"]], ashikaga[OFFSETS["cards_opp"]])


def test_documented_observation_offsets_match_the_layout():
    import re

    from yuugi.envs.nigejozu import observation

    rows = re.findall(r"^\| (\w+) \((\d+)\) \| (\d+) \|", observation.__doc__, flags=re.M)
    assert [(name, int(start), int(size)) for name, start, size in rows] == [
        (name, OFFSETS[name].start, size) for name, size in LAYOUT]


def test_benchmark_runs():
    from yuugi.training.bench.bench import bench_core

    result = bench_core("nigejozu", 64, 0.2)
    assert result.decisions > 0 and result.games > 0
