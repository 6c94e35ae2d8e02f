"""The counter-based RNG: per-game streams independent of the batch around them."""
from __future__ import annotations

import numpy as np

from yuugi.envs.core import rng


def test_streams_depend_only_on_own_key_and_counter():
    keys = rng.keys_from_seeds(np.array([1, 2, 3], dtype=np.uint64))
    c1 = np.zeros(3, dtype=np.uint64)
    batch = rng.draw_uint64(keys, c1, 5)
    c2 = np.zeros(1, dtype=np.uint64)
    alone = rng.draw_uint64(keys[1:2], c2, 5)
    np.testing.assert_array_equal(batch[1], alone[0])
    assert (c1 == 5).all() and c2[0] == 5


def test_different_seeds_differ_and_counters_advance():
    keys = rng.keys_from_seeds(np.array([1, 2], dtype=np.uint64))
    ctr = np.zeros(2, dtype=np.uint64)
    a = rng.draw_uint64(keys, ctr, 4)
    b = rng.draw_uint64(keys, ctr, 4)
    assert not np.array_equal(a[0], a[1])
    assert not np.array_equal(a, b)


def test_uniform_draws_are_roughly_uniform():
    keys = rng.keys_from_seeds(np.arange(2000, dtype=np.uint64))
    ctr = np.zeros(2000, dtype=np.uint64)
    x = rng.draw_below(keys, ctr, 6)
    counts = np.bincount(x, minlength=6)
    assert counts.min() > 250 and x.max() == 5 and x.min() == 0  # expected 333 each
    perms = rng.draw_permutations(keys, ctr, 5)
    assert (np.sort(perms, axis=1) == np.arange(5)).all()
    assert np.bincount(perms[:, 0], minlength=5).min() > 300  # expected 400 each


def test_subset_draws_advance_only_their_games():
    from types import SimpleNamespace

    st = SimpleNamespace(rng_key=rng.keys_from_seeds(np.arange(4, dtype=np.uint64)),
                         rng_counter=np.zeros(4, dtype=np.uint64))
    g = np.array([1, 3])
    dice = rng.dice_at(st, g, 3)
    assert dice.shape == (2, 3) and dice.min() >= 1 and dice.max() <= 6
    assert st.rng_counter.tolist() == [0, 3, 0, 3]
    rng.permutations_at(st, g, 5)
    rng.below_at(st, g, 10)
    assert st.rng_counter.tolist() == [0, 9, 0, 9]
    many = rng.dice_at(SimpleNamespace(rng_key=st.rng_key[:1].repeat(1), rng_counter=np.zeros(1, np.uint64)),
                       np.array([0]), 6000)
    assert abs(np.bincount(many[0], minlength=7)[1:] / 6000 - 1 / 6).max() < 0.03


def test_one_draw_split_by_columns_equals_the_draws_made_one_after_another():
    # A setup may take all its numbers in one draw_uint64 call and interpret the columns: the stream
    # hashes counter + j for number j, so the values (and the counter afterwards) are those of the
    # separate calls in the same order.
    keys = rng.keys_from_seeds(np.arange(50, dtype=np.uint64))
    apart = np.full(50, 7, dtype=np.uint64)
    shuffle = rng.draw_permutations(keys, apart, 11)
    deal = rng.draw_permutations(keys, apart, 6)
    start = rng.draw_below(keys, apart, 2)
    dice = rng.draw_unit(keys, apart, 3)
    together = np.full(50, 7, dtype=np.uint64)
    raw = rng.draw_uint64(keys, together, 11 + 6 + 1 + 3)
    np.testing.assert_array_equal(rng.permutations_from(raw[:, :11]), shuffle)
    np.testing.assert_array_equal(rng.permutations_from(raw[:, 11:17]), deal)
    np.testing.assert_array_equal(rng.below_from(raw[:, 17], 2), start)
    np.testing.assert_array_equal(rng.unit_from(raw[:, 18:]), dice)
    np.testing.assert_array_equal(together, apart)
    assert not np.array_equal(shuffle[:, :6], deal)  # the columns are different numbers, not one reused
