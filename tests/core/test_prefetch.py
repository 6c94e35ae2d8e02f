"""The fused step kernels' prefetch (envs/core/prefetch.py) and the serial stand-ins that leave it out of a
one-thread kernel (envs/core/jit.py). That prefetching changes no game is every game's "two threads play as
one" check (tests/compiled_checks.py) with the trace hashes."""
from __future__ import annotations

import collections

import numba
import numpy as np
import pytest

from yuugi.envs.core.jit import BatchKernel, batch_kernel, rules
from yuugi.envs.core.prefetch import AHEAD_BYTES, LINE_BYTES, games_ahead, prefetch_outputs, prefetch_row

View = collections.namedtuple("View", "x")


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="asks for machine code")  # type: ignore[attr-defined]
def test_asking_for_a_row_puts_prefetches_in_the_machine_code_and_writes_nothing():
    def ask(out, i):
        prefetch_row(out, i)

    compiled = numba.njit(ask)  # not cached, so its machine code can be read
    row_floats = 7 * LINE_BYTES // 4 + 3  # 7 whole lines and a bit of an eighth
    out = np.zeros((2, row_floats), dtype=np.float32)
    compiled(out, 1)
    asm = compiled.inspect_asm(compiled.signatures[0])
    # x86-64 asks with prefetchw (or a plain prefetch where the CPU lacks it), arm64 with prfm
    asked = sum(line.split()[0].startswith(("prefetch", "prfm")) for line in asm.splitlines() if line.split())
    assert asked >= 1  # the hint is in the code (LLVM may keep the loop over lines rather than unroll it)
    assert not out.any()  # and it wrote nothing


def test_games_ahead_asks_for_as_many_whole_games_of_rows_as_fit_in_ahead_bytes():
    mask = np.zeros((4, 29), dtype=bool)  # nigejozu's rows: 29 + 241 * 4 bytes a game
    obs = np.zeros((4, 241), dtype=np.float32)
    ahead, game_bytes = games_ahead(mask, obs), 29 + 241 * 4
    assert ahead * game_bytes <= AHEAD_BYTES < (ahead + 1) * game_bytes
    wide = np.zeros((4, 5350), dtype=np.float32)  # a game's rows bigger than AHEAD_BYTES: still the next game
    assert games_ahead(mask, wide) == 1


@rules(inline=True)
def _mark_parallel(out, i):
    out[i] = 2


@rules(inline=True)
def _mark_serial(out, i):
    out[i] = 1


@batch_kernel(serial_stand_ins={"_mark_parallel": _mark_serial})
def _marking_kernel(st, out, rows):
    for row in numba.prange(out.shape[0]):
        i = np.int64(row)
        _mark_parallel(out, i)
        prefetch_outputs(i, 1, rows, rows)  # (the last game asks for no row past the end)
        out[i] += st.x[i]


def test_the_serial_kernel_calls_the_stand_in_and_the_parallel_one_the_rule():
    x = np.arange(8, dtype=np.int64) * 10
    rows = np.ones((8, 100), dtype=np.float32)
    serial = np.zeros(8, dtype=np.int64)
    _marking_kernel(View(x), serial, rows)
    parallel = np.zeros(8, dtype=np.int64)
    _marking_kernel(View(x), parallel, rows, threads=2)
    assert (serial == x + 1).all()
    assert (parallel == x + 2).all()
    assert (rows == 1).all()  # asked for, not written


def test_a_stand_in_for_a_name_the_kernel_does_not_have_is_an_error():
    def kernel(out):
        for row in numba.prange(out.shape[0]):
            out[np.int64(row)] = 0

    with pytest.raises(NameError, match="no global 'missing'"):
        BatchKernel(kernel, {"missing": _mark_serial}).serial
