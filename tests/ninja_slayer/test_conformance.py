"""The project's conformance harness over ninja_slayer, under its defaults and other rule sets."""
from __future__ import annotations

import pytest

from yuugi.envs import ninja_slayer_v0
from yuugi.envs import conformance as testing

RULES = [
    {},
    {"decks": ("sealed", "any"), "priority_windows": "compact"},
    {"auto_pass_forced": False, "deckout_rule": "draw_from_empty", "ukemi_nullifies": "event", "max_turns": 8},
]


@pytest.mark.parametrize("rules", RULES, ids=["defaults", "sealed-compact", "no-autopass-short"])
def test_conformance(rules):
    testing.check_game(ninja_slayer_v0.Game(**rules), seeds=range(4),
                       make_env=lambda: ninja_slayer_v0.raw_env(**rules), batch_max_steps=150)
