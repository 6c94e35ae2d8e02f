"""Where the time of one batched decision goes: the legal mask, the observation, the random pick,
the step, and the resets of finished games, in milliseconds per batch.

Same loop as ``yuugi bench`` (random legal play, finished games replaced in place). Each part is
timed on every iteration and reported as the lower quartile over the iterations: on a shared
machine the other processes' load only ever adds time, so a low quantile shows what the code costs
and changes less from run to run than a mean. Compare two versions by running this command in each
checkout alternately, never one after the other once. The script also runs against another
checkout's game code, e.g. the code before a change (``git worktree add /tmp/base COMMIT``):

    python -m yuugi.training.bench.split nigejozu momotaro --batch 1024 --seconds 3
    PYTHONPATH=/tmp/base python training/bench/split.py nigejozu --batch 1024 --seconds 3
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Sequence

import numpy as np

PARTS = ("mask", "observe", "pick", "step", "reset")


def lower_quartiles(samples: Sequence[Sequence[float]]) -> dict[str, float]:
    """Per part, the lower quartile (25th percentile) of its per-iteration times, in the unit given."""
    if not len(samples):
        raise ValueError("no iterations were timed")
    table = np.asarray(samples, dtype=np.float64)
    if table.ndim != 2 or table.shape[1] != len(PARTS):
        raise ValueError(f"each sample needs one time per part {PARTS}, got shape {table.shape}")
    return dict(zip(PARTS, np.percentile(table, 25, axis=0).tolist()))


def time_split(name: str, batch: int = 1024, seconds: float = 3.0, warmup: int = 200, **rules: Any
               ) -> dict[str, float]:
    """Milliseconds per batch of each part (lower quartiles), plus their sum under "total".

    The first ``warmup`` iterations are not timed: the batch starts with every game at its first
    decision, and games only end (and reset) at a steady rate once their lengths have spread out.
    """
    from yuugi.envs import make_game
    from yuugi.envs.core.sampling import random_legal
    from yuugi.training.bench.bench import BENCH_RULES

    game = make_game(name, **{**BENCH_RULES.get(name, {}), **rules})
    rng = np.random.default_rng(0)
    st = game.init(np.arange(batch))
    next_seed = batch
    clock = time.perf_counter
    samples = []
    start = clock()
    for i in range(sys.maxsize):
        t0 = clock()
        mask = game.legal_mask(st)
        t1 = clock()
        game.observe(st, st.to_play)
        t2 = clock()
        actions = random_legal(mask, rng)
        t3 = clock()
        game.step(st, actions, check=False)
        t4 = clock()
        done = np.flatnonzero(st.done)
        if done.size:
            st.put(done, game.init(np.arange(next_seed, next_seed + done.size)))
            next_seed += done.size
        t5 = clock()
        if i >= warmup:
            samples.append((1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2), 1e3 * (t4 - t3), 1e3 * (t5 - t4)))
        if t5 - start >= seconds and len(samples) >= 10:
            break
    split = lower_quartiles(samples)
    split["total"] = sum(split.values())
    return split


def format_split(rows: dict[str, dict[str, float]]) -> str:
    head = f"{'game':<34}" + "".join(f"{p:>9}" for p in (*PARTS, "total")) + "   (ms per batch, lower quartile)"
    lines = [head, "-" * len(head)]
    for label, split in rows.items():
        lines.append(f"{label:<34}" + "".join(f"{split[p]:>9.3f}" for p in (*PARTS, "total")))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from yuugi.training.cli.args import parse_rules

    parser = argparse.ArgumentParser(prog="python -m yuugi.training.bench.split", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--batch", type=int, nargs="+", default=[1024])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    rules = parse_rules(args.rule)
    rows = {f"{name} B={b}" + (f" {rules}" if rules else ""): time_split(name, b, args.seconds, **rules)
            for name in args.games for b in args.batch}
    print(format_split(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
