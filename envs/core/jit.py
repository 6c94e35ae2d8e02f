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
from numba._dispatcher import compute_fingerprint

# Parallel kernels (threads > 1) run on numba's OpenMP layer where it loads, unless the user chose a
# layer (NUMBA_THREADING_LAYER). On an idle two-core machine two threads stepped 1,024 games 1.2-2.1x as
# fast as one with it (the games with the longest steps gain most), and 0.6-1.2x on the workqueue layer,
# whose start of each parallel call costs about 80 us. OpenMP's threads spin a while before they sleep: with more threads than free cores
# (several processes each running two threads) that spinning made a step 4x slower, so there set
# OMP_WAIT_POLICY=passive, or keep threads=1 (docs/architecture.md, "Threads").
if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER_PRIORITY = ["omp", "tbb", "workqueue"]  # type: ignore[attr-defined]
    numba.config.THREADING_LAYER = "default"  # type: ignore[attr-defined]  # the first of those that loads


_CORE = Path(__file__).parent
_SHARED = ("jit.py", "prefetch.py", "streams.py")  # compiled code every game's rules call into


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


def rules(fn: Any = None, *, allocates: bool = False, inline: bool = False) -> Any:
    """Compile a scalar rule (a function over one game) with the on-disk cache; without reference
    counting unless it ``allocates`` arrays.

    ``inline=True`` inlines the rule into its callers when numba compiles them (numba's
    ``inline="always"``), for a rule with one or two call sites that LLVM leaves as a call: a call passes
    the state's tens of arrays member by member (hundreds of machine words), which costs more than a
    small step of the rules itself.
    """
    if fn is None:
        return lambda f: rules(f, allocates=allocates, inline=inline)
    return numba.njit(cache=True, _nrt=allocates, inline="always" if inline else "never")(  # type: ignore[call-overload]
        _renamed(fn, _cache_name(fn)))


