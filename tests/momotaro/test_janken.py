"""The four janken examples of the seed (rules §5.2-4) and the modifier table of §2.3."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.momotaro.tables import COMBO_NAMES, COMBO_PATTERN, P_THREE_TYPES

from .helpers import act, battle, game, player


def _send(n_field: dict[str, int], cards: dict[str, int], target: str, send: str, seed: int):
    g = game(2)
    field = dict(n_field)
    pos = battle(2, [player(cards), player()], field, phase="choose_cards", target=target)
    st = g.from_position(pos, seed=seed)
    act(g, st, f"SEND {send}")
    return g, st


def _check_totals(st, oni_base: int, war_base: int, target_power: int, regen: int = 0) -> None:
    """Rules §5.2-5/6: oni total = oni base + red, warrior total = war base + white; the result follows.

    ``regen``: 黒鬼 recovers 1 at the hand-over that ends the turn (§5.6), unless it was defeated.
    """
    red, white = int(st.dice[0, 0]), int(st.dice[0, 1])
    diff = (war_base + white) - (oni_base + red)
    outcome = {True: "win", False: "loss"}[diff > 0] if diff else "draw"
    assert {0: "win", 1: "draw", 2: "loss"}[int(st.outcome[0])] == outcome
    if diff > 0:
        expected = target_power if diff >= target_power else diff - regen
        assert int(st.oni_dmg[0].max()) == expected


@pytest.mark.parametrize("seed", range(12))
def test_example_1_dog_beats_red(seed: int) -> None:
    """Ex.1: 赤鬼6 (チョキ) vs 桃太郎3 + イヌ3 (グー) is 6 vs 7."""
    g, st = _send({"R6": 0, "R4": 0, "B4": 0, "G4": 0}, {"W": 0, "I3": 0}, "R6", "W+I3", seed)
    _check_totals(st, 6, 7, 6)


@pytest.mark.parametrize("seed", range(12))
def test_example_2_pheasants_lose_to_blue(seed: int) -> None:
    """Ex.2: 青鬼6 (グー) vs キジ3 + キジ2 + キジ1 (チョキ) is 6 vs 3."""
    g, st = _send({"B6": 0, "R4": 0, "B4": 0, "G4": 0}, {"W": 0, "K1": 0, "K2": 0, "K3": 0}, "B6", "K1+K2+K3", seed)
    _check_totals(st, 6, 3, 6)


def test_example_3_three_types_cancel() -> None:
    """Ex.3: Dog + Monkey + Pheasant always nets 0 against any marked oni."""
    g = game(2)
    mod = g.config.tables.combo_oni_mod
    three = np.flatnonzero(COMBO_PATTERN == P_THREE_TYPES)
    assert len(three) == 27
    assert (mod[three] == 0).all()


@pytest.mark.parametrize("seed", range(6))
def test_example_3_through_a_battle(seed: int) -> None:
    # I3 + S2 + K1 against 緑鬼5 (パー): 3 + 2 + 1 with +1 (キジ) - 1 (イヌ) + 0 (サル) = 6 vs 5.
    g, st = _send({"G5": 0, "R4": 0, "B4": 0, "G4": 0}, {"W": 0, "I3": 0, "S2": 0, "K1": 0}, "G5", "I3+S2+K1", seed)
    _check_totals(st, 5, 6, 5)


@pytest.mark.parametrize("oni", ["X6", "Y2", "Y4"])
def test_example_4_black_and_yellow_have_no_mark(oni: str) -> None:
    """Ex.4: against 黒鬼 and 黄鬼 only the numbers count."""
    g = game(2)
    o = g.oni_names.index(oni)
    assert (g.config.tables.combo_oni_mod[:, o] == 0).all()


@pytest.mark.parametrize("seed", range(6))
def test_example_4_through_a_battle(seed: int) -> None:
    g, st = _send({"X6": 0, "R4": 0, "B4": 0, "G4": 0}, {"W": 0, "I3": 0}, "X6", "W+I3", seed)
    _check_totals(st, 6, 6, 6, regen=1)


def test_modifier_table() -> None:
    """§2.3: against 赤 Dog +1, Pheasant 0, Monkey -1; 青 Monkey +1, Dog 0, Pheasant -1; 緑 Pheasant +1,
    Monkey 0, Dog -1; a warrior has no mark."""
    g = game(2)
    mod = g.config.tables.combo_oni_mod
    single = {name: k for k, name in enumerate(COMBO_NAMES)}
    expect = {"R4": {"I1": 1, "K1": 0, "S1": -1, "W": 0}, "B5": {"S2": 1, "I2": 0, "K2": -1, "W": 0},
              "G6": {"K3": 1, "S3": 0, "I3": -1, "W": 0}}
    for oni, row in expect.items():
        o = g.oni_names.index(oni)
        for card, value in row.items():
            assert mod[single[card], o] == value, (oni, card)
    # Several cards add up: three Pheasants against blue is -3 (ex. 2), W + I3 against red +1 (ex. 1).
    assert mod[single["K1+K2+K3"], g.oni_names.index("B6")] == -3
    assert mod[single["W+I3"], g.oni_names.index("R6")] == 1


def test_monkey_and_green_marks_are_options() -> None:
    g = game(2, monkey_mark="rock", green_mark="rock")
    single = {name: k for k, name in enumerate(COMBO_NAMES)}
    # A rock Monkey beats red (チョキ) and ties a rock green oni.
    assert g.config.tables.combo_oni_mod[single["S1"], g.oni_names.index("R4")] == 1
    assert g.config.tables.combo_oni_mod[single["S1"], g.oni_names.index("G4")] == 0
    assert g.config.tables.combo_oni_mod[single["K1"], g.oni_names.index("G4")] == -1
