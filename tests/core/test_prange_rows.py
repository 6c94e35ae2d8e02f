"""Every batch kernel hands its rules a signed game row.

``numba.prange``'s own loop index is uint64 in the parallel compilation (int64 in the serial one), so a
rule called with it directly is compiled a second time, for uint64: every rule of the game twice, minutes
for ninja_slayer; and the rule's arithmetic mixing that row with signed integers gives floats. Each loop
therefore starts by converting it: ``for row in numba.prange(n): i = np.int64(row)``. The compiled
functions' own signatures cannot show this once they come from numba's cache (a cached kernel loads
without its callees), so the kernels' source is read.
"""
from __future__ import annotations

import ast
import importlib
import inspect

import pytest

from yuugi.envs import available_games


def prange_loops(tree: ast.AST) -> list[ast.For]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.For) and isinstance(node.iter, ast.Call)
            and ast.unparse(node.iter.func) == "numba.prange"]


def converts_its_index(loop: ast.For) -> bool:
    first = loop.body[0]
    return (isinstance(first, ast.Assign) and isinstance(loop.target, ast.Name)
            and ast.unparse(first.value) == f"np.int64({loop.target.id})")


@pytest.mark.parametrize("game", available_games())
def test_every_prange_loop_converts_its_index_to_int64(game: str) -> None:
    source = inspect.getsource(importlib.import_module(f"yuugi.envs.{game}.batch"))
    loops = prange_loops(ast.parse(source))
    assert loops, "the game's batch kernels loop with numba.prange"
    unconverted = [ast.unparse(loop).splitlines()[0] for loop in loops if not converts_its_index(loop)]
    assert unconverted == []


def test_the_check_catches_an_unconverted_loop() -> None:
    bad = ast.parse("for i in numba.prange(n):\n    f(st, i)\n")
    good = ast.parse("for row in numba.prange(n):\n    i = np.int64(row)\n    f(st, i)\n")
    assert [converts_its_index(loop) for loop in prange_loops(bad) + prange_loops(good)] == [False, True]
