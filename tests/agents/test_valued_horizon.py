"""nigejozu's search horizon (agents/search/valued_horizon.py): rollouts stop a given number of turns ahead,
at a turn start, and are valued from the mover's view by the win network, zero-sum."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.expert import ExpertPolicy
from yuugi.agents.heuristics.nigejozu_valued import HAND, INPUTS
from yuugi.agents.policy import random_legal
from yuugi.agents.registry import heuristic
from yuugi.agents.search.valued_horizon import ValuedTurnsAhead
from yuugi.envs import make_game
from yuugi.envs.nigejozu.observation import TROOP_SCALE
from yuugi.envs.nigejozu.state import PHASE_TURN_START

from .test_nigejozu_valued import linear_network

FLAG = INPUTS - 1  # the network's last input: the side to move plays hard's way


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def test_rollouts_stop_at_the_turn_start_after_the_given_number_of_turns():
    game = make_game("nigejozu")
    rng = np.random.default_rng(3)
    origin = game.init(np.arange(40))
    for _ in range(7):  # into the games: some mid-turn, some at a turn start
        game.step(origin, random_legal(game.legal_mask(origin), rng))
    for turns in (1, 2, 3):
        horizon = ValuedTurnsAhead(turns)
        now = origin.copy()
        stopped_at = np.full(now.batch_size, -1)
        for step in range(400):
            over = now.done | horizon(origin, now)
            newly = over & (stopped_at < 0)
            # A turn ends by handing the move on: where the horizon stops a live game, a turn begins.
            assert (now.phase[newly & ~now.done] == PHASE_TURN_START).all()
            assert (now.turn[newly & ~now.done] == origin.turn[newly & ~now.done] + turns).all()
            stopped_at[newly] = step
            if over.all():
                break
            game.step(now, random_legal(game.legal_mask(now), rng), ~over)
        assert (stopped_at >= 0).all()


def test_the_value_is_the_movers_win_probability_from_its_own_view_zero_sum():
    game = make_game("nigejozu")
    rng = np.random.default_rng(5)
    st = game.init(np.arange(64))
    for _ in range(30):
        game.step(st, random_legal(game.legal_mask(st), rng), ~st.done)
    st = st.take(np.flatnonzero(~st.done & (st.phase == PHASE_TURN_START)))
    assert st.batch_size > 5
    # logit = 2 x (the mover's troops in hand) / TROOP_SCALE: a fact read from the mover's side of the board
    horizon = ValuedTurnsAhead(2, network=linear_network({HAND.start: 2.0})).for_game(game)
    value = horizon.value(st)
    mover = st.to_play.astype(np.int64)
    rows = np.arange(st.batch_size)
    expected = 2.0 * sigmoid(2.0 * st.hand[rows, mover] / TROOP_SCALE) - 1.0
    np.testing.assert_allclose(value[rows, mover], expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(value[rows, 1 - mover], -expected, rtol=1e-5, atol=1e-6)


def test_neither_side_is_credited_with_facing_normal():
    # The learner flag says the mover plays hard's way against normal; past the horizon both play hard's
    # way, so the value averages the flag's two settings: P = (sigmoid(2) + sigmoid(0)) / 2.
    game = make_game("nigejozu")
    st = game.init(np.arange(4))
    value = ValuedTurnsAhead(1, network=linear_network({FLAG: 2.0})).for_game(game).value(st)
    p = 0.5 * (sigmoid(2.0) + 0.5)
    np.testing.assert_allclose(value[np.arange(4), st.to_play.astype(np.int64)], 2 * p - 1, rtol=1e-5)


def test_no_value_without_win_loss_rewards_and_none_unbound():
    assert ValuedTurnsAhead(2).for_game(make_game("nigejozu", reward_scheme="score_diff")) is None
    with pytest.raises(RuntimeError, match="for_game"):
        ValuedTurnsAhead(2).value(make_game("nigejozu").init(np.arange(2)))
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="turns"):
            ValuedTurnsAhead(bad)


def test_the_expert_binds_the_horizon_to_its_game_and_plays_legal_actions():
    game = make_game("nigejozu")
    rng = np.random.default_rng(0)
    st = game.init(np.arange(6))
    normal = heuristic("nigejozu")
    for _ in range(9):
        game.step(st, normal.act(game.observe(st, st.to_play.astype(np.int64)), game.legal_mask(st), rng), ~st.done)
    st = st.take(np.flatnonzero(~st.done))
    expert = ExpertPolicy("nigejozu", normal, think_ms=None, rounds=1, samples=4, top_n=3, guide="normal",
                          rollout_policy="random", horizon=ValuedTurnsAhead(2))
    bound = expert.horizon_for(game)
    assert isinstance(bound, ValuedTurnsAhead) and bound.game is game and bound.turns == 2
    assert expert.horizon_for(game) is bound  # bound once per game
    actions = expert.act_state(game, st, st.to_play.astype(np.int64), rng)
    assert game.legal_mask(st)[np.arange(st.batch_size), actions].all()
    assert expert.horizon_for(make_game("nigejozu", reward_scheme="score_diff")) is None
