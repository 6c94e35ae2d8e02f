"""Warm start: behaviour cloning of a teacher policy (the heuristic) into a MaskablePPO actor.

Self-play PPO from scratch needs long runs to reach a club player's level on these games; cloning
the heuristic first (masked cross-entropy on the teacher's choices, every seat of every game)
gives PPO a competent starting point to improve on.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from agents.policy import Policy
from envs.core.game import BatchGame


def collect(game: BatchGame, teacher: Policy, decisions: int, batch: int = 256, seed: int = 0,
            explore: float = 0.1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(observations, masks, teacher actions) from games the teacher plays against itself.

    With probability ``explore`` a random legal action is played instead (but the teacher's choice
    is still the label), so the data covers positions the teacher would not reach by itself.
    """
    from agents.policy import random_legal

    rng = np.random.default_rng(seed)
    st = game.init(np.arange(batch) + seed * 1_000_003)
    next_seed = batch + seed * 1_000_003
    obs_list, mask_list, act_list = [], [], []
    n = 0
    while n < decisions:
        live = np.flatnonzero(~st.done)
        seats = st.to_play.astype(np.int64)
        obs = game.observe(st, seats)[live]
        mask = game.legal_mask(st)[live]
        label = teacher.act(obs, mask, rng)
        played = np.where(rng.random(len(live)) < explore, random_legal(mask, rng), label)
        obs_list.append(obs)
        mask_list.append(np.packbits(mask, axis=1))
        act_list.append(label)
        n += len(live)
        actions = np.zeros(st.batch_size, dtype=np.int64)
        actions[live] = played
        game.step(st, actions, check=False)
        done = np.flatnonzero(st.done)
        if done.size:
            st.put(done, game.init(np.arange(next_seed, next_seed + done.size)))
            next_seed += done.size
    a = game.num_actions
    masks = np.unpackbits(np.concatenate(mask_list), axis=1, count=a).astype(bool)
    return np.concatenate(obs_list), masks, np.concatenate(act_list)


def clone(model: Any, observations: np.ndarray, masks: np.ndarray, actions: np.ndarray, epochs: int = 3,
          batch_size: int = 1024, lr: float = 1e-3, seed: int = 0) -> list[float]:
    """Fit the model's actor to the teacher's actions; returns the mean loss per epoch."""
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
    return losses
