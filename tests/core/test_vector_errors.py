"""The self-play vector faces refuse bad options and use before reset with errors that say what to do
(issue 11, "Vector faces")."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.policy import RandomPolicy
from yuugi.envs import make_game
from yuugi.envs.core.errors import ActionTypeError, CallError, NotResetError, OptionError
from yuugi.training.train.sb3_vec import SB3SelfPlayVecEnv
from yuugi.envs.faces.vector import GymSelfPlayVectorEnv

FACES = [GymSelfPlayVectorEnv, SB3SelfPlayVecEnv]


@pytest.fixture(scope="module")
def game():
    return make_game("nigejozu")


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("seat", [1.5, 1.0, True, "1", "rotating", None, 2, -1, [0]])
def test_learner_seat_must_be_a_seat_number_or_rotate(face, game, seat):
    with pytest.raises(OptionError, match="learner_seat") as err:
        face(game, 2, RandomPolicy(), learner_seat=seat)
    assert "0..1" in str(err.value) and "'rotate'" in str(err.value)


@pytest.mark.parametrize("face", FACES)
def test_learner_seat_takes_numpy_integers(face, game):
    env = face(game, 2, RandomPolicy(), learner_seat=np.int64(1))
    env.reset()
    assert (env.batch.learner == 1).all() and (env.batch.state.to_play == 1).all()


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("opponents", [None, [], "random", [RandomPolicy(), None], 3])
def test_opponents_must_be_policies(face, game, opponents):
    with pytest.raises(OptionError, match="opponents") as err:
        face(game, 2, opponents)
    assert "act(observation, mask, rng)" in str(err.value)


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("num_envs", [0, 2.0, "2", True])
def test_num_envs_must_be_a_positive_integer(face, game, num_envs):
    with pytest.raises(OptionError, match="num_envs"):
        face(game, num_envs, RandomPolicy())


@pytest.mark.parametrize("face", FACES)
def test_stepping_before_reset_says_call_reset_first(face, game):
    env = face(game, 2, RandomPolicy())
    with pytest.raises(NotResetError, match=r"call reset\(\) first"):
        env.step(np.zeros(2, dtype=np.int64))


def test_action_masks_before_reset_says_call_reset_first(game):
    env = SB3SelfPlayVecEnv(game, 2, RandomPolicy())
    for call in (env.action_masks, lambda: env.env_method("action_masks")):
        with pytest.raises(NotResetError, match=r"action_masks\(\).*call reset\(\) first"):
            call()
    with pytest.raises(NotResetError, match=r"call reset\(\) first"):
        GymSelfPlayVectorEnv(game, 2, RandomPolicy()).batch.action_masks()


@pytest.mark.parametrize("face", FACES)
def test_learner_actions_must_be_integers_one_per_env(face, game):
    env = face(game, 2, RandomPolicy(), learner_seat=0, seed=4)
    env.reset()
    before = env.batch.state.copy()
    mask = env.batch.action_masks()
    legal = mask.argmax(axis=1)
    with pytest.raises(ActionTypeError):
        env.step(legal.astype(np.float64) + 0.5)  # would have played int(legal + 0.5) == legal
    with pytest.raises(CallError, match="expected 2 actions"):
        env.step(legal[:1])
    assert env.batch.state.equals(before)
    env.step(legal)  # still usable


def test_sb3_step_wait_without_step_async(game):
    env = SB3SelfPlayVecEnv(game, 2, RandomPolicy())
    env.reset()
    with pytest.raises(CallError, match="step_async"):
        env.step_wait()


def test_opponent_policies_must_return_integers(game):
    class FloatPolicy:
        def act(self, observation, mask, rng):
            return mask.argmax(axis=1).astype(np.float64)

    env = GymSelfPlayVectorEnv(game, 4, FloatPolicy(), learner_seat="rotate")
    with pytest.raises(ActionTypeError):
        env.reset()  # some env starts with the opponent to play
