"""PettingZoo conformance, options, the action table, rendering and illegal actions."""
from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from yuugi.envs import make, make_game, momotaro_v0
from yuugi.envs.core.errors import IllegalActionError, OptionError
from yuugi.envs.momotaro.observation import obs_size
from yuugi.envs.momotaro.tables import COMBO_NAMES, COMBO_PATTERN, LEGAL_BY_HAND

from .helpers import act, battle, game, player


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_api(n: int) -> None:
    api_test(momotaro_v0.raw_env(num_players=n), num_cycles=400)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_seed(n: int) -> None:
    seed_test(lambda: momotaro_v0.raw_env(num_players=n), num_cycles=400)


def test_wrapped_env_plays_a_game_and_ends_with_zero_sum_rewards() -> None:
    env = momotaro_v0.env(num_players=3)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=5000):
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    assert not env.agents
    assert sum(totals.values()) == pytest.approx(0.0)
    assert max(totals.values()) > 0


def test_registry_and_spaces() -> None:
    g = make_game("momotaro", num_players=2)
    assert g.num_players == 2 and g.num_actions == 111  # §6: Discrete(111) for K0 = 15
    assert g.observation_shape == (obs_size(2),)
    e = make("momotaro", num_players=4)
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert game(4, kibi_per_player="60/N").num_actions == 15 + 96
    assert game(2, kibi_per_player="60/N").num_actions == 30 + 96


@pytest.mark.parametrize("bad", [
    {"num_players": 5}, {"players": 3}, {"kibi_per_player": 61}, {"kibi_per_player": "lots"},
    {"colored_values": (6, 5, 4)}, {"green_mark": "stone"}, {"laps_per_round": 0}, {"laps_per_round": {3: 2}},
    {"heal_any_turn": 1}, {"reward_scheme": "elo"}, {"max_turns": 0}, {"treasure_equals_power": False},
    {"declined_retainer": "next_bidder"}, {"warrior_value": True},
])
def test_bad_options_raise(bad: dict) -> None:
    opts = {"num_players": 2, **bad} if "num_players" not in bad else bad
    with pytest.raises(OptionError) as err:
        make_game("momotaro", **opts)
    assert list(bad)[0] in str(err.value)


def test_option_values_take_effect() -> None:
    g = game(3, colored_values=(2, 4, 6), warrior_value=4, laps_per_round=1)
    assert g.oni_names[:3] == ("R2", "R4", "R6") and g.config.tables.slot_limit == 3
    assert int(g.config.tables.card_power[0]) == 4


def test_action_table_and_labels() -> None:
    g = game(4)
    assert [g.action_label(a) for a in (0, 15, 16, 17, 18, 19, 28, 29, 40, 41, 98, 99, 108, 109, 110)] == [
        "BID 0", "BID 15", "TAKE", "DECLINE", "HEAL W (potion)", "HEAL I1 (kibidango)", "END HEAL",
        "ATTACK R4", "ATTACK Y4", "SEND W", "SEND W+K3", "DAMAGE W", "DAMAGE K3", "YELLOW TREASURE",
        "YELLOW POTION"]
    assert len({g.action_label(a) for a in range(g.num_actions)}) == g.num_actions
    d = g.describe_action(41 + 22)
    assert d["kind"] == "send" and d["pattern"] == "three_types" and d["cards"] == ["I1", "S1", "K1"]
    assert g.describe_action(33)["oni"] == "B5"
    with pytest.raises(ValueError):
        g.action_label(111)


def test_the_58_card_sets_of_appendix_a() -> None:
    assert len(COMBO_NAMES) == 58
    assert np.bincount(COMBO_PATTERN).tolist() == [10, 12, 27, 9]
    spot = {0: "W", 9: "K3", 10: "I1+I2", 13: "I1+I2+I3", 21: "K1+K2+K3", 22: "I1+S1+K1", 30: "I1+S3+K3",
            48: "I3+S3+K3", 49: "W+I1", 57: "W+K3"}
    for k, name in spot.items():
        assert COMBO_NAMES[k] == name
    # Holding only W, I1, I3: W, I1, I3, I1+I3, W+I1, W+I3.
    hand = 1 | (1 << 1) | (1 << 3)
    assert {COMBO_NAMES[k] for k in np.flatnonzero(LEGAL_BY_HAND[hand])} == {"W", "I1", "I3", "I1+I3", "W+I1",
                                                                             "W+I3"}


def test_illegal_action_raises_and_leaves_the_state_unchanged() -> None:
    g = game(3)
    st = g.init([1, 2])
    before = st.copy()
    with pytest.raises(IllegalActionError) as err:
        g.step(st, np.array([0, 16]))  # TAKE is not legal during the first bid
    assert err.value.game_index == 1 and "TAKE" in str(err.value)
    assert st.equals(before)
    pos = battle(2, [player({"W": 0}), player()], {"R4": 0, "B4": 0, "G4": 0, "X6": 0}, phase="choose_cards",
                 target="R4")
    g2 = game(2)
    st = g2.from_position(pos)
    before = st.copy()
    with pytest.raises(IllegalActionError):
        act(g2, st, "SEND W+I3")  # I3 is not in play
    assert st.equals(before)


def test_render_shows_the_table() -> None:
    g = game(3)
    st = g.init([0])
    act(g, st, "BID 4")
    text = g.render_text(st, 0, seat=1)
    assert "hiring" in text and "p0:bid" in text and "kibidango 15" in text
    assert "p0:4" in g.render_text(st, 0)
    pos = battle(3, [player({"W": 1, "I3": 2}, potions=0), player(), player()], {"R6": 2, "B4": 0, "G4": 0, "X6": 0})
    text = g.render_text(g.from_position(pos), 0)
    for piece in ("round 1", "lap 1 of 2", "R6(赤鬼6 チョキ) dmg 2", "桃太郎[-1]", "I3[-2]", "treasure 0", "potions 0"):
        assert piece in text
    env = momotaro_v0.raw_env(num_players=2, render_mode="ansi")
    env.reset(seed=1)
    assert "player 1" in env.render()

