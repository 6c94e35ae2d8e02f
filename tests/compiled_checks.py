"""The checks every game's compiled rules pass (each game's ``tests/<game>/test_compiled.py`` runs them):

* **the Python reading**: random legal play recorded with ``NUMBA_DISABLE_JIT=1`` (the rules run as the
  plain Python they are written in, in a subprocess) equals the same play compiled, array for array;
* **the fused step**: the one-kernel ``step_fused`` equals the core's step-by-step default (step, replace
  the finished games, mask, observe), with and without replacing finished games;
* **threads**: the two-thread kernels play exactly as the serial ones.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from yuugi.envs import make_game
from yuugi.envs.core.game import BatchGame

ROOT = Path(__file__).resolve().parents[1]


def record_play(game_name: str, rules: dict, steps: int = 60, games: int = 8, seed: int = 3) -> dict[str, np.ndarray]:
    """Random legal play of ``games`` games, alternating the checked step (then the Python-side mask and the
    observations of the seat to play and of another seat) and the fused step with finished games
    replaced: every mask, observation, reward and end, and the final state arrays."""
    game = make_game(game_name, **rules)
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(100, 100 + games))
    mask = game.legal_mask(st)
    obs = game.observe(st, st.to_play)
    rewards = np.zeros((games, game.num_players), dtype=np.float32)
    out: dict[str, list[np.ndarray]] = {"mask": [], "obs": [], "obs_seat": [], "rewards": [], "finished": []}
    next_seed = 1000
    for t in range(steps):
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        if t % 2 == 0:
            game.step(st, actions)
            out["rewards"].append(st.rewards.copy())
            out["finished"].append(st.done.copy())
            done = np.flatnonzero(st.done)
            if done.size:
                st.put(done, game.init(np.arange(next_seed, next_seed + done.size)))
                next_seed += done.size
            mask = game.legal_mask(st)
            obs = game.observe(st, st.to_play)
            out["obs_seat"].append(game.observe(st, (np.arange(games) + t) % game.num_players))
        else:
            seeds = np.arange(next_seed, next_seed + games, dtype=np.uint64)
            next_seed += games
            finished = game.step_fused(st, actions, mask, obs, reset_seeds=seeds, rewards_out=rewards)
            out["rewards"].append(rewards.copy())
            out["finished"].append(finished.copy())
        out["mask"].append(mask.copy())
        out["obs"].append(obs.copy())
    arrays = {k: np.stack(v) for k, v in out.items()}
    arrays.update({f"state_{k}": v for k, v in st.arrays().items()})
    return arrays


def record_play_as_python(game_name: str, rules: dict, tmp_path: Path, **kwargs: int) -> dict[str, np.ndarray]:
    """:func:`record_play` in a subprocess with ``NUMBA_DISABLE_JIT=1``."""
    path = tmp_path / "python.npz"
    code = ("import json, sys, numpy as np; from tests.compiled_checks import record_play; "
            "np.savez(sys.argv[1], **record_play(sys.argv[2], json.loads(sys.argv[3]), **json.loads(sys.argv[4])))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", code, str(path), game_name, json.dumps(rules), json.dumps(kwargs)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def assert_python_reading_equals_compiled(game_name: str, rules: dict, tmp_path: Path, **kwargs: int) -> dict:
    """The Python reading and the compiled rules record the same play; returns the compiled record."""
    compiled = record_play(game_name, rules, **kwargs)
    python = record_play_as_python(game_name, rules, tmp_path, **kwargs)
    assert sorted(python) == sorted(compiled)
    for key, value in compiled.items():
        assert python[key].dtype == value.dtype, key
        np.testing.assert_array_equal(python[key], value, err_msg=key)
    return compiled


def assert_fused_step_equals_core_default(game: BatchGame, resets: bool, steps: int = 300, games: int = 16,
                                          seed: int = 3) -> int:
    """``game.step_fused`` and the core's ``BatchGame.step_fused`` play the same games; returns how many ended."""
    rng = np.random.default_rng(seed)
    fused, plain = game.init(np.arange(games)), game.init(np.arange(games))
    shape = (games, *game.observation_shape)
    mask_f, mask_p = game.legal_mask(fused), game.legal_mask(plain)
    obs_f, obs_p = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
    rew_f, rew_p = np.zeros((games, game.num_players), np.float32), np.zeros((games, game.num_players), np.float32)
    ended = 0
    for t in range(steps):
        actions = (rng.random(mask_f.shape) * mask_f).argmax(axis=1)
        seeds = np.arange(games * (t + 1), games * (t + 2)) if resets else None
        fin_f = game.step_fused(fused, actions, mask_f, obs_f, reset_seeds=seeds, rewards_out=rew_f)
        fin_p = BatchGame.step_fused(game, plain, actions, mask_p, obs_p, reset_seeds=seeds, rewards_out=rew_p)
        np.testing.assert_array_equal(fin_f, fin_p, err_msg=f"step {t}")
        np.testing.assert_array_equal(mask_f, mask_p, err_msg=f"step {t}")
        np.testing.assert_array_equal(obs_f, obs_p, err_msg=f"step {t}")
        np.testing.assert_array_equal(rew_f, rew_p, err_msg=f"step {t}")
        assert fused.equals(plain), t
        ended += int(fin_f.sum())
    return ended


def assert_threads_change_nothing(game_name: str, rules: dict, steps: int = 40, games: int = 32, seed: int = 5) -> None:
    """The two-thread kernels (init, mask, observe, step, fused step) play exactly as the serial ones."""
    serial, threaded = make_game(game_name, **rules), make_game(game_name, **rules)
    threaded.threads = 2
    a, b = serial.init(np.arange(games)), threaded.init(np.arange(games))
    assert a.equals(b)
    rng = np.random.default_rng(seed)
    for t in range(steps):
        mask = serial.legal_mask(a)
        np.testing.assert_array_equal(mask, threaded.legal_mask(b))
        np.testing.assert_array_equal(serial.observe(a, 1), threaded.observe(b, 1))
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        if t % 2:
            serial.step(a, actions, check=False)
            threaded.step(b, actions, check=False)
        else:
            shape = (games, *serial.observation_shape)
            outs = [(np.zeros_like(mask), np.zeros(shape, np.float32)) for _ in range(2)]
            seeds = np.arange(games * (t + 1), games * (t + 2))
            fin_a = serial.step_fused(a, actions, *outs[0], reset_seeds=seeds)
            fin_b = threaded.step_fused(b, actions, *outs[1], reset_seeds=seeds)
            np.testing.assert_array_equal(fin_a, fin_b)
            np.testing.assert_array_equal(outs[0][0], outs[1][0])
            np.testing.assert_array_equal(outs[0][1], outs[1][1])
        assert a.equals(b), t
