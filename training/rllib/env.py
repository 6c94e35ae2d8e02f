"""RLlib's multi-agent env face over the batched core: one env runner steps N games in one call.

RLlib's :class:`~ray.rllib.env.multi_agent_env_runner.MultiAgentEnvRunner` samples a
``VectorMultiAgentEnv``: a list of sub-envs, each a multi-agent episode, stepped together. Its own
``SyncVectorMultiAgentEnv`` loops over N separate env objects; :class:`BatchedGameEnv` is instead
one :class:`~yuugi.envs.core.game.BatchGame` state of N games, so a step is one ``game.step`` over the
batch, one ``observe`` and one ``legal_mask``, whatever N. :class:`BatchedEnvRunner` is the env
runner that builds it (``config.env_runners(env_runner_cls=BatchedEnvRunner)``).

Each game is a turn-based multi-agent episode whose agents are the game's seats (``agent_names``:
``hojo``/``ashikaga`` in nigejozu): only the seat to play gets an observation, a dict of
``observations`` (the game's floats) and ``action_mask`` (1.0 where legal, RLlib's action-masking
convention). Every seat is paid every step (zero mostly); the step that ends a game gives
every seat its last observation and reward and ``__all__`` done, as RLlib's turn-based examples do.
A finished game is replaced on the next step (RLlib's ``next_step`` autoreset). Episode seeds have
the top bit set, so no training game shares a seed with an evaluation game (those are below 2**56).
"""
from __future__ import annotations

from typing import Any, Mapping

import gymnasium
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.vector.vector_multi_agent_env import VectorMultiAgentEnv

from yuugi.envs import make_game
from yuugi.envs.core.game import BatchGame
from yuugi.envs.core.rng import splitmix64

TRAINING_SEED_BIT = np.uint64(1 << 63)


def agent_spaces(game: BatchGame) -> tuple[gymnasium.spaces.Dict, gymnasium.spaces.Discrete]:
    """One seat's observation (the game's floats and the legal-action mask) and action space."""
    obs = gymnasium.spaces.Dict({
        "observations": game.observation_space,
        "action_mask": gymnasium.spaces.Box(0.0, 1.0, (game.num_actions,), np.float32),
    })
    return obs, gymnasium.spaces.Discrete(game.num_actions)


