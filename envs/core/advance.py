"""Advance until the next decision: per-row micro-operations, dispatched in groups.

Between two decisions a game runs automatic steps (resolve the top of a stack, deal one point of
damage, begin the next step of the turn, ...). In a batched engine each row of the batch may be at a
different one. Each row therefore holds the code of its *pending micro-operation* in an integer
array (``op[B]``, part of the game's state); one code, ``wait``, means "at a decision, or over".
:class:`MicroOps` holds the table from code to handler and runs the loop:

1. take the rows whose code is not ``wait``; stop when there are none;
2. sweep over the codes in ascending order: at each code, call its handler once with the rows that
   hold that code *now* (in their given order), again while some rows still hold it, then go on to
   the next code. Every handler sets each of its rows' next code (another operation, or ``wait``
   after asking a decision). A row that a handler moves to a higher code is picked up later in the
   same sweep, so number the codes in the order the chains usually run (a whole chain then costs
   one sweep); a row moved to a lower code waits for the next sweep;
3. after every handler call, ``after(state, rows, *args)`` runs on that call's rows (where a game
   ends games whose loss conditions were met, setting their code to ``wait``, before they run on);
   with ``after_codes``, only after the handlers of those codes (the ones that can end a game);
4. repeat from 1. A loop guard (``max_calls`` handler calls per run) raises
   :class:`MicroOpLoopError`, naming the codes still pending, instead of spinning on an engine bug.

Handlers may only change their own rows. Each row then runs exactly the operations it would run
alone, in the same order, whatever the batch around it: the grouping changes only how many rows
share a handler call (the cost), never the result.

Example (a toy game whose rows count down and then ask a decision)::

    import numpy as np
    from yuugi.envs.core.advance import MicroOps

    WAIT, TICK, ASK = 0, 1, 2

    def tick(st, g, cfg):              # one automatic step of the rows g
        st["n"][g] -= 1
        st["op"][g] = np.where(st["n"][g] > 0, TICK, ASK)

    def ask(st, g, cfg):               # a decision: the rows wait for an action
        st["op"][g] = WAIT

    OPS = MicroOps({TICK: tick, ASK: ask}, wait=WAIT, names={TICK: "tick", ASK: "ask"})
    st = {"n": np.array([3, 1, 2]), "op": np.array([TICK, TICK, WAIT])}
    OPS.run(st["op"], st, np.arange(3), None)   # handlers are called as handler(st, g, cfg)
    # rows 0 and 1 counted down to 0 and wait; row 2 was already waiting and did not move.
    # Calls: tick([0, 1]), tick([0]), tick([0]), ask([0, 1]): four calls in one sweep.

A game keeps its table as a module constant and calls ``run`` after applying the actions of a step
(and after setting up new games). At batch size 1 the loop calls each handler directly.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

import numpy as np

Handler = Callable[..., None]


class MicroOpLoopError(RuntimeError):
    """The engine did not reach a decision within ``max_calls`` handler calls (an engine bug)."""

    def __init__(self, game: str, max_calls: int, codes: list[int], names: Mapping[int, str]) -> None:
        self.codes = codes
        pending = ", ".join(f"{c} ({names[c]})" if c in names else str(c) for c in codes)
        super().__init__(f"{game}: rows still had pending micro-operations after {max_calls} handler calls "
                         f"(op codes {pending}): a handler keeps setting a code without reaching a decision")


class MicroOps:
    """A table from micro-operation code to handler, and the loop that runs it.

    ``handlers``: code → ``handler(state, rows, *args)``; codes are small non-negative integers and
    ``wait`` has no handler. ``names`` (optional) names codes in errors. ``after`` (optional) is
    called as ``after(state, rows, *args)`` after each handler call, with that call's rows;
    ``after_codes`` (optional) limits it to the calls of those codes' handlers. A game lists there
    the codes whose handlers can meet a loss condition: ``after`` is on every micro-step's path, and
    after any other handler it would find nothing to do.
    """

    def __init__(self, handlers: Mapping[int, Handler], *, wait: int = 0, names: Mapping[int, str] | None = None,
                 after: Handler | None = None, after_codes: Iterable[int] | None = None, max_calls: int = 100_000,
                 game: str = "engine") -> None:
        codes = [int(c) for c in handlers]
        if any(c < 0 for c in codes):
            raise ValueError(f"micro-operation codes must be non-negative integers, got {sorted(codes)}")
        if int(wait) in codes:
            raise ValueError(f"the wait code {wait} cannot have a handler (it means: at a decision or over)")
        if max_calls < 1:
            raise ValueError(f"max_calls must be at least 1, got {max_calls}")
        self.wait = int(wait)
        # (long enough to count the wait code too)
        self.table: list[Handler | None] = [None] * (max(codes + [self.wait]) + 1)
        for c, fn in handlers.items():
            self.table[int(c)] = fn
        self.names = dict(names or {})
        if after_codes is not None:
            after_codes = {int(c) for c in after_codes}
            if not after_codes <= set(codes):
                raise ValueError(f"after_codes {sorted(after_codes - set(codes))} have no handler")
        # per code: the function to call after its handler (None: nothing)
        self.after_table: list[Handler | None] = [
            after if after_codes is None or c in after_codes else None for c in range(len(self.table))]
        self.max_calls = int(max_calls)
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
        wait, table, after_table, n_codes = self.wait, self.table, self.after_table, len(self.table)
        calls = 0
        while True:
            ops = op[rows]
            pending = ops != wait
            if not pending.all():
                rows = rows[pending]
                if len(rows) == 0:
                    return
                ops = ops[pending]
            if len(rows) == 1:  # one row: one operation at a time, nothing to group
                self._run_one(op, state, rows, calls, args)
                return
            # Rows per code, kept up to date from the rows each call ran (handlers change only their
            # own rows): codes that no row holds cost nothing, and no call re-reads every row. (A code
            # beyond the table makes the count longer than the table: checked without another pass.)
            count = np.bincount(ops, minlength=n_codes).tolist()
            if len(count) > n_codes:
                self._handler(len(count) - 1)  # raises, naming the code
            code = 0
            while code < n_codes:  # one sweep (codes that no row holds are skipped)
                if code == wait or count[code] == 0:
                    code += 1
                    continue
                at = (ops == code).nonzero()[0]
                here = rows[at]
                calls += 1
                if calls > self.max_calls:
                    self._loop_error(op, rows)
                handler = table[code]
                if handler is None:
                    self._handler(code)  # raises, naming the handled codes
                handler(state, here, *args)
                after = after_table[code]
                if after is not None:
                    after(state, here, *args)
                now = op[here]  # this code again while rows hold it, then the higher ones
                ops[at] = now
                count[code] -= len(at)
                if len(at) == 1:
                    moved = int(now[0])
                    if moved >= n_codes:
                        self._handler(moved)  # raises, naming the code
                    count[moved] += 1
                else:
                    moved_count = np.bincount(now, minlength=n_codes).tolist()
                    if len(moved_count) > n_codes:
                        self._handler(len(moved_count) - 1)  # raises, naming the code
                    for c, k in enumerate(moved_count):
                        count[c] += k

    def _run_one(self, op: np.ndarray, state: Any, rows: np.ndarray, calls: int, args: tuple) -> None:
        """The loop for one row (``rows`` holds one index): its code read as a Python int each time."""
        wait, after_table, table, i = self.wait, self.after_table, self.table, int(rows[0])
        while True:
            code = int(op[i])
            if code == wait:
                return
            calls += 1
            if calls > self.max_calls:
                self._loop_error(op, rows)
            fn = table[code] if 0 <= code < len(table) else None
            if fn is None:
                fn = self._handler(code)  # raises, naming the code
            fn(state, rows, *args)
            after = after_table[code]
            if after is not None:
                after(state, rows, *args)

    def _loop_error(self, op: np.ndarray, rows: np.ndarray) -> None:
        ops = op[rows]
        raise MicroOpLoopError(self.game, self.max_calls, sorted({int(c) for c in ops[ops != self.wait]}),
                               self.names)
