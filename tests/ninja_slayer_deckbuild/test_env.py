"""The deck-building env: episode length, the built deck, its reward, seeding, options, check_env."""
from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from yuugi.envs.core.errors import IllegalActionError, OptionError
from yuugi.seated.deckbuild.env import DeckBuildEnv
from yuugi.envs.ninja_slayer.decks import validate_constructed
from yuugi.seated.ninja_slayer_deckbuild_v0 import ENV_ID, env as make_env
from yuugi.envs.registration import register_gymnasium_ids as register_deckbuild_env


def build(env: DeckBuildEnv, seed: int, pick_seed: int = 0):
    """Reset with ``seed`` and pick legal cards at random; the transitions of the episode."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(pick_seed)
    steps = []
    done = False
    while not done:
        card = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(card)
        assert not truncated
        steps.append((card, reward, done, info))
    return steps


def test_an_episode_is_exactly_50_picks_and_then_refuses_more():
    env = DeckBuildEnv(level="random", games=4)
    steps = build(env, seed=1)
    assert len(steps) == 50
    assert [done for _, _, done, _ in steps] == [False] * 49 + [True]
    assert all(r == 0.0 for _, r, _, _ in steps[:-1])
    with pytest.raises(IllegalActionError, match="50 cards"):
        env.step(steps[0][0])


def test_the_built_deck_passes_the_deck_validator_and_is_what_was_picked():
    env = DeckBuildEnv(level="random", games=4)
    steps = build(env, seed=2, pick_seed=5)
    deck = steps[-1][3]["deck"]
    assert len(validate_constructed(deck)) == 50
    picked = sorted(c for c, *_ in steps)  # the picks, as card indices
    from yuugi.envs.ninja_slayer import cards as C
    assert sorted(C.card_index(code) for code in deck) == picked


@pytest.mark.parametrize("kind,low,high", [("win_rate", 0.0, 1.0), ("centered", -0.5, 0.5)])
def test_the_reward_is_the_win_rate_and_in_range(kind, low, high):
    env = DeckBuildEnv(level="random", games=6, reward=kind, opponent_deck="D2")
    _, reward, _, info = build(env, seed=3)[-1]
    s = info["score"]
    assert s.games == 6 and s.wins + s.losses + s.draws == 6
    assert s.first[0] + s.first[1] + s.first[2] == 3 and sum(s.second) == 3  # alternate: half in each seat
    expected = (s.wins + 0.5 * s.draws) / 6 - (0.5 if kind == "centered" else 0.0)
    assert reward == pytest.approx(expected)
    assert low <= reward <= high


def test_the_same_seed_and_picks_give_the_same_reward():
    rewards = []
    for _ in range(2):
        env = DeckBuildEnv(level="random", games=8, opponent_deck="sealed")
        _, reward, _, info = build(env, seed=11, pick_seed=4)[-1]
        rewards.append((reward, info["score"]))
    assert rewards[0] == rewards[1]


def test_seats_first_and_second():
    env = DeckBuildEnv(level="random", games=4, seats="first")
    s = build(env, seed=0)[-1][3]["score"]
    assert sum(s.first) == 4 and s.second == (0, 0, 0)
    env = DeckBuildEnv(level="random", games=4, seats="second")
    s = build(env, seed=0)[-1][3]["score"]
    assert sum(s.second) == 4 and s.first == (0, 0, 0)


def test_a_policy_object_is_used_as_it_is():
    calls = []

    class FirstLegal:
        def act(self, observation, mask, rng):
            calls.append(len(mask))
            return mask.argmax(axis=1)

    env = DeckBuildEnv(level=FirstLegal(), opponent_level="random", games=2)
    build(env, seed=0)
    assert calls


@pytest.mark.parametrize("options,word", [({"opponent_deck": "D9"}, "opponent_deck"), ({"seats": "left"}, "seats"),
                                          ({"games": 0}, "games"), ({"reward": "elo"}, "reward"),
                                          ({"opponent_deck": ["C01"] * 50}, "4-copy")])
def test_bad_options_are_named(options, word):
    with pytest.raises(OptionError, match=word):
        DeckBuildEnv(**options)


def test_card_features_extend_the_observation():
    env = DeckBuildEnv(level="random", card_features=True)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (50 + 48 * 68,) and env.observation_space.contains(obs)


def test_check_env_passes():
    check_env(make_env(level="random", games=2), skip_render_check=True)


def test_registered_id_makes_the_env():
    register_deckbuild_env()
    register_deckbuild_env()  # idempotent
    env = gymnasium.make(ENV_ID, level="random", games=2)
    obs, info = env.reset(seed=0)
    assert obs.shape == (50,) and info["action_mask"].all()


def test_import_envs_registers_the_deckbuild_id():
    code = "import gymnasium, envs; print('yuugi/ninja_slayer_deckbuild-v0' in gymnasium.registry)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


def test_importing_the_env_does_not_import_agents():
    code = ("import sys, yuugi.seated.ninja_slayer_deckbuild_v0 as m, yuugi.seated.deckbuild.env; m.env(level='random');"
            "print(sorted(k for k in sys.modules if k == 'agents' or k.startswith('agents.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