class SeatTable(MultiAgentEnv):
    """The agents and spaces of one game, as RLlib's episodes and module builders read them.

    The games are stepped by :class:`BatchedGameEnv`, never one by one: ``reset`` and ``step``
    here say so.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        game = config.get("built") or make_game(config["game"], **dict(config.get("rules") or {}))
        self.possible_agents = list(game.agent_names)
        self.agents = list(self.possible_agents)
        obs, act = agent_spaces(game)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> Any:
        raise NotImplementedError("a SeatTable is stepped by BatchedGameEnv (use BatchedEnvRunner)")

    def step(self, action_dict: dict) -> Any:
        raise NotImplementedError("a SeatTable is stepped by BatchedGameEnv (use BatchedEnvRunner)")


class BatchedGameEnv(VectorMultiAgentEnv):
    """``num_envs`` games of ``game`` (name and rule options) as one RLlib vector multi-agent env."""

    def __init__(self, game: str, rules: Mapping[str, Any] | None, num_envs: int) -> None:
        super().__init__()
        self.game = make_game(game, **dict(rules or {}))
        self.num_envs = int(num_envs)
        table = SeatTable({"built": self.game})
        self.envs = [table] * self.num_envs  # RLlib reads each sub-env's agents and spaces; they are all alike
        self.agent_ids = list(self.game.agent_names)
        self.single_observation_spaces = dict(table.observation_spaces)
        self.single_action_spaces = dict(table.action_spaces)
        self.single_observation_space = gymnasium.spaces.Dict(self.single_observation_spaces)
        self.single_action_space = gymnasium.spaces.Dict(self.single_action_spaces)
        self.metadata = {"autoreset_mode": "next_step"}
        self.state = None
        self.base_seed = np.uint64(0)
        self.episodes = np.zeros(self.num_envs, dtype=np.uint64)
        self._finished = np.zeros(self.num_envs, dtype=bool)

    # ---- seeds -----------------------------------------------------------------------------
    def _seeds(self, rows: np.ndarray) -> np.ndarray:
        """A fresh seed per row: a hash of (run seed, row, episode count of the row), top bit set."""
        seeds = splitmix64(splitmix64(self.base_seed + rows.astype(np.uint64)) ^ self.episodes[rows])
        self.episodes[rows] += np.uint64(1)
        return seeds | TRAINING_SEED_BIT

    # ---- the vector env API RLlib calls ------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[list, list]:
        if seed is not None:
            self.base_seed = np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF)
            self.episodes[:] = 0
        elif self.state is None:
            self.base_seed = np.uint64(int(np.random.SeedSequence().entropy) & 0xFFFFFFFFFFFFFFFF)
        rows = np.arange(self.num_envs)
        self.state = self.game.init(self._seeds(rows))
        self._finished[:] = False
        obs, mask = self._observe()
        return [self._to_play(i, obs, mask) for i in rows], [{} for _ in rows]

    def step(self, actions: list[dict]) -> tuple[list, list, list, list, list]:
        st = self.state
        game = self.game
        restart = np.flatnonzero(self._finished)
        playing = ~self._finished
        chosen = np.zeros(self.num_envs, dtype=np.int64)
        names = self.agent_ids
        to_play = st.to_play
        for i in np.flatnonzero(playing):
            chosen[i] = actions[i][names[to_play[i]]]
        game.step(st, chosen, playing)
        if restart.size:
            st.put(restart, game.init(self._seeds(restart)))
            st.rewards[restart] = 0.0
        ended = playing & st.done
        self._finished = ended
        obs, mask = self._observe()
        observations, rewards, terminateds, truncateds = [], [], [], []
        rew = st.rewards
        for i in range(self.num_envs):
            if ended[i]:
                observations.append(self._last_observations(i))
                rewards.append({a: float(rew[i, p]) for p, a in enumerate(names)})
                term = bool(st.terminated[i])
                terminateds.append({**{a: term for a in names}, "__all__": term})
                truncateds.append({**{a: not term for a in names}, "__all__": not term})
                continue
            observations.append(self._to_play(i, obs, mask))
            # Every seat is paid every step (zero mostly): RLlib wants a reward for each agent it observes.
            rewards.append({a: float(rew[i, p]) for p, a in enumerate(names)} if playing[i] else {})
            terminateds.append({"__all__": False})
            truncateds.append({"__all__": False})
        return observations, rewards, terminateds, truncateds, [{} for _ in range(self.num_envs)]

    # ---- observations -----------------------------------------------------------------------
    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        st = self.state
        obs = self.game.observe(st, st.to_play)
        mask = self.game.legal_mask(st).astype(np.float32)
        return obs, mask

    def _to_play(self, i: int, obs: np.ndarray, mask: np.ndarray) -> dict[str, Any]:
        return {self.agent_ids[self.state.to_play[i]]: {"observations": obs[i], "action_mask": mask[i]}}

    def _last_observations(self, i: int) -> dict[str, Any]:
        """Every seat's view of finished game ``i`` (no legal actions)."""
        one = self.state.take([i])
        none = np.zeros(self.game.num_actions, dtype=np.float32)
        return {a: {"observations": self.game.observe(one, p)[0], "action_mask": none}
                for p, a in enumerate(self.agent_ids)}


class BatchedEnvRunner(MultiAgentEnvRunner):
    """RLlib's multi-agent env runner over one :class:`BatchedGameEnv` of ``num_envs_per_env_runner`` games.

    ``config.env_config`` holds ``game`` and ``rules``.
    """

    def make_env(self) -> None:
        if getattr(self, "env", None) is not None:
            self.env.close()
        cfg = dict(self.config.env_config)
        self.env = BatchedGameEnv(cfg["game"], cfg.get("rules"), self.config.num_envs_per_env_runner)
        self.num_envs = self.env.num_envs
        self._needs_initial_reset = True
        self._episodes_created = 0

    def _new_episode(self, env_index, episodes=None):
        """RLlib's new episode, with an id counted per runner instead of its random ``uuid4``.

        The policy mapping seats the learner by a hash of the episode id, so a random id would make
        which seat the learner plays, and so the whole run, differ between two runs of one seed.
        """
        episodes = episodes if episodes is not None else self._ongoing_episodes
        super()._new_episode(env_index, episodes)
        episodes[env_index].id_ = f"{self.worker_index:04x}{self._episodes_created:012x}"
        self._episodes_created += 1
