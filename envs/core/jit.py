"""How the rules are compiled: numba, with an on-disk cache, one game at a time.

Every game writes its rules as scalar functions over one game and compiles them with :func:`rules`
(``numba.njit(cache=True)``). A *batch kernel* is a loop over the games of a batch written with
``numba.prange``; :class:`BatchKernel` compiles it twice, lazily: a serial version (the default,
one thread) and a parallel one for ``threads > 1``. Nothing compiles at import: the first call of a
kernel compiles it (or loads it from the cache in ``__pycache__``), so ``import yuugi.envs`` stays cheap.

Tables (action tables, card tables, adjacency) are passed to kernels as arguments, never read as
globals, so a changed table can never be served from a stale compiled cache.

Rules compile without numba's reference counting (its NRT): a rule receives the state as a tuple of
tens of arrays, and counting references to each of them on every call cost more than the rules
themselves (2-2.6x the decisions per second at B=1024 without it, same trace hashes). The price is
that such a rule cannot allocate: a rule that makes an array says so, ``@rules(allocates=True)``,
and numba refuses to compile one that allocates without saying so.

``NUMBA_DISABLE_JIT=1`` runs every rule as the plain Python it is written in (the suite checks that
the Python and the compiled code agree).
"""
from __future__ import annotations

import functools
import hashlib
import os
import sys
import types
from pathlib import Path
from typing import Any

import numba

# Parallel kernels run on numba's workqueue layer unless the user chose another: OpenMP's active
# waiting made two-thread calls 30-40x slower on a busy machine, and TBB is not always installed.
if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "workqueue"  # type: ignore[attr-defined]


_CORE = Path(__file__).parent
_SHARED = ("jit.py", "streams.py")  # compiled code every game's rules call into


@functools.lru_cache(maxsize=None)
def _sources_digest(folder: Path) -> str:
    """A digest of every Python file of ``folder`` and of the shared compiled code.

    numba checks a cache entry against the modification time of the function's own file only, but a
    compiled kernel contains the rules it calls from the other files of its game: an edit to
    ``rules.py`` would leave ``batch.py``'s cached kernels stale. Each compiled function's cache name
    carries this digest, so any edit to the game's folder (or to the shared code) compiles afresh.
    """
    h = hashlib.sha1()
    for path in sorted(folder.glob("*.py")) + [_CORE / name for name in _SHARED]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def _cache_name(fn: types.FunctionType) -> str:
    module = sys.modules.get(fn.__module__)
    path = getattr(module, "__file__", None)
    return "__src" + _sources_digest(Path(path).resolve().parent) if path else ""


def rules(fn: Any = None, *, allocates: bool = False) -> Any:
    """Compile a scalar rule (a function over one game) with the on-disk cache; without reference
    counting unless it ``allocates`` arrays."""
    if fn is None:
        return lambda f: rules(f, allocates=allocates)
    return numba.njit(cache=True, _nrt=allocates)(_renamed(fn, _cache_name(fn)))  # type: ignore[call-overload]


def _renamed(fn: types.FunctionType, suffix: str) -> types.FunctionType:
    """A copy of ``fn`` under another qualified name: numba keys its cache files by that name, so the
    serial and parallel compilations of one kernel never share (or overwrite) a cache entry, and a
    change to the sources a kernel was compiled from is never served from an old entry."""
    if not suffix:
        return fn
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__ + suffix, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + suffix
    copy.__module__ = fn.__module__
    copy.__doc__ = fn.__doc__
    return copy


class BatchKernel:
    """A loop over the games of a batch (``for i in numba.prange(n)``), compiled serial and parallel.

    ``kernel(*args)`` runs the serial version; ``kernel(*args, threads=k)`` with k > 1 runs the
    parallel one on k threads (numba's thread count is set for the call and restored after).
    """

    def __init__(self, fn: types.FunctionType) -> None:
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.py_func = fn
        name = _cache_name(fn)
        self.serial = numba.njit(cache=True)(_renamed(fn, name))
        self._parallel_fn = _renamed(fn, name + "__parallel")
        self._parallel: Any = None

    @property
    def parallel(self) -> Any:
        if self._parallel is None:
            self._parallel = numba.njit(cache=True, parallel=True)(self._parallel_fn)
        return self._parallel

    def __call__(self, *args: Any, threads: int = 1) -> Any:
        if threads <= 1:
            return self.serial(*args)
        before = numba.get_num_threads()
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
        try:
            return self.parallel(*args)
        finally:
            numba.set_num_threads(before)


def batch_kernel(fn: types.FunctionType) -> BatchKernel:
    """Decorator form of :class:`BatchKernel`."""
    return BatchKernel(fn)
