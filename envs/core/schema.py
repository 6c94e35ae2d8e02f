"""Position schemas: each field of a position maps to a parser, a range and a default.

A game describes its position dict once as nested specs (``Record``, ``Table``, ``ListOf``, ``Int``,
``Name``, ``Cards``...); ``spec.parse(value, path)`` turns the JSON-safe value into plain Python values
(integers, indices, card bitmasks, dicts with their defaults filled in) or raises
:class:`~yuugi.envs.core.errors.PositionError` naming the full path of the bad field, e.g.
``field.boosted_low`` or ``players[2].cards.W``; ``spec.dump(value)`` is the way back, so one
description both reads and writes positions. A field that is one state array (``.into("hand")``)
is copied by :func:`store` and :func:`read`. What is left for each game is only what links fields
together (cards in exactly one place, whose turn it is, ...) and the fields that are not one array.

Type confusion never escapes as ``TypeError``: booleans are not integers, floats are not integers,
lists are not names, and a name matches its table exactly (``"SH"`` is not the suit ``"S"``).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from yuugi.envs.core.errors import PositionError
from yuugi.envs.core.rng import keys_from_seeds

REQUIRED: Any = object()  # default marker: the field must be given


def join(path: str, key: Any) -> str:
    """``path.key`` (or ``key`` at the top level)."""
    return f"{path}.{key}" if path else str(key)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


class Spec:
    """One field: ``parse(value, path)`` -> the parsed value; a default for when the field is absent."""

    default: Any = REQUIRED
    null_is_default = False  # an explicit ``null`` means the default too
    attr: str | None = None  # the state array this field is, when it is exactly one

    def parse(self, value: Any, path: str) -> Any:  # pragma: no cover - every spec overrides it
        raise NotImplementedError

    def dump(self, value: Any) -> Any:
        """The JSON-safe form of a parsed value (or of the state array's entry it came from)."""
        return value

    def into(self, attr: str) -> "Spec":
        """This spec, marked as the whole of state array ``attr`` (row by row)."""
        out = dataclasses.replace(self) if dataclasses.is_dataclass(self) else self
        out.default, out.null_is_default, out.attr = self.default, self.null_is_default, attr
        return out

    def or_default(self, default: Any, null: bool = False) -> "Spec":
        """This spec with a default (``null=True``: a given ``null`` also takes the default)."""
        out = dataclasses.replace(self) if dataclasses.is_dataclass(self) else self
        out.default, out.null_is_default, out.attr = default, null, self.attr
        return out


@dataclasses.dataclass
class Int(Spec):
    """An integer in ``lo..hi``; Python and numpy integers, never booleans or floats."""

    lo: int
    hi: int

    def parse(self, value: Any, path: str) -> int:
        if not _is_int(value) or not self.lo <= int(value) <= self.hi:
            raise PositionError(path, f"expected an integer in {self.lo}..{self.hi}, got {_show(value)}")
        return int(value)

    def dump(self, value: Any) -> int:
        return int(value)


@dataclasses.dataclass
class Float(Spec):
    """A finite number in ``lo..hi`` (integers accepted; booleans, NaN and infinities not)."""

    lo: float
    hi: float

    def parse(self, value: Any, path: str) -> float:
        number = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
        if not number or not self.lo <= value <= self.hi or not math.isfinite(float(value)):  # NaN fails lo <= x
            raise PositionError(path, f"expected a finite number in {self.lo}..{self.hi}, got {_show(value)}")
        return float(value)

    def dump(self, value: Any) -> float:
        return float(value)


@dataclasses.dataclass
class Bool(Spec):
    """``true`` or ``false`` (not 0/1)."""

    def parse(self, value: Any, path: str) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise PositionError(path, f"expected true or false, got {_show(value)}")
        return bool(value)

    def dump(self, value: Any) -> bool:
        return bool(value)


@dataclasses.dataclass
class Str(Spec):
    """Any string (for informative fields that loading ignores)."""

    def parse(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise PositionError(path, f"expected a string, got {_show(value)}")
        return value


@dataclasses.dataclass
class Name(Spec):
    """A name from ``names`` (exact match) -> its index. ``aliases`` map more strings to indices
    (matched ignoring case); ``indices=True`` also accepts the index itself as an integer."""

    names: Sequence[Any]
    aliases: Mapping[str, int] = dataclasses.field(default_factory=dict)
    indices: bool = False
    what: str = "name"

    def parse(self, value: Any, path: str) -> int:
        if isinstance(value, str):
            for k, name in enumerate(self.names):
                if isinstance(name, str) and name == value:
                    return k
            if value.lower() in self.aliases:
                return self.aliases[value.lower()]
        elif value is None and None in self.names:
            return list(self.names).index(None)
        elif self.indices and _is_int(value) and 0 <= int(value) < len(self.names):
            return int(value)
        choices = list(self.names) + (sorted(set(self.aliases)) if self.aliases else [])
        raise PositionError(path, f"unknown {self.what} {_show(value)}; expected one of {choices}"
                                  + (f" or an index 0..{len(self.names) - 1}" if self.indices else ""))

    def dump(self, value: Any) -> Any:
        return self.names[int(value)]


@dataclasses.dataclass
class Nullable(Spec):
    """``null`` (parsed as ``none``) or a value of ``inner``."""

    inner: Spec
    none: Any = None

    def parse(self, value: Any, path: str) -> Any:
        return self.none if value is None else self.inner.parse(value, path)

    def dump(self, value: Any) -> Any:
        return None if value is None or value == self.none else self.inner.dump(value)


@dataclasses.dataclass
class ListOf(Spec):
    """A list of ``item`` values: exactly ``length`` long, or ``min_len..max_len``; ``unique``: no repeats."""

    item: Spec
    length: int | None = None
    max_len: int | None = None
    min_len: int = 0
    unique: bool = False

    def parse(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, (list, tuple)):
            raise PositionError(path, f"expected a list{self._size()}, got {_show(value)}")
        if (self.length is not None and len(value) != self.length) or len(value) < self.min_len or (
                self.max_len is not None and len(value) > self.max_len):
            raise PositionError(path, f"expected a list{self._size()}, got {len(value)} entries")
        out = [self.item.parse(v, f"{path}[{k}]") for k, v in enumerate(value)]
        if self.unique and len(set(out)) != len(out):
            twice = [value[k] for k, v in enumerate(out) if out.index(v) != k]
            raise PositionError(path, f"{_show(twice[0])} is listed twice")
        return out

    def dump(self, value: Any) -> list[Any]:
        return [self.item.dump(v) for v in value]

    def _size(self) -> str:
        if self.length is not None:
            return f" of {self.length} entries"
        if self.max_len is not None:
            return f" of {self.min_len}..{self.max_len} entries"
        return f" of at least {self.min_len} entries" if self.min_len else ""


@dataclasses.dataclass
class Cards(Spec):
    """A list of card names -> a bitmask (bit ``c`` for card ``c``); ``parse_card`` raises ``ValueError``
    for a name that is not a card. A card listed twice names the list."""

    parse_card: Callable[[Any], int]
    card_name: Callable[[int], str]

    def parse(self, value: Any, path: str) -> int:
        if not isinstance(value, (list, tuple)):
            raise PositionError(path, f"expected a list of card names, got {_show(value)}")
        mask = 0
        for k, name in enumerate(value):
            if not isinstance(name, str):
                raise PositionError(f"{path}[{k}]", f"expected a card name, got {_show(name)}")
            try:
                c = self.parse_card(name)
            except ValueError as e:
                raise PositionError(f"{path}[{k}]", str(e)) from None
            if (mask >> c) & 1:
                raise PositionError(path, f"card {self.card_name(c)} listed twice")
            mask |= 1 << c
        return mask

    def dump(self, value: Any) -> list[str]:
        mask = int(value)
        return [self.card_name(c) for c in range(mask.bit_length()) if (mask >> c) & 1]


@dataclasses.dataclass
class Table(Spec):
    """A dict keyed by the names of ``keys`` -> ``{index: value}``; also a list in ``keys`` order when
    ``as_list`` (written as one with ``writes_list``). ``value`` is a spec, or a function of the key's index giving one (per-key ranges).
    ``complete``: every key must be present."""

    keys: Name
    value: Spec | Callable[[int], Spec]
    complete: bool = False
    as_list: bool = False
    writes_list: bool = False  # dump as a list in key order (else as a dict keyed by name)

    def parse(self, value: Any, path: str) -> dict[int, Any]:
        n = len(self.keys.names)
        if self.as_list and isinstance(value, (list, tuple)):
            if len(value) != n:
                raise PositionError(path, f"a list needs {n} entries in the order {list(self.keys.names)}, "
                                          f"got {len(value)}")
            return {k: self._spec(k).parse(v, f"{path}[{k}]") for k, v in enumerate(value)}
        if not isinstance(value, Mapping):
            raise PositionError(path, f"expected an object keyed by {self.keys.what}, got {_show(value)}")
        out: dict[int, Any] = {}
        for key, v in value.items():
            where = join(path, key)
            k = self.keys.parse(key, where)
            if k in out:
                raise PositionError(where, f"{self.keys.names[k]} given twice")
            out[k] = self._spec(k).parse(v, where)
        if self.complete and len(out) != n:
            missing = [name for k, name in enumerate(self.keys.names) if k not in out]
            raise PositionError(join(path, missing[0]), f"required (every {self.keys.what} needs a value)")
        return out

    def _spec(self, k: int) -> Spec:
        return self.value if isinstance(self.value, Spec) else self.value(k)

    def dump(self, value: Any) -> dict[str, Any] | list[Any]:
        """``{index: value}`` or a sequence in key order -> ``{name: value}`` (a list in key order
        where the position format writes one)."""
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        if self.writes_list:
            return [self._spec(int(k)).dump(v) for k, v in items]
        return {self.keys.names[int(k)]: self._spec(int(k)).dump(v) for k, v in items}


@dataclasses.dataclass
class Record(Spec):
    """An object with known keys: unknown keys and missing required keys are errors; absent keys
    take their spec's default (a default of ``REQUIRED`` makes the key required)."""

    fields: Mapping[str, Spec]

    def parse(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise PositionError(path or "position", f"expected an object, got {_show(value)}")
        unknown = sorted((k for k in value if k not in self.fields), key=str)
        if unknown:
            raise PositionError(join(path, unknown[0]), f"unknown key; known keys: {sorted(self.fields)}")
        out: dict[str, Any] = {}
        for key, spec in self.fields.items():
            where = join(path, key)
            if key in value and not (value[key] is None and spec.null_is_default):
                out[key] = spec.parse(value[key], where)
            elif spec.default is REQUIRED:
                raise PositionError(where, "required")
            else:
                out[key] = spec.default
        return out

    def dump(self, value: Mapping[str, Any]) -> dict[str, Any]:
        """The given keys, in the record's order."""
        return {key: spec.dump(value[key]) for key, spec in self.fields.items() if key in value}


@dataclasses.dataclass
class Const(Spec):
    """A fixed value (the ``game`` key of a position)."""

    value: Any

    def parse(self, value: Any, path: str) -> Any:
        if not isinstance(value, type(self.value)) or value != self.value:
            raise PositionError(path, f"expected {self.value!r}, got {_show(value)}")
        return value


def store(record: Record, parsed: Mapping[str, Any], state: Any, row: int = 0) -> None:
    """Copy each field marked ``.into(attr)`` into ``state.attr[row]`` (a ``None`` value is skipped:
    the game derives it). Tables fill the entries they name."""
    for key, spec in record.fields.items():
        if spec.attr is not None and parsed.get(key) is not None:
            _assign(getattr(state, spec.attr), (row,), parsed[key])


def _assign(array: np.ndarray, index: tuple[int, ...], value: Any) -> None:
    if isinstance(value, Mapping):
        for k, v in value.items():
            _assign(array, index + (int(k),), v)
    else:
        array[index] = value


def read(record: Record, state: Any, row: int) -> dict[str, Any]:
    """The JSON-safe form of every field marked ``.into(attr)``, read from ``state.attr[row]``."""
    return {key: spec.dump(getattr(state, spec.attr)[row]) for key, spec in record.fields.items()
            if spec.attr is not None}


def seat_list(item: Spec, seats: int, default: Any) -> Spec:
    """One entry per seat; absent or ``null`` gives ``[default] * seats``."""
    return ListOf(item, length=seats).or_default([default] * seats, null=True)


def check_seed(seed: Any) -> np.ndarray:
    """The RNG key array for ``seed``: a non-negative integer below 2**64 (else ``PositionError('seed')``)."""
    if not _is_int(seed) or not 0 <= int(seed) < 2 ** 64:
        raise PositionError("seed", f"expected an integer in 0..2**64-1, got {_show(seed)}")
    return keys_from_seeds(np.array([int(seed)], dtype=np.uint64))
