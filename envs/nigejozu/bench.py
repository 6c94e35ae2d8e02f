"""Throughput of the batched core under random legal play: ``python -m envs.nigejozu.bench``.

One decision = one game stepped once. Each batch step computes the legal mask, picks a uniformly
random legal action per game from ``np.flatnonzero`` over the mask, steps the core (without the
redundant legality re-check, as a vector env that draws from the mask would), observes for the seat
to act, and restarts finished games with fresh seeds.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from .game import Nigejozu


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 for rows without any)."""
    flat = np.flatnonzero(mask)
    counts = mask.sum(axis=1)
    starts = np.cumsum(counts) - counts
    k = np.minimum((rng.random(mask.shape[0]) * counts).astype(np.int64), np.maximum(counts - 1, 0))
    pos = np.minimum(starts + k, max(flat.size - 1, 0))
    return np.where(counts > 0, flat[pos] % mask.shape[1] if flat.size else 0, 0)


def run(batch: int, seconds: float, check: bool, seed: int = 0, **options: object) -> tuple[float, float]:
    """(decisions per wall-clock second, decisions per CPU second of this process)."""
    game = Nigejozu(**options)
    rng = np.random.default_rng(seed)
    state = game.init(np.arange(batch, dtype=np.uint64) + np.uint64(seed) * np.uint64(1 << 32))
    next_seed = batch
    decisions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        mask = game.legal_mask(state)
        actions = random_legal(mask, rng)
        decisions += int((~state.done).sum())
        game.step(state, actions, check=check)
        game.observe(state, state.to_play)
        done = np.flatnonzero(state.done)
        if len(done):
            state.put(done, game.init(np.arange(next_seed, next_seed + len(done), dtype=np.uint64)))
            next_seed += len(done)
    return decisions / (time.perf_counter() - start), decisions / (time.process_time() - cpu_start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--batch", type=int, nargs="+", default=[1024])
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--check", action="store_true", help="also validate every action against the mask")
    args = p.parse_args()
    for b in args.batch:
        wall, cpu = run(b, args.seconds, args.check)
        print(f"nigejozu B={b:5d} check={args.check}: {wall:,.0f} decisions/s wall, {cpu:,.0f} per CPU second")


if __name__ == "__main__":
    main()
