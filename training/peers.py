"""Peer environments measured with the same protocol as ours (random legal play), in one process.

Each peer is optional: a peer whose library is not installed is skipped with a note. Install them
with ``pip install -e ".[peers]"``. Protocol: at every decision the legal actions are listed and one
is drawn uniformly; where a peer produces an observation tensor it is computed for the acting
player (OpenSpiel is measured both with and without it). Chance nodes are sampled by the peer's
own chance distribution and do not count as decisions.
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np

from training.bench import BenchResult

PeerBench = Callable[[float], BenchResult]


def _timed(name: str, face: str, seconds: float, one_game: Callable[[np.random.Generator], int]) -> BenchResult:
    rng = np.random.default_rng(0)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += one_game(rng)
        games += 1
    wall = time.perf_counter() - start
    return BenchResult(name, face, 1, decisions, games, wall, wall, 0.0)


def openspiel(game_name: str, with_observation: bool) -> PeerBench:
    def run(seconds: float) -> BenchResult:
        import pyspiel

        game = pyspiel.load_game(game_name)
        kind = game.get_type()
        # Games without an observation tensor (hearts) provide an information-state tensor instead.
        tensor = "observation_tensor" if kind.provides_observation_tensor else "information_state_tensor"

        def one_game(rng: np.random.Generator) -> int:
            state = game.new_initial_state()
            n = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
                    continue
                if with_observation:
                    getattr(state, tensor)(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
                n += 1
            return n

        face = "openspiel" + ("+obs" if with_observation else "")
        return _timed(f"os:{game_name}", face, seconds, one_game)

    return run


def rlcard_game(env_id: str) -> PeerBench:
    def run(seconds: float) -> BenchResult:
        import rlcard

        env = rlcard.make(env_id, config={"seed": 0})

        def one_game(rng: np.random.Generator) -> int:
            state, _ = env.reset()
            n = 0
            while not env.is_over():
                legal = list(state["legal_actions"].keys())
                state, _ = env.step(legal[int(rng.integers(len(legal)))])
                n += 1
            return n

        return _timed(f"rlcard:{env_id}", "rlcard", seconds, one_game)

    return run


def pettingzoo_classic(module: str) -> PeerBench:
    def run(seconds: float) -> BenchResult:
        import importlib

        env = importlib.import_module(f"pettingzoo.classic.{module}").env()

        def one_game(rng: np.random.Generator) -> int:
            env.reset(seed=int(rng.integers(2**31)))
            n = 0
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[int(rng.integers(len(legal)))]))
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


def run_peers(seconds: float) -> tuple[list[BenchResult], list[str]]:
    """Every installed peer; the notes say which were skipped and why."""
    results, notes = [], []
    for name, bench in PEERS.items():
        try:
            results.append(bench(seconds))
        except ImportError as e:
            notes.append(f"{name}: skipped ({e.name or e} not installed; pip install -e '.[peers]')")
    return results, notes


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
    return _time_learning(model, "pz:connect_four(sb3 tutorial)", seconds)


def _time_learning(model, name: str, seconds: float) -> BenchResult:
    model.learn(model.n_steps * model.n_envs)  # warm-up: the first rollout builds everything
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        chunk = model.n_steps * model.n_envs
        model.learn(chunk, reset_num_timesteps=False)
        steps += chunk
    wall = time.perf_counter() - start
    return BenchResult(name, "train", model.n_envs, steps, 0, wall, wall, 0.0)
