"""Seat agents and play: N games in one call (``play_match``), or one decision at a time inside an AEC
loop (``act_one``), as RLCard's ``env.run`` and OpenSpiel's bots let one do.

Agents are anything :func:`yuugi.agents.adapters.as_policy` accepts: a CPU level (``"normal"``, a
persona), a weights file of your own, an SB3 ``.zip``, ``module:attr``, a Policy object or a plain
function ``(observation, mask, rng) -> actions``. The games are played on the batched core by the same
loop the evaluation uses (:func:`yuugi.envs.faces.rollout.rollout`), all at once; game ``g`` of
``play_match(..., seed=s)`` is the game the AEC env deals after ``env.reset(seed=s + g)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from yuugi.agents.adapters import as_policy
from yuugi.agents.weights_format import game_options
from yuugi.envs import make_game
from yuugi.envs.core.errors import CallError, IllegalActionError, OptionError
from yuugi.envs.core.game import BatchGame
from yuugi.envs.faces.rollout import policy_table, rollout

__all__ = ["MatchResult", "act_one", "play_match"]

_CHUNK = 1024  # games played together: enough to amortise the per-round calls, bounded memory
_Z95 = 1.959963984540054


@dataclass
class MatchResult:
    """What each seat got over the games of a match."""

    game: str
    agents: tuple[str, ...]  # the seats' agent names, in seat order
    policies: tuple[str, ...]  # what played each seat (a level, a file's name, a function's name)
    returns: np.ndarray  # float64[games, players]: each seat's total reward in each game
    seed: int

    @property
    def games(self) -> int:
        return int(self.returns.shape[0])

    def mean_returns(self) -> dict[str, float]:
        """Each seat's mean return per game."""
        return {a: float(self.returns[:, i].mean()) for i, a in enumerate(self.agents)}

    def win_shares(self) -> dict[str, float]:
        """Each seat's share of games it finished with the top return (a shared top is split evenly)."""
        top = self.returns == self.returns.max(axis=1, keepdims=True)
        credit = top / top.sum(axis=1, keepdims=True)
        return {a: float(credit[:, i].mean()) for i, a in enumerate(self.agents)}

    def rows(self) -> list[dict[str, Any]]:
        """Per seat: agent, policy, mean return with its 95% interval (normal approximation), win share."""
        means, wins = self.mean_returns(), self.win_shares()
        out = []
        for i, agent in enumerate(self.agents):
            sd = float(self.returns[:, i].std(ddof=1)) if self.games > 1 else 0.0
            half = _Z95 * sd / math.sqrt(self.games)
            out.append({"seat": i, "agent": agent, "policy": self.policies[i], "mean_return": means[agent],
                        "ci95": (means[agent] - half, means[agent] + half), "win_share": wins[agent]})
        return out

    def __str__(self) -> str:
        lines = [f"{self.game}: {self.games} games (seed {self.seed})",
                 f"{'seat':<5}{'agent':<12}{'policy':<20}{'mean return':>12}  {'95% CI':<20}{'wins':>6}"]
        for r in self.rows():
            ci = f"[{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}]"
            lines.append(f"{r['seat']:<5}{r['agent']:<12}{r['policy']:<20}{r['mean_return']:>+12.3f}  {ci:<20}"
                         f"{r['win_share']:>6.3f}")
        return "\n".join(lines)


def _game_of(env_or_name: Any, rules: Mapping[str, Any]) -> tuple[BatchGame, dict[str, Any]]:
    """The batched game to play, and its rule options that differ from the defaults (what a level is told)."""
    if isinstance(env_or_name, str):
        return make_game(env_or_name, **rules), dict(rules)
    game = env_or_name
    if not isinstance(game, BatchGame):  # an AEC env, raw or wrapped: its game
        game = getattr(getattr(env_or_name, "unwrapped", None), "game", None)
    if not isinstance(game, BatchGame):
        raise OptionError(f"play_match plays a game name, a yuugi AEC env or a BatchGame, got {env_or_name!r}")
    if rules:
        raise OptionError(f"rule options {sorted(rules)} belong to the game: the env given was already built with "
                          "its own; pass the game's name to choose them here")
    defaults = game_options(make_game(game.name))
    own = {k: v for k, v in game_options(game).items() if defaults.get(k) != v}
    return game, own


def _seated(agents: Any, game: BatchGame, rules: Mapping[str, Any]) -> tuple[list[Any], list[str]]:
    """One policy per seat, from a list in seat order or a mapping by agent name (or seat number)."""
    names = list(game.agent_names)
    if isinstance(agents, Mapping):
        by_seat = {}
        for key, spec in agents.items():
            seat = names.index(key) if key in names else key
            if not isinstance(seat, (int, np.integer)) or not 0 <= seat < len(names):
                raise OptionError(f"agents: {key!r} is not one of the seats {names} (or 0..{len(names) - 1})")
            by_seat[int(seat)] = spec
        missing = [names[s] for s in range(len(names)) if s not in by_seat]
        if missing:
            raise OptionError(f"agents: no agent for {missing}; every seat of {game.name} needs one")
        specs = [by_seat[s] for s in range(len(names))]
    elif isinstance(agents, Sequence) and not isinstance(agents, str):
        if len(agents) != len(names):
            raise OptionError(f"agents: {game.name} seats {len(names)} ({names}), got {len(agents)} agents")
        specs = list(agents)
    else:
        raise OptionError(f"agents: a list with one agent per seat, or a dict by agent name {names}; got {agents!r}")
    policies, labels = [], []
    for seat, spec in enumerate(specs):
        try:
            policies.append(as_policy(spec, game=game.name, **rules))
        except OptionError as e:
            raise OptionError(f"agents: seat {seat} ({names[seat]}): {e}") from None
        labels.append(str(getattr(policies[-1], "name", spec if isinstance(spec, str) else type(spec).__name__)))
    return policies, labels


