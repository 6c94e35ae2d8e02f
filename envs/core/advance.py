"""Advance until the next decision: per-row micro-operations, dispatched in groups.

Between two decisions a game runs automatic steps (resolve the top of a stack, deal one point of
damage, begin the next step of the turn, ...). In a batched engine each row of the batch may be at a
different one. Each row therefore holds the code of its *pending micro-operation* in an integer
array (``op[B]``, part of the game's state); one code, ``wait``, means "at a decision, or over".
:class:`MicroOps` holds the table from code to handler and runs the loop:

1. take the rows whose code is not ``wait``; stop when there are none;
2. group them by code and call each code's handler once with its rows, in ascending code order
   (rows keep their given order inside a group); every handler sets each of its rows' next code
   (another operation, or ``wait`` after asking a decision);
3. call ``after_pass(state, rows, *args)`` on every row of the pass (where a game ends games whose
   loss conditions were met during the pass, setting their code to ``wait``);
4. repeat. A loop guard (``max_passes``) raises :class:`MicroOpLoopError`, naming the codes still
   pending, instead of spinning forever on an engine bug.

Groups are formed at the start of a pass, so a row whose handler sets a new code waits for the next
pass (each row runs at most one operation per pass). Handlers may only change their own rows, which
makes the result independent of the grouping: a row advances exactly as it would alone.

Example (a toy game whose rows count down and then ask a decision)::

    import numpy as np
    from envs.core.advance import MicroOps

    WAIT, TICK, ASK = 0, 1, 2

    def tick(st, g, cfg):              # one automatic step of the rows g
        st["n"][g] -= 1
        st["op"][g] = np.where(st["n"][g] > 0, TICK, ASK)

    def ask(st, g, cfg):               # a decision: the rows wait for an action
        st["op"][g] = WAIT

    OPS = MicroOps({TICK: tick, ASK: ask}, wait=WAIT, names={TICK: "tick", ASK: "ask"})
    st = {"n": np.array([3, 1, 2]), "op": np.array([TICK, TICK, WAIT])}
    OPS.run(st["op"], st, np.arange(3), None)   # handlers are called as handler(st, g, cfg)
    # rows 0 and 1 counted down to 0 and wait; row 2 was already waiting and did not move

A game keeps its table as a module constant and calls ``run`` after applying the actions of a step
(and after setting up new games). Grouping costs one ``bincount`` per pass; a pass where every row
has the same code (always the case at batch size 1) calls the handler with the rows as given.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

Handler = Callable[..., None]

_SORT_FROM = 256  # from this many rows with several codes, one stable argsort beats a mask per code


class MicroOpLoopError(RuntimeError):
    """The engine did not reach a decision within ``max_passes`` passes (an engine bug)."""

    def __init__(self, game: str, max_passes: int, codes: list[int], names: Mapping[int, str]) -> None:
        self.codes = codes
        pending = ", ".join(f"{c} ({names[c]})" if c in names else str(c) for c in codes)
        super().__init__(f"{game}: rows still had pending micro-operations after {max_passes} passes "
                         f"(op codes {pending}): a handler keeps setting a code without reaching a decision")


class MicroOps:
    """A table from micro-operation code to handler, and the loop that runs it.

    ``handlers``: code → ``handler(state, rows, *args)``; codes are small non-negative integers and
    ``wait`` has no handler. ``names`` (optional) names codes in errors. ``after_pass`` (optional) is
    called as ``after_pass(state, rows, *args)`` after each pass with every row of that pass.
    """

    def __init__(self, handlers: Mapping[int, Handler], *, wait: int = 0, names: Mapping[int, str] | None = None,
                 after_pass: Handler | None = None, max_passes: int = 10_000, game: str = "engine") -> None:
        codes = [int(c) for c in handlers]
        if any(c < 0 for c in codes):
            raise ValueError(f"micro-operation codes must be non-negative integers, got {sorted(codes)}")
        if int(wait) in codes:
            raise ValueError(f"the wait code {wait} cannot have a handler (it means: at a decision or over)")
        if max_passes < 1:
            raise ValueError(f"max_passes must be at least 1, got {max_passes}")
        self.wait = int(wait)
        self.table: list[Handler | None] = [None] * (max(codes, default=self.wait) + 1)
        for c, fn in handlers.items():
            self.table[int(c)] = fn
        self.names = dict(names or {})
        self.after_pass = after_pass
        self.max_passes = int(max_passes)
        self.game = game

    def _handler(self, code: int) -> Handler:
        fn = self.table[code] if 0 <= code < len(self.table) else None
        if fn is None:
            raise KeyError(f"{self.game}: no handler for micro-operation code {code}; handled codes: "
                           f"{[c for c, f in enumerate(self.table) if f is not None]}")
        return fn

    def run(self, op: np.ndarray, state: Any, rows: np.ndarray, *args: Any) -> None:
        """Dispatch the pending operations of ``rows`` (distinct row indices) until every one waits.

        ``op`` is the state's array of pending codes (read here, written by the handlers).
        """
        wait = self.wait
        after = self.after_pass
        for _ in range(self.max_passes):
            ops = op[rows]
            pending = ops != wait
            if not pending.all():
                rows = rows[pending]
                if len(rows) == 0:
                    return
                ops = ops[pending]
            n = len(rows)
            first = int(ops[0])
            if n == 1 or (ops == first).all():
                self._handler(first)(state, rows, *args)
            elif n < _SORT_FROM:
                counts = np.bincount(ops)
                for code in np.flatnonzero(counts):
                    self._handler(int(code))(state, rows[ops == code], *args)
            else:
                order = np.argsort(ops, kind="stable")
                sorted_ops = ops[order]
                cuts = np.flatnonzero(sorted_ops[1:] != sorted_ops[:-1]) + 1
                starts = np.concatenate(([0], cuts)).tolist()
                ends = cuts.tolist() + [n]
                grouped = rows[order]
                for s, e in zip(starts, ends):
                    self._handler(int(sorted_ops[s]))(state, grouped[s:e], *args)
            if after is not None:
                after(state, rows, *args)
        ops = op[rows]
        raise MicroOpLoopError(self.game, self.max_passes, sorted({int(c) for c in ops[ops != wait]}), self.names)