def _renamed(fn: types.FunctionType, suffix: str, stand_ins: dict[str, Any] | None = None) -> types.FunctionType:
    """A copy of ``fn`` under another qualified name: numba keys its cache files by that name, so the
    serial and parallel compilations of one kernel never share (or overwrite) a cache entry, and a
    change to the sources a kernel was compiled from is never served from an old entry. ``stand_ins``
    replace globals of the copy by name (its module's own globals stay as they are)."""
    if not suffix and not stand_ins:
        return fn
    globals_ = fn.__globals__
    if stand_ins:
        missing = [name for name in stand_ins if name not in globals_]
        if missing:
            raise NameError(f"{fn.__qualname__} has no global {missing[0]!r} to stand in for")
        globals_ = {**globals_, **stand_ins}
    copy = types.FunctionType(fn.__code__, globals_, fn.__name__ + suffix, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + suffix
    copy.__module__ = fn.__module__
    copy.__doc__ = fn.__doc__
    return copy


class BatchKernel:
    """A loop over the games of a batch, compiled serial and parallel, written::

        for row in numba.prange(n):
            i = np.int64(row)

    (the parallel loop's own index is uint64, the serial one's int64: rules called with it directly are
    each compiled a second time, for uint64, which doubles a cold compile, and their arithmetic mixing
    the row with signed integers gives floats; tests/core/test_prange_rows.py reads every kernel for it).

    ``kernel(*args)`` runs the serial version; ``kernel(*args, threads=k)`` with k > 1 runs the
    parallel one on k threads (numba's thread count is set for the call and restored after). After the
    first call with given argument types, calls go straight to the compiled code's entry point, past
    numba's type dispatch (see :func:`_arg_key`).

    ``serial_stand_ins`` maps names the kernel calls to the rules its serial version calls instead: the
    fused step kernels' prefetch, which only a second thread needs and which cost one thread's step
    7-10% in nigejozu even where it was skipped at run time (envs/core/prefetch.py).
    """

    def __init__(self, fn: types.FunctionType, serial_stand_ins: dict[str, Any] | None = None) -> None:
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.py_func = fn
        self._name = _cache_name(fn)
        self._serial_stand_ins = dict(serial_stand_ins or {})
        self._serial: Any = None
        self._parallel_fn = _renamed(fn, self._name + "__parallel")
        self._parallel: Any = None
        self._entries: dict[Any, Any] = {}  # argument key -> compiled entry point (see _arg_key)

    @property
    def serial(self) -> Any:
        if self._serial is None:  # copied at the first call, when the kernel's module has every name
            self._serial = numba.njit(cache=True)(_renamed(self.py_func, self._name, self._serial_stand_ins))
        return self._serial

    @property
    def parallel(self) -> Any:
        if self._parallel is None:
            self._parallel = numba.njit(cache=True, parallel=True)(self._parallel_fn)
        return self._parallel

    def __call__(self, *args: Any, threads: int = 1) -> Any:
        parallel = threads > 1
        try:
            key = (parallel, *map(_arg_key, args))
        except _NoFastPath:
            key = None
        entry = self._entries.get(key) if key is not None else None
        if entry is None:
            return self._dispatch(key, args, threads)
        if not parallel:
            return entry(*args)
        return _call_parallel(entry, args, threads)

    def _dispatch(self, key: Any, args: tuple, threads: int) -> Any:
        """Call through numba's dispatcher (which compiles or loads the cache for new argument types),
        then remember the compiled overload's entry point under ``key`` for the next calls."""
        dispatcher: Any = self.parallel if threads > 1 else self.serial
        result = _call_parallel(dispatcher, args, threads) if threads > 1 else dispatcher(*args)
        if key is not None and hasattr(dispatcher, "overloads"):  # (not with NUMBA_DISABLE_JIT: plain Python)
            compiled = dispatcher.overloads.get(tuple(dispatcher.typeof_pyval(a) for a in args))
            if compiled is not None:
                self._entries[key] = compiled.entry_point
        return result


class _NoFastPath(Exception):
    """An argument whose numba type :func:`_arg_key` cannot tell cheaply: call through the dispatcher."""


# Tuples that are not a state's view (a game's tables and rule options, made once per game), by id: each
# entry holds the tuple itself, so an id is never reused for another tuple while it is remembered.
_TUPLE_KEYS: dict[int, tuple[Any, Any]] = {}
_TUPLE_KEYS_MAX = 256


def _arg_key(arg: Any) -> Any:
    """A hashable key that determines the numba type of ``arg`` (two arguments with the same key get the
    same type, so they can share a compiled overload's entry point).

    numba's dispatcher finds the overload for each call itself, but for a tuple of tens of arrays (a
    state's view, a game's tables) its type lookup costs more than the rules of a step at batch size
    one: about 14 us of the 23 us of a daifugō legal-mask call. Arrays and scalars are keyed by numba's
    own fingerprint of their type (dtype, dimensions, layout, flags); a state's view keys itself once
    (its arrays are never replaced: a replaced array makes the state build a new view); other tuples are
    keyed once per object.
    """
    if isinstance(arg, tuple):
        return _tuple_arg_key(arg)
    if type(arg) is int:  # the fingerprint does not say that numba types an int past int64 as uint64
        return (int, -(2**63) <= arg < 2**63)
    try:
        return compute_fingerprint(arg)  # numba's own key of a value's type (dtype, dims, layout, flags), in C
    except (TypeError, ValueError, NotImplementedError):
        raise _NoFastPath from None


def _tuple_arg_key(arg: tuple) -> Any:
    own = getattr(arg, "__dict__", None)  # a state's view (see State.view) carries its own key
    if own is not None:
        key = own.get("_kernel_key")
        if key is None:
            key = own["_kernel_key"] = _tuple_key(arg)
        return key
    known = _TUPLE_KEYS.get(id(arg))
    if known is not None and known[0] is arg:
        return known[1]
    key = _tuple_key(arg)
    if len(_TUPLE_KEYS) >= _TUPLE_KEYS_MAX:
        _TUPLE_KEYS.clear()
    _TUPLE_KEYS[id(arg)] = (arg, key)
    return key


# A tuple's key spelled out is tens of nested items, slow to hash on every call: each distinct one is
# numbered once, and the number is the key.
_TUPLE_KEY_NUMBERS: dict[Any, int] = {}


def _tuple_key(arg: tuple) -> int:
    spelled = (type(arg), *map(_arg_key, arg))
    return _TUPLE_KEY_NUMBERS.setdefault(spelled, len(_TUPLE_KEY_NUMBERS))


def _call_parallel(fn: Any, args: tuple, threads: int) -> Any:
    """``fn(*args)`` on ``threads`` threads: numba's thread count set for the call and restored after.

    numba's thread count is every core unless set: when that is the count asked (the usual case), the
    call skips setting and restoring it (a few microseconds of a call that may take 100).

    The loop is split into one contiguous share of the games per thread. Both the OpenMP and the
    workqueue layers hand a loop's pieces out statically (OpenMP's ``omp for`` without a schedule), so a
    smaller numba chunk size would not even out games of different cost: thread k gets the k-th share
    whatever the chunk size (tests/core/test_parallel_split.py).
    """
    before = numba.get_num_threads()
    wanted = min(threads, numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    if wanted == before:
        return fn(*args)
    numba.set_num_threads(wanted)
    try:
        return fn(*args)
    finally:
        numba.set_num_threads(before)


def batch_kernel(fn: Any = None, *, serial_stand_ins: dict[str, Any] | None = None) -> Any:
    """Decorator form of :class:`BatchKernel`: ``@batch_kernel`` or ``@batch_kernel(serial_stand_ins=...)``."""
    if fn is None:
        return lambda f: BatchKernel(f, serial_stand_ins)
    return BatchKernel(fn, serial_stand_ins)
