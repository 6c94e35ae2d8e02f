"""ninja_daifugo's compiled rules mean what their Python reads, its fused step is the core's step-by-step
default, and two threads play as one (the shared checks: tests/compiled_checks.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from yuugi.envs import make_game

from tests.compiled_checks import (assert_fused_step_equals_core_default, assert_python_reading_equals_compiled,
                                   assert_threads_change_nothing)

# The traced rule sets, one whose every seat holds strong jutsu (so that 60 steps use them all), and the
# UECda game (five players, seat changes every game).
RULE_SETS = {
    "default": {},
    "off": {"ninja": "off", "series_games": 1},
    "symmetric_lockout": {"ninja": "symmetric", "pass_lockout": True, "miyako_ochi": False},
    "strong_jutsu": {"ninja": "symmetric", "series_games": 2, "max_game_steps": 40, "reward_scheme": "uecda",
                     "loadouts": [{"jutsu": {"henge": 5, "ashidome": 5}, "school": "henge", "gokui": True},
                                  {"jutsu": {"raiton": 5, "shuriken": 4}, "school": "bogai", "gokui": True},
                                  {"jutsu": {"shuriken": 5, "henge": 3}, "school": "rai", "gokui": True},
                                  {"jutsu": {"ashidome": 2, "raiton": 1}}]},
    "uecda": {"rules": "uecda", "series_games": 3, "seat_change_every": 1, "max_game_steps": 40},
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_python_reading_equals_the_compiled_rules(name: str, tmp_path: Path) -> None:
    assert_python_reading_equals_compiled("ninja_daifugo", RULE_SETS[name], tmp_path)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@pytest.mark.parametrize("resets", [True, False])
def test_fused_step_equals_the_core_default(name: str, resets: bool) -> None:
    ended = assert_fused_step_equals_core_default(make_game("ninja_daifugo", **RULE_SETS[name]), resets)
    if name in ("off", "strong_jutsu", "uecda"):  # single games, or games cut at 40 steps
        assert ended > 0


@pytest.mark.parametrize("name", ["default", "uecda"])
def test_threads_change_nothing(name: str) -> None:
    assert_threads_change_nothing("ninja_daifugo", RULE_SETS[name])
