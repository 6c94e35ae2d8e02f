"""The compiled rules mean what their Python reads: a small batch played with NUMBA_DISABLE_JIT=1 in a
subprocess gives the same masks, observations, rewards and states as the compiled run here; and the
one-kernel ``step_fused`` agrees with the core's step-by-step default."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from yuugi.envs import make_game
from yuugi.envs.core.game import BatchGame

ROOT = Path(__file__).resolve().parents[2]
# (options, steps): short games (max_turns) so that games end and resets are played too.
RULE_SETS = {
    "default": ({"max_turns": 6}, 60),
    "sealed_event": ({"decks": ("sealed", "any"), "ukemi_nullifies": "event", "max_turns": 6}, 60),
    "compact_empty": ({"decks": ("D1", "D4"), "priority_windows": "compact", "deckout_rule": "draw_from_empty",
                       "mask_useless": True, "max_turns": 6}, 60),
}


def record(options: dict, steps: int = 60, games: int = 8) -> dict[str, np.ndarray]:
    """Random legal play through init, legal_mask, observe (one seat and one per game), step and
    step_fused with resets: every mask, observation, reward and the final state arrays."""
    game = make_game("ninja_slayer", **options)
    rng = np.random.default_rng(7)
    st = game.init(np.arange(100, 100 + games))
    out: dict[str, list[np.ndarray]] = {"mask": [], "obs": [], "obs_seat": [], "rewards": [], "finished": []}
    mask = game.legal_mask(st)
    obs = np.zeros((games, *game.observation_shape), dtype=np.float32)
    rewards = np.zeros((games, game.num_players), dtype=np.float32)
    next_seed = 1000
    for t in range(steps):
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        if t % 2 == 0:  # the checked step, then the Python-side mask and observations
            game.step(st, actions)
            out["rewards"].append(st.rewards.copy())
            out["finished"].append(st.done.copy())
            done = np.flatnonzero(st.done)
            if done.size:
                st.put(done, game.init(np.arange(next_seed, next_seed + done.size)))
                next_seed += done.size
            mask = game.legal_mask(st)
            out["obs"].append(game.observe(st, st.to_play))
            out["obs_seat"].append(game.observe(st, t % 2))
        else:  # the fused step
            seeds = np.arange(next_seed, next_seed + games, dtype=np.uint64)
            next_seed += games
            finished = game.step_fused(st, actions, mask, obs, reset_seeds=seeds, rewards_out=rewards)
            out["rewards"].append(rewards.copy())
            out["finished"].append(finished.copy())
            out["obs"].append(obs.copy())
        out["mask"].append(mask.copy())
    arrays = {k: np.stack(v) for k, v in out.items()}
    arrays.update({f"state_{k}": v for k, v in st.arrays().items()})
    return arrays


def _python_reading(name: str, tmp_path: Path) -> dict[str, np.ndarray]:
    path = tmp_path / f"{name}.npz"
    code = ("import sys, numpy as np; from tests.ninja_slayer.test_compiled import RULE_SETS, record; "
            f"np.savez(sys.argv[1], **record(*RULE_SETS[{name!r}]))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, env=env, check=True, timeout=900)
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_python_reading_equals_the_compiled_rules(name: str, tmp_path: Path) -> None:
    compiled = record(*RULE_SETS[name])
    python = _python_reading(name, tmp_path)
    assert sorted(python) == sorted(compiled)
    for key, value in compiled.items():
        assert python[key].dtype == value.dtype, key
        np.testing.assert_array_equal(python[key], value, err_msg=key)


@pytest.mark.parametrize("resets", [True, False])
def test_fused_step_equals_the_core_default(resets: bool) -> None:
    game = make_game("ninja_slayer", max_turns=8)
    games, rng = 16, np.random.default_rng(3)
    fused, plain = game.init(np.arange(games)), game.init(np.arange(games))
    shape = (games, *game.observation_shape)
    mask_f, mask_p = game.legal_mask(fused), game.legal_mask(plain)
    obs_f, obs_p = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
    rew_f, rew_p = np.zeros((games, 2), np.float32), np.zeros((games, 2), np.float32)
    ended = 0
    for t in range(300):
        actions = (rng.random(mask_f.shape) * mask_f).argmax(axis=1)
        seeds = np.arange(games * (t + 1), games * (t + 2)) if resets else None
        fin_f = game.step_fused(fused, actions, mask_f, obs_f, reset_seeds=seeds, rewards_out=rew_f)
        fin_p = BatchGame.step_fused(game, plain, actions, mask_p, obs_p, reset_seeds=seeds, rewards_out=rew_p)
        np.testing.assert_array_equal(fin_f, fin_p)
        np.testing.assert_array_equal(mask_f, mask_p)
        np.testing.assert_array_equal(obs_f, obs_p)
        np.testing.assert_array_equal(rew_f, rew_p)
        assert fused.equals(plain), t
        ended += int(fin_f.sum())
    assert ended > 0


def test_parallel_kernels_equal_serial() -> None:
    game = make_game("ninja_slayer")
    threaded = make_game("ninja_slayer")
    threaded.threads = 2
    a, b = game.init(np.arange(32)), threaded.init(np.arange(32))
    assert a.equals(b)
    rng = np.random.default_rng(5)
    for _ in range(40):
        mask = game.legal_mask(a)
        np.testing.assert_array_equal(mask, threaded.legal_mask(b))
        np.testing.assert_array_equal(game.observe(a, 1), threaded.observe(b, 1))
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        game.step(a, actions, check=False)
        threaded.step(b, actions, check=False)
        assert a.equals(b)
