"""``expert`` against the field: one expert seat, every other seat ``normal``, seats rotated.

    python -m training.expert_ladder nigejozu --games 400 --think-ms 100
    python -m training.expert_ladder momotaro --games 200 --rounds 2      # fixed budget, reproducible

Game g (seed ``seed_base + g``) puts the expert at seat ``g mod P``. A game's score is the expert's
reward minus the mean reward of the other seats; the mean score gets a 95% normal interval. The
expert's achieved rollouts per second, decisions per second and think time are printed with it.
Playing needs numpy only.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from agents.expert import ExpertPolicy
from agents.policy import Policy
from agents.registry import heuristic
from agents.search.dispatch import act
from envs import make_game
from envs.core.game import BatchGame

Z95 = 1.959963984540054


def play_field(game: BatchGame, policies: list[Policy], seat_policy: np.ndarray, seeds: np.ndarray,
               rng: np.random.Generator) -> np.ndarray:
    """float64[G, P]: each seat's total reward in one game per row of ``seat_policy`` [G, P]."""
    st = game.init(seeds)
    total = np.zeros((len(seeds), game.num_players))
    while not st.done.all():
        live = np.flatnonzero(~st.done)
        sub = st.take(live)
        seats = sub.to_play.astype(np.int64)
        who = seat_policy[live, seats]
        mask = game.legal_mask(sub)
        obs = game.observe(sub, seats)
        actions = np.zeros(len(seeds), dtype=np.int64)
        for k in np.unique(who):
            r = np.flatnonzero(who == k)
            actions[live[r]] = act(policies[k], game, sub.take(r), seats[r], obs[r], mask[r], rng)
        game.validate(sub, actions[live], np.ones(len(live), dtype=bool), mask)
        game.step(st, actions, check=False)
        total[live] += st.rewards[live]
    return total


def measure(game_name: str, games: int, expert: ExpertPolicy, seed_base: int = 10_000, batch: int = 100,
            rules: dict[str, Any] | None = None, seed: int = 0) -> dict[str, Any]:
    game = make_game(game_name, **(rules or {}))
    p = game.num_players
    rng = np.random.default_rng(seed)
    scores = []
    started = time.perf_counter()
    for lo in range(0, games, batch):
        g = np.arange(lo, min(lo + batch, games))
        layout = np.ones((g.size, p), dtype=np.int64)  # 1 = normal
        layout[np.arange(g.size), g % p] = 0  # 0 = the expert, seat rotated
        returns = play_field(game, [expert, expert.heuristic], layout, seed_base + g, rng)
        mine = returns[layout == 0]
        others = np.where(layout == 1, returns, 0.0).sum(axis=1) / (p - 1)
        scores.append(mine - others)
        done = np.concatenate(scores)
        half_so_far = Z95 * done.std(ddof=1) / np.sqrt(done.size) if done.size > 1 else float("inf")
        print(f"{done.size} games: score {done.mean():+.3f} ± {half_so_far:.3f} (expert {expert.stats['rollouts']} rollouts, "
              f"{expert.rollouts_per_second:.0f}/s)", file=sys.stderr, flush=True)
    score = np.concatenate(scores)
    half = Z95 * score.std(ddof=1) / np.sqrt(score.size)
    stats = expert.stats
    return {"game": game_name, "players": p, "games": int(score.size), "seeds": f"{seed_base}..{seed_base + games - 1}",
            "score": float(score.mean()), "ci95": [float(score.mean() - half), float(score.mean() + half)],
            "expert_ahead": float((score > 0).mean()), "think_ms": expert.think_ms, "rounds": expert.rounds,
            "samples": expert.samples, "top_n": expert.top_n, "confidence": expert.confidence, "decisions": stats["decisions"],
            "searched_decisions": stats["searched"], "rollouts": stats["rollouts"],
            "rollouts_per_second": expert.rollouts_per_second,
            "decisions_per_second": stats["decisions"] / stats["seconds"] if stats["seconds"] else 0.0,
            "wall_seconds": time.perf_counter() - started}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--think-ms", type=float, default=200.0, help="per-decision budget (ignored with --rounds)")
    ap.add_argument("--rounds", type=int, default=None, help="a fixed number of rounds instead of a time budget")
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--top-n", type=int, default=6)
    ap.add_argument("--confidence", type=float, default=1.0, help="standard errors a candidate must beat the heuristic's choice by")
    ap.add_argument("--seed-base", type=int, default=10_000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--rule", action="append", default=[], help="KEY=JSON rule option, repeatable")
    ap.add_argument("--json", default=None, help="also write the result to this file")
    args = ap.parse_args(argv)
    rules = {k: json.loads(v) for k, v in (r.split("=", 1) for r in args.rule)}
    expert = ExpertPolicy(args.game, heuristic(args.game), think_ms=None if args.rounds else args.think_ms,
                          rounds=args.rounds or 1, samples=args.samples, top_n=args.top_n,
                          confidence=args.confidence)
    result = measure(args.game, args.games, expert, args.seed_base, args.batch, rules)
    print(json.dumps(result, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({**result, "command": "python -m training.expert_ladder " + " ".join(argv or [])}, f, indent=1)


if __name__ == "__main__":
    main()
