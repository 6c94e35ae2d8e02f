"""The single-agent Gymnasium env: Gymnasium's checker, seeding, seats, opponents, masks, illegal actions."""
from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env

from yuugi import envs
from yuugi.agents.heuristics.nigejozu import NigejozuHeuristic
from yuugi.agents.policy import RandomPolicy
from yuugi.envs import make_game
from yuugi.envs.core.errors import CallError, IllegalActionError, NotResetError, OptionError
from yuugi.envs.registration import register_gymnasium_ids as register_envs
from yuugi.seated.single_agent import SingleAgentEnv, single_agent

register_envs()  # idempotent; envs may already have done it at import
GAMES = envs.available_games()


def first_legal(env):
    return int(np.flatnonzero(env.action_masks())[0])


def play_episode(env, seed, choose=first_legal):
    """(observations, rewards, seats) of one episode with the learner choosing by ``choose``."""
    obs, info = env.reset(seed=seed)
    observations, rewards = [obs], []
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(choose(env))
        observations.append(obs)
        rewards.append(reward)
        done = terminated or truncated
    return observations, rewards, info["seat"]


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env_passes_on_the_registered_id(game):
    env = gymnasium.make(f"yuugi/{game}-v0", opponent="random")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught if issubclass(w.category, UserWarning)] == []
    assert isinstance(env.unwrapped, SingleAgentEnv)
    built = make_game(game)
    assert env.observation_space.shape == tuple(built.observation_shape)
    assert env.action_space == gymnasium.spaces.Discrete(built.num_actions)


@pytest.mark.parametrize("game", GAMES)
def test_seeded_reset_reproduces_the_episode_and_other_seeds_differ(game):
    env = single_agent(game, opponents="random")  # random opponents: their rng must be seeded by the reset too
    first = play_episode(env, seed=7)
    again = play_episode(env, seed=7)
    assert len(first[0]) == len(again[0]) and first[2] == again[2]
    assert all(np.array_equal(a, b) for a, b in zip(first[0], again[0]))
    assert first[1] == again[1]
    others = [env.reset(seed=s + 7 * env.num_players)[0] for s in range(1, 4)]  # the same seat, other deals
    assert not all(np.array_equal(first[0][0], o) for o in others)


def test_the_seat_rotates_with_the_seed_and_from_episode_to_episode():
    env = single_agent("momotaro", opponents="random", seat="rotate")
    assert [env.reset(seed=s)[1]["seat"] for s in (0, 1, 2, 3, 4, 6, 2**64 - 1)] == [0, 1, 2, 3, 0, 2, 3]
    env.reset(seed=5)
    assert [env.reset()[1]["seat"] for _ in range(5)] == [2, 3, 0, 1, 2]


@pytest.mark.parametrize("game", GAMES)
def test_the_learner_is_to_play_at_every_observation_and_the_mask_is_the_cores(game):
    env = single_agent(game, opponents="random", seat="rotate")
    core = env.game
    rng = np.random.default_rng(0)
    for seed in range(2 * env.num_players):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            state = env.state
            assert int(state.to_play[0]) == info["seat"] == seed % env.num_players
            expected = core.legal_mask(state)[0]
            assert np.array_equal(env.action_masks(), expected) and env.action_masks().dtype == bool
            assert np.array_equal(info["action_mask"], expected.astype(np.int8)) and info["action_mask"].dtype == np.int8
            assert np.array_equal(obs, core.observe(state, info["seat"])[0])
            obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(expected))))
            done = terminated or truncated
        assert env.state.done[0] and not env.action_masks().any() and not info["action_mask"].any()


def test_reward_is_the_learners_over_its_move_and_the_opponents_moves():
    # nigejozu pays +1 to the winner and -1 to the loser on the step that ends the game, which may be
    # either side's; the learner's return must be +-1 by the winner either way.
    env = single_agent("nigejozu", opponents="random", seat="rotate")
    rng = np.random.default_rng(1)
    ended_by = set()
    for seed in range(30):
        _, rewards, seat = play_episode(env, seed, lambda e: int(rng.choice(np.flatnonzero(e.action_masks()))))
        winner = int(env.game.winner(env.state)[0])
        assert sum(rewards) == (1.0 if winner == seat else -1.0)
        assert all(r == 0.0 for r in rewards[:-1])
        ended_by.add("learner" if int(env.state.to_play[0]) == seat else "opponent")
    assert ended_by == {"learner", "opponent"}


def test_illegal_action_raises_naming_it_and_changes_nothing():
    env = single_agent("nigejozu", opponents="random", seat=0)
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before, mask_before = env.game.to_position(env.state), env.action_masks()
    with pytest.raises(IllegalActionError, match=rf"illegal action {illegal} \({env.game.action_label(illegal)}\)") as err:
        env.step(illegal)
    assert err.value.action == illegal
    assert env.game.to_position(env.state) == before and np.array_equal(env.action_masks(), mask_before)
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(env.game.num_actions)
    with pytest.raises(IllegalActionError, match="not an integer|not action indices|not an action index"):
        env.step(1.0)
    env.step(first_legal(env))  # the env is still usable


