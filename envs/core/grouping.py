"""Rows of a batch grouped by a small integer code (a phase, a decision kind, a case of the mask).

A batched rule runs one handler per group with the rows that hold one of its codes. Finding those
rows is on every step's hot path, so it is done once here for every game.
"""
from __future__ import annotations

import numpy as np

_ONE_ROW = np.zeros(1, dtype=np.intp)
_ONE_ROW.flags.writeable = False  # shared by every call: the row list of a batch of one


def single_code(code: np.ndarray) -> int | None:
    """The code that every row holds (``code`` non-empty), or None when the rows differ.

    The common case in a handler's rows: a caller that finds one code runs that code's work on all
    its rows at once, with no grouping (and no copies of its row lists) to pay for.
    """
    first = code[0]
    if len(code) == 1:  # a batch of one (the AEC face): no comparison to make
        return int(first)
    return int(first) if (code == first).all() else None


def rows_by_code(code: np.ndarray, num_codes: int, *groups: tuple[int, ...]) -> list[np.ndarray | None]:
    """For each group of codes (default: each code 0..num_codes-1 on its own), the indices of the rows
    whose code is in it, or None for none.

    A single row (the AEC face) is looked up by its code alone. Otherwise one count over the codes
    decides which groups are empty, and a group holding every row takes them all; for the others one
    stable sort of the rows by code lists each code's rows in ascending order, and a group is the
    slice of its codes: cheaper than a comparison and a ``flatnonzero`` per group. A group of several
    codes lists its rows code by code.
    """
    if not groups:
        groups = tuple((c,) for c in range(num_codes))
    if len(code) == 1:
        only = int(code[0])
        return [_ONE_ROW if only in codes else None for codes in groups]
    counts = np.bincount(code, minlength=num_codes)
    present = counts.tolist()
    ends: list[int] = []  # the rows of code x are by_code[ends[x] - present[x]:ends[x]]
    by_code = np.empty(0, dtype=np.intp)
    out: list[np.ndarray | None] = []
    for codes in groups:
        n = sum(present[x] for x in codes)
        if n == 0:
            out.append(None)
        elif n == len(code):
            out.append(np.arange(n))
        else:
            if not ends:
                ends = np.cumsum(counts).tolist()
                by_code = np.argsort(code, kind="stable")
            out.append(by_code[ends[codes[0]] - present[codes[0]]:ends[codes[0]]] if len(codes) == 1
                       else np.concatenate([by_code[ends[x] - present[x]:ends[x]] for x in codes]))
    return out
