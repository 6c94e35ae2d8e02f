"""The uniformly random legal pick, shared by policies, benchmarks and tests."""
from __future__ import annotations

import numba
import numpy as np

from .jit import batch_kernel


def random_legal(mask: np.ndarray, rng: np.random.Generator, threads: int = 1) -> np.ndarray:
    """One uniformly random legal action per row of a ``[B, A]`` mask (rows with no legal action get 0).

    Row i draws ``u = rng.random(B)[i]`` and takes its k-th legal action (counted from action 0), with
    ``k = floor(u * its number of legal actions)``: one generator call for the whole batch, and the same
    picks for the same generator state whatever ``threads`` is. The count and the search run compiled
    (:func:`pick_legal`); ``threads > 1`` splits the rows between threads the way the fused step kernels
    split the games, so that each thread reads the mask rows it has just written.
    """
    if mask.ndim != 2:
        raise ValueError(f"random_legal needs a [batch, actions] mask, got shape {mask.shape}")
    draws = rng.random(mask.shape[0])
    legal = mask if mask.dtype == np.bool_ else mask != 0
    actions = np.empty(mask.shape[0], dtype=np.int64)
    pick_legal(legal.view(np.uint8), draws, actions, threads=threads)
    return actions


BLOCK = 32  # the search for the k-th legal action skips this many actions at a time by their count


@batch_kernel
def pick_legal(legal, draws, actions):  # type: ignore[no-untyped-def]
    """``actions[i]`` = the k-th legal action of row i of the 0/1 bytes ``legal``, with k = floor(draws[i]
    times the row's count of legal actions); 0 where the row has none.

    Counting the row is a plain sum, which compiles to vector instructions; the search then adds whole
    blocks of actions while they hold fewer than k legal ones, and looks at single actions only in the
    block that holds the pick (daifugō's rows are 2,389 actions with a few legal).
    """
    rows, width = legal.shape
    for row in numba.prange(rows):
        i = np.int64(row)
        count = 0
        for a in range(width):
            count += legal[i, a]
        actions[i] = 0
        if count == 0:
            continue
        k = np.int64(draws[i] * count)
        start = 0
        while start + BLOCK <= width:
            in_block = 0
            for a in range(start, start + BLOCK):
                in_block += legal[i, a]
            if k < in_block:
                break
            k -= in_block
            start += BLOCK
        for a in range(start, width):
            if legal[i, a]:
                if k == 0:
                    actions[i] = a
                    break
                k -= 1
