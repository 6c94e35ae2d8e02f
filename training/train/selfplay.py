"""Self-play training with sb3-contrib's MaskablePPO on the vector face, and export to numpy.

The learner's seat rotates per episode; its opponents are drawn per episode from a pool that holds
the heuristic and the latest snapshots of the learner itself. Training starts from a behaviour-
cloned copy of the heuristic (see :mod:`yuugi.training.train.imitation`), stops at a step or wall-clock budget,
shows progress, writes the learning curve (CSV and PNG) and exports the actor to ``.npz``.
A run's files are named after the run (``TrainConfig.name``, by default ``<game>_seed<seed>``), never
after a shipped level: ``<name>.npz`` (the exported actor) and ``<name>.json`` (its record). It also
saves the whole SB3 model (actor, value net and optimizer state) as ``<name>_sb3.zip``
(:mod:`yuugi.training.train.sb3_checkpoint`): ``init_from`` that file continues the run with its value net,
while ``init_from`` an exported ``.npz`` starts a fresh one. Interrupted (Ctrl-C), it closes the
progress bar and saves a checkpoint instead (``checkpoints/<name>_<steps>.npz`` with the full
training record, and the whole model beside it as ``.zip``).

Where a game has an action prior (``TRAIN_PRIORS``; nigejozu, whose heuristic's one-step
soft-battle lookahead a plain MLP does not learn to match in a 40-minute budget), the policy is
prior-guided instead (:mod:`yuugi.training.train.prior_policy`): it starts as the heuristic itself, with no
cloning, and PPO learns the corrections.
"""
from __future__ import annotations

import csv
import json
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from yuugi.agents.registry import heuristic
from yuugi.envs import make_game
from yuugi.envs.spec import SPECS, as_dict

# Per game, from its registry entry (yuugi.envs.spec.GameSpec): the rule options training plays under
# (daifugō learns on single games, symmetric loadouts), the action prior (yuugi.agents.priors) its policy is
# guided by (TrainConfig.prior="game" picks it), and the TrainConfig settings (TrainConfig.for_game)
# that the shipped weights were trained with.
TRAIN_RULES: dict[str, dict[str, Any]] = {name: as_dict(spec.train_rules) for name, spec in SPECS.items()
                                         if spec.train_rules}
TRAIN_PRIORS: dict[str, str] = {name: spec.train_prior for name, spec in SPECS.items() if spec.train_prior}
TRAIN_DEFAULTS: dict[str, dict[str, Any]] = {name: as_dict(spec.train_defaults) for name, spec in SPECS.items()
                                            if spec.train_defaults}


@dataclass
class TrainConfig:
    game: str
    total_steps: int = 200_000
    minutes: float | None = None  # wall-clock budget of the whole run (cloning takes at most half of it)
    seed: int = 0
    num_envs: int = 64
    n_steps: int = 64  # per env, per PPO update
    batch_size: int = 1024
    n_epochs: int = 4
    learning_rate: float = 1e-4
    target_kl: float | None = None  # stop an update's epochs early past this KL divergence from the policy before it
    ent_coef: float = 0.005
    net_arch: tuple[int, ...] = (256, 256)
    bc_decisions: int = 200_000  # behaviour cloning of the heuristic first (0 = from scratch)
    bc_epochs: int = 4
    snapshot_every: int = 50_000
    curve_every: int = 10_000  # learner steps between points of the learning curve
    pool_size: int = 4  # snapshots kept besides the heuristic (0: the heuristic is the only opponent)
    gamma: float = 0.99
    rules: dict[str, Any] = field(default_factory=dict)
    progress: bool = True
    # Continue a run instead of cloning the heuristic: its <game>_sb3.zip (actor, value net, optimizer)
    # or exported weights (.npz: the actor alone, with a fresh value net).
    init_from: str | None = None
    # Clone recorded decisions (yuugi.training.train.distill: a search's choices; one file or several) before PPO,
    # instead of the heuristic's.
    bc_data: str | tuple[str, ...] | None = None
    prior: str = "game"  # an yuugi.agents.priors name, "game" (TRAIN_PRIORS' choice for the game) or "none"
    prior_gain: float = 4.0  # initial logits per prior unit (see yuugi.training.train.prior_policy)
    prior_head: str = "full"  # "full" (a learned A×A map of the prior) or "diagonal" (one gain per action)
    # Potential-based reward shaping (yuugi.training.train.shaping): r + γΦ(s') − Φ(s) with Φ = shaping × the game's
    # potential (ninja_slayer: damage dealt − taken, /10). 0 = off: the terminal reward alone.
    shaping: float = 0.0
    vf_net_arch: tuple[int, ...] | None = None  # the value network's hidden layers (None: net_arch)
    curve_live: bool = False  # also append each curve point to <out>/<name>_curve_live.csv as it is made
    # The run's name, which its files carry (<out>/<name>.npz, ...); None: <game>_seed<seed>. Never the
    # name of a shipped level: a user's weights must not read as the project's.
    name: str | None = None
    tensorboard: str | None = None  # a folder for TensorBoard logs (SB3's, plus the win rate per update); None: none

    @classmethod
    def for_game(cls, game: str, **overrides: Any) -> "TrainConfig":
        """``TRAIN_DEFAULTS[game]`` under ``overrides`` (rule options are merged key by key)."""
        settings = {**TRAIN_DEFAULTS.get(game, {}), **overrides}
        settings["rules"] = {**TRAIN_DEFAULTS.get(game, {}).get("rules", {}), **overrides.get("rules", {})}
        return cls(game=game, **settings)

    def run_name(self) -> str:
        """What this run's files are called: ``name``, or ``<game>_seed<seed>``."""
        return self.name or f"{self.game}_seed{self.seed}"

    def prior_name(self) -> str | None:
        name = TRAIN_PRIORS.get(self.game) if self.prior == "game" else self.prior
        return None if name in (None, "none") else name


