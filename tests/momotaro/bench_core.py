"""Throughput of the momotaro core under random legal play (not a test; run as a script).

    python -m tests.momotaro.bench_core [--batch 1024] [--seconds 5] [--players 4] [--check]

Each decision: legal mask, the acting seat's observation, one uniformly random legal action (one
``flatnonzero`` over the mask), ``step``; finished games are replaced by new ones (reset time counts).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from envs import make_game


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    b, a = mask.shape
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // a, minlength=b)
    starts = np.cumsum(counts) - counts
    k = (rng.random(b) * counts).astype(np.int64)
    out = np.zeros(b, dtype=np.int64)
    has = counts > 0
    out[has] = flat[(starts + k)[has]] % a
    return out


def bench(batch: int, seconds: float, players: int, check: bool) -> tuple[float, int, int]:
    game = make_game("momotaro", num_players=players)
    rng = np.random.default_rng(0)
    st = game.init(np.arange(batch))
    next_seed = batch
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = game.legal_mask(st)
        game.observe(st, st.to_play)
        actions = random_legal(mask, rng)
        live = ~st.done
        game.step(st, actions, check=check)
        decisions += int(live.sum())
        done = np.flatnonzero(st.done)
        if done.size:
            games += done.size
            st.put(done, game.init(np.arange(next_seed, next_seed + done.size)))
            next_seed += done.size
    elapsed = time.perf_counter() - start
    return decisions / elapsed, decisions, games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--check", action="store_true", help="validate actions in step (off: drawn from the mask)")
    args = ap.parse_args()
    rate, decisions, games = bench(args.batch, args.seconds, args.players, args.check)
    print(f"momotaro {args.players}p B={args.batch}: {rate:,.0f} decisions/s ({decisions} decisions, {games} games)")


if __name__ == "__main__":
    main()
