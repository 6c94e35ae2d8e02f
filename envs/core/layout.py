"""Observation layouts: named blocks laid end to end."""
from __future__ import annotations

from typing import Iterable


def block_offsets(layout: Iterable[tuple[str, int]]) -> tuple[dict[str, slice], int]:
    """``({name: slice}, total size)`` for blocks ``(name, size)`` placed one after another."""
    offsets: dict[str, slice] = {}
    at = 0
    for name, size in layout:
        if name in offsets:
            raise ValueError(f"block {name!r} appears twice in the layout")
        offsets[name] = slice(at, at + size)
        at += size
    return offsets, at
