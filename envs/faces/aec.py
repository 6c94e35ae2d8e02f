"""A PettingZoo ``AECEnv`` over any :class:`~yuugi.envs.core.game.BatchGame` (a batch of one game).

There is no rules code here: every decision is the core's ``legal_mask``/``step``/``observe``
on a batch of size 1 (a step is one fused kernel call, ``step_fused``, that also writes the next legal
mask and the observation of the seat to play). Observations follow PettingZoo's classic-env convention:
``{"observation": float32[...], "action_mask": int8[A]}``; the mask is also in ``infos``.
"""
from __future__ import annotations

from typing import Any, Mapping

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from yuugi.envs.core.errors import ActionTypeError, CallError, IllegalActionError, NotResetError, OptionError
from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.faces.rendering import RENDER_MODES, render_batch_of_one

_SEED_LIMIT = 2**64
# reset(options=...): "position" starts from a position dict, "setup" is the game's per-episode setup
# (one mapping, e.g. {"decks": ("D1", "sealed")}; see BatchGame.init).
RESET_OPTIONS = ("position", "setup")


class BatchAECEnv(AECEnv):
    """The raw AEC environment of a game. Illegal actions raise ``IllegalActionError``.

    ``auto_skip=True`` (off by default): a decision with exactly one legal action is taken by the
    env itself, right after the step (or reset) that led to it, until a real choice or the end; the
    rewards of those forced steps are added to the step's. Their observations are never shown, so an
    agent sees only the decisions where it has a choice.

    Before the first ``reset()``, and after a ``reset()`` that failed (a bad position, say), every
    call that needs a game raises :class:`NotResetError` ("call reset() first").
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2, "is_parallelizable": False}

    def __init__(self, game: BatchGame, render_mode: str | None = None, auto_skip: bool = False) -> None:
        super().__init__()
        if not isinstance(auto_skip, (bool, np.bool_)):
            raise OptionError(f"auto_skip must be True or False, got {auto_skip!r}")
        self.auto_skip = bool(auto_skip)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.metadata = dict(self.metadata, name=f"{game.name}_v0")
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = list(game.agent_names)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_box = game.observation_space
        mask_box = gymnasium.spaces.Box(0, 1, (game.num_actions,), np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": obs_box, "action_mask": mask_box}) for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self.state_batch: State | None = None  # None until a reset succeeds
        self._selection = self.possible_agents[0]
        self._agents: list[str] = []
        self._seed_rng = np.random.default_rng()
        # One fused kernel call per step (apply the action, write the next legal mask and the observation
        # of the seat to play) into buffers the env owns; observe() hands out copies.
        self._action_buf = np.zeros(1, dtype=np.int64)
        self._mask_buf = np.zeros((1, game.num_actions), dtype=bool)
        self._obs_buf = np.zeros((1, *game.observation_space.shape), dtype=game.observation_space.dtype)
        self._obs_fresh = False  # _obs_buf holds the observation of the seat to play in the current state

    # Properties so that use before reset says so, here and through PettingZoo's wrappers (which
    # read these two first in step, last and agent_iter).
    @property  # type: ignore[override]
    def agent_selection(self) -> str:
        if self.state_batch is None:
            raise NotResetError("agent_selection was read")
        return self._selection

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        self._selection = agent

    @property  # type: ignore[override]
    def agents(self) -> list[str]:
        if self.state_batch is None:
            raise NotResetError("agents was read")
        return self._agents

    @agents.setter
    def agents(self, agents: list[str]) -> None:
        self._agents = agents

    def _require_reset(self, what: str) -> State:
        if self.state_batch is None:
            raise NotResetError(what)
        return self.state_batch

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # ---- lifecycle ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        options = dict(options or {})
        if isinstance(options.get("options"), Mapping):  # reset(options={"options": {...}}): one level too deep
            raise OptionError(f"reset(options={{'options': {{...}}}}) nests the options one level too deep: pass "
                              f"reset(options={{...}}) with the keys {list(RESET_OPTIONS)}")
        # PettingZoo's api_test checks that reset takes ``options`` by passing {"options": 1}: that probe
        # is not a user's option, so it is not warned about (a nested mapping is refused above).
        unknown = sorted(set(options) - set(RESET_OPTIONS) - {"options"})
        if unknown:
            # Arbitrary reset options cannot be errors (PettingZoo's tools pass their own); say so.
            gymnasium.logger.warn(f"ignoring unknown reset option(s) {unknown}; reset understands {list(RESET_OPTIONS)}")
        if "position" in options and options.get("setup"):
            raise OptionError("reset options 'position' and 'setup' exclude each other: a position is already set up")
        # Nothing of the old game survives a reset, even a failed one: the env is unusable until the
        # next successful reset (PettingZoo's wrappers have already cleared their own state by now).
        self.state_batch = None
        if seed is not None:
            if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < _SEED_LIMIT:
                raise CallError(f"seed must be None or an integer 0..2**64-1, got {seed!r}")
            seed_rng = np.random.default_rng(int(seed))
        else:
            seed_rng = self._seed_rng
        game_seed = int(seed_rng.integers(0, 2**63 - 1))
        if "position" in options:
            new_state = self.game.from_position(options["position"], seed=game_seed)
        else:
            new_state = self.game.init(np.array([game_seed], dtype=np.uint64), options.get("setup"))
        self._seed_rng = seed_rng
        self.state_batch = new_state
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._obs_fresh = False
        self._mask_buf[:] = self.game.legal_mask(new_state)
        self._sync_after_step()
        if self.auto_skip:
            forced = self._skip_forced()
            if forced is not None:
                self.rewards = {a: float(forced[self._seat[a]]) for a in self._agents}
                self._sync_after_step()
                self._accumulate_rewards()

    def _mask_for(self, agent: str) -> np.ndarray:
        """The agent's action mask: a fresh copy for the agent to act, all zeros for the others."""
        if self._seat[agent] != int(self.state_batch.to_play[0]) or self.state_batch.done[0]:
            return self._no_actions
        return self._mask_int8.copy()

    def _sync_after_step(self) -> None:
        """Agents, masks and flags from the state, once ``_mask_buf`` holds its legal mask."""
        st = self.state_batch
        self._mask = self._mask_buf[0]
        self._mask_int8 = self._mask.view(np.int8)  # bool and int8 share their 0/1 bytes
        if not hasattr(self, "_no_actions"):
            self._no_actions = np.zeros(self.game.num_actions, dtype=np.int8)
            self._no_actions.flags.writeable = False  # shared by every waiting agent
        self._selection = self.possible_agents[int(st.to_play[0])]  # (the properties' checks are for callers)
        self.infos = {a: {"action_mask": self._mask_for(a)} for a in self._agents}
        if st.terminated[0] or st.truncated[0]:
            for a in self._agents:
                self.terminations[a] = bool(st.terminated[0])
                self.truncations[a] = bool(st.truncated[0])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state_batch
        if state is None:
            raise NotResetError(f"observe({agent!r}) was called")
        try:
            seat = self._seat[agent]
        except KeyError:
            raise CallError(f"unknown agent {agent!r}; agents: {self.possible_agents}") from None
        if self._obs_fresh and seat == state.to_play[0]:
            obs = self._obs_buf[0].copy()  # the step wrote it; the next step overwrites the buffer
        else:
            obs = self.game.observe(state, seat)[0]
        return {"observation": obs, "action_mask": self._mask_for(agent)}

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._require_reset("agent_iter() was called")
        return super().agent_iter(max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.state_batch is None:
            raise NotResetError("last() was called")
        return super().last(observe)

    def step(self, action: int | None) -> None:
        if self.state_batch is None:
            raise NotResetError("step() was called")
        agent = self._selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        if type(action) is not int:  # plain ints skip the checks (the common case)
            action = self.action_index(action)
        if not (0 <= action < self.game.num_actions and self._mask[action]):  # the mask is cached
            self.check_in_range(action)
            raise IllegalActionError(0, action, self.game.action_label(action))
        self._cumulative_rewards[agent] = 0.0
        self._action_buf[0] = action
        self.game.step_fused(self.state_batch, self._action_buf, self._mask_buf, self._obs_buf)
        self._obs_fresh = True
        step_rewards = self.state_batch.rewards[0]
        if self.auto_skip:
            step_rewards = step_rewards.copy()  # the forced steps below overwrite the state's rewards
            forced = self._skip_forced()
            if forced is not None:
                step_rewards += forced
        self.rewards = {a: float(step_rewards[self._seat[a]]) for a in self._agents}
        self._sync_after_step()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _skip_forced(self) -> np.ndarray | None:
        """Take every decision with one legal action; the rewards they earned (None if none was taken)."""
        st = self.state_batch
        earned = None
        while not st.done[0] and self._mask_buf[0].sum() == 1:
            self._action_buf[0] = self._mask_buf[0].argmax()
            self.game.step_fused(st, self._action_buf, self._mask_buf, self._obs_buf)
            self._obs_fresh = True
            earned = st.rewards[0].copy() if earned is None else earned + st.rewards[0]
        return earned

    def action_index(self, action: Any) -> int:
        """``action`` as an int if it is a Python or numpy integer (or a 0-d integer array, as SB3's
        ``predict`` returns for one observation); :class:`ActionTypeError` otherwise (bool, float, str,
        and arrays with a dimension: ``np.array([3])`` is a batch of actions, not an action)."""
        if type(action) is int:
            return action
        if isinstance(action, np.integer):
            return int(action)
        if isinstance(action, np.ndarray) and action.dtype.kind in "iu" and action.ndim == 0:
            return int(action)
        if isinstance(action, np.ndarray) and action.dtype.kind in "iu":
            err = ActionTypeError(action, self.game.num_actions)
            # ActionTypeError's own text speaks of dtypes; an integer array's problem is its shape.
            err.args = (f"an array of shape {action.shape} is a batch of actions; the AEC env takes one action, "
                        f"an integer 0..{self.game.num_actions - 1} (pass int(a[0]) or a.item())",)
            raise err
        raise ActionTypeError(action, self.game.num_actions)

    def check_in_range(self, action: int) -> None:
        """:class:`IllegalActionError` naming ``action`` and the range unless it is 0..num_actions-1."""
        if not 0 <= action < self.game.num_actions:
            raise IllegalActionError(0, action, "out of range",
                                     f"actions are 0..{self.game.num_actions - 1} ({self.game.name} has "
                                     f"{self.game.num_actions})")

    # ---- people ------------------------------------------------------------------------------
    def render(self) -> str | None:
        # Without a render mode there is nothing to draw, so no reset is needed to say so.
        state = None if self.render_mode is None else self._require_reset("render() was called")
        return render_batch_of_one(self.game, state, self.render_mode)

    def state(self) -> dict[str, Any]:
        """The full (omniscient) position as a JSON-safe dict, e.g. for centralised critics."""
        return self.game.to_position(self._require_reset("state() was called"), 0)

    def close(self) -> None:
        pass


class IntegerActionWrapper(BaseWrapper):
    """Refuses actions that are not integers (bool, float, str) with :class:`ActionTypeError`, and
    integers outside the action space with :class:`IllegalActionError` naming the range.

    For the wrapped env (``env()``): PettingZoo's ``AssertOutOfBoundsWrapper`` and
    ``TerminateIllegalWrapper`` would otherwise see them first (``True`` passes ``Discrete.contains``
    and then indexes the mask as a boolean, failing with a numpy error that names nothing; an index
    out of range fails PettingZoo's bare ``assert``). A legal-range integer that is not legal here is
    still ``TerminateIllegalWrapper``'s business (the game ends, the offender gets -1).
    """

    def step(self, action: Any) -> None:
        if action is not None:
            raw = self.env.unwrapped
            if type(action) is not int:
                action = raw.action_index(action)
            if not raw.terminations.get(raw.agent_selection) and not raw.truncations.get(raw.agent_selection):
                raw.check_in_range(action)
        self.env.step(action)
