"""Throughput on Ray: RLlib env-runner sampling with 1 and 2 runners against the single-process vector
face, and distributed evaluation with 1 and 2 workers.

``python -m yuugi.training.rllib.bench GAME [--envs 256] [--seconds 20] [--rounds 2] [--eval-games 1000] [--iterations 0]``

Sampling counts decisions of every seat (RLlib's env steps: one per game step) per second of wall
time, summed over runners that sample at the same time; each runner steps ``--envs`` games as one
batch and picks the learner's and the opponents' actions with its RLModules (torch, one thread). The
vector face (:class:`~yuugi.envs.faces.vector.GymSelfPlayVectorEnv`, ``--envs`` games, ``random``
opponents) is stepped with random legal actions for the learner seat, so it times the game alone.
Rounds are interleaved (face, 1 runner, 2 runners, face, ...), as the machine may be shared.
Evaluation is timed locally (no Ray), then on 1 and 2 Ray workers (the round-robin of random, easy
and normal: three pairings of ``--eval-games`` games, in chunks of 500). ``--iterations N`` also
splits N PPO iterations of one runner into sampling and learner time.
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np


def vector_face_rate(game_name: str, envs: int, seconds: float) -> float:
    """Decisions (all seats) per second of the self-play vector face under random legal play."""
    from yuugi.agents.policy import RandomPolicy
    from yuugi.envs import make_game
    from yuugi.envs.faces.vector import GymSelfPlayVectorEnv

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
        from yuugi.agents.policy import RandomPolicy

        self.policy, self.decisions = RandomPolicy(), 0

    def act(self, observation: Any, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        self.decisions += len(mask)
        return self.policy.act(observation, mask, rng)


def runner_rate(game_name: str, runners: int, envs: int, seconds: float) -> float:
    """Env steps per second sampled by ``runners`` RLlib env runners at once (Ray must be running)."""
    import ray

    from yuugi.training.rllib.train import RllibTrainConfig, build_config

    cfg = RllibTrainConfig(game=game_name, workers=runners, envs_per_worker=envs, levels=("random",), snapshots=1,
                           hidden=(128, 128))
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


def iteration_split(game_name: str, envs: int, iterations: int) -> tuple[float, float, float]:
    """One runner, PPO as the tests train it: (seconds sampling, seconds in the learner, env steps) per iteration.

    The learner runs in this process whatever the number of runners: its share is what more machines
    do not shorten.
    """
    from yuugi.training.rllib.train import RllibTrainConfig, build_config

    cfg = RllibTrainConfig(game=game_name, workers=1, envs_per_worker=envs, levels=("random",), snapshots=0,
                           hidden=(256, 256), rollout_length=64, minibatch_size=512, epochs=10)
    algo = build_config(cfg).build_algo()
    try:
        algo.train()  # warm up
        sample = learn = 0.0
        for _ in range(iterations):
            timers = algo.train()["timers"]
            sample += timers["env_runner_sampling_timer"]
            learn += timers["learner_update_timer"]
        return sample / iterations, learn / iterations, float(cfg.rollout_length * envs)
    finally:
        algo.stop()


EVAL_POLICIES = {"random": "random", "easy": "easy", "normal": "normal"}


def eval_seconds(game_name: str, workers: int, games: int) -> float:
    """Wall seconds of the round-robin of random, easy and normal on ``workers`` Ray workers (0: local, no Ray)."""
    from yuugi.training.rllib.distributed_eval import evaluate_distributed
    from yuugi.training.eval.evaluate import evaluate

    start = time.perf_counter()
    if workers == 0:
        evaluate(game_name, dict(EVAL_POLICIES), games=games)
    else:
        evaluate_distributed(game_name, dict(EVAL_POLICIES), games=games, workers=workers)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m yuugi.training.rllib.bench")
    p.add_argument("game")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--eval-games", type=int, default=1000)
    p.add_argument("--iterations", type=int, default=0, help="also time this many PPO iterations (sampling vs learner)")
    args = p.parse_args(argv)
    from yuugi.training.rllib.cluster import start_local

    start_local(num_cpus=3)  # two runners and the driver's local runner may all hold a CPU
    rows: dict[str, list[float]] = {"vector_face": [], "runners_1": [], "runners_2": [], "eval_local_s": [],
                                    "eval_1_s": [], "eval_2_s": []}
    for _ in range(args.rounds):
        rows["vector_face"].append(vector_face_rate(args.game, args.envs, args.seconds))
        rows["runners_1"].append(runner_rate(args.game, 1, args.envs, args.seconds))
        rows["runners_2"].append(runner_rate(args.game, 2, args.envs, args.seconds))
        rows["eval_local_s"].append(eval_seconds(args.game, 0, args.eval_games))
        rows["eval_1_s"].append(eval_seconds(args.game, 1, args.eval_games))
        rows["eval_2_s"].append(eval_seconds(args.game, 2, args.eval_games))
    if args.iterations:
        sample, learn, env_steps = iteration_split(args.game, args.envs, args.iterations)
        rows["ppo_iteration"] = [sample, learn, env_steps]  # seconds sampling, seconds learning, env steps
    print(json.dumps({k: [round(v, 2) for v in vs] for k, vs in rows.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