def test_the_registered_ids_end_the_episode_on_an_illegal_action_with_reward_minus_one():
    env = gymnasium.make("yuugi/nigejozu-v0", opponent="random")
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, illegal)
    assert not info["action_mask"].any()
    with pytest.raises(CallError, match="call reset"):
        env.unwrapped.step(0)
    strict = gymnasium.make("yuugi/nigejozu-v0", opponent="random", on_illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_opponents_of_every_kind_play_their_seats(tmp_path):
    calls = {s: 0 for s in range(4)}

    def recorder(seat):
        def act(observation, mask, rng):
            assert int(env.state.to_play[0]) == seat  # called only for its own seat
            calls[seat] += 1
            return np.array([np.flatnonzero(mask[0])[-1]])
        return act

    env = single_agent("momotaro", opponents=[recorder(0), None, "normal", recorder(3)], seat=1)
    play_episode(env, seed=0)
    assert calls[0] > 0 and calls[3] > 0 and calls[1] == calls[2] == 0
    assert type(env.opponents[2]).__name__ == "MomotaroHeuristic"

    nige = single_agent("nigejozu", opponents=RandomPolicy(), seat=0)
    assert isinstance(nige.opponents[1], RandomPolicy)
    nige = single_agent("nigejozu", opponents="yuugi.agents.heuristics.nigejozu:NigejozuHeuristic", seat=1)
    assert isinstance(nige.opponents[0], NigejozuHeuristic)
    play_episode(nige, seed=1)


def test_a_weights_file_can_be_the_opponent(tmp_path):
    from yuugi.agents.mlp import MLPPolicy

    game = make_game("nigejozu")
    # logits = the action index, so these weights play the highest legal action
    weights = [np.zeros((game.observation_shape[0], game.num_actions), np.float32)]
    biases = [np.arange(game.num_actions, dtype=np.float32)]
    path = tmp_path / "highest.npz"
    MLPPolicy(weights, biases).for_game(game).save(path)

    def highest_legal(observation, mask, rng):
        return np.array([np.flatnonzero(row)[-1] for row in mask])

    from_file = single_agent("nigejozu", opponents=[None, str(path)], seat=0)
    reference = single_agent("nigejozu", opponents=[None, highest_legal], seat=0)
    assert isinstance(from_file.opponents[1], MLPPolicy)
    for seed in range(3):
        assert all(np.array_equal(a, b) for a, b in zip(play_episode(from_file, seed)[0], play_episode(reference, seed)[0]))


def test_errors_name_the_problem_and_the_choices():
    with pytest.raises(OptionError, match=r"seat must be a seat number 0\.\.1 or 'rotate', got 2"):
        single_agent("nigejozu", seat=2)
    with pytest.raises(OptionError, match="seat must be"):
        single_agent("nigejozu", seat=True)
    with pytest.raises(OptionError, match="a list of 4 .one per seat"):
        single_agent("momotaro", opponents=["random", "random"])
    with pytest.raises(OptionError, match=r"opponents\[1\] is None but seat 1 is played by an opponent"):
        single_agent("nigejozu", opponents=["random", None], seat=0)
    with pytest.raises(OptionError, match="rotates"):
        single_agent("nigejozu", opponents=[None, "random"])
    with pytest.raises(OptionError, match="unknown policy spec 'grandmaster'"):
        single_agent("nigejozu", opponents="grandmaster")
    with pytest.raises(OptionError, match="unknown game"):
        single_agent("chess")
    for error in (OptionError, TypeError):  # a TypeError too, for SB3's make_vec_env (see RenderModeError)
        with pytest.raises(error, match=r"render_mode must be one of \['human', 'ansi', 'rgb_array'\] or None, got 'svg'"):
            single_agent("nigejozu", render_mode="svg")
    with pytest.raises(OptionError, match=r"on_illegal must be one of \['raise', 'lose'\]"):
        single_agent("nigejozu", on_illegal="ignore")
    with pytest.raises(OptionError, match="already built"):
        single_agent(make_game("nigejozu"), troops_per_player=12)
    with pytest.raises(OptionError, match="not both"):
        gymnasium.make("yuugi/nigejozu-v0", opponent="normal", opponents="easy")
    env = single_agent("nigejozu", render_mode="ansi")
    for call in (lambda: env.step(0), env.action_masks, env.render):
        with pytest.raises(NotResetError, match="call reset"):
            call()
    with pytest.raises(OptionError, match="understands only 'position'"):
        env.reset(options={"seat": 1})


def test_rules_and_positions_reach_the_core():
    env = gymnasium.make("yuugi/nigejozu-v0", opponent="normal", seat=0, troops_per_player=12)
    assert env.unwrapped.game.config.troops_per_player == 12
    start = single_agent("nigejozu", seat=1)
    start.reset(seed=4)
    position = start.game.to_position(start.state)
    env = single_agent("nigejozu", seat=1)
    obs, info = env.reset(seed=9, options={"position": position})
    assert np.array_equal(obs, start.game.observe(start.state, 1)[0])


def test_render_modes_use_the_cores_text(capsys):
    env = single_agent("nigejozu", render_mode="ansi", seat=0)
    env.reset(seed=0)
    assert env.render() == env.game.render_text(env.state, 0)
    human = single_agent("nigejozu", render_mode="human", seat=0)
    human.reset(seed=0)
    assert human.game.render_text(human.state, 0) in capsys.readouterr().out


def test_gymnasium_and_pettingzoo_ids_live_side_by_side():
    assert isinstance(gymnasium.make("yuugi/nigejozu-v0").unwrapped, gymnasium.Env)
    aec = pettingzoo.make("aec", "yuugi/nigejozu-v0")
    assert aec.unwrapped.possible_agents == list(make_game("nigejozu").agent_names)
    assert {f"yuugi/{g}-v0" for g in envs.GAMES} <= set(gymnasium.registry)


def test_registration_and_numpy_opponents_need_no_torch():
    code = ("import sys, gymnasium; from yuugi.envs.registration import register_gymnasium_ids; register_gymnasium_ids(); "
            "env = gymnasium.make('yuugi/nigejozu-v0', opponent='hard'); env.reset(seed=0); "
            "print(sorted(m for m in ('torch', 'stable_baselines3', 'sb3_contrib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
