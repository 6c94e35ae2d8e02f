"""Trace hashes: SHA-256 per (game, rule set) over every mask, observation and state array.

A behaviour-preserving change (a faster mask, a refactor) must leave these hashes unchanged. The
trace plays ``--games`` games at once for ``--steps`` batched steps: at each step it hashes the legal
mask, the acting seat's observation and every state array, picks one legal action per game from a
fixed numpy stream (the k-th legal action, k drawn independently of the game's code), steps, and
replaces finished games by new ones seeded in order. Rule sets: each game's default and two others.
Two digests are printed: the dynamics (masks and state arrays) and the observations, so that a change
meant to alter only what a seat observes can show that the game itself is untouched.

    python -m yuugi.training.bench.trace_hash                     # every game, every rule set
    python -m yuugi.training.bench.trace_hash nigejozu --steps 600 --games 512
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from typing import Any

import numpy as np

from yuugi.envs.spec import SPECS, as_dict

# Each game's default rules and the non-default rule sets of its registry entry
# (yuugi.envs.spec.GameSpec.trace_rule_sets) that exercise other code paths.
RULE_SETS: dict[str, list[dict[str, Any]]] = {name: [{}] + [as_dict(rules) for rules in spec.trace_rule_sets]
                                              for name, spec in SPECS.items()}


def pick_legal(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The floor(u * n)-th legal action of each row (n legal actions); rows with none get 0."""
    counts = mask.sum(axis=1)
    k = np.minimum((u * counts).astype(np.int64), np.maximum(counts - 1, 0))
    ranks = np.cumsum(mask, axis=1) - 1  # rank of each legal action in its row
    hit = mask & (ranks == k[:, None])
    return np.where(counts > 0, hit.argmax(axis=1), 0)


def trace_hash(name: str, rules: dict[str, Any], games: int = 512, steps: int = 600,
               seed: int = 0) -> tuple[str, str]:
    """(dynamics digest, observation digest) of one traced run."""
    from yuugi.envs import make_game

    game = make_game(name, **rules)
    rng = np.random.default_rng(seed)
    dynamics, observations = hashlib.sha256(), hashlib.sha256()
    st = game.init(np.arange(games))
    next_seed = games

    def feed(arr: np.ndarray, h: Any = dynamics) -> None:
        arr = np.ascontiguousarray(arr)
        h.update(str(arr.dtype).encode() + str(arr.shape).encode())
        h.update(arr.tobytes())

    for _ in range(steps):
        mask = game.legal_mask(st)
        feed(mask)
        feed(game.observe(st, st.to_play), observations)
        for key in sorted(st.arrays()):
            feed(st.arrays()[key])
        actions = pick_legal(mask, rng.random(games))
        game.step(st, actions)
        done = np.flatnonzero(st.done)
        if done.size:
            st.put(done, game.init(np.arange(next_seed, next_seed + done.size)))
            next_seed += done.size
    for key in sorted(st.arrays()):
        feed(st.arrays()[key])
    return dynamics.hexdigest(), observations.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yuugi.training.bench.trace_hash", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=sorted(RULE_SETS), help="games to trace (default: all)")
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--games-per-batch", dest="batch", type=int, default=512)
    args = parser.parse_args(argv)
    for name in args.games:
        if name not in RULE_SETS:
            parser.error(f"no rule sets for {name!r}; known: {sorted(RULE_SETS)}")
        for rules in RULE_SETS[name]:
            dyn, obs = trace_hash(name, rules, args.batch, args.steps)
            print(f"{name:<14} dynamics {dyn[:16]} observations {obs[:16]}  {rules}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
