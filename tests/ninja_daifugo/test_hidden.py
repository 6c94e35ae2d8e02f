"""resample_hidden for daifugō: the acting seat sees the same table; what it cannot see is dealt again."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.policy import random_legal
from yuugi.envs import make_game
from yuugi.envs.ninja_daifugo.cards import ALL_CARDS, popcount, unpack_bits
from yuugi.envs.ninja_daifugo.hidden import resample_hidden
from yuugi.envs.ninja_daifugo.rules import TRIBUTE_ORDER
from yuugi.envs.ninja_daifugo.state import DAIFUGO, DAIHINMIN, FUGO, HINMIN
from tests.ninja_daifugo.invariants import check_invariants
from tests.hidden_checks import play_to_the_end


def random_positions(game, n: int, seed: int):
    """Live positions after a random number of random legal moves (deals 1 and later of a series)."""
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(seed * 1000, seed * 1000 + n))
    stop = rng.integers(0, 260, size=n)
    for t in range(260):
        act = ~st.done & (stop > t)
        if not act.any():
            break
        game.step(st, random_legal(game.legal_mask(st), rng), act)
    return st.take(np.flatnonzero(~st.done))


@pytest.fixture(scope="module", params=[{}, {"ninja": "symmetric"}, {"ninja": "off", "series_games": 3}])
def positions(request):
    game = make_game("ninja_daifugo", **request.param)
    return game, random_positions(game, 300, 1)


def test_the_acting_seat_sees_the_same_table(positions):
    game, st = positions
    rng = np.random.default_rng(2)
    for seat in (st.to_play.astype(np.int64), (st.to_play.astype(np.int64) + 1) % 4):
        before = game.observe(st, seat)
        for _ in range(3):
            after = game.observe(resample_hidden(game, st, seat, rng), seat)
            np.testing.assert_array_equal(before, after)


def test_opponent_hands_change_but_keep_their_sizes_and_known_cards(positions):
    game, st = positions
    seat = st.to_play.astype(np.int64)
    rows = np.arange(st.batch_size)
    a = resample_hidden(game, st, seat, np.random.default_rng(3))
    b = resample_hidden(game, st, seat, np.random.default_rng(4))
    np.testing.assert_array_equal(popcount(a.hands), popcount(st.hands))
    np.testing.assert_array_equal(a.hands[rows, seat], st.hands[rows, seat])
    for h in range(4):
        known = st.known[rows, seat, h]
        assert ((a.hands[:, h] & known) == known).all(), "a card the seat knows was moved"
    # Some hidden card is somewhere else in most positions (two opponents with cards to swap).
    changed = (a.hands != b.hands).any(axis=1)
    assert changed.mean() > 0.9
    # The rng streams are new.
    assert (a.rng_key != st.rng_key).all() and (a.rng_key != b.rng_key).all()


def test_resampled_states_are_legal_and_play_to_the_end(positions):
    game, st = positions
    rng = np.random.default_rng(5)
    sim = resample_hidden(game, st, st.to_play.astype(np.int64), rng)
    assert (np.bitwise_or.reduce(np.concatenate([sim.hands, sim.field_cards[:, None], sim.discard[:, None],
                                                 sim.removed[:, None]], axis=1), axis=1) == np.uint64(ALL_CARDS)).all()
    play_to_the_end(game, sim, rng, check_invariants)
    assert not sim.truncated.any()


def test_the_result_depends_only_on_what_the_seat_sees(positions):
    game, st = positions
    seat = st.to_play.astype(np.int64)
    other_world = resample_hidden(game, st, seat, np.random.default_rng(6))
    a = resample_hidden(game, st, seat, np.random.default_rng(7))
    b = resample_hidden(game, other_world, seat, np.random.default_rng(7))
    assert a.equals(b)


def _strength_position(declaration: int) -> np.ndarray:
    order = TRIBUTE_ORDER[2 if declaration == 1 else 1 if declaration == 5 else 0].astype(np.int64)
    position = np.empty(53, dtype=np.int64)
    position[order] = np.arange(53)
    return position


def test_a_tribute_giver_is_dealt_nothing_stronger_than_its_tribute():
    # Rules: 大貧民 hands 大富豪 its two strongest cards, 貧民 hands 富豪 its strongest one; a card
    # stronger than the weakest of them can be in the giver's hand only if it arrived later (in
    # view of the receiver).
    game = make_game("ninja_daifugo", ninja="off")
    st = game.init(np.arange(400))
    rng = np.random.default_rng(8)
    while (st.game_index == 0).any():
        game.step(st, random_legal(game.legal_mask(st), rng), st.game_index == 0)
    st = st.take(np.flatnonzero(~st.done))
    checked = 0
    for taker_title, giver_title in ((DAIFUGO, DAIHINMIN), (FUGO, HINMIN)):
        seat = (st.titles == taker_title).argmax(axis=1)
        giver = (st.titles == giver_title).argmax(axis=1)
        rows = np.arange(st.batch_size)
        for k in range(20):
            sim = resample_hidden(game, st, seat, np.random.default_rng(100 + k))
            for i in range(0, st.batch_size, 7):
                position = _strength_position(int(st.declaration[i]))
                tribute = unpack_bits(st.received[i, seat[i]])
                weakest = position[tribute].max()
                hidden = unpack_bits(sim.hands[i, giver[i]] & ~st.known[i, seat[i], giver[i]])
                assert (position[hidden] > weakest).all()
                checked += 1
        # The true hands obey the same rule (the inference is sound).
        for i in range(st.batch_size):
            weakest = _strength_position(int(st.declaration[i]))[unpack_bits(st.received[i, seat[i]])].max()
            true_hidden = unpack_bits(st.hands[i, giver[i]] & ~st.known[i, seat[i], giver[i]])
            assert (_strength_position(int(st.declaration[i]))[true_hidden] > weakest).all()
        assert (popcount(st.received[rows, seat]) == (2 if taker_title == DAIFUGO else 1)).all()
    assert checked > 0


def test_cards_the_seat_gave_and_lost_track_of_stay_in_the_face_down_pile():
    # 都落ち: the fallen 大富豪's hand goes face down; cards the seat had given it are still there.
    game = make_game("ninja_daifugo", ninja="off", series_games=3)
    st = random_positions(game, 600, 9)
    rows = np.arange(st.batch_size)
    cases = 0
    for seat in range(4):
        known_any = np.bitwise_or.reduce(st.known[rows, seat], axis=1)
        lost = st.given[rows, seat] & st.removed & ~known_any & ~st.hands[rows, seat]
        if not lost.any():
            continue
        sim = resample_hidden(game, st, seat, np.random.default_rng(seat))
        assert ((sim.removed & lost) == lost).all()
        cases += int((lost != 0).sum())
    assert cases > 0, "no position with a fallen hand holding the seat's gifts: widen the sample"