def _curve_png(rows: list[dict[str, float]], path: Path, title: str) -> None:
    # A Figure of its own, without pyplot: switching pyplot's backend here (to draw without a display)
    # would stop a notebook that trains from showing its own plots afterwards.
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3.5))
    ax = fig.subplots()
    steps = np.array([r["steps"] for r in rows])
    reward = np.array([r["mean_reward"] for r in rows])
    if len(rows) >= 50:  # a long run: the raw points faintly, and a running mean over 25 of them
        ax.plot(steps, reward, color="tab:blue", alpha=0.25, linewidth=0.8)
        ax.plot(steps[24:], np.convolve(reward, np.ones(25) / 25, mode="valid"), color="tab:blue",
                label="running mean (25 points)")
        ax.legend(loc="lower right")
    else:
        ax.plot(steps, reward, marker=".")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("mean episode reward (learner)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def load_actor(model: Any, path: str | Path, game: Any = None, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """Copy exported actor weights into ``model``'s policy network; returns their metadata.

    With ``game`` (the built game being trained, under ``rules``) the weights must be made for it.
    """
    import torch

    from yuugi.agents.mlp import MLPPolicy

    src = MLPPolicy.load(path, game=game, rules=rules)
    if src.prior != getattr(model.policy, "prior_name", None):
        raise ValueError(f"{path}: its action prior {src.prior!r} differs from the model's")
    layers = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    layers.append(model.policy.action_net)
    if len(layers) != len(src.weights) or any(tuple(l.weight.shape) != w.T.shape for l, w in zip(layers, src.weights)):
        raise ValueError(f"{path}: the network shape does not match net_arch")
    with torch.no_grad():
        for layer, w, b in zip(layers, src.weights, src.biases):
            if hasattr(layer, "load_linear"):  # a DiagonalPriorHead
                layer.load_linear(w, b)
                continue
            layer.weight.copy_(torch.as_tensor(w.T))
            layer.bias.copy_(torch.as_tensor(b))
    return src.meta


def _hide_tqdm_rich_warning() -> None:
    """SB3's progress bar is tqdm's rich bar, which warns "rich is experimental/alpha" on every run."""
    try:
        from tqdm import TqdmExperimentalWarning
    except ImportError:  # pragma: no cover - tqdm comes with the train extra
        return
    warnings.filterwarnings("ignore", category=TqdmExperimentalWarning)


def _clone_recorded(model: Any, cfg: TrainConfig, game: Any, prior: str | None) -> tuple[list[float], dict[str, Any]]:
    """Clone the decisions recorded in ``cfg.bc_data`` into ``model``'s actor (the prior appended to
    each observation, as the learner sees it); returns the losses and what was cloned."""
    from yuugi.training.train.distill import load_many
    from yuugi.training.train.imitation import clone

    files = [cfg.bc_data] if isinstance(cfg.bc_data, str) else list(cfg.bc_data)
    obs, masks, actions, recorded = load_many(files, game)
    if prior is not None:
        from yuugi.agents.priors import make_prior

        obs = np.concatenate([obs, make_prior(prior)(obs, masks)], axis=1)
    losses = clone(model, obs, masks, actions, epochs=cfg.bc_epochs, seed=cfg.seed)
    keep = ("games", "seed", "opponent", "expert", "command")
    return losses, {"files": [str(f) for f in files], "decisions": int(len(actions)),
                    "recorded": [{k: meta[k] for k in keep if k in meta} for meta in recorded]}


# Of a time budget, what is kept for the work after PPO stops (export, the whole model, the curve):
# a tenth, at most this many seconds.
FINISH_RESERVE_S = 10.0


def train(cfg: TrainConfig, out_dir: str | Path, started: float | None = None) -> dict[str, Any]:
    """Train, export ``<out_dir>/<name>.npz`` with its metadata (``<name>.json``), and write the learning
    curve (``<name>_curve.csv``/``.png``); ``<name>`` is ``cfg.run_name()``.

    ``cfg.minutes`` bounds the whole run from ``started`` (a ``time.perf_counter()`` reading; default: now,
    so a command can count its own start-up too): cloning ends by half of it, PPO stops early enough to
    leave time for the files."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from yuugi.training.train.sb3_vec import SB3SelfPlayVecEnv
    from yuugi.training.train.export import policy_from_model
    from yuugi.training.train.imitation import clone, collect
    from yuugi.training.train.sb3_checkpoint import is_model_file, load_model, save_model
    from yuugi.training.train.sb3_logger import silent_logger
    from yuugi.training.train.talk import RunReport, clock

    # The budget covers the whole run: building, cloning, PPO and writing the files.
    start = time.perf_counter() if started is None else started
    budget = None if cfg.minutes is None else 60.0 * cfg.minutes
    deadline = None if budget is None else start + budget - min(FINISH_RESERVE_S, budget / 10)
    clone_deadline = None if budget is None else start + budget / 2  # cloning leaves PPO half the time at least
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = cfg.run_name()
    rules = {**TRAIN_RULES.get(cfg.game, {}), **cfg.rules}
    game = make_game(cfg.game, **rules)
    teacher = heuristic(cfg.game, **rules)
    env = SB3SelfPlayVecEnv(game, cfg.num_envs, [teacher], learner_seat="rotate", seed=cfg.seed)
    prior = cfg.prior_name()
    if cfg.bc_data and (cfg.init_from or cfg.bc_decisions > 0):
        raise ValueError("bc_data is the policy's start: it excludes init_from and bc_decisions (set it to 0)")
    if prior is not None and cfg.bc_decisions > 0 and not cfg.init_from:
        raise ValueError(f"{cfg.game}: behaviour cloning and the action prior {prior!r} are two different starts; "
                         "set bc_decisions=0 (the policy starts as its prior) or prior='none'")
    policy_class: Any = "MlpPolicy"
    net_arch: Any = list(cfg.net_arch)
    if cfg.vf_net_arch is not None:  # the value net is not exported: it may be smaller than the actor
        net_arch = {"pi": list(cfg.net_arch), "vf": list(cfg.vf_net_arch)}
    policy_kwargs: dict[str, Any] = {"net_arch": net_arch}
    learner_env: Any = env
    if cfg.shaping:
        from yuugi.training.train.shaping import ShapedRewardVecEnv, potential_for

        learner_env = ShapedRewardVecEnv(env, potential_for(cfg.game), cfg.gamma, cfg.shaping)
    if prior is not None:
        from yuugi.agents.priors import make_prior
        from yuugi.training.train.prior_policy import PriorMaskablePolicy, PriorObsVecEnv

        learner_env = PriorObsVecEnv(learner_env, make_prior(prior))
        policy_class = PriorMaskablePolicy
        policy_kwargs.update(prior_name=prior, prior_gain=cfg.prior_gain, prior_head=cfg.prior_head)
    model = MaskablePPO(policy_class, learner_env, n_steps=cfg.n_steps, batch_size=cfg.batch_size,
                        n_epochs=cfg.n_epochs, learning_rate=cfg.learning_rate, ent_coef=cfg.ent_coef,
                        target_kl=cfg.target_kl, gamma=cfg.gamma, seed=cfg.seed, verbose=0,
                        policy_kwargs=policy_kwargs, tensorboard_log=cfg.tensorboard)
    if cfg.tensorboard is None:  # (with TensorBoard, SB3 makes its logger in that folder)
        model.set_logger(silent_logger())
    report = RunReport(cfg.progress, start)
    per_update = cfg.n_steps * cfg.num_envs
    limit = f"{cfg.total_steps:,} learner steps" + (f" or {clock(budget)} of wall time for the whole run, "
                                                     "whichever comes first" if budget is not None else "")
    report.say(f"yuugi train {cfg.game}: run {name!r} -> {out / name}.npz; stops at {limit}")
    bc_losses: list[float] = []
    bc_record: dict[str, Any] = {}
    previous: dict[str, Any] = {}
    curve: list[dict[str, float]] = []
    checkpoints = out / "checkpoints"  # every snapshot, exported (numpy weights), named by learner steps

    def checkpoint(policy: Any) -> Path:
        checkpoints.mkdir(exist_ok=True)  # made with its first file: an interrupted start leaves no empty folder
        path = checkpoints / f"{name}_{int(model.num_timesteps):09d}.npz"
        policy.save(path)
        return path

    class Snapshots(BaseCallback):
        """Adds learner snapshots to the opponent pool, records the curve, tells each update's results,
        enforces the time budget."""

        def __init__(self) -> None:
            super().__init__()
            self.finished: list[float] = []
            self.this_update: list[float] = []  # returns of the games finished since the last update
            self.updates = 0
            self.next_snapshot = cfg.snapshot_every
            self.next_point = cfg.curve_every

        def _results(self) -> str:
            """The learner's results in the games finished since the last line (and forgets them)."""
            got = np.array(self.this_update)
            self.this_update = []
            if not got.size:
                return "no game finished since the last line"
            won = float((got > 0).mean())
            self.logger.record("rollout/win_rate", won)  # TensorBoard, beside SB3's own ep_rew_mean
            return f"ep_rew_mean {got.mean():+.3f}  won {won:.0%} of {got.size} games (return > 0)"

        def _on_rollout_end(self) -> None:
            """An update is about to learn from this rollout: say how the learner did in it."""
            self.updates += 1
            report.say(f"[{clock(time.perf_counter() - start)}] update {self.updates}  steps {self.num_timesteps:,}  "
                       f"{self._results()}")

        def last_line(self) -> None:
            """The games of the rollout the run stopped in (a budget can end a run before its first update)."""
            if self.this_update:
                report.say(f"[{clock(time.perf_counter() - start)}] stopped at {self.num_timesteps:,} steps, "
                           f"since the last update: {self._results()}")

        def _on_step(self) -> bool:
            # The env's own episode returns: the game's reward, without any shaping.
            returns = [info["episode"]["r"] for info in self.locals["infos"] if "episode" in info]
            self.finished.extend(returns)
            self.this_update.extend(returns)
            report.advance(int(self.num_timesteps))
            if self.num_timesteps >= self.next_snapshot:
                self.next_snapshot += cfg.snapshot_every
                snap = policy_from_model(self.model, {"game": cfg.game, "rules": rules, "steps": self.num_timesteps,
                                                      "seed": cfg.seed}, game, rules)
                checkpoint(snap)
                snap.deterministic = False
                pool = env.batch.pool
                if cfg.pool_size > 0:
                    pool.append(snap)
                    if len(pool) > cfg.pool_size + 1:
                        del pool[1]  # keep the heuristic at index 0 and the latest snapshots
            if self.num_timesteps >= self.next_point and self.finished:
                self.next_point += cfg.curve_every
                curve.append({"steps": float(self.num_timesteps), "mean_reward": float(np.mean(self.finished)),
                              "episodes": float(len(self.finished)), "seconds": time.perf_counter() - start})
                self.finished = []
                if cfg.curve_live:  # each point as it comes (a long run can be watched; a killed one keeps it)
                    with open(out / f"{name}_curve_live.csv", "a") as f:
                        f.write(",".join(f"{curve[-1][k]:.6g}" for k in ("steps", "mean_reward", "episodes",
                                                                          "seconds")) + "\n")
            if deadline is not None and time.perf_counter() > deadline:
                return False
            return True

        def flush_curve(self) -> None:
            """The games finished since the last point: a last point, so that a short run has a curve too."""
            if self.finished:
                curve.append({"steps": float(self.num_timesteps), "mean_reward": float(np.mean(self.finished)),
                              "episodes": float(len(self.finished)), "seconds": time.perf_counter() - start})
                self.finished = []

    interrupted = False
    phase = "starting"
    snapshots = Snapshots()
    opponents = "the heuristic" + (f" and up to {cfg.pool_size} snapshots of itself" if cfg.pool_size else "")
    with warnings.catch_warnings():
        _hide_tqdm_rich_warning()
        try:
            if cfg.init_from and is_model_file(cfg.init_from):  # actor, value net and optimizer
                previous = load_model(model, cfg.init_from, cfg.game, prior)
                report.say(f"continuing from {cfg.init_from} (actor, value net and optimizer)")
            elif cfg.init_from:
                previous = load_actor(model, cfg.init_from, game, rules)
                report.say(f"continuing from {cfg.init_from} (the actor; a fresh value net)")
            elif cfg.bc_data:
                phase = "cloning the recorded decisions"
                report.phase(f"{phase}: {cfg.bc_data}", None)
                bc_losses, bc_record = _clone_recorded(model, cfg, game, prior)
            elif cfg.bc_decisions > 0:
                phase = "recording the heuristic's decisions"
                share = " (within half of the time budget)" if budget is not None else ""
                report.phase(f"{phase}: {cfg.bc_decisions:,} decisions to clone{share}", cfg.bc_decisions)
                obs, masks, actions = collect(game, teacher, cfg.bc_decisions, seed=cfg.seed, deadline=clone_deadline,
                                              on_progress=report.advance)
                if len(actions) < cfg.bc_decisions:
                    report.say(f"  half of the time budget reached: cloning {len(actions):,} decisions")
                phase = "cloning the heuristic"
                report.phase(f"{phase}: {len(actions):,} decisions, {cfg.bc_epochs} epochs", cfg.bc_epochs)

                def epoch_done(epoch: int, loss: float) -> None:
                    report.advance(epoch)
                    report.say(f"  epoch {epoch}: loss {loss:.4f}")

                bc_losses = clone(model, obs, masks, actions, epochs=cfg.bc_epochs, seed=cfg.seed,
                                  deadline=clone_deadline, on_epoch=epoch_done)
                del obs, masks, actions
            phase = "PPO"
            guide = f" guided by the action prior {prior!r}" if prior else ""
            report.phase(f"PPO: MaskablePPO{guide} against {opponents}; a line per update "
                         f"({per_update:,} learner steps)", cfg.total_steps)
            model.learn(cfg.total_steps, callback=snapshots, tb_log_name=name)
            snapshots.last_line()
        except KeyboardInterrupt:
            interrupted = True
        finally:
            report.close()
    snapshots.flush_curve()
    wall = time.perf_counter() - start
    algorithm = (f"MaskablePPO (sb3-contrib) guided by the action prior {prior!r}" if prior
                 else "MaskablePPO (sb3-contrib) after behaviour cloning of the heuristic")
    if cfg.bc_data:
        algorithm += ", after behaviour cloning of recorded search decisions (yuugi.training.train.distill)"
    meta = {"game": cfg.game, "rules": rules, "steps": int(model.num_timesteps), "wall_time_s": round(wall, 1),
            "seed": cfg.seed, "prior": prior, "algorithm": algorithm,
            "config": {k: v for k, v in asdict(cfg).items() if k not in ("rules", "progress")},
            "bc_losses": [round(x, 4) for x in bc_losses]}
    if bc_record:
        meta["bc_data"] = bc_record
    if cfg.shaping:
        meta["reward_shaping"] = (f"potential-based: r + {cfg.gamma}·Φ(s') − Φ(s), Φ = {cfg.shaping} × "
                                  f"yuugi.training.train.shaping.POTENTIALS[{cfg.game!r}] (0 at a game's end)")
    if previous:  # a continued run: totals over every stage, and the earlier stages themselves
        meta["stages"] = previous.get("stages", [{k: previous[k] for k in ("steps", "wall_time_s", "seed", "config")
                                                 if k in previous}]) + [
            {"steps": meta["steps"], "wall_time_s": meta["wall_time_s"], "seed": cfg.seed, "config": meta["config"]}]
        meta["steps"] = sum(st["steps"] for st in meta["stages"])
        meta["wall_time_s"] = round(sum(st["wall_time_s"] for st in meta["stages"]), 1)
        meta["bc_losses"] = previous.get("bc_losses", [])
    if interrupted:
        meta["interrupted"] = True
        meta["interrupted_in"] = phase
    policy = policy_from_model(model, meta, game, rules)
    if interrupted:  # a checkpoint, not the run's result: an earlier run's weights in out_dir stay as they are
        saved = checkpoint(policy)
        save_model(model, saved.with_suffix(".zip"), meta)
        return {"weights": str(saved), "model": model, "curve": curve, "meta": meta, "interrupted": True}
    weights = out / f"{name}.npz"
    policy.save(weights)
    save_model(model, out / f"{name}_sb3.zip", meta)  # init_from it continues the value net too
    (out / f"{name}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    with open(out / f"{name}_curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["steps", "mean_reward", "episodes", "seconds"])
        writer.writeheader()
        writer.writerows(curve)
    if curve:
        kind = "prior-guided" if prior else "self-play"
        _curve_png(curve, out / f"{name}_curve.png", f"{name} ({cfg.game}): {kind} MaskablePPO")
    return {"weights": str(weights), "model": model, "curve": curve, "meta": meta, "interrupted": False}
