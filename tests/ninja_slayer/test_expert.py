"""expert for ninja_slayer: it decides from what its seat may know, plays whole games, and values the
positions where its rollouts stop."""
from __future__ import annotations

import numpy as np

from yuugi.agents.expert import ExpertPolicy
from yuugi.agents.registry import available_levels, cpu, heuristic
from yuugi.agents.search.dispatch import act
from yuugi.agents.search.resamplers import resampler
from yuugi.agents.search.slayer_value import ValuedTurnEnd
from tests.agents.test_expert import TrueWorld
from tests.ninja_slayer.helpers import game
from tests.ninja_slayer.invariants import check_invariants


def mid_game(n: int, steps: int, seed: int = 0, **options):
    """Live positions after ``steps`` decisions of the heuristic at both seats."""
    g = game(**options)
    policy = heuristic("ninja_slayer")
    rng = np.random.default_rng(seed)
    st = g.init(np.arange(seed, seed + n))
    for _ in range(steps):
        g.step(st, policy.act(g.observe(st, st.to_play.astype(np.int64)), g.legal_mask(st), rng), ~st.done)
    return g, st.take(np.flatnonzero(~st.done))


def small_expert(**kw) -> ExpertPolicy:
    kw = {"think_ms": None, "rounds": 1, "samples": 4, "top_n": 3, "rollout_policy": "random", **kw}
    return ExpertPolicy("ninja_slayer", heuristic("ninja_slayer"), **kw)


def test_the_decision_depends_only_on_what_the_seat_may_know():
    g, st = mid_game(24, 40, decks=("constructed", "sealed"))
    seats = st.to_play.astype(np.int64)
    worlds = [resampler("ninja_slayer")(g, st, seats, np.random.default_rng(100 + w)) for w in range(3)]
    for w in worlds:
        np.testing.assert_array_equal(g.observe(w, seats), g.observe(st, seats))
    honest = [small_expert().act_state(g, w, seats, np.random.default_rng(7)) for w in worlds]
    for other in honest[1:]:
        np.testing.assert_array_equal(honest[0], other)
    # The test has teeth: an expert that reads the true hidden state decides differently across these worlds.
    cheat = small_expert()
    cheat.resample = TrueWorld()
    seen = [cheat.act_state(g, w, seats, np.random.default_rng(7)) for w in worlds]
    assert any((seen[0] != other).any() for other in seen[1:])


def test_it_is_a_level_and_plays_complete_games_with_legal_moves():
    assert "expert" in available_levels("ninja_slayer")
    assert isinstance(cpu("ninja_slayer", "expert"), ExpertPolicy)
    g = game(decks=("any", "any"))
    expert, normal = small_expert(samples=2, top_n=2), heuristic("ninja_slayer")
    st = g.init(np.arange(4))
    rng = np.random.default_rng(0)
    expert_seat = np.arange(4) % 2
    while not st.done.all():
        live = np.flatnonzero(~st.done)
        sub = st.take(live)
        seats = sub.to_play.astype(np.int64)
        mask, obs = g.legal_mask(sub), g.observe(sub, seats)
        actions = normal.act(obs, mask, rng)
        mine = seats == expert_seat[live]
        if mine.any():
            rows = np.flatnonzero(mine)
            actions[rows] = act(expert, g, sub.take(rows), seats[rows], obs[rows], mask[rows], rng)
        assert mask[np.arange(live.size), actions].all()
        full = np.zeros(st.batch_size, dtype=np.int64)
        full[live] = actions
        g.step(st, full, ~st.done)
    check_invariants(g, st, g.legal_mask(st))
    assert expert.stats["searched"] > 20 and expert.rollouts_per_second > 0  # (decisions the guide is sure of are not searched)


def test_the_default_search_plays_legal_moves():
    g, st = mid_game(6, 30, seed=5)
    expert = ExpertPolicy("ninja_slayer", heuristic("ninja_slayer"), think_ms=None)  # hard's network rolls out
    assert expert.describe()["rollout_policy"] == "hard" and expert.describe()["guide"] == "hard"
    actions = expert.act_state(g, st, st.to_play, np.random.default_rng(0))
    assert g.legal_mask(st)[np.arange(st.batch_size), actions].all() and expert.stats["rollouts"] > 0


def test_rollouts_stop_after_the_next_turn_valued_by_the_win_network():
    expert = cpu("ninja_slayer", "expert")
    g, st = mid_game(8, 40, seed=3)
    horizon = expert.horizon_for(g)
    assert isinstance(horizon, ValuedTurnEnd) and horizon.turns == 2 and horizon.game is g
    value = horizon.value(st)
    np.testing.assert_allclose(value.sum(axis=1), 0.0)
    assert (np.abs(value) < 1).all()
