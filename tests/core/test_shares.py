"""The fused step kernels' loop (envs/core/shares.py): every game is stepped exactly once, in order on one
thread, and a thread that finishes its own part early steps games of the other's."""
from __future__ import annotations

import collections

import numba
import numpy as np
import pytest

from yuugi.envs.core.jit import batch_kernel
from yuugi.envs.core.shares import SHARE, claim_share, work_shares

View = collections.namedtuple("View", "work")  # a state's view: arrays with the games on the leading axis


def claims(shares: np.ndarray, worker: int, n: int) -> list[tuple[int, int]]:
    taken = []
    while True:
        start, stop = claim_share(shares, worker, n)
        if start >= stop:
            return taken
        taken.append((int(start), int(stop)))


def test_one_worker_takes_the_games_in_order_a_share_at_a_time():
    n = 3 * SHARE + 5
    expected = [(0, SHARE), (SHARE, 2 * SHARE), (2 * SHARE, 3 * SHARE), (3 * SHARE, n)]
    assert claims(work_shares(1), 0, n) == expected


def test_a_worker_that_runs_alone_takes_the_other_parts_too():
    n = 1000
    shares = work_shares(2)
    taken = claims(shares, 1, n)  # worker 1 starts with its own half, then takes worker 0's
    assert taken[0] == (500, 500 + SHARE) and taken[-1][1] == 500
    stepped = np.zeros(n, dtype=int)
    for start, stop in taken:
        stepped[start:stop] += 1
    assert (stepped == 1).all()
    assert claims(shares, 0, n) == []  # nothing left for worker 0


def test_workers_taking_turns_step_every_game_once():
    n = 777
    shares = work_shares(3)
    stepped = np.zeros(n, dtype=int)
    busy = [0, 1, 2]
    while busy:
        for w in list(busy):
            start, stop = claim_share(shares, w, n)
            if start >= stop:
                busy.remove(w)
            stepped[start:stop] += 1
    assert (stepped == 1).all()


@batch_kernel
def _thread_of_each_game(st, out, shares):
    n = out.shape[0]
    for worker in numba.prange(shares.shape[0]):
        w = np.int64(worker)
        start, stop = claim_share(shares, w, n)
        while start < stop:
            for i in range(start, stop):
                x = 0.0
                for k in range(st.work[i]):  # the games of the first part cost far more than the others
                    x += np.sqrt(k + 1.0)
                out[i] = numba.get_thread_id() + np.int64(x < 0)
            start, stop = claim_share(shares, w, n)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two cores")  # type: ignore[attr-defined]
def test_the_thread_with_the_cheap_part_steps_games_of_the_costly_one():
    games = 1024
    work = np.zeros(games, dtype=np.int64)
    work[: games // 2] = 200_000  # about 0.2 s for the first half on one core
    out = np.full(games, -1, dtype=np.int64)
    _thread_of_each_game(View(work), out, work_shares(2), threads=2)
    assert (out >= 0).all()  # every game stepped
    costly_threads = set(out[: games // 2].tolist())
    assert len(costly_threads) == 2  # (a static split leaves the costly half to one thread: test_parallel_split.py)
