"""Rows of a batch grouped by a small integer code (yuugi.envs.core.grouping)."""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.grouping import rows_by_code, single_code


def test_single_code_names_the_one_code_or_none():
    assert single_code(np.array([3, 3, 3], dtype=np.int8)) == 3
    assert single_code(np.array([2])) == 2  # a batch of one has one code
    assert single_code(np.array([3, 3, 1, 3])) is None


def test_rows_by_code_lists_each_groups_rows_and_none_for_empty_groups():
    code = np.array([2, 0, 2, 1, 0, 2])
    zero, one, two, three = rows_by_code(code, 4)
    assert zero.tolist() == [1, 4] and one.tolist() == [3] and two.tolist() == [0, 2, 5] and three is None
    low, high = rows_by_code(code, 4, (0, 1), (2, 3))
    assert sorted(low.tolist()) == [1, 3, 4] and high.tolist() == [0, 2, 5]
    everything, = rows_by_code(code, 4, (0, 1, 2))
    assert sorted(everything.tolist()) == list(range(6))