def play_match(env_or_name: Any, agents: Sequence[Any] | Mapping[Any, Any], games: int = 1, seed: int = 0,
               **rules: Any) -> MatchResult:
    """Play ``games`` games with ``agents`` seated and return each seat's returns.

    ``env_or_name``: a game's name (its rule options as keywords), a yuugi AEC env (raw or wrapped) or a
    ``BatchGame``. ``agents``: one per seat, in seat order, or a dict by agent name (``{"hojo": "normal",
    "ashikaga": "runs/train/mine.npz"}``); each a CPU level, a weights file, an SB3 ``.zip``,
    ``module:attr``, a Policy or a function ``(observation, mask, rng) -> actions``.

    Game ``g`` is the one ``env.reset(seed=seed + g)`` deals, so a match can be watched game by game
    in the AEC env. The policies draw their random numbers from one generator seeded by ``seed``.

    >>> result = play_match("nigejozu", ["normal", "random"], games=100, seed=0)
    >>> result.mean_returns()["hojo"] > 0
    True
    """
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise CallError(f"games must be a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise CallError(f"seed must be a non-negative integer, got {seed!r}")
    game, own_rules = _game_of(env_or_name, rules)
    policies, labels = _seated(agents, game, own_rules)
    # The AEC env draws its game's seed from default_rng(reset seed): the same here, game by game.
    seeds = np.array([np.random.default_rng(int(seed) + g).integers(0, 2**63 - 1) for g in range(games)],
                     dtype=np.uint64)
    rng = np.random.default_rng(int(seed))
    players = game.num_players
    returns = np.zeros((games, players), dtype=np.float64)
    for start in range(0, games, _CHUNK):
        stop = min(start + _CHUNK, games)
        state = game.init(seeds[start:stop])
        total = returns[start:stop]

        def add_up(rows: np.ndarray, finished: np.ndarray, state: Any = state, total: np.ndarray = total) -> None:
            total[rows] += state.rewards[rows]  # finished games keep their last rewards: counted once

        table = np.broadcast_to(np.arange(players), (stop - start, players))
        rollout(game, state, policies, policy_table(table), rng, after_round=add_up)
    return MatchResult(game.name, tuple(game.agent_names), tuple(labels), returns, int(seed))


def act_one(policy: Any, observation: Any, mask: Any = None, rng: np.random.Generator | None = None,
            env: Any = None) -> int:
    """One action for one game: a batched policy used inside an AEC loop without building batch axes.

    ``observation``: what ``env.last()`` or ``env.observe(agent)`` gives (the dict with ``"observation"``
    and ``"action_mask"``), or the observation array with ``mask`` (bool or 0/1, one per action).
    ``policy``: anything :func:`~yuugi.agents.adapters.as_policy` accepts but a level name (a level
    needs its game: ``yuugi.cpu(game, level)``). A searching policy (``expert``) needs the game's state:
    pass ``env`` too. ``rng``: the generator of a random policy (default: a fresh, unseeded one).

    >>> env = yuugi.make("nigejozu"); env.reset(seed=0); cpu = yuugi.cpu("nigejozu", "normal")
    >>> for agent in env.agent_iter():
    ...     obs, reward, term, trunc, info = env.last()
    ...     env.step(None if term or trunc else act_one(cpu, obs))
    """
    if isinstance(observation, Mapping):
        if mask is None:
            mask = observation.get("action_mask")
        observation = observation.get("observation")
    if mask is None:
        raise CallError("act_one needs the legal mask: pass the observation dict of env.last(), or mask=")
    mask_row = np.asarray(mask).astype(bool)
    if mask_row.ndim != 1:
        raise CallError(f"act_one decides for one game: mask must be 1-D (one entry per action), got shape "
                        f"{mask_row.shape}; a batch goes to policy.act(observation, mask, rng)")
    if not mask_row.any():
        raise CallError("act_one: no legal action in the mask (the agent's game is over: step None)")
    if isinstance(policy, str):
        raise OptionError(f"act_one needs a policy, not the name {policy!r}: build it with yuugi.cpu(game, {policy!r})")
    policy = as_policy(policy)
    rng = np.random.default_rng() if rng is None else rng
    if callable(getattr(policy, "act_state", None)):
        raw = getattr(env, "unwrapped", None)
        if raw is None or getattr(raw, "state_batch", None) is None:
            raise CallError(f"policy {getattr(policy, 'name', policy)!r} searches from the game's state: "
                            "pass env= (the AEC env it plays in)")
        state = raw.state_batch
        action = policy.act_state(raw.game, state.copy(), state.to_play.astype(np.int64), rng)[0]
    else:
        action = policy.act(np.asarray(observation)[None], mask_row[None], rng)[0]
    action = int(action)
    if not (0 <= action < mask_row.size and mask_row[action]):  # a user's function can break the promise
        raise IllegalActionError(0, action, "not in the mask", f"policy {getattr(policy, 'name', policy)!r} chose it")
    return action
