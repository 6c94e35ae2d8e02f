"""Rule options: the generic checks every game's config makes before building itself.

Each check takes the option's name and value and either returns the value in its canonical form
(a Python ``int``, ``bool``, ``float`` or tuple of ints) or raises :class:`OptionError` naming the
option, the valid choices and what was given. They never let a value through to numpy or to Python
internals, where it would fail later with an error that names nothing (an unhashable list as an enum
value, a bool as a count, a float as an index). A game's config keeps only its cross-option checks.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Mapping, Sequence

import numpy as np

from yuugi.envs.core.errors import OptionError


def check_option_names(game: str, options: Mapping[str, Any], config_cls: type) -> None:
    """Reject option names that ``config_cls`` (a dataclass of the game's options) does not define."""
    known = {f.name for f in dataclasses.fields(config_cls) if f.init}
    unknown = sorted(set(options) - known, key=str)
    if unknown:
        raise OptionError(f"unknown {game} option(s) {unknown}; known options: {sorted(known)}")


def is_integer(value: Any) -> bool:
    """A Python or numpy integer, but not a bool (``True`` is an ``int`` to Python, never a count here)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _range_text(lo: int | None, hi: int | None) -> str:
    if hi is None:
        return f">= {lo}"
    return f"{lo}..{hi}"


def check_int(name: str, value: Any, lo: int, hi: int | None = None) -> int:
    """An integer (not a bool) in ``lo..hi`` (no upper bound when ``hi`` is None)."""
    if not is_integer(value) or value < lo or (hi is not None and value > hi):
        raise OptionError(f"{name} must be an integer {_range_text(lo, hi)}, got {value!r}")
    return int(value)


def check_bool(name: str, value: Any) -> bool:
    """``True`` or ``False`` (numpy bools too); 0, 1 and strings are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise OptionError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _same_kind(value: Any, choice: Any) -> bool:
    # 1 == True == 1.0 in Python; an enum choice must match in kind as well as in value.
    if isinstance(choice, bool) or isinstance(value, (bool, np.bool_)):
        return isinstance(choice, bool) and isinstance(value, (bool, np.bool_))
    if isinstance(choice, int):
        return is_integer(value)
    if choice is None:
        return value is None
    return isinstance(value, type(choice))


def check_choice(name: str, value: Any, choices: Sequence[Any] | Mapping[Any, Any]) -> Any:
    """One of ``choices`` (the keys of a mapping), matched in kind and value; returns that choice."""
    options = list(choices)
    try:
        hash(value)
    except TypeError:
        raise OptionError(f"{name} must be one of {options}, got {value!r} (a {type(value).__name__})") from None
    for choice in options:
        if _same_kind(value, choice) and value == choice:
            return choice
    raise OptionError(f"{name} must be one of {options}, got {value!r}")


def check_int_tuple(name: str, value: Any, lo: int, hi: int, *, min_len: int = 1, max_len: int | None = None,
                    unique: bool = False) -> tuple[int, ...]:
    """A list, tuple or 1-D integer array of integers in ``lo..hi``, returned as a tuple of ints."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise OptionError(f"{name} must be a list of integers {lo}..{hi}, got an array of shape {value.shape}")
        items: Sequence[Any] = value.tolist() if value.dtype.kind in "iu" else list(value)
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        raise OptionError(f"{name} must be a list or tuple of integers {lo}..{hi}, got {value!r}")
    bad = [v for v in items if not is_integer(v) or not lo <= v <= hi]
    if bad:
        raise OptionError(f"{name} must hold integers {lo}..{hi} only, got {bad[0]!r} in {value!r}")
    if len(items) < min_len or (max_len is not None and len(items) > max_len):
        count = f"{min_len}..{max_len}" if max_len is not None else f"at least {min_len}"
        raise OptionError(f"{name} must hold {count} integers, got {len(items)}: {value!r}")
    out = tuple(int(v) for v in items)
    if unique and len(set(out)) != len(out):
        raise OptionError(f"{name} must not repeat a value, got {value!r}")
    return out


def check_float(name: str, value: Any, lo: float, hi: float) -> float:
    """A finite real number in ``lo..hi`` (ints allowed; bools, NaN and infinities refused)."""
    problem = f"{name} must be a finite number in [{lo}, {hi}], got {value!r}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise OptionError(problem)
    try:
        number = float(value)
    except OverflowError:  # an int beyond float range
        raise OptionError(problem) from None
    if not math.isfinite(number) or not lo <= number <= hi:
        raise OptionError(problem)
    return number
