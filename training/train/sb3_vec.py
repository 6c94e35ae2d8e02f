"""An SB3 ``VecEnv`` over :class:`~yuugi.envs.faces.vector.SelfPlayBatch` (needs stable-baselines3, so it lives in
``training``: ``envs`` imports only the runtime dependencies).

``action_masks()`` (and ``env_method("action_masks")``, which sb3-contrib's MaskablePPO calls)
returns the learner's legal actions. Finished episodes reset in the same step, as SB3 expects,
with ``infos[i]["terminal_observation"]``, and as SB3's ``Monitor`` does, ``infos[i]["episode"] =
{"r": return, "l": length}`` for a finished episode (so ``ep_rew_mean`` is logged without a Monitor).
``auto_skip=True``: learner decisions with one legal action are taken by the env (not shown).
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from yuugi.envs.core.errors import CallError
from yuugi.envs.core.game import BatchGame
from yuugi.envs.faces.vector import OpponentSpec, SelfPlayBatch


class SB3SelfPlayVecEnv(VecEnv):
    def __init__(self, game: BatchGame, num_envs: int, opponents: OpponentSpec,
                 learner_seat: int | str = "rotate", seed: int = 0, auto_skip: bool = False) -> None:
        self.batch = SelfPlayBatch(game, num_envs, opponents, learner_seat, seed, auto_skip)
        self.render_mode = None  # SB3 asks; a batch of thousands of games is not rendered
        super().__init__(num_envs, game.observation_space, gymnasium.spaces.Discrete(game.num_actions))
        self._actions: np.ndarray | None = None
        self._seed: int | None = None

    def reset(self) -> np.ndarray:
        if self._seed is not None:
            self.batch.reseed(self._seed)
            self._seed = None
        obs, _ = self.batch.reset()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise CallError("step_wait() needs the actions of step_async(actions) first (or call step(actions))")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, extra = self.batch.step(actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for row, env_i in enumerate(extra.get("final_envs", ())):
            infos[env_i]["terminal_observation"] = extra["final_obs"][row]
            infos[env_i]["TimeLimit.truncated"] = bool(truncated[env_i] and not terminated[env_i])
            infos[env_i]["episode"] = {"r": float(extra["episode_return"][row]),
                                       "l": int(extra["episode_length"][row])}
        return obs, rewards, terminated | truncated, infos

    def action_masks(self) -> np.ndarray:
        return self.batch.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[None | int]:
        self._seed = seed
        return [seed] * self.num_envs

    def close(self) -> None:
        pass

    # ---- the VecEnv attribute plumbing (one shared batch, so every index answers the same) ----
    def _indices(self, indices: Any) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        idx = list(self._indices(indices))
        if method_name == "action_masks":
            return list(self.action_masks()[idx])
        result = getattr(self, method_name)(*args, **kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)
