"""``yuugi bench GAME``: throughput of the AEC loop and of the batched core under random legal play.

Protocol (the same for every game): each decision computes the legal mask and the acting seat's
observation, picks a uniformly random legal action (one ``flatnonzero`` over the mask) and steps.
The policy's time (the random pick) is reported apart from the environment's. Finished games are
replaced by new ones (their reset time counts as environment time).
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from agents.policy import random_legal
from envs import make_game, make_raw


@dataclass
class BenchResult:
    game: str
    face: str  # "aec" or "core"
    batch: int
    decisions: int
    games: int
    seconds: float
    env_seconds: float
    policy_seconds: float

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def env_decisions_per_s(self) -> float:
        return self.decisions / max(self.env_seconds, 1e-12)

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(decisions_per_s=self.decisions_per_s, env_decisions_per_s=self.env_decisions_per_s,
                 games_per_s=self.games_per_s)
        return d


def bench_core(name: str, batch: int, seconds: float = 2.0, seed: int = 0, **rules: Any) -> BenchResult:
    """Random legal play over ``batch`` games at once for about ``seconds``."""
    game = make_game(name, **rules)
    rng = np.random.default_rng(seed)
    next_seed = batch
    st = game.init(np.arange(batch))
    decisions = games = 0
    env_t = pol_t = 0.0
    start = time.perf_counter()
    while True:
        t0 = time.perf_counter()
        mask = game.legal_mask(st)
        game.observe(st, st.to_play)
        t1 = time.perf_counter()
        actions = random_legal(mask, rng)
        t2 = time.perf_counter()
        live = ~st.done
        game.step(st, actions, check=False)
        decisions += int(live.sum())
        done = np.flatnonzero(st.done)
        if done.size:
            games += done.size
            st.put(done, game.init(np.arange(next_seed, next_seed + done.size)))
            next_seed += done.size
        t3 = time.perf_counter()
        env_t += (t1 - t0) + (t3 - t2)
        pol_t += t2 - t1
        if t3 - start >= seconds:
            break
    return BenchResult(name, "core", batch, decisions, games, time.perf_counter() - start, env_t, pol_t)


def bench_aec(name: str, seconds: float = 2.0, seed: int = 0, **rules: Any) -> BenchResult:
    """The PettingZoo AEC loop (raw env) with a random legal policy."""
    env = make_raw(name, **rules)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    decisions = games = 0
    env_t = pol_t = 0.0
    start = time.perf_counter()
    while True:
        t0 = time.perf_counter()
        obs, _, term, trunc, _ = env.last()
        t1 = time.perf_counter()
        if term or trunc:
            action = None
        else:
            action = int(random_legal(obs["action_mask"][None].astype(bool), rng)[0])
        t2 = time.perf_counter()
        env.step(action)
        if not env.agents:
            games += 1
            env.reset()
        else:
            decisions += action is not None
        t3 = time.perf_counter()
        env_t += (t1 - t0) + (t3 - t2)
        pol_t += t2 - t1
        if t3 - start >= seconds:
            break
    return BenchResult(name, "aec", 1, decisions, games, time.perf_counter() - start, env_t, pol_t)


# Rule options the benchmark plays with: daifugō counts single games, not 5-game series, so that
# games/s means games.
BENCH_RULES: dict[str, dict[str, Any]] = {"ninja_daifugo": {"series_games": 1}}


def run(name: str, batches: tuple[int, ...] = (1, 64, 1024), seconds: float = 2.0, **rules: Any) -> list[BenchResult]:
    rules = {**BENCH_RULES.get(name, {}), **rules}
    results = [bench_aec(name, seconds, **rules)]
    results += [bench_core(name, b, seconds, **rules) for b in batches]
    return results


def format_table(results: list[BenchResult]) -> str:
    header = f"{'game':<14} {'face':<5} {'B':>5} {'decisions/s':>12} {'env-only/s':>12} {'policy %':>9} {'games/s':>10}"
    lines = [header, "-" * len(header)]
    for r in results:
        pol = 100.0 * r.policy_seconds / max(r.seconds, 1e-12)
        lines.append(f"{r.game:<14} {r.face:<5} {r.batch:>5} {r.decisions_per_s:>12,.0f} "
                     f"{r.env_decisions_per_s:>12,.0f} {pol:>8.1f}% {r.games_per_s:>10,.1f}")
    return "\n".join(lines)
