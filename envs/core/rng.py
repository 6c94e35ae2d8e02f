"""Counter-based random numbers: one independent stream per game in a batch.

Every game i carries a 64-bit key (derived from its seed) and a counter. A draw of n numbers
for game i hashes ``key_i`` with counters ``c_i .. c_i + n - 1`` through splitmix64 and advances
``c_i`` by n. So game i's trajectory depends only on its own seed and its own actions, whatever
the batch around it, and a sub-batch can be stepped without touching the others' streams.
"""
from __future__ import annotations

import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_TO_UNIT = 1.0 / float(1 << 53)


def splitmix64(x: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser over uint64 arrays (wrapping arithmetic)."""
    z = np.asarray(x, dtype=np.uint64) + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def keys_from_seeds(seeds: np.ndarray | list[int]) -> np.ndarray:
    """One stream key per seed; seeds are non-negative integers below 2**64."""
    s = np.asarray(seeds)
    if s.ndim != 1:
        raise ValueError(f"seeds must be a 1-D sequence of integers, got shape {s.shape}")
    if s.size and (s.dtype.kind not in "iu" or (s.dtype.kind == "i" and (s < 0).any())):
        raise ValueError("seeds must be non-negative integers")
    return splitmix64(splitmix64(s.astype(np.uint64)) ^ np.uint64(0x5EED5EED5EED5EED))


def draw_uint64(key: np.ndarray, counter: np.ndarray, n: int) -> np.ndarray:
    """``n`` raw 64-bit numbers per game; advances ``counter`` (in place) by ``n``."""
    steps = np.arange(n, dtype=np.uint64)
    out = splitmix64(key[:, None] ^ splitmix64(counter[:, None] + steps))
    counter += np.uint64(n)
    return out


def draw_unit(key: np.ndarray, counter: np.ndarray, n: int) -> np.ndarray:
    """``n`` uniform floats in [0, 1) per game."""
    return unit_from(draw_uint64(key, counter, n))


def draw_below(key: np.ndarray, counter: np.ndarray, bound: np.ndarray | int) -> np.ndarray:
    """One integer per game, uniform in ``[0, bound_i)`` (bound >= 1)."""
    return below_from(draw_uint64(key, counter, 1)[:, 0], bound)


def draw_permutations(key: np.ndarray, counter: np.ndarray, n: int) -> np.ndarray:
    """A uniformly random permutation of ``0..n-1`` per game, as int64[B, n]."""
    return permutations_from(draw_uint64(key, counter, n))


# ---- the same draws made from raw numbers already drawn ------------------------------------------
# A setup that needs several draws in a row (a shuffle, a deal, a start player) can take all its raw
# numbers in one draw_uint64 call and split the columns: the stream is the same (number j of a call
# is hashed from counter + j), and one call instead of three is most of the cost at small batches.
def unit_from(raw: np.ndarray) -> np.ndarray:
    """Uniform floats in [0, 1) from raw 64-bit draws (the top 53 bits)."""
    return (raw >> np.uint64(11)).astype(np.float64) * _TO_UNIT


def below_from(raw: np.ndarray, bound: np.ndarray | int) -> np.ndarray:
    """Integers uniform in ``[0, bound)`` from one raw 64-bit draw each (bound >= 1)."""
    return np.minimum((unit_from(raw) * bound).astype(np.int64), np.asarray(bound) - 1)


def permutations_from(raw: np.ndarray) -> np.ndarray:
    """A uniformly random permutation of ``0..n-1`` per row of raw draws ``[B, n]``, as int64[B, n]."""
    return np.argsort(raw, axis=1, kind="stable")


# ---- draws for a subset ``g`` of a batched state (reads and writes its counters) ----------------
def below_at(state, g: np.ndarray, bound: np.ndarray | int) -> np.ndarray:
    """One integer in ``[0, bound)`` for each game in ``g``; advances those games' counters."""
    ctr = state.rng_counter[g]
    out = draw_below(state.rng_key[g], ctr, bound)
    state.rng_counter[g] = ctr
    return out


def permutations_at(state, g: np.ndarray, n: int) -> np.ndarray:
    """A random permutation of ``0..n-1`` for each game in ``g``; advances those games' counters."""
    ctr = state.rng_counter[g]
    out = draw_permutations(state.rng_key[g], ctr, n)
    state.rng_counter[g] = ctr
    return out


def dice_at(state, g: np.ndarray, n: int, sides: int = 6) -> np.ndarray:
    """``n`` fair dice (1..sides) for each game in ``g``, as int64[len(g), n]: a unit float scaled by
    ``sides`` (nigejozu's dice)."""
    ctr = state.rng_counter[g]
    raw = draw_uint64(state.rng_key[g], ctr, n)
    state.rng_counter[g] = ctr
    return below_from(raw, sides) + 1


def dice_by_modulo_at(state, g: np.ndarray, n: int, sides: int = 6) -> np.ndarray:
    """``n`` dice (1..sides) for each game in ``g``, as int64[len(g), n]: the raw 64-bit draw modulo
    ``sides``, plus one (momotaro's dice).

    The modulo favours low faces by less than ``sides / 2**64``, nothing a game can show; a game keeps
    the formula it was recorded with, because a replay must draw the same faces from the same stream
    (:func:`dice_at` turns the same draws into other faces).
    """
    ctr = state.rng_counter[g]
    raw = draw_uint64(state.rng_key[g], ctr, n)
    state.rng_counter[g] = ctr
    return (raw % np.uint64(sides)).astype(np.int64) + 1


def rekey(state, rng: np.random.Generator) -> None:
    """Give every game of ``state`` a new random stream from ``rng`` (in place): future chance is redrawn.

    A search that re-deals what a seat cannot see must also replace the stream, or the true future
    (and, where the stream dealt the cards, the true deal) could be recomputed from the old key.
    """
    state.rng_key[:] = rng.integers(0, np.iinfo(np.uint64).max, size=state.batch_size, dtype=np.uint64,
                                    endpoint=True)
    state.rng_counter[:] = 0
