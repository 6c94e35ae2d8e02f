"""One benchmark measurement (:class:`BenchResult`), shared by our benchmarks and the peers'.

It lives apart from :mod:`yuugi.training.bench.bench` (our measurements and the ``yuugi bench`` report) and
:mod:`yuugi.training.bench.peers` (the peers' loops) so that each of those imports it, and neither the other's
module to get it.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class BenchResult:
    game: str
    face: str  # "aec", "core" or "vector" (ours), or a peer's loop
    batch: int
    decisions: int
    games: int
    seconds: float
    env_seconds: float
    policy_seconds: float
    threads: int = 1  # the compiled batch kernels' threads (core rows); peers and other faces: 1

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


def time_learning(model: Any, name: str, seconds: float) -> BenchResult:
    """Learner steps per second of an SB3 ``model`` over about ``seconds``, after one warm-up rollout.

    The model gets a logger that writes nowhere (as SB3's own does at ``verbose=0``) but makes no empty
    folder in the temporary directory for each ``learn()`` call.
    """
    from yuugi.training.train.sb3_logger import silent_logger

    model.set_logger(silent_logger())
    model.learn(model.n_steps * model.n_envs)  # warm-up: the first rollout builds everything
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        chunk = model.n_steps * model.n_envs
        model.learn(chunk, reset_num_timesteps=False)
        steps += chunk
    wall = time.perf_counter() - start
    return BenchResult(name, "train", model.n_envs, steps, 0, wall, wall, 0.0)
