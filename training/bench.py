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


def bench_training(name: str, seconds: float = 10.0, num_envs: int = 64, **rules: Any) -> BenchResult:
    """Self-play MaskablePPO on the SB3 vector face (opponents: random): learner steps per second."""
    from sb3_contrib import MaskablePPO

    from agents.policy import RandomPolicy
    from envs.core.sb3_vec import SB3SelfPlayVecEnv
    from training.peers import _time_learning

    rules = {**BENCH_RULES.get(name, {}), **rules}
    env = SB3SelfPlayVecEnv(make_game(name, **rules), num_envs, RandomPolicy(), seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=512, n_epochs=4, verbose=0, seed=0)
    result = _time_learning(model, name, seconds)
    return result


def bench_inference(name: str, batch: int = 1024, repeats: int = 50, hidden: tuple[int, ...] = (256, 256),
                    **rules: Any) -> BenchResult:
    """numpy MLP policy inference (observation batch -> masked actions) for ``batch`` rows."""
    from agents.mlp import MLPPolicy

    rules = {**BENCH_RULES.get(name, {}), **rules}
    game = make_game(name, **rules)
    rng = np.random.default_rng(0)
    sizes = (int(np.prod(game.observation_shape)), *hidden, game.num_actions)
    policy = MLPPolicy([rng.normal(0, 0.05, (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])],
                       [np.zeros(b, np.float32) for b in sizes[1:]])
    st = game.init(np.arange(batch))
    obs, mask = game.observe(st, st.to_play), game.legal_mask(st)
    policy.act(obs, mask, rng)
    start = time.perf_counter()
    for _ in range(repeats):
        policy.act(obs, mask, rng)
    wall = time.perf_counter() - start
    return BenchResult(name, "infer", batch, batch * repeats, 0, wall, wall, 0.0)


def format_table(results: list[BenchResult]) -> str:
    header = (f"{'game':<30} {'face':<13} {'B':>5} {'decisions/s':>12} {'env-only/s':>12} {'policy %':>9} "
              f"{'games/s':>10}")
    lines = [header, "-" * len(header)]
    for r in results:
        pol = 100.0 * r.policy_seconds / max(r.seconds, 1e-12)
        lines.append(f"{r.game:<30} {r.face:<13} {r.batch:>5} {r.decisions_per_s:>12,.0f} "
                     f"{r.env_decisions_per_s:>12,.0f} {pol:>8.1f}% {r.games_per_s:>10,.1f}")
    return "\n".join(lines)


def format_ratios(ours: list[BenchResult], peers: list[BenchResult]) -> str:
    """Each of our measurements as a multiple of each peer's decisions/s (same process, same run)."""
    if not peers:
        return "no peers measured"
    cols = [p.game + ("+obs" if p.face.endswith("+obs") else "") for p in peers]
    head = f"{'ours':<26}" + "".join(f"{c:>20}" for c in cols)
    lines = [head, "-" * len(head)]
    for r in ours:
        if r.face not in ("aec", "core"):
            continue
        label = f"{r.game} {r.face}" + (f" B={r.batch}" if r.face == "core" else "")
        lines.append(f"{label:<26}" + "".join(f"{r.decisions_per_s / p.decisions_per_s:>19.1f}x" for p in peers))
    return "\n".join(lines)
