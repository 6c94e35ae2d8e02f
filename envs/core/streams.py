"""The per-game random streams of :mod:`yuugi.envs.core.rng`, drawn inside compiled rules.

Each function reads and advances game ``i``'s counter in the batch arrays ``key``/``counter``
exactly as the numpy draws do (number j of a draw is splitmix64(key ^ splitmix64(counter + j))),
so a rule moved into compiled code draws the same chance from the same seed.

Every constant is a ``np.uint64``: numba turns uint64 mixed with a plain integer into int64 (numpy 2
keeps uint64), which would change the arithmetic.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_ONE = np.uint64(1)
_TO_UNIT = 1.0 / float(1 << 53)


@rules
def splitmix64(x: np.uint64) -> np.uint64:
    z = x + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@rules
def draw(key: np.ndarray, counter: np.ndarray, i: int) -> np.uint64:
    """The next raw 64-bit number of game ``i``'s stream."""
    raw = splitmix64(key[i] ^ splitmix64(counter[i]))
    counter[i] += _ONE
    return raw


@rules
def unit(raw: np.uint64) -> float:
    """A uniform float in [0, 1) from a raw draw (its top 53 bits), as ``rng.unit_from``."""
    return float(raw >> _S11) * _TO_UNIT


@rules
def below(raw: np.uint64, bound: int) -> int:
    """An integer uniform in ``[0, bound)`` from a raw draw, as ``rng.below_from``."""
    v = int(unit(raw) * bound)
    return v if v < bound - 1 else bound - 1


@rules
def draw_below(key: np.ndarray, counter: np.ndarray, i: int, bound: int) -> int:
    """One integer uniform in ``[0, bound)`` for game ``i``, as ``rng.below_at``."""
    return below(draw(key, counter, i), bound)


@rules
def die(key: np.ndarray, counter: np.ndarray, i: int, sides: int) -> int:
    """One die 1..sides for game ``i`` scaled from a unit float, as ``rng.dice_at``."""
    return below(draw(key, counter, i), sides) + 1


@rules
def die_by_modulo(key: np.ndarray, counter: np.ndarray, i: int, sides: int) -> int:
    """One die 1..sides for game ``i`` as the raw draw modulo ``sides``, as ``rng.dice_by_modulo_at``."""
    return int(draw(key, counter, i) % np.uint64(sides)) + 1


@rules(allocates=True)
def permutation(key: np.ndarray, counter: np.ndarray, i: int, out: np.ndarray) -> None:
    """A uniformly random permutation of ``0..len(out)-1`` for game ``i`` into ``out``, as
    ``rng.permutations_at``: the stable argsort of ``len(out)`` raw draws (ties keep index order)."""
    n = out.shape[0]
    raws = np.empty(n, np.uint64)
    for j in range(n):
        raws[j] = draw(key, counter, i)
    stable_order(raws, out)


@rules
def stable_order(raws: np.ndarray, out: np.ndarray) -> None:
    """``out`` = the indices of ``raws`` sorted by (raw, index): a stable argsort, by insertion (``raws``
    is a hand or a deck, a few tens of values). Shuffles draw the raws and order the cards by them."""
    for j in range(out.shape[0]):
        out[j] = j
    for j in range(1, out.shape[0]):
        v = out[j]
        r = raws[v]
        k = j - 1
        while k >= 0 and raws[out[k]] > r:
            out[k + 1] = out[k]
            k -= 1
        out[k + 1] = v
