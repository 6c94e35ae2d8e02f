"""黒鬼's regeneration and 黄鬼's treasure-or-potion choice (rules §5.5, §5.6, §13)."""
from __future__ import annotations

import pytest

from .helpers import act, battle, find_seed, game, legal_labels, player


def test_black_oni_recovers_one_when_play_passes_on() -> None:
    """§13: 黒鬼6 with 3 damage after P1's battle has 2 damage when P2's turn begins."""
    g = game(3)
    field = {"X6": 0, "R4": 0, "B4": 0, "G4": 0}
    pos = battle(3, [player({"W": 0, "I3": 0}), player(), player()], field, phase="choose_cards", target="X6")
    x6 = g.oni_names.index("X6")
    # W + I3 = 6 vs 6: a win by 3 needs white - red = 3.
    st = find_seed(lambda s: g.from_position(pos, seed=s), lambda s: act(g, s, "SEND W+I3"),
                   lambda s: int(s.dice[0, 1]) - int(s.dice[0, 0]) == 3)
    assert int(st.to_play[0]) == 1
    assert int(st.oni_dmg[0, x6]) == 2


def test_black_oni_regenerates_after_any_battle_and_into_the_next_round() -> None:
    g = game(2)
    x6 = g.oni_names.index("X6")
    field = {"X6": 3, "R4": 0, "B4": 0, "G4": 0}
    pos = battle(2, [player({"W": 0, "I3": 0}), player({"W": 0, "S3": 0})], field, phase="choose_cards",
                 target="R4")
    st = g.from_position(pos, seed=1)
    act(g, st, "SEND W+I3")
    if int(st.phase[0]) == 6:  # draw or multi-card loss: put it on I3
        act(g, st, "DAMAGE I3")
    assert int(st.oni_dmg[0, x6]) == 2
    # Last slot of round 1 (3 laps x 2 players = 6 slots): the hand-over into round 2 regenerates too.
    pos = battle(2, [player({"W": 0, "I3": 0}), player({"W": 0, "S3": 0})], field, phase="choose_cards",
                 target="R4", slot=5, start=1)  # slot 5 from seat 1 is seat 0's turn
    st = g.from_position(pos, seed=1)
    act(g, st, "SEND W+I3")
    if int(st.phase[0]) == 6:
        act(g, st, "DAMAGE I3")
    assert int(st.round[0]) == 2
    assert int(st.oni_dmg[0, x6]) == 2


def test_black_oni_without_damage_stays_at_zero() -> None:
    g = game(2)
    x6 = g.oni_names.index("X6")
    pos = battle(2, [player({"W": 0, "I3": 0}), player()], {"X6": 0, "R4": 0, "B4": 0, "G4": 0},
                 phase="choose_cards", target="R4")
    st = g.from_position(pos, seed=3)
    act(g, st, "SEND W+I3")
    if int(st.phase[0]) == 6:
        act(g, st, "DAMAGE I3")
    assert int(st.oni_dmg[0, x6]) == 0


def _yellow_defeat(oni: str, dmg: int, seed_pred=lambda s: int(s.outcome[0]) == 0):
    g = game(2)
    field = {oni: dmg, "R4": 0, "B4": 0, "G4": 0}
    pos = battle(2, [player({"W": 0}), player()], field, phase="choose_cards", target=oni)
    st = find_seed(lambda s: g.from_position(pos, seed=s), lambda s: act(g, s, "SEND W"),
                   lambda s: seed_pred(s) and int(s.phase[0]) == 7)
    return g, st


@pytest.mark.parametrize("oni,treasure,potions", [("Y2", 2, 1), ("Y4", 4, 2)])
def test_yellow_oni_treasure_or_potions(oni: str, treasure: int, potions: int) -> None:
    """黄鬼2: 2 treasure or 1 potion; 黄鬼4: 4 treasure or 2 potions. The choice is final."""
    g, st = _yellow_defeat(oni, 1)
    assert legal_labels(g, st) == {"YELLOW TREASURE", "YELLOW POTION"}
    assert int(st.to_play[0]) == 0
    alt = st.copy()
    act(g, st, "YELLOW TREASURE")
    assert st.treasure[0].tolist() == [treasure, 0] and st.potions[0].tolist() == [0, 0]
    assert g.to_position(st)["oni_taken"] == {oni: {"by": 0, "as": "treasure"}}
    act(g, alt, "YELLOW POTION")
    assert alt.treasure[0].tolist() == [0, 0] and alt.potions[0].tolist() == [potions, 0]
    assert g.to_position(alt)["oni_taken"] == {oni: {"by": 0, "as": "potion"}}
    assert int(st.to_play[0]) == 1 and int(alt.to_play[0]) == 1


def test_yellow_draw_choice_first_then_the_card_damage() -> None:
    g, st = _yellow_defeat("Y2", 1, lambda s: int(s.outcome[0]) == 1)  # a draw's 1 damage defeats 黄鬼2
    act(g, st, "YELLOW POTION")
    pos = g.to_position(st)
    assert pos["players"][0]["cards"] == {"W": 1}  # the draw's 1 damage, after the choice
    assert pos["players"][0]["potions"] == 1


def test_potions_heal_only_the_warrior() -> None:
    g = game(2)
    taken = {"Y2": {"by": 0, "as": "potion"}}
    pos = battle(2, [player({"W": 2, "I3": 1}, potions=1, kibidango=0), player()],
                 {"R4": 0, "B4": 0, "G4": 0}, taken=taken, phase="heal")
    st = g.from_position(pos)
    assert legal_labels(g, st) == {"HEAL W (potion)", "END HEAL"}  # no kibidango for I3
    act(g, st, "HEAL W (potion)")
    assert int(st.potions[0, 0]) == 0 and int(st.card_dmg[0, 0, 0]) == 1
    assert int(st.phase[0]) == 4  # nothing left to heal: straight on to the oni choice
