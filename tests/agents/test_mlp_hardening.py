"""An MLPPolicy names what does not fit instead of numpy's matmul message, and never returns an
illegal action, whatever its logits (issue 38, item 8)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.shipped import WEIGHTS_DIR
from yuugi.envs import make_game


def _batch(name: str, rows: int = 64, moves: int = 0):
    """A batch of ``rows`` games after ``moves`` random legal moves each (so that rows have choices)."""
    game = make_game(name)
    state = game.init(np.arange(rows))
    rng = np.random.default_rng(1)
    for _ in range(moves):
        mask = game.legal_mask(state)
        live = mask.any(axis=1)
        if not live.any():
            break
        choice = (mask.cumsum(axis=1) > (rng.random(rows) * mask.sum(axis=1)).astype(int)[:, None]).argmax(axis=1)
        game.step(state, choice, active=live)
    return game, game.observe(state, state.to_play), game.legal_mask(state)


def test_another_games_observations_name_both_sizes_and_the_weights_game():
    policy = MLPPolicy.load(WEIGHTS_DIR / "nigejozu_hard.npz")
    _, obs, mask = _batch("ninja_daifugo")
    with pytest.raises(ValueError) as err:
        policy.act(obs, mask, np.random.default_rng(0))
    text = str(err.value)
    assert "matmul" not in text
    assert "241" in text and "901" in text and "nigejozu" in text, text


def test_a_mask_of_another_size_is_named_too():
    policy = MLPPolicy([np.zeros((241, 8), np.float32), np.zeros((8, 29), np.float32)],
                       [np.zeros(8, np.float32), np.zeros(29, np.float32)], name="mine")
    _, obs, _ = _batch("nigejozu", 4)
    with pytest.raises(ValueError, match=r"'mine' chooses among 29 actions but was given a mask of 30"):
        policy.act(obs, np.ones((4, 30), dtype=bool), np.random.default_rng(0))


def test_nan_weights_are_refused_when_the_policy_is_built():
    with pytest.raises(ValueError, match=r"w0 holds 16 NaN or infinite values"):
        MLPPolicy([np.full((2, 8), np.nan, np.float32), np.zeros((8, 29), np.float32)],
                  [np.zeros(8, np.float32), np.zeros(29, np.float32)])


@pytest.mark.parametrize("game_name", ["ninja_daifugo", "nigejozu"])
@pytest.mark.parametrize("deterministic", [True, False])
def test_non_finite_logits_never_give_an_illegal_action_and_are_said_once(game_name, deterministic):
    game, obs, mask = _batch(game_name, moves=6)
    assert (mask.sum(axis=1) > 1).any()  # some rows have a choice to make
    size, actions = obs.shape[1], game.num_actions
    # Finite weights whose logits are not: the first layer overflows to +inf, and the head subtracts
    # inf from inf (NaN). Weights edited in place after loading end the same way.
    head = np.concatenate([np.ones((4, actions)), -np.ones((4, actions))]).astype(np.float32)
    policy = MLPPolicy([np.full((size, 8), 1e38, np.float32), head],
                       [np.zeros(8, np.float32), np.zeros(actions, np.float32)], activation="relu",
                       deterministic=deterministic, name="diverged")
    rng = np.random.default_rng(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chosen = [policy.act(obs, mask, rng) for _ in range(3)]
    for a in chosen:
        assert mask[np.arange(len(a)), a].all()  # every one legal
    first_legal = mask.argmax(axis=1)
    assert any((a != first_legal).any() for a in chosen)  # uniform over the legal moves, not the first one
    said = [str(w.message) for w in caught if "diverged" in str(w.message)]
    assert len(said) == 1 and "uniformly among their legal actions" in said[0]


def test_finite_logits_play_as_before_without_a_warning():
    policy = MLPPolicy.load(WEIGHTS_DIR / "nigejozu_hard.npz")
    _, obs, mask = _batch("nigejozu")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        actions = policy.act(obs, mask, np.random.default_rng(0))
    expected = np.where(mask, policy.logits(obs, mask), -np.inf).argmax(axis=1)
    assert (actions == expected).all()
