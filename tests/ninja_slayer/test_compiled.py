"""ninja_slayer's compiled rules mean what their Python reads, its fused step is the core's step-by-step
default, and two threads play as one (the shared checks: tests/compiled_checks.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from yuugi.envs import make_game

from tests.compiled_checks import (assert_fused_step_equals_core_default, assert_python_reading_equals_compiled,
                                   assert_threads_change_nothing)

# Short games (max_turns) so that games end and resets are played too.
RULE_SETS = {
    "default": {"max_turns": 6},
    "sealed_event": {"decks": ("sealed", "any"), "ukemi_nullifies": "event", "max_turns": 6},
    "compact_empty": {"decks": ("D1", "D4"), "priority_windows": "compact", "deckout_rule": "draw_from_empty",
                      "mask_useless": True, "max_turns": 6},
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_python_reading_equals_the_compiled_rules(name: str, tmp_path: Path) -> None:
    compiled = assert_python_reading_equals_compiled("ninja_slayer", RULE_SETS[name], tmp_path)
    assert compiled["finished"].any(), "the short games should end within the run"


@pytest.mark.parametrize("resets", [True, False])
def test_fused_step_equals_the_core_default(resets: bool) -> None:
    assert assert_fused_step_equals_core_default(make_game("ninja_slayer", max_turns=8), resets) > 0


def test_threads_change_nothing() -> None:
    assert_threads_change_nothing("ninja_slayer", {})
