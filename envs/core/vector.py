"""Self-play over a batch of N games: the learner plays one seat per game, policies play the rest.

:class:`SelfPlayBatch` holds the machinery shared by the two faces: after each learner action the
other seats are advanced in batches (one opponent call per round, over every game waiting on an
opponent) until each game is back at a learner decision or over; finished games are reset at once
with a fresh seed (same-step autoreset: the final observation is reported in ``infos``).

Faces: :class:`GymSelfPlayVectorEnv` (a Gymnasium ``VectorEnv``, the mask in ``infos``) and, when
stable-baselines3 is installed, :class:`envs.core.sb3_vec.SB3SelfPlayVecEnv` (an SB3 ``VecEnv``
with ``action_masks()`` for sb3-contrib's MaskablePPO).
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from .errors import CallError, NotResetError, OptionError
from .game import BatchGame, State
from .options import check_int, is_integer
from .rng import splitmix64


class ActingPolicy(Protocol):
    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray: ...


# The opponent: one policy for every non-learner seat, or a function (game indices, seats) -> policy index.
OpponentSpec = ActingPolicy | Sequence[ActingPolicy]


class SelfPlayBatch:
    """N games of ``game``; the learner's seat in each game is fixed or rotates per episode.

    ``learner_seat``: an int, or ``"rotate"`` (episode k of env i plays seat (i + k) mod P).
    ``opponents``: one policy, or a sequence of policies; with a sequence each episode draws one
    policy for all its non-learner seats (a pool of snapshots, for instance).
    """

    def __init__(self, game: BatchGame, num_envs: int, opponents: OpponentSpec,
                 learner_seat: int | str = "rotate", seed: int = 0) -> None:
        num_envs = check_int("num_envs", num_envs, 1)
        if not (isinstance(learner_seat, str) and learner_seat == "rotate") and not (
                is_integer(learner_seat) and 0 <= learner_seat < game.num_players):
            raise OptionError(f"learner_seat must be a seat number 0..{game.num_players - 1} or 'rotate', "
                              f"got {learner_seat!r}")
        self.game = game
        self.num_envs = num_envs
        self.pool = _opponent_pool(opponents)
        self.learner_seat_mode = learner_seat if isinstance(learner_seat, str) else int(learner_seat)
        self.reseed(seed)

    def reseed(self, seed: int) -> None:
        self.seed = check_int("seed", seed, 0, 2**64 - 1)
        self.rng = np.random.default_rng(self.seed)
        self.episodes = np.zeros(self.num_envs, dtype=np.int64)
        self.learner = np.zeros(self.num_envs, dtype=np.int64)
        self.opponent_of = np.zeros(self.num_envs, dtype=np.int64)
        self.state: State | None = None
        self._mask: np.ndarray | None = None

    def _episode_seeds(self, envs: np.ndarray) -> np.ndarray:
        base = np.uint64(self.seed & 0xFFFFFFFFFFFFFFFF)
        return splitmix64(splitmix64(base + envs.astype(np.uint64)) ^ self.episodes[envs].astype(np.uint64))

    def _new_episodes(self, envs: np.ndarray) -> State:
        if self.learner_seat_mode == "rotate":
            self.learner[envs] = (envs + self.episodes[envs]) % self.game.num_players
        else:
            self.learner[envs] = int(self.learner_seat_mode)
        self.opponent_of[envs] = self.rng.integers(0, len(self.pool), size=len(envs))
        fresh = self.game.init(self._episode_seeds(envs))
        self.episodes[envs] += 1
        return fresh

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        envs = np.arange(self.num_envs)
        self.episodes[:] = 0
        self.state = self._new_episodes(envs)
        self.pending_reward = np.zeros(self.num_envs, dtype=np.float32)
        self._mask = None
        self._advance_opponents(envs)
        return self.observe(), self.action_masks()

    def _require_reset(self, what: str) -> State:
        if self.state is None:
            raise NotResetError(what)
        return self.state

    def observe(self) -> np.ndarray:
        return self.game.observe(self._require_reset("observe() was called"), self.learner)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (cached until the next step)."""
        if self._mask is None:
            self._mask = self.game.legal_mask(self._require_reset("action_masks() was called"))
        return self._mask

    def _advance_opponents(self, envs: np.ndarray) -> None:
        """Let the opponents act in ``envs`` until each is at a learner decision or over."""
        st = self.state
        while True:
            waiting = envs[~st.done[envs] & (st.to_play[envs] != self.learner[envs])]
            if waiting.size == 0:
                return
            sub = st.take(waiting)
            seats = sub.to_play.astype(np.int64)
            obs = self.game.observe(sub, seats)
            mask = self.game.legal_mask(sub)
            actions = np.zeros(len(waiting), dtype=np.int64)
            for k in np.unique(self.opponent_of[waiting]):
                rows = self.opponent_of[waiting] == k
                actions[rows] = self.game.action_array(self.pool[k].act(obs[rows], mask[rows], self.rng))
            self.game.validate(sub, actions, np.ones(len(waiting), dtype=bool), mask)  # policies must stay legal
            full = np.zeros(self.num_envs, dtype=np.int64)
            full[waiting] = actions
            active = np.zeros(self.num_envs, dtype=bool)
            active[waiting] = True
            self.game.step(st, full, active, check=False)  # checked against the mask just above
            self.pending_reward[waiting] += st.rewards[waiting, self.learner[waiting]]

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Learner actions for every env -> obs, rewards, terminated, truncated, infos (same-step reset)."""
        st = self._require_reset("step() was called")
        envs = np.arange(self.num_envs)
        actions = self.game.action_array(actions)
        if actions.shape[0] != self.num_envs:
            raise CallError(f"expected {self.num_envs} actions (one per env), got {actions.shape[0]}")
        self.pending_reward[:] = 0.0
        mask, self._mask = self.action_masks(), None
        self.game.step(st, actions, mask=mask)
        self.pending_reward += st.rewards[envs, self.learner]
        self._advance_opponents(envs)
        rewards = self.pending_reward.copy()
        terminated, truncated = st.terminated.copy(), st.truncated.copy()
        infos: dict[str, Any] = {}
        done = np.flatnonzero(terminated | truncated)
        if done.size:
            infos["final_obs"] = self.game.observe(st.take(done), self.learner[done])
            infos["final_envs"] = done
            st.put(done, self._new_episodes(done))
            self.pending_reward[:] = 0.0
            self._advance_opponents(done)
        return self.observe(), rewards, terminated, truncated, infos


def _opponent_pool(opponents: Any) -> list[ActingPolicy]:
    """The opponents as a non-empty list of policies; OptionError saying what is expected otherwise."""
    expected = "a policy (an object with act(observation, mask, rng) -> actions) or a non-empty list of policies"
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        pool = list(opponents)
        if not pool:
            raise OptionError(f"opponents must hold at least one policy: {expected}")
    else:
        pool = [opponents]
    for i, policy in enumerate(pool):
        if not callable(getattr(policy, "act", None)):
            where = "opponents" if len(pool) == 1 and pool[0] is opponents else f"opponents[{i}]"
            raise OptionError(f"{where} must be {expected}, got {policy!r}")
    return pool


class GymSelfPlayVectorEnv(VectorEnv):
    """Gymnasium vector env over a :class:`SelfPlayBatch`; ``infos["action_mask"]`` holds the masks.

    Same-step autoreset: when an episode ends, the returned observation already belongs to the next
    episode and ``infos["final_obs"]`` (rows of ``infos["final_envs"]``) holds the last one.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: BatchGame, num_envs: int, opponents: OpponentSpec,
                 learner_seat: int | str = "rotate", seed: int = 0) -> None:
        self.batch = SelfPlayBatch(game, num_envs, opponents, learner_seat, seed)
        self.num_envs = num_envs
        self.single_observation_space = gymnasium.spaces.Box(0.0, 1.0, game.observation_shape, np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(game.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self.batch.reseed(seed)
        obs, masks = self.batch.reset()
        return obs, {"action_mask": masks}

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        obs, rewards, terminated, truncated, infos = self.batch.step(actions)
        infos["action_mask"] = self.batch.action_masks()
        return obs, rewards, terminated, truncated, infos


def make_vector_env(game_factory: Callable[[], BatchGame], num_envs: int, opponents: OpponentSpec,
                    **kwargs: Any) -> GymSelfPlayVectorEnv:
    """Convenience: a Gymnasium self-play vector env over a new game instance."""
    return GymSelfPlayVectorEnv(game_factory(), num_envs, opponents, **kwargs)
