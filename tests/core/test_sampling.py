"""The random legal pick: row i takes its k-th legal action, k = floor(u_i * its legal count), u = rng.random(B)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from yuugi.envs.core.sampling import BLOCK, random_legal

ROOT = Path(__file__).resolve().parents[2]


def picks_by_definition(mask: np.ndarray, seed: int) -> list[int]:
    """The pick as documented, one row at a time in plain numpy."""
    draws = np.random.default_rng(seed).random(len(mask))
    picks = []
    for row, u in zip(mask, draws):
        legal = np.flatnonzero(row)
        picks.append(int(legal[int(u * len(legal))]) if len(legal) else 0)
    return picks


@settings(max_examples=200, deadline=None)
@given(rows=hs.integers(1, 40), width=hs.integers(1, 3 * BLOCK + 5),
       density=hs.sampled_from([0.0, 0.01, 0.05, 0.5, 1.0]), seed=hs.integers(0, 2**32 - 1),
       threads=hs.sampled_from([1, 2]))
def test_each_row_takes_its_kth_legal_action_for_the_generators_draw(rows, width, density, seed, threads):
    mask = np.random.default_rng(seed + 1).random((rows, width)) < density
    assert random_legal(mask, np.random.default_rng(seed), threads).tolist() == picks_by_definition(mask, seed)


def test_a_wide_sparse_mask_like_daifugos_is_picked_by_the_definition():
    mask = np.random.default_rng(5).random((300, 2389)) < 0.003
    mask[::7] = False  # rows with nothing legal
    mask[1::7, -1] = True  # a legal action in the last column, past the last whole block
    assert random_legal(mask, np.random.default_rng(9)).tolist() == picks_by_definition(mask, 9)


def test_a_strided_view_and_a_non_bool_mask_pick_as_their_bool_copies():
    wide = np.random.default_rng(3).random((64, 200)) < 0.05
    view = wide[:, ::2]  # not contiguous
    assert random_legal(view, np.random.default_rng(1)).tolist() == picks_by_definition(view, 1)
    as_bytes = wide.astype(np.int8) * 7  # non-zero values other than 1, as an int8 action_mask might hold
    assert random_legal(as_bytes, np.random.default_rng(1)).tolist() == picks_by_definition(wide, 1)


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


def test_a_mask_that_is_not_batch_by_actions_is_refused():
    with pytest.raises(ValueError, match=r"\[batch, actions\] mask, got shape \(5,\)"):
        random_legal(np.ones(5, dtype=bool), np.random.default_rng(0))


def test_the_pick_read_as_python_with_the_jit_off_picks_as_compiled():
    code = ("import numpy as np; from yuugi.envs.core.sampling import random_legal; "
            "mask = np.random.default_rng(2).random((50, 150)) < 0.04; "
            "print(random_legal(mask, np.random.default_rng(4)).tolist())")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    mask = np.random.default_rng(2).random((50, 150)) < 0.04
    assert done.stdout.strip() == str(random_legal(mask, np.random.default_rng(4)).tolist())
