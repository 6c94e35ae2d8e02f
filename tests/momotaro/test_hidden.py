"""resample_hidden for 鬼ヶ島: deck orders and sealed bids drawn again; the seat's view unchanged."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs import make_game
from yuugi.envs.momotaro.hidden import resample_hidden
from yuugi.envs.momotaro.state import AT_DECK, PHASE_ADD, PHASE_BID
from tests.momotaro.invariants import check_state, random_legal
from tests.hidden_checks import play_to_the_end


def random_positions(game, n: int, seed: int, steps: int):
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(seed * 1000, seed * 1000 + n))
    stop = rng.integers(0, steps, size=n)
    for t in range(steps):
        act = ~st.done & (stop > t)
        if not act.any():
            break
        game.step(st, random_legal(game.legal_mask(st), rng), act)
    return st.take(np.flatnonzero(~st.done))


@pytest.fixture(scope="module", params=[2, 4])
def positions(request):
    game = make_game("momotaro", num_players=request.param)
    return game, random_positions(game, 400, request.param, 120)


def test_every_seat_keeps_its_view(positions):
    game, st = positions
    rng = np.random.default_rng(1)
    for offset in range(game.num_players):
        seat = (st.to_play.astype(np.int64) + offset) % game.num_players
        before = game.observe(st, seat)
        for _ in range(3):
            np.testing.assert_array_equal(before, game.observe(resample_hidden(game, st, seat, rng), seat))


def test_hidden_orders_and_bids_are_drawn_again(positions):
    game, st = positions
    seat = st.to_play.astype(np.int64)
    a = resample_hidden(game, st, seat, np.random.default_rng(2))
    b = resample_hidden(game, st, seat, np.random.default_rng(3))
    # The oni still in the deck: same set, and the deck positions from 4 x round on are theirs.
    for sim in (a, b):
        for i in range(st.batch_size):
            first = 4 * int(st.round[i])
            assert set(sim.oni_deck[i, first:]) == set(np.flatnonzero(st.oni_at[i] == AT_DECK))
            assert np.array_equal(sim.oni_deck[i, :first], st.oni_deck[i, :first])
            pos = int(st.hire_pos[i])
            assert np.array_equal(sim.hire_deck[i, :pos + 1], st.hire_deck[i, :pos + 1])
            assert sorted(sim.hire_deck[i]) == list(range(9))
    long_deck = 12 - 4 * st.round >= 4
    assert (a.oni_deck != b.oni_deck).any(axis=1)[long_deck].mean() > 0.8
    hiring = st.hire_pos <= 5
    assert (a.hire_deck != b.hire_deck).any(axis=1)[hiring].mean() > 0.6
    # Sealed bids of the others: new values within what each could bid; the seat's own bid kept.
    others = np.arange(game.num_players)[None, :] != seat[:, None]
    sealed = others & (st.phase == PHASE_BID)[:, None] & (st.bids >= 0)
    assert sealed.sum() > 20
    assert (a.bids[~sealed] == st.bids[~sealed]).all()
    assert ((a.bids[sealed] >= 0) & (a.bids[sealed] <= st.kibi[sealed])).all()
    rich = sealed & (st.kibi >= 4)  # a bidder with 0 kibidango could only have bid 0
    assert rich.sum() >= 5 and (a.bids[rich] != b.bids[rich]).mean() > 0.5
    sealed_adds = others & (st.phase == PHASE_ADD)[:, None] & (st.adds >= 0)
    assert (a.adds[~sealed_adds] == st.adds[~sealed_adds]).all()
    assert (a.adds[sealed_adds] <= (st.kibi - st.bids)[sealed_adds]).all()


def test_resampled_states_are_legal_and_play_to_the_end(positions):
    game, st = positions
    rng = np.random.default_rng(4)
    sim = resample_hidden(game, st, st.to_play.astype(np.int64), rng)
    play_to_the_end(game, sim, rng, lambda state, mask: check_state(game, state), max_steps=3000)


def test_the_result_depends_only_on_what_the_seat_sees(positions):
    game, st = positions
    seat = st.to_play.astype(np.int64)
    other_world = resample_hidden(game, st, seat, np.random.default_rng(5))
    assert resample_hidden(game, st, seat, np.random.default_rng(6)).equals(
        resample_hidden(game, other_world, seat, np.random.default_rng(6)))
