"""momotaro's compiled rules mean what their Python reads, its fused step is the core's step-by-step
default, and two threads play as one (the shared checks: tests/compiled_checks.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from yuugi.envs import make_game

from tests.compiled_checks import (assert_fused_step_equals_core_default, assert_python_reading_equals_compiled,
                                   assert_threads_change_nothing)

# (options, steps): the short games end (truncated or not) within the run, so resets are played too.
RULE_SETS = {
    "default": ({}, 60),
    "two_short": ({"num_players": 2, "max_turns": 8}, 120),
    "three_strict": ({"num_players": 3, "heal_any_turn": False, "damage_reduces_power": False,
                      "reward_scheme": "linear", "max_turns": 6}, 120),
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_python_reading_equals_the_compiled_rules(name: str, tmp_path: Path) -> None:
    options, steps = RULE_SETS[name]
    compiled = assert_python_reading_equals_compiled("momotaro", options, tmp_path, steps=steps)
    if name != "default":
        assert compiled["finished"].any(), "the short games should end within the run"


@pytest.mark.parametrize("options", [{}, {"num_players": 2, "max_turns": 20}])
@pytest.mark.parametrize("resets", [True, False])
def test_fused_step_equals_the_core_default(options: dict, resets: bool) -> None:
    assert assert_fused_step_equals_core_default(make_game("momotaro", **options), resets) > 0


def test_threads_change_nothing() -> None:
    assert_threads_change_nothing("momotaro", {"num_players": 3})
