"""resample_hidden for nigejozu: everything is public but the future dice, which are drawn anew."""
from __future__ import annotations

import numpy as np

from yuugi.agents.policy import random_legal
from yuugi.envs import make_game
from yuugi.envs.nigejozu.hidden import resample_hidden
from yuugi.envs.nigejozu.state import PHASE_TURN_START
from tests.nigejozu.invariants import ROLL, check_invariants
from tests.hidden_checks import play_to_the_end


def random_positions(game, n: int, seed: int):
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(seed * 1000, seed * 1000 + n))
    stop = rng.integers(0, 40, size=n)
    for t in range(40):
        act = ~st.done & (stop > t)
        if not act.any():
            break
        game.step(st, random_legal(game.legal_mask(st), rng), act)
    return st.take(np.flatnonzero(~st.done))


def test_both_seats_see_the_same_table_and_the_future_dice_change():
    game = make_game("nigejozu")
    st = random_positions(game, 400, 1)
    rng = np.random.default_rng(2)
    sims = [resample_hidden(game, st, st.to_play.astype(np.int64), rng) for _ in range(2)]
    for sim in sims:
        for seat in (0, 1):
            np.testing.assert_array_equal(game.observe(st, seat), game.observe(sim, seat))
        # Only the random stream differs from the true state.
        assert all(np.array_equal(v, getattr(sim, k)) for k, v in st.arrays().items() if not k.startswith("rng_"))
    # The next roll: three dice, the same in two worlds 1/36 of the time or less... far from always.
    rolling = np.flatnonzero(st.phase == PHASE_TURN_START)
    assert rolling.size > 50
    dice = []
    for sim in (st.copy(), *sims):
        sub = sim.take(rolling)
        game.step(sub, np.full(rolling.size, ROLL))
        dice.append(sub.dice.copy())
    assert (dice[1] != dice[2]).any(axis=1).mean() > 0.8
    assert (dice[0] != dice[1]).any(axis=1).mean() > 0.8


def test_resampled_states_are_legal_and_play_to_the_end():
    game = make_game("nigejozu")
    st = random_positions(game, 300, 3)
    rng = np.random.default_rng(4)
    sim = resample_hidden(game, st, st.to_play.astype(np.int64), rng)
    play_to_the_end(game, sim, rng, lambda state, mask: check_invariants(game, state, mask), max_steps=2000)


def test_the_result_depends_only_on_what_the_seat_sees():
    game = make_game("nigejozu")
    st = random_positions(game, 100, 5)
    seat = st.to_play.astype(np.int64)
    other_world = resample_hidden(game, st, seat, np.random.default_rng(6))
    assert resample_hidden(game, st, seat, np.random.default_rng(7)).equals(
        resample_hidden(game, other_world, seat, np.random.default_rng(7)))
