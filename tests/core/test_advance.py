"""The core's "advance until the next decision" loop (envs.core.advance) on a toy game.

The toy game: each row holds a counter ``n`` and a pending code. DRAW adds 1 to ``n`` and moves on
to CHECK; CHECK asks a decision (WAIT) once ``n`` reaches 3, else goes back to DRAW; SPIN never
reaches a decision (an engine bug the loop guard must catch). Every handler call is logged as
(code, rows), so the tests see how the loop grouped and ordered the rows.
"""
from __future__ import annotations

import numpy as np
import pytest

from envs.core.advance import MicroOpLoopError, MicroOps

WAIT, DRAW, CHECK, SPIN = 0, 1, 2, 3
NAMES = {DRAW: "draw", CHECK: "check", SPIN: "spin"}


class Toy:
    def __init__(self, n: list[int], op: list[int]) -> None:
        self.n = np.array(n, dtype=np.int64)
        self.op = np.array(op, dtype=np.int8)
        self.log: list[tuple[int, list[int]]] = []
        self.passes: list[list[int]] = []


def draw(st: Toy, g: np.ndarray, step: int) -> None:
    st.log.append((DRAW, g.tolist()))
    st.n[g] += step
    st.op[g] = CHECK


def check(st: Toy, g: np.ndarray, step: int) -> None:
    st.log.append((CHECK, g.tolist()))
    st.op[g] = np.where(st.n[g] >= 3, WAIT, DRAW)


def spin(st: Toy, g: np.ndarray, step: int) -> None:
    st.log.append((SPIN, g.tolist()))
    st.op[g] = SPIN


def after(st: Toy, g: np.ndarray, step: int) -> None:
    st.passes.append(g.tolist())


def toy_ops(**kw) -> MicroOps:
    return MicroOps({DRAW: draw, CHECK: check, SPIN: spin}, wait=WAIT, names=NAMES, after_pass=after,
                    game="toy", **kw)


def test_rows_are_grouped_by_code_and_dispatched_in_ascending_code_order():
    st = Toy(n=[0, 2, 1, 3], op=[CHECK, DRAW, CHECK, WAIT])
    toy_ops().run(st.op, st, np.arange(4), 1)
    # pass 1: DRAW {1}, then CHECK {0, 2} (n 0 and 1 < 3: back to DRAW); row 3 waits and is never called
    # pass 2: DRAW {0, 2}, CHECK {1} (n 3: waits)
    # pass 3: CHECK {0, 2} (n 1 and 2: DRAW again) ... until every row waits
    assert st.log[:4] == [(DRAW, [1]), (CHECK, [0, 2]), (DRAW, [0, 2]), (CHECK, [1])]
    assert st.passes[0] == [0, 1, 2] and st.passes[1] == [0, 1, 2]
    assert st.op.tolist() == [WAIT] * 4
    assert st.n.tolist() == [3, 3, 3, 3]


def test_a_new_code_set_by_a_handler_waits_for_the_next_pass():
    # DRAW sets CHECK, but CHECK's group of this pass was formed before: one operation per row per pass.
    st = Toy(n=[2], op=[DRAW])
    toy_ops().run(st.op, st, np.arange(1), 1)
    assert st.log == [(DRAW, [0]), (CHECK, [0])]
    assert st.passes == [[0], [0]]


def test_each_row_advances_as_it_would_alone_in_small_and_large_batches():
    rng = np.random.default_rng(5)
    for b in (7, 600):  # under and over the size where grouping switches from masks to one sort
        n = rng.integers(-4, 3, size=b)
        op = rng.choice([WAIT, DRAW, CHECK], size=b)
        batch = Toy(n.tolist(), op.tolist())
        toy_ops().run(batch.op, batch, np.arange(b), 1)
        for i in rng.choice(b, size=5, replace=False):
            alone = Toy([int(n[i])], [int(op[i])])
            toy_ops().run(alone.op, alone, np.arange(1), 1)
            assert (batch.n[i], batch.op[i]) == (alone.n[0], alone.op[0])
        for code, rows in batch.log:  # one call per code and pass, its rows in ascending order
            assert rows == sorted(rows) and len(rows) > 0


def test_only_the_given_rows_move():
    st = Toy(n=[0, 0, 0], op=[DRAW, DRAW, DRAW])
    toy_ops().run(st.op, st, np.array([2, 0]), 1)
    assert st.n.tolist() == [3, 0, 3]
    assert st.op.tolist() == [WAIT, DRAW, WAIT]
    assert st.log[0] == (DRAW, [2, 0])  # rows keep the order they were given in


def test_extra_arguments_reach_every_handler():
    st = Toy(n=[0], op=[DRAW])
    toy_ops().run(st.op, st, np.arange(1), 5)
    assert st.n.tolist() == [5]


def test_the_loop_guard_raises_naming_the_code_still_pending():
    st = Toy(n=[0, 0], op=[SPIN, DRAW])
    with pytest.raises(MicroOpLoopError, match=r"toy: .*after 50 passes \(op codes 3 \(spin\)\)") as err:
        toy_ops(max_passes=50).run(st.op, st, np.arange(2), 1)
    assert err.value.codes == [SPIN]
    assert st.op[1] == WAIT  # the healthy row still reached its decision


def test_a_code_without_handler_raises_naming_the_handled_codes():
    st = Toy(n=[0], op=[7])
    with pytest.raises(KeyError, match=r"no handler for micro-operation code 7; handled codes: \[1, 2, 3\]"):
        toy_ops().run(st.op, st, np.arange(1), 1)


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="wait code 0 cannot have a handler"):
        MicroOps({WAIT: draw})
    with pytest.raises(ValueError, match="non-negative"):
        MicroOps({-1: draw})
    with pytest.raises(ValueError, match="max_passes"):
        MicroOps({DRAW: draw}, max_passes=0)


def test_rows_already_waiting_cost_no_call():
    st = Toy(n=[0, 0], op=[WAIT, WAIT])
    toy_ops().run(st.op, st, np.arange(2), 1)
    assert st.log == [] and st.passes == []
