"""The policies a search is built from, by name: ``normal`` (the heuristic), ``hard`` (the shipped
network whose spaces fit the game being played) or ``random``; and the candidate actions a guide
proposes.

A *guide* proposes the candidates and its first choice is the reference the search must beat; a
*rollout policy* plays every seat from the candidate's position to the end. A network guide ranks
the legal actions by its logits in one call and drops the ones it gives little probability
(``prune``), so a decision the network is sure of costs no rollouts at all; a heuristic guide is
asked again with its favourite masked out (:func:`yuugi.agents.search.candidates.preferred_actions`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from yuugi.agents.policy import Policy, RandomPolicy
from yuugi.agents.search.candidates import preferred_actions
from yuugi.envs.core.errors import OptionError
from yuugi.envs.core.game import BatchGame

POLICY_NAMES = ("normal", "hard", "random")


def check_policy_name(role: str, spec: Any) -> None:
    """ValueError unless ``spec`` is a policy name of :data:`POLICY_NAMES` or a policy object."""
    if isinstance(spec, str) and spec not in POLICY_NAMES:
        raise ValueError(f"{role} must be one of {', '.join(POLICY_NAMES)} or a policy, got {spec!r}")


def hard_for(game: BatchGame) -> Policy:
    """The shipped ``hard`` network whose signature fits ``game`` (a built game: its player count and spaces)."""
    from yuugi.agents import weights_format
    from yuugi.agents.mlp import MLPPolicy
    from yuugi.agents.shipped import shipped_weights

    for path in shipped_weights(game.name):
        signature = weights_format.read_signature(path)
        if weights_format.fits(signature, game):
            return MLPPolicy.load(path, game=game, name=f"{game.name}_hard")
    raise OptionError(f"no shipped hard weights fit {game.name} with {game.num_players} players; "
                      f"use the guide/rollout 'normal' or train them with `yuugi train {game.name}`")


def resolve(spec: Any, game: BatchGame, heuristic: Policy) -> Policy:
    """The policy ``spec`` names for ``game`` (a policy object is returned as it is)."""
    if not isinstance(spec, str):
        return spec
    check_policy_name("policy", spec)
    if spec == "normal":
        return heuristic
    if spec == "random":
        return RandomPolicy()
    return hard_for(game)


def candidates(guide: Policy, observation: np.ndarray, mask: np.ndarray, top_n: int, prune: float,
               rng: np.random.Generator) -> np.ndarray:
    """int64[B, top_n]: each row's candidate actions, the guide's first choice first, -1 past the last.

    A guide with ``logits`` (a network) ranks the legal actions by them; a candidate after the first
    is kept only when its softmax probability is at least ``prune``. Other guides give their first
    ``top_n`` preferences.
    """
    if not callable(getattr(guide, "logits", None)):
        return preferred_actions(guide, observation, mask, top_n, rng)
    logits = np.where(mask, guide.logits(observation, mask).astype(np.float64), -np.inf)
    order = np.argsort(-logits, axis=1, kind="stable")[:, :top_n]
    top = np.take_along_axis(logits, order, axis=1)
    prob = np.exp(top - top[:, :1]) / np.exp(logits - top[:, :1]).sum(axis=1, keepdims=True)
    keep = np.isfinite(top) & (prob >= prune)
    keep[:, 0] = True  # a live row has a legal action: the guide's choice
    return np.where(keep, order, -1).astype(np.int64)
