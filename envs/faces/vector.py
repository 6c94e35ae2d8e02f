"""Self-play over a batch of N games: the learner plays one seat per game, policies play the rest.

:class:`SelfPlayBatch` holds the machinery shared by the two faces: after each learner action the
other seats are advanced in batches (one opponent call per round, over every game waiting on an
opponent) until each game is back at a learner decision or over; finished games are reset at once
with a fresh seed (same-step autoreset: the final observation is reported in ``infos``).

Faces: :class:`GymSelfPlayVectorEnv` (a Gymnasium ``VectorEnv``, the mask in ``infos``) here, and
:class:`yuugi.training.train.sb3_vec.SB3SelfPlayVecEnv` (an SB3 ``VecEnv`` with ``action_masks()`` for
sb3-contrib's MaskablePPO), which lives under ``training/`` because it needs the train extra.
"""
from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from yuugi.envs.core.errors import CallError, NotResetError, OptionError
from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.core.options import check_int, is_integer
from yuugi.envs.core.rng import splitmix64
from yuugi.envs.faces.rollout import ActingPolicy, rollout


# The opponent: one policy for every non-learner seat, or a pool of policies (each episode draws one).
OpponentSpec = ActingPolicy | Sequence[ActingPolicy]


class _ForcedAction:
    """Plays the one legal action of a decision that has exactly one (the auto-skip option)."""

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return mask.argmax(axis=1).astype(np.int64)


