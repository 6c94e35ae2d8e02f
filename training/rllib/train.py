"""Self-play PPO on RLlib (new API stack): the learner against frozen snapshots of itself and CPU levels.

The run is one RLlib ``PPO`` algorithm over a multi-agent policy map:

- ``learner``: :class:`~yuugi.training.rllib.modules.MaskedMLPModule`, the only module trained;
- ``snapshot_0`` .. ``snapshot_{k-1}``: the same network, frozen; every ``snapshot_every`` training
  iterations the oldest slot is overwritten with the learner's current weights (all slots start
  as the learner's initial weights);
- ``cpu_<level>``: each shipped CPU level asked for (:class:`~yuugi.training.rllib.modules.CpuLevelModule`).

The policy mapping (:class:`SelfPlayMapping`) gives each episode one learner seat (rotating with
the episode) and one opponent module, drawn uniformly from the snapshots and levels, for every other
seat. Env runners sample :class:`~yuugi.training.rllib.env.BatchedGameEnv` (many games per runner, stepped
as one batch). The learner runs in the driver process; ``workers`` is the number of env runners,
which Ray places on any machine of the cluster. At the end the learner's actor is exported to the
numpy ``.npz`` format (:mod:`yuugi.training.rllib.export`), next to a JSON training record.
"""
from __future__ import annotations

import dataclasses
import json
import time
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

LEARNER = "learner"


