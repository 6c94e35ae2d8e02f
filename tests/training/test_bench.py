"""Interleaved benchmark rounds, medians and spreads (fake timings, nothing is timed), and the peer drivers."""
from __future__ import annotations

import random
import tempfile

import numpy as np
import pytest

from yuugi.training.bench import bench

from yuugi.training.bench import peers
from yuugi.training.bench.bench import BenchResult, Spread


def result(game: str, decisions: int, seconds: float = 1.0, face: str = "core", batch: int = 1024) -> BenchResult:
    return BenchResult(game, face, batch, decisions, 0, seconds, seconds, 0.0)


def test_interleave_alternates_ours_and_peers_then_the_rest():
    ours = [("o1", None), ("o2", None), ("o3", None)]
    theirs = [("p1", None)]
    assert [n for n, _ in bench.interleave(ours, theirs)] == ["o1", "p1", "o2", "o3"]
    assert [n for n, _ in bench.interleave(ours[:1], [("p1", None), ("p2", None)])] == ["o1", "p1", "p2"]


def test_measure_rounds_runs_every_measure_once_per_round_in_order():
    calls = []

    def fake(name, rates):
        it = iter(rates)

        def run():
            calls.append(name)
            return result(name, next(it))
        return name, run

    out = bench.measure_rounds([fake("ours", [10, 20, 30]), fake("peer", [1, 2, 3])], rounds=3)
    assert calls == ["ours", "peer"] * 3
    assert [r.decisions for r in out["ours"]] == [10, 20, 30]
    assert [r.decisions for r in out["peer"]] == [1, 2, 3]


def test_measure_rounds_rejects_no_rounds_and_duplicate_names():
    with pytest.raises(ValueError, match="rounds must be at least 1, got 0"):
        bench.measure_rounds([("a", lambda: result("a", 1))], rounds=0)
    with pytest.raises(ValueError, match="distinct"):
        bench.measure_rounds([("a", lambda: result("a", 1)), ("a", lambda: result("a", 1))], rounds=1)


def test_ratios_are_formed_within_each_round():
    # Round by round: 100/50 = 2, 400/100 = 4, 300/100 = 3 (the machine was twice as fast in round 2).
    ours = [result("g", 100), result("g", 400), result("g", 300)]
    peer = [result("p", 50), result("p", 100), result("p", 100)]
    assert bench.round_ratios(ours, peer) == [2.0, 4.0, 3.0]
    with pytest.raises(ValueError, match="same rounds"):
        bench.round_ratios(ours, peer[:2])


def test_spread_is_median_and_range():
    assert Spread.of([2.0, 4.0, 3.0]) == Spread(3.0, 2.0, 4.0)
    assert Spread.of([1.0, 5.0, 2.0, 3.0]) == Spread(2.5, 1.0, 5.0)  # even count: mean of the middle two
    assert Spread.of([3.0, 2.0, 4.0]).format(unit="x") == "3.0x (2.0–4.0)"
    assert Spread.of([0.5, 0.25, 0.75]).format(unit="x") == "0.50x (0.25–0.75)"
    with pytest.raises(ValueError):
        Spread.of([])


def test_median_round_is_a_measured_round():
    rows = [result("g", 300), result("g", 100), result("g", 200)]
    assert bench.median_round(rows).decisions == 200
    assert bench.median_round(rows + [result("g", 400)]).decisions == 200  # lower middle of four


def test_ratio_table_shows_median_and_spread_per_peer():
    ours = {"g/core/1024": [result("g", 100), result("g", 400), result("g", 300)]}
    peer = {"os:x": [result("os:x", 50, face="openspiel"), result("os:x", 100, face="openspiel"),
                     result("os:x", 100, face="openspiel")]}
    table = bench.format_ratio_spreads(ours, peer)
    assert "os:x" in table and "g core B=1024" in table and "3.0x (2.0–4.0)" in table
    rounds = bench.format_rounds({**ours, **peer})
    assert "round 3" in rounds and "400" in rounds and "300 (100–400)" in rounds


def test_bench_command_interleaves_ours_with_peers_in_every_round(monkeypatch):
    calls = []

    def fake_core(name, batch, seconds, threads=(1,), **rules):
        calls.append(f"core{batch}")
        return [result(name, 1000)]

    def fake_aec(name, seconds, **rules):
        calls.append("aec")
        return result(name, 100, face="aec", batch=1)

    def peer(name):
        def run(seconds):
            calls.append(name)
            return result(name, 500, face="openspiel", batch=1)
        return run

    monkeypatch.setattr(bench, "bench_core_side_by_side", fake_core)
    monkeypatch.setattr(bench, "bench_aec", fake_aec)
    monkeypatch.setattr(peers, "installed_peers", lambda: ({"os:a": peer("os:a"), "os:b": peer("os:b")}, []))
    text = bench.bench_command(["nigejozu"], batches=(1024,), seconds=0.0, rounds=3, peers=True)
    assert calls == ["aec", "os:a", "core1024", "os:b"] * 3
    assert "2.0x (2.0–2.0)" in text  # 1000 / 500 in every round
    assert "0.20x (0.20–0.20)" in text  # the AEC loop: 100 / 500


class _FixedDraw:
    """A stand-in for random.Random: random() returns a fixed value, choices() records its weights."""

    def __init__(self, u: float) -> None:
        self.u, self.weights = u, None

    def random(self) -> float:
        return self.u

    def choices(self, population, weights):
        self.weights = list(weights)
        return [population[-1]]


