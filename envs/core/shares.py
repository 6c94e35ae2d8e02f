"""Games handed to threads in shares as the threads free up: the loop of the fused step kernels.

numba's threading layers split a ``prange`` loop statically: thread k steps the k-th contiguous part of
the games (tests/core/test_parallel_split.py), so a two-thread step lasts as long as its slower part. On a
shared machine one core can run tens of percent slower than the other for seconds at a time
(``python -m yuugi.training.bench.cores``), and then the faster thread waits. In the fused step kernels
each thread therefore loops over *workers*, one per thread: a worker steps its own part of the games a
share (``SHARE`` games) at a time, taking each share from an atomic counter, then takes the shares left
in the other parts, so a thread that finishes early steps games of the slower one::

    for worker in numba.prange(shares.shape[0]):
        w = np.int64(worker)
        start, stop = claim_share(shares, w, n)
        while start < stop:
            for i in range(start, stop):
                ...  # one game
            start, stop = claim_share(shares, w, n)

Each worker's counter has a cache line of its own: with two counters in one line every claim moved that
line between the cores, and the steps were 1-3% slower while the cores ran level (BENCHMARKS.md, session
24). Games are independent, so which thread steps a game changes nothing in it (every game's "two threads
play as one" test). With one thread (one worker) the games are stepped in order.
"""
from __future__ import annotations

import numba
import numpy as np
from numba.core import types
from numba.core.extending import intrinsic

from .jit import rules

SHARE = 32  # games per claim: 32 claims per 1,024 games on one thread, a few ns each
_ROW = 16  # int64 per worker row: 128 bytes, so that two workers' counters never share a cache line
_TAKEN, _PART = 0, 8  # a worker row: games taken from its part so far; the part it takes from now (0: its own)


def work_shares(threads: int) -> np.ndarray:
    """The counters of one kernel call on ``threads`` threads: one zeroed row per worker."""
    return np.zeros((max(int(threads), 1), _ROW), dtype=np.int64)


if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
    def fetch_add(counter: np.ndarray, amount: int) -> int:
        """``counter[0] += amount``, returning the value before (plain Python when the JIT is off)."""
        before = int(counter[0])
        counter[0] += amount
        return before
else:
    @intrinsic
    def fetch_add(typingctx, counter, amount):  # type: ignore[no-untyped-def]
        """``counter[0] += amount`` as one atomic instruction, returning the value before."""
        sig = types.int64(counter, types.int64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            array = context.make_array(signature.args[0])(context, builder, args[0])
            return builder.atomic_rmw("add", array.data, args[1], "monotonic")

        return sig, codegen


@rules(inline=True)
def claim_share(shares, w, n):
    """The next games ``[start, stop)`` of worker ``w`` among ``n``: from its own part, then from the other
    workers' parts in turn; ``start == stop`` when every share is taken."""
    workers = shares.shape[0]
    while shares[w, _PART] < workers:
        part = (w + shares[w, _PART]) % workers
        low = part * n // workers
        high = (part + 1) * n // workers
        start = low + fetch_add(shares[part, _TAKEN:], np.int64(SHARE))
        if start < high:
            return start, min(start + SHARE, high)
        shares[w, _PART] += 1
    return np.int64(0), np.int64(0)
