"""nigejozu's compiled rules mean what their Python reads, its fused step is the core's step-by-step
default, and two threads play as one (the shared checks: tests/compiled_checks.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from yuugi.envs import make_game

from tests.compiled_checks import (assert_fused_step_equals_core_default, assert_python_reading_equals_compiled,
                                   assert_threads_change_nothing)

RULE_SETS = {
    "default": {},
    "single12": {"card_model": "single12", "taikyaku_n": 2},
    "score_diff": {"muhon_returns_to_hand": False, "reinf_per_win": 2, "reward_scheme": "score_diff"},
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_python_reading_equals_the_compiled_rules(name: str, tmp_path: Path) -> None:
    assert_python_reading_equals_compiled("nigejozu", RULE_SETS[name], tmp_path, steps=80)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@pytest.mark.parametrize("resets", [True, False])
def test_fused_step_equals_the_core_default(name: str, resets: bool) -> None:
    assert assert_fused_step_equals_core_default(make_game("nigejozu", **RULE_SETS[name]), resets) > 0


def test_threads_change_nothing() -> None:
    assert_threads_change_nothing("nigejozu", {})
