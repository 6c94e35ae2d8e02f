"""Action priors and prior-guided MLP policies (residual policy learning)."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.heuristics.nigejozu import NigejozuHeuristic
from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.weights_format import WeightsError
from yuugi.agents.priors import FLOOR, HeuristicScorePrior, make_prior
from yuugi.envs import make_game


def _positions(n: int = 64, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of live nigejozu positions reached by random play."""
    game = make_game("nigejozu")
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(n))
    for _ in range(int(rng.integers(5, 25))):
        mask = game.legal_mask(st)
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        game.step(st, acts, active=~st.done, check=False)
    live = ~st.done
    return game.observe(st, st.to_play)[live], game.legal_mask(st)[live]


class _Scores:
    """A stand-in heuristic whose scores are given: action i scores ``table[i]``."""

    def __init__(self, table: list[float]) -> None:
        self.table = np.array(table, dtype=np.float64)

    def scores(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.broadcast_to(self.table, mask.shape).copy()


def test_score_prior_is_relative_to_the_best_legal_action_and_floored():
    prior = HeuristicScorePrior(_Scores([10.0, 8.0, 100.0, -50.0]), scale=2.0)
    mask = np.array([[True, True, False, True],  # action 2 scores best but is illegal
                     [False, True, False, False],  # one legal action: not scored
                     [False, False, False, False]])  # a finished game
    p = prior(np.zeros((3, 5)), mask)
    np.testing.assert_allclose(p[0], [0.0, -1.0, FLOOR, FLOOR])  # (8 - 10) / 2 = -1; (-50 - 10) / 2 floored
    np.testing.assert_allclose(p[1], [FLOOR, 0.0, FLOOR, FLOOR])
    np.testing.assert_allclose(p[2], [FLOOR] * 4)


def test_unknown_prior_is_named():
    with pytest.raises(ValueError, match="unknown action prior 'nope'"):
        make_prior("nope")


def test_prior_guided_policy_with_a_dominant_prior_plays_the_heuristic(tmp_path):
    obs, mask = _positions()
    n_obs, n_act, hidden = obs.shape[1], mask.shape[1], 8
    rng = np.random.default_rng(0)
    # Hidden layer reads observation + prior; the head reads hidden + prior, its prior columns 100·I.
    w0 = rng.normal(0, 0.1, (n_obs + n_act, hidden)).astype(np.float32)
    head = np.concatenate([rng.normal(0, 0.01, (hidden, n_act)), 100.0 * np.eye(n_act)]).astype(np.float32)
    pol = MLPPolicy([w0, head], [np.zeros(hidden, np.float32), np.zeros(n_act, np.float32)], "tanh",
                    prior="nigejozu_heuristic")
    pol.save(tmp_path / "guided.npz")
    back = MLPPolicy.load(tmp_path / "guided.npz")
    assert back.prior == "nigejozu_heuristic"
    np.testing.assert_allclose(back.logits(obs, mask), pol.logits(obs, mask), rtol=1e-5, atol=1e-4)
    chosen = back.act(obs, mask, rng)
    # The heuristic's own best action (among its scores, ties aside) is the one played.
    scores = np.where(mask, NigejozuHeuristic().scores(obs, mask), -np.inf)
    best = scores.max(axis=1)
    multi = mask.sum(axis=1) > 1
    assert mask[np.arange(len(chosen)), chosen].all()
    assert np.all(scores[np.arange(len(chosen)), chosen][multi] >= best[multi] - 1e-3)
    with pytest.raises(ValueError, match="pass the legal mask"):
        back.logits(obs)


def test_unsigned_format_1_weights_are_refused_with_the_stamp_command(tmp_path):
    """A file that records no game signature cannot be checked against a game, so it is refused."""
    w, b = np.ones((3, 2), np.float32), np.zeros(2, np.float32)
    np.savez(tmp_path / "old.npz", format_version=np.int64(1), activation=np.str_("relu"), meta=np.str_("{}"),
             w0=w, b0=b)
    with pytest.raises(WeightsError, match="records no game signature") as err:
        MLPPolicy.load(tmp_path / "old.npz")
    assert "old.npz" in str(err.value) and "stamp" in str(err.value)
