"""Levels one game has beyond the five common ones: ninja_daifugo's UECda baseline, ``uecda_default``."""
from __future__ import annotations

import numpy as np
import pytest
from yuugi.agents.heuristics.uecda_default import UecdaDefault
from yuugi.agents.registry import available_levels, cpu, level_names
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError


@pytest.mark.parametrize("rules", [{}, {"rules": "uecda"}])
def test_the_uecda_baseline_is_a_daifugo_level_under_any_rules(rules):
    assert "uecda_default" in available_levels("ninja_daifugo", **rules)
    policy = cpu("ninja_daifugo", "uecda_default", **rules)
    assert isinstance(policy, UecdaDefault) and policy.name == "uecda_default"
    game = make_game("ninja_daifugo", **rules)
    st = game.init(np.arange(4))
    mask = game.legal_mask(st)
    actions = policy.act(game.observe(st, st.to_play), mask, np.random.default_rng(0))
    assert mask[np.arange(4), actions].all()


@pytest.mark.parametrize("game", ["nigejozu", "momotaro", "ninja_slayer"])
def test_other_games_do_not_have_it(game):
    assert "uecda_default" not in level_names(game) and "uecda_default" not in available_levels(game)
    with pytest.raises(OptionError, match="unknown level 'uecda_default'"):
        cpu(game, "uecda_default")
