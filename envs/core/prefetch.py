"""The output rows of the next games asked for before they are written: the fused step kernels' prefetch.

After a batch step the caller reads the legal mask and the observation (a policy picks its actions from
them), so their lines sit in the caller's core cache. On two threads, the next step's second thread
writes half of those rows from the other core: before each write its core must take the line from the
caller's cache, and as x86 stores become visible in program order, each take waited for the one
before. On this project's two-core virtual machine those takes cost nigejozu about 40 us of a 100 us
step of 1,024 games, in spells of seconds to minutes in which two separate processes ran as fast as
ever (BENCHMARKS.md, session 29). Asking for each line some games ahead (``prefetchw``: fetch for
writing) lets the takes overlap the rules of the games in between; a line already in the core's own
cache costs a few cycles.

The kernels call :func:`prefetch_outputs` at every game, for the game :func:`games_ahead` games further
on. Only their parallel versions do: on one thread the caller and the kernel share a core, and the
serial versions compile :func:`skip_prefetch` in its place (``@batch_kernel(serial_stand_ins=ONE_THREAD)``),
since the prefetch's code made a one-thread step of nigejozu 7-10% slower even where a run-time test
skipped it. Prefetching changes no value: every game plays the same with and without it (the trace
hashes; every game's "two threads play as one" test).
"""
from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.extending import intrinsic

from .jit import rules

LINE_BYTES = 64  # a cache line: one prefetch per line of a row
AHEAD_BYTES = 12 * 1024  # how far ahead to ask, in bytes of output rows: nigejozu's mask and observation
# rows are about 1 KB a game, and 12 games ahead (about 2 us of rules) hid more of the takes than 2 or 6
# and as much as 24 (BENCHMARKS.md, session 29); games with bigger rows need fewer games ahead.


if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
    def prefetch_for_write(row: np.ndarray, index: int) -> None:
        """Nothing when the JIT is off: a prefetch is a hint to the cache, not a step of the rules."""
else:
    @intrinsic
    def prefetch_for_write(typingctx, row, index):  # type: ignore[no-untyped-def]
        """Ask for the cache line of ``row[index]`` to be brought into this core's cache to be written
        (LLVM's ``prefetch`` with rw=1, locality 3: ``prefetchw`` on x86-64, ``prfm pstl1keep`` on arm64)."""
        sig = types.void(row, types.intp)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            array = context.make_array(signature.args[0])(context, builder, args[0])
            address = cgutils.get_item_pointer(context, builder, signature.args[0], array, [args[1]])
            byte_ptr, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
            prefetch = builder.module.declare_intrinsic(
                "llvm.prefetch", [byte_ptr], ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]))
            write, keep, data = ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)
            builder.call(prefetch, [builder.bitcast(address, byte_ptr), write, keep, data])
            return context.get_dummy_value()

        return sig, codegen


@rules(inline=True)
def prefetch_row(out, i):
    """Ask for every line of row ``i`` of the 2-D array ``out``, for writing."""
    row = out[i]
    step = max(LINE_BYTES // row.itemsize, 1)
    for k in range(0, row.shape[0], step):
        prefetch_for_write(row, k)


@rules(inline=True)
def games_ahead(mask_out, obs_out):
    """How many games ahead of the one it steps a thread asks for output rows: :data:`AHEAD_BYTES` of them."""
    row_bytes = mask_out.shape[1] * mask_out.itemsize + obs_out.shape[1] * obs_out.itemsize
    return max(AHEAD_BYTES // max(row_bytes, 1), 1)


@rules(inline=True)
def prefetch_outputs(i, ahead, mask_out, obs_out):
    """At game ``i``: ask for the mask and observation rows of game ``i + ahead``, when there is one.

    Near the end of a thread's part the rows ahead are the next thread's: asking for them pulls a few of
    its lines here too early, which cost less than stopping short (session 29). The rewards rows are a
    few bytes a game, many games to a line: not worth asking for."""
    j = i + ahead
    if j < mask_out.shape[0]:
        prefetch_row(mask_out, j)
        prefetch_row(obs_out, j)


@rules(inline=True)
def skip_prefetch(i, ahead, mask_out, obs_out):
    """:func:`prefetch_outputs` in a one-thread kernel: nothing to ask for."""


ONE_THREAD = {"prefetch_outputs": skip_prefetch}  # what a serial kernel calls instead (BatchKernel)
