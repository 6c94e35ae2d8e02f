"""Property tests (hypothesis): conservation, non-empty masks, illegal actions, round trips, batch invariance."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from yuugi.agents.policy import random_legal
from yuugi.envs import make_game
from yuugi.envs.core.errors import IllegalActionError
from tests.ninja_daifugo.invariants import check_invariants

GAME_OPTIONS = [
    {"series_games": 3},
    {"series_games": 2, "pass_lockout": True},
    {"series_games": 1, "declarations": (1,)},
    {"series_games": 2, "declarations": (9,)},
    {"series_games": 2, "declarations": (8,)},
]


def play(game, seeds, n_steps, policy_seed):
    st = game.init(np.asarray(seeds))
    rng = np.random.default_rng(policy_seed)
    for _ in range(n_steps):
        mask = game.legal_mask(st)
        check_invariants(st, mask)
        if st.done.all():
            break
        game.step(st, random_legal(mask, rng))
    return st


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 2**32), opts=st_.sampled_from(GAME_OPTIONS), steps=st_.integers(1, 400))
def test_invariants_hold_along_random_play(seed, opts, steps):
    play(make_game("ninja_daifugo", **opts), [seed, seed + 1], steps, seed)


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 2**32), steps=st_.integers(0, 300), bad=st_.integers(0, 2388))
def test_illegal_action_raises_and_leaves_state_untouched(seed, steps, bad):
    game = make_game("ninja_daifugo", series_games=2)
    st = play(game, [seed], steps, seed)
    if st.done[0]:
        return
    mask = game.legal_mask(st)[0]
    illegal = np.flatnonzero(~mask)
    action = int(illegal[bad % len(illegal)])
    before = st.copy()
    with pytest.raises(IllegalActionError) as err:
        game.step(st, np.array([action]))
    assert str(action) in str(err.value) and game.action_label(action) in str(err.value)
    assert st.equals(before)


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 2**32), steps=st_.integers(0, 300), opts=st_.sampled_from(GAME_OPTIONS))
def test_position_round_trip(seed, steps, opts):
    game = make_game("ninja_daifugo", **opts)
    st = play(game, [seed], steps, seed)
    pos = game.to_position(st, 0)
    back = game.from_position(pos)
    assert game.to_position(back, 0) == pos
    np.testing.assert_array_equal(game.legal_mask(back), game.legal_mask(st))
    for seat in range(4):
        np.testing.assert_array_equal(game.observe(back, seat), game.observe(st, seat))


@settings(max_examples=10, deadline=None)
@given(seeds=st_.lists(st_.integers(0, 2**40), min_size=2, max_size=6, unique=True), opts=st_.sampled_from(GAME_OPTIONS))
def test_batch_invariance(seeds, opts):
    """Game i in a batch equals the same seed played alone with the same actions."""
    game = make_game("ninja_daifugo", **opts)
    st = game.init(np.array(seeds))
    rng = np.random.default_rng(0)
    history = []
    for _ in range(250):
        mask = game.legal_mask(st)
        actions = random_legal(mask, rng)
        history.append(np.where(st.done, -1, actions))
        game.step(st, actions)
    for i, seed in enumerate(seeds):
        alone = game.init(np.array([seed]))
        for acts in history:
            if acts[i] < 0:
                break
            game.step(alone, acts[i:i + 1])
        assert alone.equals(st.take(i)), f"game {i} differs when played alone"


def test_same_seed_same_game():
    game = make_game("ninja_daifugo")
    a = play(game, [7, 8], 500, 3)
    b = play(game, [7, 8], 500, 3)
    assert a.equals(b)
    c = game.init(np.array([7]))
    d = game.init(np.array([9]))
    assert not np.array_equal(c.hands, d.hands)