class SelfPlayBatch:
    """N games of ``game``; the learner's seat in each game is fixed or rotates per episode.

    ``learner_seat``: an int, or ``"rotate"`` (episode k of env i plays seat (i + k) mod P).
    ``opponents``: one policy, or a sequence of policies; with a sequence each episode draws one
    policy for all its non-learner seats (a pool of snapshots, for instance).
    ``auto_skip``: the learner's decisions with exactly one legal action are taken by the batch
    itself (their rewards go to the learner's next step); the learner never sees their observations.
    """

    def __init__(self, game: BatchGame, num_envs: int, opponents: OpponentSpec,
                 learner_seat: int | str = "rotate", seed: int = 0, auto_skip: bool = False) -> None:
        if not isinstance(auto_skip, (bool, np.bool_)):
            raise OptionError(f"auto_skip must be True or False, got {auto_skip!r}")
        num_envs = check_int("num_envs", num_envs, 1)
        if not (isinstance(learner_seat, str) and learner_seat == "rotate") and not (
                is_integer(learner_seat) and 0 <= learner_seat < game.num_players):
            raise OptionError(f"learner_seat must be a seat number 0..{game.num_players - 1} or 'rotate', "
                              f"got {learner_seat!r}")
        self.game = game
        self.num_envs = num_envs
        self.pool = _opponent_pool(opponents)
        self.auto_skip = bool(auto_skip)
        self._forced = _ForcedAction()  # plays the learner's forced decisions under auto_skip
        self.learner_seat_mode = learner_seat if isinstance(learner_seat, str) else int(learner_seat)
        self.reseed(seed)

    def reseed(self, seed: int) -> None:
        self.seed = check_int("seed", seed, 0, 2**64 - 1)
        self.rng = np.random.default_rng(self.seed)
        self.episodes = np.zeros(self.num_envs, dtype=np.int64)
        self.learner = np.zeros(self.num_envs, dtype=np.int64)
        self.opponent_of = np.zeros(self.num_envs, dtype=np.int64)
        self.episode_return = np.zeros(self.num_envs, dtype=np.float64)  # the learner's, this episode
        self.episode_length = np.zeros(self.num_envs, dtype=np.int64)  # the learner's decisions
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
        self.episode_return[:] = 0.0
        self.episode_length[:] = 0
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
        """Let the opponents act in ``envs`` until each is at a learner decision or over (in place)."""
        st = self.state
        in_envs = np.zeros(self.num_envs, dtype=bool)
        in_envs[envs] = True
        players = [*self.pool, self._forced]  # read now: a trainer may grow the pool between steps
        forced = len(self.pool)

        def acting(state: State) -> np.ndarray:
            waiting = in_envs & ~state.done
            opponent = waiting & (state.to_play != self.learner)
            if self.auto_skip:
                learner = waiting & ~opponent
                if learner.any():
                    opponent |= learner & (self.game.legal_mask(state).sum(axis=1) == 1)
            return opponent

        def policy_of(rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
            return np.where(seats == self.learner[rows], forced, self.opponent_of[rows])

        def add_rewards(rows: np.ndarray, finished: np.ndarray) -> None:
            self.pending_reward[rows] += st.rewards[rows, self.learner[rows]]

        rollout(self.game, st, players, policy_of, self.rng, acting=acting, after_round=add_rewards)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Learner actions for every env -> obs, rewards, terminated, truncated, infos (same-step reset).

        ``infos``: where episodes ended, ``final_envs`` (their indices), ``final_obs`` (their last
        observations, one row each), ``episode_return`` and ``episode_length`` (the learner's).
        """
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
        self.episode_return += rewards
        self.episode_length += 1
        terminated, truncated = st.terminated.copy(), st.truncated.copy()
        infos: dict[str, Any] = {}
        done = (terminated | truncated).nonzero()[0]
        if done.size:
            infos["final_obs"] = self.game.observe(st.take(done), self.learner[done])
            infos["final_envs"] = done
            infos["episode_return"] = self.episode_return[done].copy()
            infos["episode_length"] = self.episode_length[done].copy()
            self.episode_return[done] = 0.0
            self.episode_length[done] = 0
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

    Gymnasium 1.x conventions (``metadata["autoreset_mode"]`` is ``SAME_STEP``): when an episode
    ends, the returned observation already belongs to the next episode; ``infos["final_obs"]`` is an
    object array with the last observation at the rows that ended (``None`` elsewhere) and
    ``infos["_final_obs"]`` the bool mask of those rows. Finished episodes are also reported as
    Gymnasium's ``RecordEpisodeStatistics`` does: ``infos["episode"] = {"r": returns, "l": lengths}``
    (the learner's return and number of decisions, zero elsewhere) with the mask ``infos["_episode"]``.
    ``auto_skip=True``: learner decisions with one legal action are taken by the env (their rewards go
    to the next step) and their observations are not shown.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(self, game: BatchGame, num_envs: int, opponents: OpponentSpec,
                 learner_seat: int | str = "rotate", seed: int = 0, auto_skip: bool = False,
                 render_mode: str | None = None) -> None:
        if render_mode not in (None, "rgb_array"):
            raise OptionError(f"render_mode must be 'rgb_array' or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.batch = SelfPlayBatch(game, num_envs, opponents, learner_seat, seed, auto_skip)
        self.num_envs = num_envs
        self.single_observation_space = game.observation_space
        self.single_action_space = gymnasium.spaces.Discrete(game.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)  # seeds the spaces' and the env's np_random as Gymnasium expects
        if seed is not None:
            self.batch.reseed(seed)
        obs, masks = self.batch.reset()
        return obs, {"action_mask": masks}

    def render(self) -> tuple[np.ndarray, ...] | None:
        """With ``render_mode="rgb_array"``: one picture per env, each from its learner's seat."""
        if self.render_mode != "rgb_array":
            return None
        from yuugi.envs.pictures import picture  # drawn only when asked: it needs the pictures extra

        st = self.batch._require_reset("render() was called")
        return tuple(picture(self.batch.game, st, i, int(self.batch.learner[i])) for i in range(self.num_envs))

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        obs, rewards, terminated, truncated, extra = self.batch.step(actions)
        infos: dict[str, Any] = {"action_mask": self.batch.action_masks()}
        if "final_envs" in extra:
            ended = extra["final_envs"]
            final_obs = np.full(self.num_envs, None, dtype=object)
            for row, env_i in enumerate(ended):
                final_obs[env_i] = extra["final_obs"][row]
            mask = np.zeros(self.num_envs, dtype=bool)
            mask[ended] = True
            returns = np.zeros(self.num_envs, dtype=np.float64)
            lengths = np.zeros(self.num_envs, dtype=np.int64)
            returns[ended], lengths[ended] = extra["episode_return"], extra["episode_length"]
            infos.update(final_obs=final_obs, _final_obs=mask, episode={"r": returns, "l": lengths},
                         _episode=mask.copy())
        return obs, rewards, terminated, truncated, infos
