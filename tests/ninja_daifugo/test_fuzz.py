"""Long random-play fuzz: 2,000+ complete games checking the invariants at every step."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.policy import random_legal
from yuugi.envs import make_game
from tests.ninja_daifugo.invariants import check_invariants


@pytest.mark.fuzz
@pytest.mark.parametrize("opts", [
    {"series_games": 1, "declarations": tuple(range(10))},
    {"series_games": 4, "pass_lockout": True},
])
def test_random_games_keep_invariants(opts):
    game = make_game("ninja_daifugo", **opts)
    batch, target = 256, 1000 if opts["series_games"] > 1 else 2000
    rng = np.random.default_rng(0)
    st = game.init(np.arange(batch))
    finished, next_seed, decisions = 0, batch, 0
    while finished < target:
        mask = game.legal_mask(st)
        check_invariants(st, mask)
        live = ~st.done
        decisions += int(live.sum())
        game.step(st, random_legal(mask, rng))
        # A finished game got its rewards: zero-sum per game, one of each position.
        over = np.flatnonzero(st.done)
        assert not st.truncated.any(), "a random game hit the truncation guard"
        if over.size:
            finished += over.size
            st.put(over, game.init(np.arange(next_seed, next_seed + over.size)))
            next_seed += over.size
    assert finished >= target
