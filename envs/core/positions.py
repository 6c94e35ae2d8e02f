"""Small validators for ``from_position`` code that checks fields one by one; each error names the field.

Games describe their positions with :mod:`yuugi.envs.core.schema` (parsers, ranges and defaults per field);
these helpers use the same parsers for code that has not moved to a schema.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

import numpy as np

from yuugi.envs.core import schema
from yuugi.envs.core.errors import PositionError


def check_header(position: Any, game: str, known_keys: Iterable[str], required: Iterable[str]) -> None:
    """A dict of this game's known keys, with every required key present."""
    if not isinstance(position, Mapping):
        raise PositionError("position", f"expected a dict, got {type(position).__name__}")
    known = set(known_keys)
    unknown = sorted(set(position) - known, key=str)
    if unknown:
        raise PositionError(unknown[0], f"unknown key; known keys: {sorted(known)}")
    if position.get("game", game) != game:
        raise PositionError("game", f"this is a {game} position loader, got {position.get('game')!r}")
    for key in required:
        if key not in position:
            raise PositionError(key, "required")


def as_int(value: Any, field: str, lo: int, hi: int) -> int:
    """An integer in ``lo..hi`` (booleans and floats are not integers here)."""
    return schema.Int(lo, hi).parse(value, field)


def as_bool(value: Any, field: str) -> bool:
    return schema.Bool().parse(value, field)


def as_list(value: Any, field: str, length: int | None = None) -> list[Any]:
    """A list (of ``length`` entries when given)."""
    if not isinstance(value, (list, tuple)) or (length is not None and len(value) != length):
        want = f"a list of {length} entries" if length is not None else "a list"
        raise PositionError(field, f"expected {want}, got {value!r}")
    return list(value)


def index_by_name(value: Any, names: tuple[str, ...], aliases: tuple[str, ...], what: str) -> int:
    """Index of ``value`` given as a name, an alias (any case) or an index; ``ValueError`` otherwise."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= int(value) < len(names):
        return int(value)
    if isinstance(value, str):
        if value in names:
            return names.index(value)
        lowered = [a.lower() for a in aliases]
        if value.lower() in lowered:
            return lowered.index(value.lower())
    raise ValueError(f"unknown {what} {value!r}; {what}s are {list(names)} (or {list(aliases)})")
