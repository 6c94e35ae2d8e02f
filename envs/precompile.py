"""Compile every game's rules into numba's on-disk cache ahead of use, one process per game in parallel.

The first call of a game's compiled rules in a fresh checkout compiles them (minutes for ninja_slayer);
later processes load them from the cache in ``__pycache__`` in about a second. A job that starts many
processes at once (test workers, Ray workers, a fleet of training jobs) would otherwise compile the same
rules in each of them: run this once first.

    python -m yuugi.envs.precompile              # every game, two processes at a time
    python -m yuugi.envs.precompile nigejozu --jobs 1
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# The first call of every kernel a face makes (one-thread kernels: the two-thread ones compile on first
# use of threads=2), run in a fresh process: ``python -c FIRST_CALLS GAME [RULES_JSON]``.
FIRST_CALLS = """
import json, sys
import numpy as np
import yuugi.envs
game = yuugi.envs.make_game(sys.argv[1], **(json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}))
state = game.init(np.arange(2))
mask = game.legal_mask(state)
obs = game.observe(state, state.to_play)
game.step(state, mask.argmax(axis=1), check=False)
mask, obs = game.legal_mask(state), game.observe(state, state.to_play)
game.step_fused(state, mask.argmax(axis=1), mask, obs, reset_seeds=np.arange(2, 4),
                rewards_out=np.zeros(state.rewards.shape, np.float32))
game.step_fused(state, mask.argmax(axis=1), mask, obs)
"""


def precompile_game(game: str) -> float:
    """Compile (or load) ``game``'s kernels in a fresh process; seconds it took. Raises on failure."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", FIRST_CALLS, game], capture_output=True, text=True,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    if done.returncode != 0:
        raise RuntimeError(f"compiling {game}'s rules failed:\n{done.stderr.strip()}")
    return time.perf_counter() - start


def precompile(games: list[str], jobs: int = 2) -> dict[str, float]:
    """Compile ``games`` with up to ``jobs`` processes at once, the longest first; seconds per game."""
    from yuugi.envs import available_games

    order = sorted(games, key=lambda g: g != "ninja_slayer")  # the longest compile starts first
    unknown = sorted(set(order) - set(available_games()))
    if unknown:
        raise ValueError(f"unknown game(s) {unknown}; games: {sorted(available_games())}")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return dict(zip(order, pool.map(precompile_game, order)))


def main(argv: list[str] | None = None) -> int:
    from yuugi.envs import available_games

    p = argparse.ArgumentParser(prog="python -m yuugi.envs.precompile", description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="*", help="games to compile (default: all)")
    p.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    args = p.parse_args(argv)
    try:
        seconds = precompile(args.games or available_games(), args.jobs)
    except (ValueError, RuntimeError) as e:
        print(f"precompile: error: {e}", file=sys.stderr)
        return 2
    for game, s in seconds.items():
        print(f"{game:<16}{s:8.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