def test_chance_pick_draws_one_integer_for_a_uniform_node():
    draw = _FixedDraw(0.6)
    assert peers.chance_pick([(10, 0.25), (11, 0.25), (12, 0.25), (13, 0.25)], draw) == 12  # floor(0.6 * 4) = 2
    assert draw.weights is None


def test_chance_pick_samples_by_weight_when_not_uniform():
    draw = _FixedDraw(0.6)
    assert peers.chance_pick([(1, 0.5), (2, 0.25), (3, 0.25)], draw) == 3
    assert draw.weights == [0.5, 0.25, 0.25]


def test_chance_pick_follows_the_weights():
    rnd = random.Random(0)
    picks = [peers.chance_pick([(0, 0.9), (1, 0.1)], rnd) for _ in range(4000)]
    assert 0.07 < sum(picks) / len(picks) < 0.13  # binomial sd 0.005: a uniform draw would give 0.5


@pytest.mark.parametrize("game_name, kind, tensor", [("dou_dizhu", "observation", "observation_tensor"),
                                                     ("hearts", "information_state", "information_state_tensor")])
def test_openspiel_preallocated_observation_equals_its_tensor(game_name, kind, tensor):
    import pyspiel  # the peers extra, installed by the test command
    game = pyspiel.load_game(game_name)
    observer = peers.openspiel_observer(game, kind)
    rnd = random.Random(1)
    state, checked = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(peers.chance_pick(state.chance_outcomes(), rnd))
            continue
        player = state.current_player()
        observer.set_from(state, player)
        np.testing.assert_array_equal(observer.tensor, np.asarray(getattr(state, tensor)(player), np.float32))
        checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[int(rnd.random() * len(legal))])
    assert checked > 10


def test_time_split_reports_the_lower_quartile_of_each_part():
    from yuugi.training.bench.split import PARTS, lower_quartiles

    # Mask times 1, 2, 3, 4 ms: the 25th percentile interpolates to 1 + 0.75 * (2 - 1) = 1.75.
    samples = [(m, 10.0, 0.5, 2.0 * m, 0.0) for m in (4.0, 1.0, 3.0, 2.0)]
    split = lower_quartiles(samples)
    assert list(split) == list(PARTS)
    assert split["mask"] == 1.75 and split["observe"] == 10.0 and split["step"] == 3.5
    with pytest.raises(ValueError, match="one time per part"):
        lower_quartiles([(1.0, 2.0)])
    with pytest.raises(ValueError, match="no iterations"):
        lower_quartiles([])


def test_the_vector_face_bench_counts_one_learner_decision_per_env_and_step():
    r = bench.bench_vector("nigejozu", seconds=0.3, num_envs=8)
    assert r.face == "vector" and r.batch == 8
    assert r.decisions > 0 and r.decisions % 8 == 0
    assert r.games > 0  # nigejozu episodes are short: some end within the run and are reset in place
    assert 0 < r.policy_seconds < r.seconds


def test_the_training_bench_leaves_no_folder_in_the_temporary_directory(tmp_path, monkeypatch):
    # It calls learn() chunk by chunk; a model without a logger of its own makes an SB3-<date-time> folder
    # in the temporary directory at every call.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)  # (the suite names one for user-style models)
    r = bench.bench_training("nigejozu", seconds=0.2, num_envs=16)
    assert r.decisions >= 16 * 32
    assert not list(tmp_path.glob("SB3-*"))


def test_thread_counts_are_measured_side_by_side_in_every_round_and_shown_against_one_thread(monkeypatch):
    calls = []

    def fake_side_by_side(name, batch, seconds, threads=(1, 2), **rules):
        calls.append(f"core{batch}/t{'+'.join(map(str, threads))}")
        # two threads: 170 decisions in 1 s, of which the policy took 0.15 s (env-only 200/s); one: 100 in 1 s
        return [BenchResult(name, "core", batch, 100, 0, 1.0, 1.0, 0.0) if t == 1 else
                BenchResult(name, "core", batch, 170, 0, 1.0, 0.85, 0.15, threads=2) for t in threads]

    monkeypatch.setattr(bench, "bench_core_side_by_side", fake_side_by_side)
    monkeypatch.setattr(bench, "bench_aec", lambda name, seconds, **rules: result(name, 10, face="aec", batch=1))
    text = bench.bench_command(["nigejozu"], batches=(1024,), seconds=0.0, rounds=2, threads=(1, 2, 1))
    assert calls == ["core1024/t1+2"] * 2  # a count given twice is measured once
    scaling = text.split("one-thread rate")[1]
    assert "nigejozu core B=1024 t=2" in scaling
    assert "1.70x (1.70–1.70)" in scaling  # decisions/s: 170 / 100
    assert "2.00x (2.00–2.00)" in scaling  # env-only: (170 / 0.85) / 100
    table = text.split("decisions/s of every round")[0]
    assert [line.split()[1:3] for line in table.splitlines() if line.startswith("nigejozu")] == [
        ["aec", "1"], ["core", "1024"], ["core", "t=2"]]  # the main table tells the two core rows apart
    assert "one-thread rate" not in bench.bench_command(["nigejozu"], batches=(1024,), seconds=0.0, rounds=1)


def test_thread_counts_side_by_side_play_the_same_games_step_for_step():
    # The compiled rules do not depend on the thread count, and each count's batch starts from the same
    # seeds and picks with the same generator: stepped in turn, they play the same games.
    one, two = bench.bench_core_side_by_side("nigejozu", 64, seconds=0.05, threads=(1, 2))
    assert (one.threads, two.threads) == (1, 2)
    assert one.decisions == two.decisions > 0 and one.games == two.games > 0
    assert 0 < one.policy_seconds < one.seconds and 0 < two.policy_seconds < two.seconds
