"""Long random-play fuzz: thousands of complete games checking the invariants at every step."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.core.sampling import random_legal
from tests.nigejozu.helpers import game
from tests.nigejozu.invariants import check_invariants


def _fuzz(n_games: int, seed: int, **options) -> np.ndarray:
    g = game(**options)
    st = g.init(np.arange(n_games, dtype=np.uint64) + np.uint64(seed) * np.uint64(1_000_003))
    rng = np.random.default_rng(seed)
    steps = 0
    while not st.done.all():
        mask = g.legal_mask(st)
        check_invariants(g, st, mask)
        g.step(st, random_legal(mask, rng))
        steps += 1
        assert steps < 400, "a game ran past the episode bound"
    check_invariants(g, st, g.legal_mask(st))
    return st


@pytest.mark.fuzz
@pytest.mark.parametrize("options", [{}, {"card_model": "single12", "muhon_returns_to_hand": False},
                                     {"troops_per_player": 12, "taikyaku_n": 1, "reinf_per_win": 3}])
def test_fuzz_random_games(options):
    st = _fuzz(2000, seed=len(options), **options)
    assert st.terminated.all()
    # Every card gets played somewhere, and the escape chip decides some score ties.
    assert (st.used >= 0).any(axis=0).all()
    assert set(np.unique(st.used[st.used >= 0]).tolist()) == set(range(12))
    assert (st.score[:, 0] == st.score[:, 1]).any()


def test_random_play_statistics_match_the_rules_file():
    # §3.2/§5: about 20 turns per game; the escape chip holder wins about 60 % of random games.
    st = _fuzz(1000, seed=99)
    assert 17 < st.turn.mean() < 24
    w = game().winner(st)
    assert 0.5 < (w == st.escape).mean() < 0.7
