"""A single-agent ``gymnasium.Env`` over any game: the learner plays one seat, given policies the rest.

The shape of RLCard's ``set_agents`` and of the Stable-Baselines3 tutorials::

    import gymnasium
    import yuugi.envs  # registers the ids yuugi/<game>-v0
    env = gymnasium.make("yuugi/nigejozu-v0", opponent="normal")

    from yuugi.seated.single_agent import single_agent
    env = single_agent("nigejozu", opponents="normal", seat="rotate")

There is no rules code here: every decision is the batched core's ``legal_mask``/``step``/``observe``
on a batch of one game. After each learner action the other seats move (each by its policy) until
the learner is to play again or the game is over.

- ``observation_space`` is the game's ``observation_space``, ``action_space`` is ``Discrete(A)``.
- The legal actions are ``action_masks()`` (bool[A], the name sb3-contrib's MaskablePPO looks for)
  and ``info["action_mask"]`` (int8[A], as in the PettingZoo face, so that
  ``env.action_space.sample(info["action_mask"])`` works); both are all zeros once the game is over.
- ``info["seat"]`` is the learner's seat in this episode.
- reward: what the learner's seat earned on its own move and on every opponent move after it.
- ``seat``: a seat number, or ``"rotate"``: a reset with ``seed=s`` plays seat ``s mod P``, each
  reset without a seed the seat after the previous episode's (so ``reset(seed=i)`` over ``i``
  visits every seat, and a seeded reset is reproducible).
- ``reset(seed=s)`` reproduces the episode: the deal and the opponents' choices come from ``s``.
- ``reset(options={"position": ...})`` starts from a position dict (``game.to_position``);
  ``reset(options={"setup": {...}})`` passes the game's per-episode setup to ``init`` (ninja_slayer:
  ``{"decks": ("D1", "sealed")}``).
- ``render_mode``: ``"ansi"`` (the table as text), ``"human"`` (printed after each step) or
  ``"rgb_array"`` (the table drawn from the learner's seat, ``uint8[H, W, 3]``; Gymnasium's
  ``RecordVideo`` records episodes from it; needs ``pip install "yuugi[pictures]"``).
- ``on_illegal``: ``"raise"`` (``single_agent``'s default): an illegal action raises
  :class:`~yuugi.envs.core.errors.IllegalActionError` naming it, and nothing changes; ``"lose"`` (the
  registered ids' default, PettingZoo classic's convention): the episode ends, terminated, with
  reward -1 and ``info["illegal_action"]`` holding the action. Gymnasium's ``check_env`` steps with
  actions drawn from ``action_space`` without a mask, which only an env that answers every action
  in its space can pass.

PettingZoo's SB3 action-mask tutorial wraps an AEC env into a single-agent env with
``pettingzoo.utils.BaseWrapper``. sb3-contrib's ``ActionMasker`` is a ``gymnasium.Wrapper`` and
accepts only a ``gymnasium.Env``: the wrapper class must also subclass ``gymnasium.Env``
(``class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env)``, as the tutorial's
current version does), or ``ActionMasker`` fails with "Expected env to be a gymnasium.Env". That
tutorial trains one model in self-play; for a learner against fixed opponents use this env:
``ActionMasker(single_agent(...), lambda env: env.action_masks())``.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium
import numpy as np


from yuugi.envs.core.errors import CallError, IllegalActionError, NotResetError, OptionError
from yuugi.envs.core.game import BatchGame, State
from yuugi.envs.faces.rendering import RENDER_MODES, render_batch_of_one
from yuugi.envs.core.options import is_integer

__all__ = ["ILLEGAL_MODES", "RenderModeError", "SingleAgentEnv", "make_registered", "single_agent"]

ILLEGAL_MODES = ("raise", "lose")
ILLEGAL_REWARD = -1.0
# A game the learner never gets to act in is no episode for it; this many in a row means the seat never acts.
_MAX_SKIPPED_GAMES = 100


class RenderModeError(OptionError, TypeError):
    """A render mode the env does not have. Also a ``TypeError``: Stable-Baselines3's ``make_vec_env``
    asks every env id for ``render_mode="rgb_array"`` and retries without it on a TypeError."""


class SingleAgentEnv(gymnasium.Env):
    """One seat of ``game`` for a learner; ``opponents[s]`` plays seat ``s`` (see the module doc)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game: BatchGame, opponents: Sequence[Any], seat: int | str = "rotate",
                 render_mode: str | None = None, on_illegal: str = "raise") -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RenderModeError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if on_illegal not in ILLEGAL_MODES:
            raise OptionError(f"on_illegal must be one of {list(ILLEGAL_MODES)}, got {on_illegal!r}")
        self.game = game
        self.num_players = game.num_players
        self.seat_mode = _checked_seat(seat, game.num_players)
        self.opponents = list(opponents)
        self.render_mode = render_mode
        self.on_illegal = on_illegal
        self.metadata = dict(self.metadata, name=f"{game.name}_single_agent_v0")
        self.observation_space = game.observation_space
        self.action_space = gymnasium.spaces.Discrete(game.num_actions)
        self.state: State | None = None  # None until a reset succeeds
        self.seat = self.seat_mode if isinstance(self.seat_mode, int) else 0
        self._mask = np.zeros((1, game.num_actions), dtype=bool)
        self._episode_over = False

    # ---- lifecycle ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        options = dict(options or {})
        unknown = sorted(set(options) - {"position", "setup"})
        if unknown:
            raise OptionError(f"unknown reset option(s) {unknown}; reset understands only 'position' and 'setup'")
        if "position" in options and options.get("setup"):
            raise OptionError("reset options 'position' and 'setup' exclude each other: a position is already set up")
        setup = options.get("setup")
        if setup is not None:
            self.game.validate_setup(setup)  # before anything of the old episode is dropped
        previous_seat = self.seat if self.state is not None else None
        super().reset(seed=seed)
        self.state = None  # a failed reset leaves no game behind
        if self.seat_mode == "rotate":
            if seed is not None:
                self.seat = int(seed) % self.num_players
            elif previous_seat is not None:
                self.seat = (previous_seat + 1) % self.num_players
        if "position" in options:
            state = self.game.from_position(options["position"], seed=self._game_seed())
            self._start(state)
            if self._episode_over:
                self.state = None
                raise OptionError("the position's game is over before the learner's seat acts: nothing to play")
        else:
            for _ in range(_MAX_SKIPPED_GAMES):
                self._start(self.game.init(np.array([self._game_seed()], dtype=np.uint64), setup))
                if not self._episode_over:
                    break
            else:
                self.state = None
                raise CallError(f"seat {self.seat} never got to act in {_MAX_SKIPPED_GAMES} games in a row")
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def _game_seed(self) -> int:
        return int(self.np_random.integers(0, 2**63 - 1))

    def _start(self, state: State) -> None:
        self.state = state
        self._episode_over = False
        self._advance_opponents()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        state = self._require_reset("step() was called")
        if self._episode_over:
            raise CallError("step() after the episode ended: call reset() to start the next one")
        actions = self.game.action_array(action)
        if actions.shape != (1,):
            raise CallError(f"step() takes one action, got {actions.shape[0]}")
        a = int(actions[0])
        if not (0 <= a < self.game.num_actions and self._mask[0, a]):
            label = self.game.action_label(a) if 0 <= a < self.game.num_actions else "out of range"
            if self.on_illegal == "raise":
                raise IllegalActionError(0, a, label, f"not legal for seat {self.seat} here; "
                                                      f"legal: {np.flatnonzero(self._mask[0]).tolist()[:20]}")
            self._episode_over = True
            self._mask = np.zeros_like(self._mask)
            info = self._info()
            info["illegal_action"] = a
            return self._observe(), ILLEGAL_REWARD, True, False, info
        self.game.step(state, actions, check=False, mask=self._mask)  # checked just above
        reward = float(state.rewards[0, self.seat])
        reward += self._advance_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, bool(state.terminated[0]), bool(state.truncated[0]), self._info()

    def _advance_opponents(self) -> float:
        """Let the other seats move until the learner is to play or the game is over; the learner's reward."""
        state = self.state
        earned = 0.0
        while not state.done[0] and int(state.to_play[0]) != self.seat:
            to_play = int(state.to_play[0])
            mask = self.game.legal_mask(state)
            obs = self.game.observe(state, to_play)
            actions = self.game.action_array(self.opponents[to_play].act(obs, mask, self.np_random))
            self.game.step(state, actions, mask=mask)  # checked: a policy's illegal move is its bug, named here
            earned += float(state.rewards[0, self.seat])
        self._mask = self.game.legal_mask(state)
        self._episode_over = bool(state.done[0])
        return earned

    def _require_reset(self, what: str) -> State:
        if self.state is None:
            raise NotResetError(what)
        return self.state

    def _observe(self) -> np.ndarray:
        return self.game.observe(self.state, self.seat)[0]

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask[0].astype(np.int8), "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """bool[A]: the learner's legal actions now (all False once the episode is over)."""
        self._require_reset("action_masks() was called")
        return self._mask[0].copy()

    # ---- people ------------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the table as text; ``"human"``: printed; ``"rgb_array"``: the picture
        (``uint8[H, W, 3]``, the same size all game long) from the learner's seat, the other seats'
        hidden cards face down (needs the ``pictures`` extra)."""
        # Without a render mode there is nothing to draw, so no reset is needed to say so.
        state = None if self.render_mode is None else self._require_reset("render() was called")
        return render_batch_of_one(self.game, state, self.render_mode, seat=self.seat)

    def close(self) -> None:
        pass


def _checked_seat(seat: Any, players: int) -> int | str:
    if isinstance(seat, str) and seat == "rotate":
        return "rotate"
    if is_integer(seat) and 0 <= seat < players:
        return int(seat)
    raise OptionError(f"seat must be a seat number 0..{players - 1} or 'rotate', got {seat!r}")


def _opponents_by_seat(opponents: Any, game: BatchGame, seat: int | str, rules: dict[str, Any]) -> list[Any]:
    """One policy per seat: ``opponents`` is one spec for every seat or a list with one per seat."""
    from yuugi.agents.adapters import as_policy  # agents depends on envs, so not at import time

    players = game.num_players
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != players:
            raise OptionError(f"opponents must be one policy for every seat or a list of {players} (one per seat, "
                              f"the learner's entry unused), got a list of {len(opponents)}")
        specs = list(opponents)
    else:
        specs = [opponents] * players
    policies: list[Any] = []
    for s, spec in enumerate(specs):
        if spec is None:
            if seat == "rotate" or seat != s:
                raise OptionError(f"opponents[{s}] is None but seat {s} is played by an opponent"
                                  + (" (the learner's seat rotates)" if seat == "rotate" else ""))
            policies.append(None)
        else:
            policies.append(as_policy(spec, game=game, **rules))
    return policies


def single_agent(game: str | BatchGame, opponents: Any = "random", seat: int | str = "rotate",
                 render_mode: str | None = None, on_illegal: str = "raise", **rules: Any) -> SingleAgentEnv:
    """A ``gymnasium.Env`` where the learner plays ``seat`` of ``game`` and ``opponents`` the other seats.

    ``game``: a game name (built with ``rules``) or a built ``BatchGame``. ``opponents``: anything
    :func:`yuugi.agents.adapters.as_policy` accepts (a level name, a weights or SB3 file, ``module:attr``,
    a Policy, a function), one for every seat or a list with one per seat (the learner's entry is
    unused and may be None when ``seat`` is fixed).
    """
    if isinstance(game, str):
        from yuugi.envs import make_game

        built = make_game(game, **rules)
    elif isinstance(game, BatchGame):
        if rules:
            raise OptionError(f"rule options {sorted(rules)} apply to a game name; this game is already built")
        built = game
    else:
        raise OptionError(f"game must be a game name or a BatchGame, got {game!r}")
    seat_mode = _checked_seat(seat, built.num_players)
    policies = _opponents_by_seat(opponents, built, seat_mode, rules)
    return SingleAgentEnv(built, policies, seat_mode, render_mode=render_mode, on_illegal=on_illegal)


def make_registered(game: str, opponent: Any = "random", seat: int | str = "rotate",
                    render_mode: str | None = None, on_illegal: str = "lose", **rules: Any) -> SingleAgentEnv:
    """The entry point of the Gymnasium ids ``yuugi/<game>-v0``: ``opponent`` plays every other seat.

    ``opponents=`` (a list per seat) is accepted too, for the same call as :func:`single_agent`.
    """
    if "opponents" in rules:
        if opponent != "random":
            raise OptionError("give opponent= or opponents=, not both")
        opponent = rules.pop("opponents")
    return single_agent(game, opponents=opponent, seat=seat, render_mode=render_mode, on_illegal=on_illegal, **rules)
