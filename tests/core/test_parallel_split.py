"""Why a parallel batch kernel does not cut its games into small pieces: numba's threading layers hand
a loop's pieces to the threads statically, so thread k steps the k-th contiguous share of the games
whatever numba's chunk size, even when that share costs far more than the others (envs/core/jit.py,
``_call_parallel``). The fused step kernels count on it: each thread asks for the rows of the games ahead
in its own part (envs/core/prefetch.py). If a numba release starts to balance the pieces, this test says so."""
from __future__ import annotations

import collections

import numba
import numpy as np
import pytest

from yuugi.envs.core.jit import batch_kernel

View = collections.namedtuple("View", "work")  # a state's view: arrays with the games on the leading axis


@batch_kernel
def _thread_of_each_game(st, out):
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        x = 0.0
        for k in range(st.work[i]):  # the games of the first share cost far more than the others
            x += np.sqrt(k + 1.0)
        out[i] = numba.get_thread_id() + np.int64(x < 0)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two cores")  # type: ignore[attr-defined]
@pytest.mark.parametrize("chunk", [0, 128, 16])
def test_each_thread_steps_its_own_contiguous_share_whatever_the_chunk_size(chunk):
    games = 1024
    work = np.zeros(games, dtype=np.int64)
    work[: games // 2] = 20_000
    out = np.full(games, -1, dtype=np.int64)
    previous = numba.set_parallel_chunksize(chunk)
    try:
        _thread_of_each_game(View(work), out, threads=2)
    finally:
        numba.set_parallel_chunksize(previous)
    assert (out[: games // 2] == out[0]).all() and (out[games // 2:] == out[-1]).all()
    assert out[0] != out[-1]
