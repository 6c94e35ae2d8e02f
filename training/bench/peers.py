"""Peer environments measured with the same protocol as ours (random legal play), in one process.

Each peer is optional: a peer whose library is not installed is skipped with a note. Install them
with ``pip install -e ".[peers]"``. Protocol: at every decision the legal actions are listed and one
is drawn uniformly; where a peer produces an observation tensor it is computed for the acting
player (OpenSpiel is measured both with and without it). Chance nodes do not count as decisions.

Every peer is driven the fastest correct way its own documentation offers a Python user, so that a
ratio measures the engines and not our driver:

* **OpenSpiel**: the engine's own ``legal_actions()`` list; chance outcomes by one integer draw when
  the node's distribution is uniform (checked at every chance node with ``min(p) == max(p)``, two
  C-level passes), weighted sampling otherwise; the observation through
  ``open_spiel.python.observation`` (``set_from`` writes into one preallocated float32 buffer, the
  way OpenSpiel documents as the main way to get observations in Python) instead of
  ``observation_tensor()``, which builds a Python list of floats at every call.
* **RLCard**: ``env.step`` (its state dict is its observation) and the ``legal_actions`` dict it
  returns.
* **PettingZoo classic**: the raw AEC env (no wrappers), as ours is measured (``make_raw``).

Random picks use Python's ``random.Random`` (``legal[int(random() * n)]``): one C call per decision,
where a numpy ``Generator`` call per scalar costs microseconds.
"""
from __future__ import annotations

import random
import time
from typing import Callable, Sequence

import numpy as np

from yuugi.training.bench.result import BenchResult, time_learning

PeerBench = Callable[[float], BenchResult]


def _timed(name: str, face: str, seconds: float, one_game: Callable[[random.Random], int]) -> BenchResult:
    rnd = random.Random(0)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += one_game(rnd)
        games += 1
    wall = time.perf_counter() - start
    return BenchResult(name, face, 1, decisions, games, wall, wall, 0.0)


def chance_pick(outcomes: Sequence[tuple[int, float]], rnd: random.Random) -> int:
    """One chance outcome of an OpenSpiel chance node, drawn by its probabilities.

    A uniform distribution (every dealt card, every die) costs one integer draw; any other falls
    back to weighted sampling, so the draw is exact for every game.
    """
    actions, probs = zip(*outcomes)
    if min(probs) == max(probs):
        return actions[int(rnd.random() * len(actions))]
    return rnd.choices(actions, weights=probs)[0]


def openspiel_observer(game, kind: str):
    """``set_from(state, player)`` filling a preallocated tensor: ``kind`` is "observation" or "information_state"."""
    from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

    return make_observation(game, INFO_STATE_OBS_TYPE if kind == "information_state" else None)


def openspiel(game_name: str, with_observation: bool) -> PeerBench:
    def run(seconds: float) -> BenchResult:
        import pyspiel

        game = pyspiel.load_game(game_name)
        # Games without an observation tensor (hearts) provide an information-state tensor instead.
        kind = "observation" if game.get_type().provides_observation_tensor else "information_state"
        observer = openspiel_observer(game, kind) if with_observation else None

        def one_game(rnd: random.Random) -> int:
            state = game.new_initial_state()
            draw = rnd.random
            n = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(chance_pick(state.chance_outcomes(), rnd))
                    continue
                if observer is not None:
                    observer.set_from(state, state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(draw() * len(legal))])
                n += 1
            return n

        face = "openspiel" + ("+obs" if with_observation else "")
        return _timed(f"os:{game_name}", face, seconds, one_game)

    return run


def rlcard_game(env_id: str) -> PeerBench:
    def run(seconds: float) -> BenchResult:
        import rlcard

        env = rlcard.make(env_id, config={"seed": 0})

        def one_game(rnd: random.Random) -> int:
            state, _ = env.reset()
            draw = rnd.random
            n = 0
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[int(draw() * len(legal))])
                n += 1
            return n

        return _timed(f"rlcard:{env_id}", "rlcard", seconds, one_game)

    return run


def pettingzoo_classic(module: str) -> PeerBench:
    def run(seconds: float) -> BenchResult:
        import importlib

        env = importlib.import_module(f"pettingzoo.classic.{module}").raw_env()

        def one_game(rnd: random.Random) -> int:
            env.reset(seed=rnd.getrandbits(31))
            draw = rnd.random
            n = 0
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[int(draw() * len(legal))]))
                n += 1
            return n

        return _timed(f"pz:{module}", "aec", seconds, one_game)

    return run


PEERS: dict[str, PeerBench] = {
    "os:dou_dizhu": openspiel("dou_dizhu", False),
    "os:dou_dizhu+obs": openspiel("dou_dizhu", True),
    "os:hearts": openspiel("hearts", False),
    "os:hearts+obs": openspiel("hearts", True),
    "rlcard:doudizhu": rlcard_game("doudizhu"),
    "pz:texas_holdem_v4": pettingzoo_classic("texas_holdem_v4"),
    "pz:connect_four_v3": pettingzoo_classic("connect_four_v3"),
}


def installed_peers() -> tuple[dict[str, PeerBench], list[str]]:
    """The peers whose library imports; the notes say which were skipped and why."""
    import importlib

    needs = {"os": "pyspiel", "rlcard": "rlcard", "pz": "pettingzoo.classic"}
    found, notes = {}, []
    for name, bench in PEERS.items():
        module = needs[name.split(":")[0]]
        try:
            importlib.import_module(module)
        except ImportError as e:
            notes.append(f"{name}: skipped ({e.name or module} not installed; pip install -e '.[peers]')")
            continue
        found[name] = bench
    return found, notes


def pettingzoo_sb3_tutorial_training(seconds: float) -> BenchResult:
    """Training throughput of PettingZoo's SB3 action-mask tutorial (connect_four, MaskablePPO).

    The tutorial wraps the AEC env as a single-agent Gymnasium env in which one learner plays every
    seat in turn; we time ``model.learn`` the same way as for our vector face.
    """
    import gymnasium
    from pettingzoo.classic import connect_four_v3
    from pettingzoo.utils import BaseWrapper
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    # As in the tutorial; also a gymnasium.Env, which gymnasium >= 1.0 requires of wrapped envs.
    class SB3ActionMaskWrapper(BaseWrapper, gymnasium.Env):
        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action):
            current_agent = self.agent_selection
            super().step(action)
            next_agent = self.agent_selection
            return (self.observe(next_agent), self._cumulative_rewards[current_agent],
                    self.terminations[current_agent], self.truncations[current_agent], self.infos[current_agent])

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    env = SB3ActionMaskWrapper(connect_four_v3.env())
    env.reset(seed=0)
    env = ActionMasker(env, lambda e: e.action_mask())
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=256, n_epochs=4, verbose=0, seed=0)
    return time_learning(model, "pz:connect_four(sb3 tutorial)", seconds)
