"""Throughput on Ray: RLlib env-runner sampling with 1 and 2 runners against the single-process vector
face, and distributed evaluation with 1 and 2 workers.

``python -m training.rllib_bench GAME [--envs 256] [--seconds 20] [--rounds 2] [--eval-games 1000]``

Sampling counts decisions of every seat (RLlib's env steps: one per game step) per second of wall
time, summed over runners that sample at the same time; each runner steps ``--envs`` games as one
batch and picks the learner's and the opponents' actions with its RLModules (torch, one thread). The
vector face (:class:`~envs.core.vector.GymSelfPlayVectorEnv`, ``--envs`` games, ``random``
opponents) is stepped with random legal actions for the learner seat, so it times the game alone.
Rounds are interleaved (face, 1 runner, 2 runners, face, ...), as the machine may be shared.
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np


def vector_face_rate(game_name: str, envs: int, seconds: float) -> float:
    """Decisions (all seats) per second of the self-play vector face under random legal play."""
    from agents.policy import RandomPolicy
    from envs import make_game
    from envs.core.vector import GymSelfPlayVectorEnv

    opponent = _CountingRandom()
    env = GymSelfPlayVectorEnv(make_game(game_name), num_envs=envs, opponents=opponent, seed=0)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    learner = RandomPolicy()
    opponent.decisions = 0
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, _, _, info = env.step(learner.act(None, info["action_mask"], rng))
        decisions += envs
    return (decisions + opponent.decisions) / (time.perf_counter() - start)


class _CountingRandom:
    """``random``, counting the decisions it makes (the face does not return the opponents' steps)."""

    def __init__(self) -> None:
        from agents.policy import RandomPolicy

        self.policy, self.decisions = RandomPolicy(), 0

    def act(self, observation: Any, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        self.decisions += len(mask)
        return self.policy.act(observation, mask, rng)


def runner_rate(game_name: str, runners: int, envs: int, seconds: float) -> float:
    """Env steps per second sampled by ``runners`` RLlib env runners at once (Ray must be running)."""
    import ray

    from training.rllib_train import RllibTrainConfig, build_config

    cfg = RllibTrainConfig(game=game_name, workers=runners, envs_per_worker=envs, levels=("random",), snapshots=1)
    algo = build_config(cfg).build_algo()
    try:
        group = algo.env_runner_group
        group.foreach_env_runner(lambda r: r.sample(num_timesteps=envs * 4), local_env_runner=False)  # warm up
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            batches = group.foreach_env_runner(lambda r: sum(e.env_steps() for e in r.sample(num_timesteps=envs * 16)),
                                               local_env_runner=False)
            steps += sum(batches)
        return steps / (time.perf_counter() - start)
    finally:
        algo.stop()
        del ray


def eval_seconds(game_name: str, workers: int, games: int) -> float:
    from training.distributed_eval import evaluate_distributed

    start = time.perf_counter()
    evaluate_distributed(game_name, {"random": "random", "easy": "easy", "normal": "normal"}, games=games,
                         workers=workers)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.rllib_bench")
    p.add_argument("game")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--eval-games", type=int, default=1000)
    args = p.parse_args(argv)
    from training.ray_cluster import start_local

    start_local(num_cpus=3)  # two runners and the driver's local runner may all hold a CPU
    rows: dict[str, list[float]] = {"vector_face": [], "runners_1": [], "runners_2": [], "eval_1": [], "eval_2": []}
    for _ in range(args.rounds):
        rows["vector_face"].append(vector_face_rate(args.game, args.envs, args.seconds))
        rows["runners_1"].append(runner_rate(args.game, 1, args.envs, args.seconds))
        rows["runners_2"].append(runner_rate(args.game, 2, args.envs, args.seconds))
        rows["eval_1"].append(eval_seconds(args.game, 1, args.eval_games))
        rows["eval_2"].append(eval_seconds(args.game, 2, args.eval_games))
    print(json.dumps({k: [round(v, 1) for v in vs] for k, vs in rows.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
