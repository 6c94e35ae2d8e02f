"""The random legal pick and the legal positions it draws from."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from yuugi.envs.core.sampling import WORD_SEARCH_MIN_ACTIONS, legal_positions, random_legal


@settings(max_examples=200, deadline=None)
@given(rows=hs.integers(1, 40), width=hs.integers(1, 700), density=hs.sampled_from([0.0, 0.002, 0.05, 0.5, 1.0]),
       seed=hs.integers(0, 2**32 - 1))
def test_legal_positions_are_flatnonzero_for_any_shape_and_density(rows, width, density, seed):
    mask = np.random.default_rng(seed).random((rows, width)) < density
    assert np.array_equal(legal_positions(mask), np.flatnonzero(mask))


def test_legal_positions_of_a_strided_view_or_a_non_bool_mask_are_flatnonzero():
    rng = np.random.default_rng(3)
    wide = rng.random((64, 2 * WORD_SEARCH_MIN_ACTIONS)) < 0.01
    view = wide[:, ::2]  # not contiguous: the word search does not apply
    assert np.array_equal(legal_positions(view), np.flatnonzero(view))
    as_bytes = wide.astype(np.uint8) * 7  # non-zero bytes other than 1
    assert np.array_equal(legal_positions(as_bytes), np.flatnonzero(as_bytes))


def test_a_true_in_the_last_byte_of_a_word_and_of_the_mask_is_found():
    mask = np.zeros((8, WORD_SEARCH_MIN_ACTIONS), dtype=bool)
    mask[0, 7] = mask[3, 64] = mask[-1, -1] = True
    expected = [7, 3 * WORD_SEARCH_MIN_ACTIONS + 64, mask.size - 1]
    assert legal_positions(mask).tolist() == expected


def test_random_legal_picks_every_legal_action_of_a_wide_row_about_equally_and_nothing_else():
    mask = np.zeros((20_000, 2389), dtype=bool)
    legal = np.array([0, 5, 1000, 2388])
    mask[:, legal] = True
    mask[1::2, 2388] = False  # odd rows: three legal actions
    picks = random_legal(mask, np.random.default_rng(0))
    assert set(picks[0::2]) == set(legal.tolist()) and set(picks[1::2]) == set(legal[:3].tolist())
    even = np.bincount(np.searchsorted(legal, picks[0::2]), minlength=4) / 10_000
    assert np.all(np.abs(even - 0.25) < 0.02)  # 10,000 draws: the standard error of each share is 0.004


def test_a_row_without_a_legal_action_gets_zero():
    mask = np.zeros((3, 300), dtype=bool)
    mask[1, 299] = True
    assert random_legal(mask, np.random.default_rng(0)).tolist() == [0, 299, 0]
