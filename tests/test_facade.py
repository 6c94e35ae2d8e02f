"""The ``yuugi`` facade: importable with the runtime dependencies only, re-exports the originals."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

import yuugi

ROOT = Path(__file__).resolve().parents[1]
# Everything outside numpy, gymnasium and pettingzoo that a yuugi module might pull in.
NON_RUNTIME = ("torch", "stable_baselines3", "sb3_contrib", "openskill", "matplotlib", "rich", "tqdm")

_BLOCKED_IMPORT = f"""
import sys
for name in {NON_RUNTIME!r}:
    sys.modules[name] = None  # any `import name` now raises ImportError
import yuugi
env = yuugi.make("nigejozu")
env.reset(seed=1)
obs, *_ = env.last()
assert obs["action_mask"].any()
assert callable(yuugi.cpu) and yuugi.games()
print("loaded:", sorted(m for m in sys.modules if m.split(".")[0] == "training"))
"""


def test_import_needs_only_runtime_dependencies() -> None:
    done = subprocess.run([sys.executable, "-c", _BLOCKED_IMPORT], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    # evaluate is lazy: nothing under training/ was imported by `import yuugi` and a game.
    assert done.stdout.strip() == "loaded: []"


def test_reexports_are_the_originals() -> None:
    import yuugi.agents.registry
    from yuugi import envs
    import yuugi.training.eval.evaluate

    assert yuugi.make is envs.make
    assert yuugi.make_raw is envs.make_raw
    assert yuugi.make_game is envs.make_game
    assert yuugi.available_games is envs.available_games
    assert yuugi.games is envs.available_games
    assert yuugi.cpu is yuugi.agents.registry.cpu
    assert yuugi.evaluate is yuugi.training.eval.evaluate.evaluate


def test_version_is_the_distributions() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert yuugi.__version__ == declared


def test_unknown_attribute_and_game_are_named() -> None:
    with pytest.raises(AttributeError, match="no attribute 'evaluat'"):
        yuugi.evaluat  # noqa: B018 - the access is the test
    with pytest.raises(Exception, match="unknown game 'chess'.*momotaro"):
        yuugi.make("chess")


def test_games_lists_the_three_built_games() -> None:
    assert {"ninja_daifugo", "nigejozu", "momotaro"} <= set(yuugi.games())


def test_a_whole_aec_game_through_make() -> None:
    """nigejozu to the end with random legal moves: one side +1, the other −1 (the win/loss rule)."""
    env = yuugi.make("nigejozu")
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    totals = {agent: 0.0 for agent in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        env.step(action)
    assert not env.agents
    assert steps > 10  # 36 troops at 1-3 a placement: at least a dozen decisions
    assert sorted(totals.values()) == [-1.0, 1.0]


def test_cpu_plays_through_the_facade() -> None:
    game = yuugi.make_game("momotaro", num_players=2)
    state = game.init(np.arange(4))
    mask = game.legal_mask(state)
    obs = game.observe(state, state.to_play)
    actions = yuugi.cpu("momotaro", "normal").act(obs, mask, np.random.default_rng(0))
    assert mask[np.arange(4), actions].all()