@dataclass
class RllibTrainConfig:
    game: str
    rules: dict[str, Any] = field(default_factory=dict)
    total_steps: int = 2_000_000  # learner decisions (upper bound)
    minutes: float | None = None  # wall-clock budget
    seed: int = 0
    workers: int = 1  # env runners (0: sample in the driver process)
    envs_per_worker: int = 256  # games each env runner steps as one batch
    levels: tuple[str, ...] = ("random", "normal")  # CPU levels among the opponents
    snapshots: int = 2  # frozen copies of the learner among the opponents (0: none)
    snapshot_every: int = 10  # training iterations between snapshot refreshes
    # The network and PPO settings that learned nigejozu from scratch in tests/ray (a larger batch per
    # update and a falling learning rate mattered there).
    hidden: tuple[int, ...] = (256, 256)
    activation: str = "tanh"
    rollout_length: int = 64  # env steps per game per training iteration
    minibatch_size: int = 512
    epochs: int = 10
    lr: float = 5e-4
    lr_end: float | None = 1e-5  # lr falls linearly to this over total_steps, then stays (None: constant)
    gamma: float = 0.995
    lambda_: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    vf_coeff: float = 0.5
    grad_clip: float = 0.5
    name: str | None = None  # the run's name, which its files carry (OUT/NAME.npz, NAME.json); None: <game>_rllib

    def run_name(self) -> str:
        return self.name or f"{self.game}_rllib"

    def fitted_to_steps(self, num_players: int) -> "RllibTrainConfig":
        """This config with iterations no larger than the run: an iteration samples ``rollout_length`` steps
        of every game of every runner (every seat's decisions, ``num_players`` per learner decision), so
        ``total_steps=100`` would otherwise sample thousands. Shrinks the rollout, then the games per
        runner, until one iteration holds about ``total_steps`` learner decisions."""
        runners = max(1, self.workers)
        wanted = self.total_steps * num_players  # env steps that hold total_steps learner decisions
        if self.rollout_length * self.envs_per_worker * runners <= wanted:
            return self
        envs = min(self.envs_per_worker, max(1, wanted // runners))
        rollout = max(1, min(self.rollout_length, -(-wanted // (envs * runners))))
        return dataclasses.replace(self, rollout_length=rollout, envs_per_worker=envs)

    def opponents(self) -> list[str]:
        return [f"snapshot_{k}" for k in range(self.snapshots)] + [f"cpu_{lv}" for lv in self.levels]


class SelfPlayMapping:
    """Agent (seat name) -> module id, fixed for an episode: one learner seat, one opponent module.

    The learner's seat and its opponent follow from a hash of the episode id, so both seats of an
    episode agree without shared state (RLlib asks once per agent).
    """

    def __init__(self, agent_ids: list[str], opponents: list[str]) -> None:
        if not opponents:
            raise ValueError("self-play needs at least one opponent: a snapshot or a CPU level")
        self.agent_ids = list(agent_ids)
        self.opponents = list(opponents)

    def __call__(self, agent_id: str, episode: Any, **kwargs: Any) -> str:
        h = zlib.crc32(str(episode.id_).encode())
        players = len(self.agent_ids)
        if self.agent_ids.index(agent_id) == h % players:
            return LEARNER
        return self.opponents[(h // players) % len(self.opponents)]


def check_levels_read_observations(cfg: RllibTrainConfig) -> None:
    """OptionError naming the opponent levels that search from the game state (``expert``, ninja_slayer's
    ``hard``): an RLlib module sees observations only."""
    from yuugi.agents.registry import cpu
    from yuugi.agents.search.dispatch import needs_state
    from yuugi.envs.core.errors import OptionError

    searching = [lv for lv in cfg.levels if needs_state(cpu(cfg.game, lv, **cfg.rules))]
    if searching:
        raise OptionError(f"{cfg.game}'s {', '.join(searching)} search{'es' if len(searching) == 1 else ''} from the "
                          "game state, and an RLlib opponent sees observations only: leave "
                          f"{'it' if len(searching) == 1 else 'them'} out of the levels")


def build_config(cfg: RllibTrainConfig) -> Any:
    """The RLlib ``PPOConfig`` of a run."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from yuugi.envs import make_game
    from yuugi.training.rllib.env import BatchedEnvRunner, SeatTable, agent_spaces
    from yuugi.training.rllib.modules import CpuLevelModule, MaskedMLPModule

    game = make_game(cfg.game, **cfg.rules)
    obs_space, act_space = agent_spaces(game)
    net = {"hidden": list(cfg.hidden), "activation": cfg.activation}
    specs = {LEARNER: RLModuleSpec(module_class=MaskedMLPModule, observation_space=obs_space,
                                   action_space=act_space, model_config=net)}
    for k in range(cfg.snapshots):
        specs[f"snapshot_{k}"] = RLModuleSpec(module_class=MaskedMLPModule, observation_space=obs_space,
                                              action_space=act_space, model_config=net)
    check_levels_read_observations(cfg)
    for i, level in enumerate(cfg.levels):
        specs[f"cpu_{level}"] = RLModuleSpec(
            module_class=CpuLevelModule, observation_space=obs_space, action_space=act_space,
            model_config={"game": cfg.game, "level": level, "rules": cfg.rules, "seed": cfg.seed * 1000 + i})
    # RLlib's schedules count env steps (every seat's decisions); the learner has one seat of num_players
    lr = cfg.lr if cfg.lr_end is None else [[0, cfg.lr], [cfg.total_steps * game.num_players, cfg.lr_end]]
    runners = max(1, cfg.workers)
    batch = cfg.rollout_length * cfg.envs_per_worker * runners
    config = (
        PPOConfig()
        .environment(env=SeatTable, env_config={"game": cfg.game, "rules": cfg.rules}, disable_env_checking=True)
        .env_runners(env_runner_cls=BatchedEnvRunner, num_env_runners=cfg.workers,
                     num_envs_per_env_runner=cfg.envs_per_worker, num_cpus_per_env_runner=1,
                     rollout_fragment_length=cfg.rollout_length)
        .learners(num_learners=0)
        .multi_agent(policies=set(specs), policy_mapping_fn=SelfPlayMapping(list(game.agent_names), cfg.opponents()),
                     policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(train_batch_size_per_learner=batch, minibatch_size=min(cfg.minibatch_size, batch),
                  num_epochs=cfg.epochs, lr=lr, gamma=cfg.gamma, lambda_=cfg.lambda_, clip_param=cfg.clip,
                  entropy_coeff=cfg.entropy, vf_loss_coeff=cfg.vf_coeff, use_kl_loss=False, vf_clip_param=10.0,
                  grad_clip=cfg.grad_clip)
        .debugging(seed=cfg.seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=200)
    )
    return config


def refresh_snapshot(algo: Any, slot: str) -> None:
    """Overwrite the frozen module ``slot`` with the learner's current weights, everywhere.

    The env runners get the weights directly, without a weights sequence number: RLlib's own
    ``sync_weights`` carries the learner's number, which a runner that has just been synced already
    holds, and it would then keep its old snapshot.
    """
    from ray.rllib.core import COMPONENT_RL_MODULE

    state = algo.learner_group.get_state(components=f"learner/rl_module/{LEARNER}")
    weights = state["learner"]["rl_module"][LEARNER]
    algo.learner_group.set_state({"learner": {"rl_module": {slot: weights}}})
    module_state = {COMPONENT_RL_MODULE: {slot: weights}}
    algo.env_runner_group.foreach_env_runner(lambda runner: runner.set_state(module_state), local_env_runner=True)


def learner_steps(result: dict[str, Any]) -> int:
    """The learner's decisions sampled so far (RLlib counts every module's agent steps)."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_AGENT_STEPS_SAMPLED_LIFETIME, \
        NUM_MODULE_STEPS_SAMPLED_LIFETIME

    runners = result.get(ENV_RUNNER_RESULTS, {})
    per_module = runners.get(NUM_MODULE_STEPS_SAMPLED_LIFETIME, {})
    if LEARNER in per_module:
        return int(per_module[LEARNER])
    return int(runners.get(NUM_AGENT_STEPS_SAMPLED_LIFETIME, {}).get(LEARNER, 0))


def train(cfg: RllibTrainConfig, out_dir: str | Path, *, on_iteration: Any = None) -> dict[str, Any]:
    """Run ``cfg`` on the Ray cluster this process is connected to (``ray.init`` first); export the learner.

    Returns ``{"weights": path, "meta": record, "curve": [...]}``; ``on_iteration(iteration, steps,
    result, algo)`` is told about each training iteration (a truthy return stops the run).
    """
    from yuugi.training.rllib.export import export

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    algo = build_config(cfg).build_algo()
    start = time.perf_counter()
    steps, iteration, curve = 0, 0, []
    slots = [f"snapshot_{k}" for k in range(cfg.snapshots)]
    try:
        for slot in slots:  # every snapshot starts as the learner's initial weights
            refresh_snapshot(algo, slot)
        while steps < cfg.total_steps:
            result = algo.train()
            iteration += 1
            steps = learner_steps(result)
            curve.append({"iteration": iteration, "learner_steps": steps,
                          "wall_s": round(time.perf_counter() - start, 1),
                          "learner_return": _learner_return(result)})
            if slots and iteration % cfg.snapshot_every == 0:
                refresh_snapshot(algo, slots[(iteration // cfg.snapshot_every - 1) % len(slots)])
            if on_iteration is not None and on_iteration(iteration, steps, result, algo):
                break
            if cfg.minutes is not None and time.perf_counter() - start >= cfg.minutes * 60:
                break
        wall = time.perf_counter() - start
        meta = {"game": cfg.game, "rules": cfg.rules, "engine": "rllib", "steps": steps, "iterations": iteration,
                "wall_time_s": round(wall, 1), "config": _json_safe(asdict(cfg))}
        path = out / f"{cfg.run_name()}.npz"
        export(algo.get_module(LEARNER), cfg.game, cfg.rules, meta, path)
        (out / f"{cfg.run_name()}.json").write_text(json.dumps({**meta, "curve": curve}, indent=2) + "\n")
    finally:
        algo.stop()
    return {"weights": path, "meta": meta, "curve": curve}


def _learner_return(result: dict[str, Any]) -> float | None:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS

    value = result.get(ENV_RUNNER_RESULTS, {}).get("module_episode_returns_mean", {}).get(LEARNER)
    return None if value is None else round(float(value), 4)


def _json_safe(value: Any) -> Any:
    return json.loads(json.dumps(value, default=list))
