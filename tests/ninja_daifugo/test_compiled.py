"""The compiled rules mean what their Python reads: the same play with ``NUMBA_DISABLE_JIT=1`` (the rules
run as plain Python) gives the same masks, observations, rewards and state arrays, step for step.

Also: the fused batch step (one kernel) is the base class's composition of step, reset, mask and observe.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np

from yuugi.envs import make_game
from yuugi.envs.core.game import BatchGame

ROOT = Path(__file__).resolve().parents[2]
# The traced rule sets, one whose every seat holds strong jutsu (so that 60 steps use them all), and the
# UECda game (five players, seat changes every game).
RULE_SETS = ({}, {"ninja": "off", "series_games": 1},
             {"ninja": "symmetric", "pass_lockout": True, "miyako_ochi": False},
             {"ninja": "symmetric", "series_games": 2, "max_game_steps": 40, "reward_scheme": "uecda",
              "loadouts": [{"jutsu": {"henge": 5, "ashidome": 5}, "school": "henge", "gokui": True},
                           {"jutsu": {"raiton": 5, "shuriken": 4}, "school": "bogai", "gokui": True},
                           {"jutsu": {"shuriken": 5, "henge": 3}, "school": "rai", "gokui": True},
                           {"jutsu": {"ashidome": 2, "raiton": 1}}]},
             {"rules": "uecda", "series_games": 3, "seat_change_every": 1, "max_game_steps": 40})


def play(rules: dict, games: int = 8, steps: int = 60) -> list:
    """Random legal play through init, observe, step and step_fused (finished games restarted), recorded."""
    game = make_game("ninja_daifugo", **rules)
    rng = np.random.default_rng(3)
    st = game.init(np.arange(games))
    mask = game.legal_mask(st)
    obs = game.observe(st, st.to_play)
    record = [mask.copy(), obs.copy(), game.observe(st, 1), {k: v.copy() for k, v in st.arrays().items()}]
    n = game.num_players
    rewards = np.zeros((games, n), np.float32)
    for t in range(steps):
        legal = [np.flatnonzero(row) for row in mask]
        actions = np.array([row[rng.integers(len(row))] if len(row) else 0 for row in legal], dtype=np.int64)
        if t % 2:
            seeds = np.arange(games * (t + 1), games * (t + 2), dtype=np.uint64)
            finished = game.step_fused(st, actions, mask, obs, reset_seeds=seeds, rewards_out=rewards)
            record += [finished.copy(), rewards.copy()]
        else:
            game.step(st, actions)
            mask = game.legal_mask(st)
            obs = game.observe(st, st.to_play)
            record += [game.observe(st, (np.arange(games) + t) % n)]
        record += [mask.copy(), obs.copy(), {k: v.copy() for k, v in st.arrays().items()}]
    return record


def _equal(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return a.dtype == b.dtype and np.array_equal(a, b)


def test_python_reading_of_the_rules_matches_the_compiled_rules(tmp_path: Path) -> None:
    out = tmp_path / "python.pkl"
    script = ("import pickle, sys\nfrom tests.ninja_daifugo.test_compiled import RULE_SETS, play\n"
              f"pickle.dump([play(r) for r in RULE_SETS], open({str(out)!r}, 'wb'))\n")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    python = pickle.loads(out.read_bytes())
    for rules, interpreted in zip(RULE_SETS, python):
        compiled = play(rules)
        assert len(compiled) == len(interpreted)
        for k, (a, b) in enumerate(zip(compiled, interpreted)):
            assert _equal(a, b), (rules, k)


def test_fused_step_is_the_composition_of_step_reset_mask_and_observe() -> None:
    for rules in RULE_SETS:
        game = make_game("ninja_daifugo", **rules)
        b = 64
        fused = game.init(np.arange(b))
        composed = fused.copy()
        mask_f, obs_f = game.legal_mask(fused), game.observe(fused, fused.to_play)
        mask_c, obs_c = mask_f.copy(), obs_f.copy()
        n = game.num_players
        rew_f, rew_c = np.zeros((b, n), np.float32), np.zeros((b, n), np.float32)
        rng = np.random.default_rng(0)
        for t in range(300):
            legal = [np.flatnonzero(row) for row in mask_f]
            actions = np.array([row[rng.integers(len(row))] if len(row) else 0 for row in legal], dtype=np.int64)
            seeds = np.arange(b * (t + 1), b * (t + 2), dtype=np.uint64) if t % 3 else None  # some steps keep the ended
            done_f = game.step_fused(fused, actions, mask_f, obs_f, reset_seeds=seeds, rewards_out=rew_f)
            done_c = BatchGame.step_fused(game, composed, actions, mask_c, obs_c, reset_seeds=seeds, rewards_out=rew_c)
            assert np.array_equal(done_f, done_c) and np.array_equal(rew_f, rew_c), (rules, t)
            assert np.array_equal(mask_f, mask_c) and np.array_equal(obs_f, obs_c), (rules, t)
            assert fused.equals(composed), (rules, t)


def test_threads_change_nothing() -> None:
    """The parallel kernels (threads=2) play exactly as the serial ones."""
    one, two = make_game("ninja_daifugo"), make_game("ninja_daifugo")
    two.threads = 2
    b = 32
    a, c = one.init(np.arange(b)), two.init(np.arange(b))
    mask_a, obs_a = one.legal_mask(a), one.observe(a, a.to_play)
    mask_c, obs_c = two.legal_mask(c), two.observe(c, c.to_play)
    rng = np.random.default_rng(1)
    for t in range(100):
        legal = [np.flatnonzero(row) for row in mask_a]
        actions = np.array([row[rng.integers(len(row))] for row in legal], dtype=np.int64)
        seeds = np.arange(b * (t + 1), b * (t + 2), dtype=np.uint64)
        one.step_fused(a, actions, mask_a, obs_a, reset_seeds=seeds)
        two.step_fused(c, actions, mask_c, obs_c, reset_seeds=seeds)
        assert a.equals(c) and np.array_equal(mask_a, mask_c) and np.array_equal(obs_a, obs_c), t
