"""The check behind the two-thread figures (training/bench/cores.py): its arithmetic, its errors, one short run."""
from __future__ import annotations

import os

import pytest

from yuugi.training.bench import cores


def test_a_static_split_is_capped_by_the_slower_core():
    # Equal cores: the halves end together, twice one core's rate. One core at half speed: its half takes as
    # long as the whole batch on the faster core, so two threads reach no more than one.
    rates = {0: [100.0, 100.0, 80.0], 1: [100.0, 50.0, 100.0]}
    assert cores.static_split_ceilings(rates) == pytest.approx([2.0, 1.0, 1.6])


def test_the_table_counts_the_intervals_below_the_asked_scaling():
    text = cores.format_rates({0: [100.0, 100.0, 70.0], 1: [100.0, 50.0, 100.0]}, threads=[1.9, 1.4, 1.5])
    assert "static ceiling: median 1.40x, min 1.00x; 2 of 3 intervals below 1.6x" in text
    assert "two threads: median 1.50x, min 1.40x; 2 of 3 intervals below 1.6x" in text


def test_an_unknown_game_is_a_usage_error_not_a_traceback(capsys):
    with pytest.raises(SystemExit) as stop:
        cores.main(["chess"])
    assert stop.value.code == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["nigejozu", "--batch", "0"], "--batch must be at least 1"),
    (["nigejozu", "--seconds", "1", "--interval", "2"], "--interval must be above 0"),
    (["nigejozu", "--interval", "0"], "--interval must be above 0"),
])
def test_a_bad_number_is_a_usage_error(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        cores.main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="pinning needs Linux and two cores")
def test_each_core_and_the_two_threads_report_once_per_interval():
    rates, threads = cores.per_core_rates("nigejozu", sorted(os.sched_getaffinity(0))[:2], batch=8, seconds=0.4,
                                          interval=0.2)
    assert sorted(len(r) for r in rates.values()) == [2, 2]
    assert all(rate > 0 for r in rates.values() for rate in r)
    assert len(threads) == 2 and all(scaling > 0 for scaling in threads)
