"""Potential-based reward shaping for training (opt-in): ``r' = r + γ·Φ(s') − Φ(s)``.

Shaping by the difference of a potential over states leaves the optimal policies unchanged (Ng,
Harada & Russell, 1999) while it pays progress as it happens instead of only at the end of a long
game. Here ``s`` and ``s'`` are the learner's consecutive decisions (the opponents' moves in between
are part of the step), ``Φ`` is read from the learner's own observation, and a finished game's last
state has ``Φ = 0``: over a game the discounted shaping terms then sum to ``−Φ(s₀)``, a constant of the
learner's first decision that no action of the learner changes (in ninja_slayer it is 0 unless the
opponent, moving first, burned the learner before that decision), so every game's discounted shaped
return is its discounted terminal reward minus ``Φ(s₀)``.

Potentials, by game (``POTENTIALS``); each maps a batch of learner observations to float64[B]:

* ``ninja_slayer``: ``(damage in the opponent's zone − damage in mine) / 10`` (a player loses at 10),
  from the observation's per-seat face-up and face-down damage counts.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

Potential = Callable[[np.ndarray], np.ndarray]


def ninja_slayer_damage_potential(observation: np.ndarray) -> np.ndarray:
    """float64[B]: (the opponent's damage − mine) / 10 from ninja_slayer learner observations."""
    from yuugi.agents.heuristics.ninja_slayer_view import _DMG_DOWN, _DMG_UP, offsets_for_width

    obs = np.asarray(observation, dtype=np.float32)
    counts = obs[:, offsets_for_width(obs.shape[1])["counts"]].reshape(len(obs), 2, 8)  # [B, me/them, 8]
    damage = np.rint((counts[:, :, _DMG_UP] + counts[:, :, _DMG_DOWN]) * 10.0)
    return (damage[:, 1] - damage[:, 0]) / 10.0


POTENTIALS: dict[str, Potential] = {"ninja_slayer": ninja_slayer_damage_potential}


def potential_for(game: str) -> Potential:
    if game not in POTENTIALS:
        raise ValueError(f"{game}: no shaping potential; games with one: {sorted(POTENTIALS)}")
    return POTENTIALS[game]


class ShapedRewardVecEnv(VecEnvWrapper):
    """Adds ``scale · (γ·Φ(s') − Φ(s))`` to every reward of an SB3 ``VecEnv`` (``Φ = 0`` once a game ends).

    Wrap the game's own ``VecEnv`` (its observations are what ``potential`` reads). ``infos`` pass
    through untouched, so ``infos[i]["episode"]["r"]`` stays the unshaped return.
    """

    def __init__(self, venv: VecEnv, potential: Potential, gamma: float, scale: float = 1.0) -> None:
        super().__init__(venv)
        self.potential = potential
        self.gamma = float(gamma)
        self.scale = float(scale)
        self.last = np.zeros(self.num_envs)

    def reset(self) -> np.ndarray:
        obs = self.venv.reset()
        self.last = self.scale * self.potential(obs)
        return obs

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, dones, infos = self.venv.step_wait()
        dones = np.asarray(dones, dtype=bool)
        now = self.scale * self.potential(obs)  # for a finished env: the next game's first state
        after = np.where(dones, 0.0, now)  # the finished game's last state has Φ = 0
        shaped = np.asarray(rewards, dtype=np.float64) + self.gamma * after - self.last
        self.last = now
        return obs, shaped.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()  # type: ignore[attr-defined]
