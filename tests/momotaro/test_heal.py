"""Healing at the start of a turn (rules §5.2-1): kibidango for retainers, potions for the warrior."""
from __future__ import annotations

import numpy as np

from .helpers import act, battle, game, legal_labels, player

FIELD = {"R4": 0, "B4": 0, "G4": 0, "X6": 0}
POTION_TAKEN = {"Y2": {"by": 0, "as": "potion"}}


def _heal_position(cards, kibidango, potions):
    taken = POTION_TAKEN if potions else {}
    field = dict(list(FIELD.items())[:4 - len(taken)])
    return battle(2, [player(cards, kibidango=kibidango, potions=potions), player()], field, taken=taken,
                  phase="heal")


def test_kibidango_heal_retainers_one_damage_each() -> None:
    g = game(2)
    st = g.from_position(_heal_position({"W": 1, "I3": 2, "S2": 1}, 3, 0))
    assert legal_labels(g, st) == {"HEAL I3 (kibidango)", "HEAL S2 (kibidango)", "END HEAL"}  # not W
    act(g, st, "HEAL I3 (kibidango)", "HEAL I3 (kibidango)")
    assert int(st.kibi[0, 0]) == 1  # spent kibidango leave the game
    assert legal_labels(g, st) == {"HEAL S2 (kibidango)", "END HEAL"}
    act(g, st, "END HEAL")
    assert int(st.phase[0]) == 4
    assert g.to_position(st)["players"][0]["cards"] == {"W": 1, "I3": 0, "S2": 1}


def test_heal_step_ends_by_itself_when_nothing_more_can_be_healed() -> None:
    g = game(2)
    st = g.from_position(_heal_position({"W": 0, "I3": 2}, 1, 0))
    act(g, st, "HEAL I3 (kibidango)")
    assert int(st.phase[0]) == 4 and int(st.kibi[0, 0]) == 0


def test_turn_start_skips_healing_when_nothing_can_be_healed() -> None:
    g = game(2)
    # Player 1's I3 is damaged but player 1 has no kibidango: its turn starts at the oni choice.
    pos = battle(2, [player({"W": 0, "I3": 0}), player({"W": 0, "S3": 1}, kibidango=0)], FIELD,
                 phase="choose_cards", target="R4")
    st = g.from_position(pos, seed=2)
    act(g, st, "SEND W+I3")
    if int(st.phase[0]) == 6:
        act(g, st, "DAMAGE I3")
    assert int(st.to_play[0]) == 1 and int(st.phase[0]) == 4
    # With one kibidango it starts with the heal step.
    pos["players"][1]["kibidango"] = 1
    st = g.from_position(pos, seed=2)
    act(g, st, "SEND W+I3")
    if int(st.phase[0]) == 6:
        act(g, st, "DAMAGE I3")
    assert int(st.to_play[0]) == 1 and int(st.phase[0]) == 3
    assert legal_labels(g, st) == {"HEAL S3 (kibidango)", "END HEAL"}


def test_strict_heal_only_the_latest_damage() -> None:
    """heal_any_turn=False (§11 #9): only damage from the player's previous battle can be healed."""
    g = game(2, heal_any_turn=False)
    pos = battle(2, [player({"W": 0, "I3": 2, "S2": 1}, kibidango=3, fresh=["I3"]), player()], FIELD, phase="heal")
    st = g.from_position(pos)
    assert legal_labels(g, st) == {"HEAL I3 (kibidango)", "END HEAL"}
    act(g, st, "END HEAL")
    assert not st.fresh[0, 0].any()  # that chance is gone
    # The default rule heals any damage.
    st = game(2).from_position(pos)
    assert legal_labels(game(2), st) == {"HEAL I3 (kibidango)", "HEAL S2 (kibidango)", "END HEAL"}
    assert np.array_equal(st.fresh[0, 0], np.array([False, False, False, True] + [False] * 6))
