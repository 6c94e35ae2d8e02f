"""The core's "advance until the next decision" loop (yuugi.envs.core.advance) on a toy game.

The toy game: each row holds a counter ``n`` and a pending code. DRAW adds 1 to ``n`` and moves on
to CHECK; CHECK asks a decision (WAIT) once ``n`` reaches 3, else goes back to DRAW; SPIN never
reaches a decision (an engine bug the loop guard must catch). Every handler call is logged as
(code, rows), so the tests see how the loop grouped and ordered the rows.
"""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.core.advance import MicroOpLoopError, MicroOps

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
    return MicroOps({DRAW: draw, CHECK: check, SPIN: spin}, wait=WAIT, names=NAMES, after=after,
                    game="toy", **kw)


def test_one_sweep_visits_the_codes_in_ascending_order_and_picks_up_rows_moved_forward():
    st = Toy(n=[0, 2, 1, 3], op=[CHECK, DRAW, CHECK, WAIT])
    toy_ops().run(st.op, st, np.arange(4), 1)
    # sweep 1: DRAW {1} (n 3, moved on to CHECK), then CHECK {0, 1, 2}: row 1 waits, rows 0 and 2
    # go back to DRAW, a lower code: the next sweep. Row 3 waits from the start and is never called.
    # sweep 2: DRAW {0, 2}, CHECK {0, 2} (row 2 at n 2: DRAW again); sweep 3: DRAW {0, 2}, CHECK ...
    assert st.log[:4] == [(DRAW, [1]), (CHECK, [0, 1, 2]), (DRAW, [0, 2]), (CHECK, [0, 2])]
    assert st.passes[:2] == [[1], [0, 1, 2]]  # ``after`` runs after every handler call, on its rows
    assert st.op.tolist() == [WAIT] * 4
    assert st.n.tolist() == [3, 3, 3, 3]


def test_a_handler_runs_again_while_its_rows_keep_its_code():
    st = Toy(n=[0, 0, 0], op=[SPIN, DRAW, WAIT])
    ops = MicroOps({DRAW: draw, CHECK: check, SPIN: countdown}, wait=WAIT, game="toy")
    st.n[0] = 3
    ops.run(st.op, st, np.arange(3), 1)
    # SPIN (code 3) here counts row 0 down, one call per point, before the sweep ends; row 1 goes
    # DRAW -> CHECK -> back to DRAW (a lower code) in each of three sweeps
    assert st.log == [(DRAW, [1]), (CHECK, [1]), (SPIN, [0]), (SPIN, [0]), (SPIN, [0]),
                      (DRAW, [1]), (CHECK, [1]), (DRAW, [1]), (CHECK, [1])]
    assert st.n.tolist() == [0, 3, 0]


def countdown(st: Toy, g: np.ndarray, step: int) -> None:
    st.log.append((SPIN, g.tolist()))
    st.n[g] -= 1
    st.op[g] = np.where(st.n[g] > 0, SPIN, WAIT)


def test_each_row_advances_as_it_would_alone_in_small_and_large_batches():
    rng = np.random.default_rng(5)
    for b in (1, 7, 600):
        n = rng.integers(-4, 3, size=b)
        op = rng.choice([WAIT, DRAW, CHECK], size=b)
        batch = Toy(n.tolist(), op.tolist())
        toy_ops().run(batch.op, batch, np.arange(b), 1)
        for i in rng.choice(b, size=min(b, 5), replace=False):
            alone = Toy([int(n[i])], [int(op[i])])
            toy_ops().run(alone.op, alone, np.arange(1), 1)
            assert (batch.n[i], batch.op[i]) == (alone.n[0], alone.op[0])
        for code, rows in batch.log:  # every call has rows, in ascending order
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
    for op in ([SPIN], [WAIT, SPIN]):  # one row, and a batch
        st = Toy(n=[0] * len(op), op=op)
        with pytest.raises(MicroOpLoopError, match=r"toy: .*after 50 handler calls \(op codes 3 \(spin\)\)") as err:
            toy_ops(max_calls=50).run(st.op, st, np.arange(len(op)), 1)
        assert err.value.codes == [SPIN]
        assert len(st.log) == 50


def test_a_code_without_handler_raises_naming_the_handled_codes():
    for op in ([7], [DRAW, 7]):  # one row, and a batch
        st = Toy(n=[0] * len(op), op=op)
        with pytest.raises(KeyError, match=r"no handler for micro-operation code 7; handled codes: \[1, 2, 3\]"):
            toy_ops().run(st.op, st, np.arange(len(op)), 1)


def test_after_codes_limit_after_to_the_calls_of_those_codes():
    for b in (1, 3):  # one row (called directly), and a batch
        st = Toy(n=[0] * b, op=[DRAW] * b)
        toy_ops(after_codes=(CHECK,)).run(st.op, st, np.arange(b), 1)
        # three DRAW and three CHECK calls (n 0 -> 3); ``after`` only after the CHECK ones
        assert [code for code, _ in st.log] == [DRAW, CHECK] * 3
        assert st.passes == [list(range(b))] * 3


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="wait code 0 cannot have a handler"):
        MicroOps({WAIT: draw})
    with pytest.raises(ValueError, match="non-negative"):
        MicroOps({-1: draw})
    with pytest.raises(ValueError, match="max_calls"):
        MicroOps({DRAW: draw}, max_calls=0)
    with pytest.raises(ValueError, match=r"after_codes \[5\] have no handler"):
        MicroOps({DRAW: draw}, after=after, after_codes=(DRAW, 5))


def test_rows_already_waiting_cost_no_call():
    st = Toy(n=[0, 0], op=[WAIT, WAIT])
    toy_ops().run(st.op, st, np.arange(2), 1)
    assert st.log == [] and st.passes == []
