"""Warm start: behaviour cloning of a teacher policy (the heuristic) into a MaskablePPO actor.

Self-play PPO from scratch needs long runs to reach a club player's level on these games; cloning
the heuristic first (masked cross-entropy on the teacher's choices, every seat of every game)
gives PPO a competent starting point to improve on.
"""
from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from yuugi.agents.policy import Policy, random_legal
from yuugi.envs.core.game import BatchGame
from yuugi.envs.faces.rollout import rollout


class _LabellingTeacher:
    """The teacher, recording what it sees and chooses; it plays a random legal action instead with
    probability ``explore`` (its own choice is still the label)."""

    def __init__(self, teacher: Policy, explore: float) -> None:
        self.teacher, self.explore = teacher, explore
        self.observations: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []  # packed bits: a mask row is thousands of bools
        self.labels: list[np.ndarray] = []
        self.decisions = 0

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        label = self.teacher.act(observation, mask, rng)
        played = np.where(rng.random(len(mask)) < self.explore, random_legal(mask, rng), label)
        self.observations.append(observation)
        self.masks.append(np.packbits(mask, axis=1))
        self.labels.append(label)
        self.decisions += len(mask)
        return played


def collect(game: BatchGame, teacher: Policy, decisions: int, batch: int = 256, seed: int = 0,
            explore: float = 0.1, deadline: float | None = None,
            on_progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(observations, masks, teacher actions) from games the teacher plays against itself.

    With probability ``explore`` a random legal action is played instead (but the teacher's choice
    is still the label), so the data covers positions the teacher would not reach by itself. The
    games are played by :func:`yuugi.envs.faces.rollout.rollout`, finished ones replaced at once by new
    games seeded in order, until at least ``decisions`` are recorded, or until ``time.perf_counter()``
    passes ``deadline`` (fewer decisions then: a run's time budget covers its cloning too).
    ``on_progress(n)`` is told the decisions recorded so far after every round.
    """
    if decisions < 1:
        raise ValueError(f"decisions must be at least 1, got {decisions}")
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(batch) + seed * 1_000_003)
    next_seed = [batch + seed * 1_000_003]
    labelling = _LabellingTeacher(teacher, explore)

    def fresh(finished: np.ndarray) -> Any:
        first = next_seed[0]
        next_seed[0] += finished.size
        return game.init(np.arange(first, first + finished.size))

    def enough(rows: np.ndarray, finished: np.ndarray) -> bool:
        if on_progress is not None:
            on_progress(labelling.decisions)
        return labelling.decisions >= decisions or (deadline is not None and time.perf_counter() > deadline)

    rollout(game, st, [labelling], lambda rows, seats: np.zeros(rows.size, dtype=np.int64), rng,
            replace=fresh, after_round=enough, check=False)
    a = game.num_actions
    masks = np.unpackbits(np.concatenate(labelling.masks), axis=1, count=a).astype(bool)
    return np.concatenate(labelling.observations), masks, np.concatenate(labelling.labels)


def clone(model: Any, observations: np.ndarray, masks: np.ndarray, actions: np.ndarray, epochs: int = 3,
          batch_size: int = 1024, lr: float = 1e-3, seed: int = 0, deadline: float | None = None,
          on_epoch: Callable[[int, float], None] | None = None) -> list[float]:
    """Fit the model's actor to the teacher's actions; returns the mean loss per epoch.

    Stops after the epoch during which ``time.perf_counter()`` passes ``deadline`` (one epoch at least);
    ``on_epoch(epoch, loss)`` is told each finished epoch (1-based)."""
    import torch

    torch.manual_seed(seed)
    policy = model.policy
    params = list(policy.mlp_extractor.policy_net.parameters()) + list(policy.action_net.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    obs_t = torch.as_tensor(observations, dtype=torch.float32)
    mask_t = torch.as_tensor(masks)
    act_t = torch.as_tensor(actions, dtype=torch.int64)
    n = len(act_t)
    losses = []
    gen = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        total = 0.0
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            features = policy.extract_features(obs_t[idx], policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
            logits = logits.masked_fill(~mask_t[idx], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, act_t[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        losses.append(total / n)
        if on_epoch is not None:
            on_epoch(len(losses), losses[-1])
        if deadline is not None and time.perf_counter() > deadline:
            break
    return losses
