"""A parallel batch kernel hands its games to the threads in pieces, four per thread (numba's parallel
chunk size), for the call only; a serial call leaves numba's setting alone."""
from __future__ import annotations

import collections

import numba
import numpy as np
import pytest

from yuugi.envs.core.jit import batch_kernel

# Reading numba's chunk size in compiled code makes the kernel uncacheable (the rules never read it).
pytestmark = pytest.mark.filterwarnings("ignore:Cannot cache compiled function:numba.core.errors.NumbaWarning")

View = collections.namedtuple("View", "seat")  # a state's view: arrays with the games on the leading axis


@batch_kernel
def _chunk_in_effect(st, out):
    chunk = numba.get_parallel_chunksize()  # in the calling thread, before the loop hands out its pieces
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        out[i] = chunk + st.seat[i] * 0


@pytest.fixture
def chunk_before():
    previous = numba.set_parallel_chunksize(5)
    yield 5
    numba.set_parallel_chunksize(previous)


@pytest.mark.parametrize("games, threads, pieces_of", [(1024, 2, 128), (1000, 2, 125), (1001, 2, 126), (3, 2, 1),
                                                       (64, 4, 4)])
def test_a_parallel_call_cuts_the_games_into_four_pieces_per_thread(games, threads, pieces_of, chunk_before):
    out = np.zeros(games, dtype=np.int64)
    _chunk_in_effect(View(np.zeros(games, dtype=np.int64)), out, threads=threads)
    assert (out == pieces_of).all()
    assert numba.get_parallel_chunksize() == chunk_before  # restored after the call


def test_a_serial_call_leaves_the_chunk_size_alone(chunk_before):
    out = np.zeros(16, dtype=np.int64)
    _chunk_in_effect(View(np.zeros(16, dtype=np.int64)), out)
    assert (out == chunk_before).all()
    assert numba.get_parallel_chunksize() == chunk_before
