"""The pieces of ninja_daifugo's prior-guided recipe: the heuristic's action scores as a prior, and
a residual policy that starts as the heuristic."""
import numpy as np
import pytest

from yuugi.agents.heuristics.ninja_daifugo import DaifugoHeuristic
from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.priors import FLOOR, DaifugoHeuristicScores, make_prior
from yuugi.envs import make_game
from yuugi.envs.ninja_daifugo import actions as A

PRIOR = "ninja_daifugo_heuristic"


def _decisions(rounds: int = 40, batch: int = 16, seed: int = 5):
    """(observation, mask) of the seat to play, along games the heuristic plays at every seat."""
    game = make_game("ninja_daifugo", series_games=1, ninja="symmetric")
    st = game.init(np.arange(seed, seed + batch))
    heuristic, rng = DaifugoHeuristic(), np.random.default_rng(seed)
    for _ in range(rounds):
        obs, mask = game.observe(st, st.to_play), game.legal_mask(st)
        yield obs, mask
        st = game.step(st, heuristic.act(obs, mask, rng))


def test_prior_grades_legal_actions_only():
    prior = make_prior(PRIOR)
    seen_choice = False
    for obs, mask in _decisions():
        p = prior(obs, mask)
        assert p.shape == mask.shape and p.dtype == np.float32
        assert (p[~mask] == FLOOR).all()  # an illegal action is never graded above the floor
        assert ((p >= FLOOR) & (p <= 0)).all()
        legal_rows = mask.any(axis=1)
        # The best legal action of every decision is at 0.
        assert (np.where(mask, p, -np.inf).max(axis=1)[legal_rows] == 0).all()
        seen_choice |= bool((mask.sum(axis=1) > 1).any())
    assert seen_choice


def test_prior_of_a_finished_game_is_all_floor():
    prior = make_prior(PRIOR)
    obs, mask = next(_decisions())
    none = np.zeros_like(mask)
    assert (prior(obs, none) == FLOOR).all()


def test_prior_orders_plays_as_the_heuristic_describes():
    # Leading with one legal single 3 and one legal single K (no revolution, no 8): the weaker card
    # scores higher (10 + 3·1 − strength), by the 10 ranks between them; PASS is not legal when leading.
    obs, mask = next(_decisions())
    row = np.zeros((1, A.NUM_ACTIONS), bool)
    three = next(a for a in range(A.NUM_ACTIONS) if A.KIND[a] == A.K_SINGLE and A.LO[a] == 0 and not A.HAS8[a])
    king = next(a for a in range(A.NUM_ACTIONS) if A.KIND[a] == A.K_SINGLE and A.LO[a] == 10 and not A.HAS8[a])
    row[0, [three, king]] = True
    s = DaifugoHeuristicScores().scores(obs[:1], row)
    assert s[0, three] - s[0, king] == pytest.approx(10.0)


def test_scores_best_action_is_the_heuristics_choice():
    scorer, heuristic, rng = DaifugoHeuristicScores(), DaifugoHeuristic(), np.random.default_rng(1)
    checked = 0
    for obs, mask in _decisions(rounds=60):
        s = np.where(mask, scorer.scores(obs, mask), -np.inf)
        rows = np.flatnonzero(mask.any(axis=1))
        choice = heuristic.act(obs, mask, rng)
        # The heuristic adds < 1e-3 of noise to break ties: its choice is a best-scored action.
        assert (s[rows, choice[rows]] >= s[rows].max(axis=1) - 1e-3).all()
        checked += len(rows)
    assert checked > 500


@pytest.mark.parametrize("head", ["full", "diagonal"])
def test_untrained_residual_policy_plays_the_heuristics_argmax(tmp_path, head):
    from yuugi.training.train.selfplay import TrainConfig, train

    # A zero learning rate exports the network exactly as it was built: prior columns = gain · I.
    cfg = TrainConfig(game="ninja_daifugo", prior=PRIOR, bc_decisions=0, learning_rate=0.0, total_steps=64,
                      num_envs=4, n_steps=16, batch_size=32, n_epochs=1, net_arch=(16,), prior_head=head,
                      progress=False)
    result = train(cfg, tmp_path)
    policy = MLPPolicy.load(result["weights"])
    assert policy.prior == PRIOR and result["meta"]["prior"] == PRIOR
    n = A.NUM_ACTIONS
    np.testing.assert_allclose(policy.weights[-1][-n:], cfg.prior_gain * np.eye(n), atol=0.05)
    scorer, rng = DaifugoHeuristicScores(), np.random.default_rng(0)
    compared = 0
    for obs, mask in _decisions(rounds=40):
        s = np.where(mask, scorer.scores(obs, mask), -np.inf)
        top2 = np.sort(s, axis=1)[:, -2:]
        # Decisions with one clearly best action (ties are the heuristic's coin flips).
        clear = np.flatnonzero(mask.any(axis=1) & (top2[:, 1] - top2[:, 0] >= 0.5))
        acts = policy.act(obs, mask, rng)
        np.testing.assert_array_equal(acts[clear], s[clear].argmax(axis=1))
        compared += len(clear)
    assert compared > 100


def test_diagonal_head_trains_and_exports_what_torch_computes(tmp_path):
    from yuugi.training.train.export import max_logit_error
    from yuugi.training.train.selfplay import TrainConfig, train

    cfg = TrainConfig(game="ninja_daifugo", prior=PRIOR, bc_decisions=0, learning_rate=1e-2, total_steps=128,
                      num_envs=4, n_steps=32, batch_size=32, n_epochs=2, net_arch=(16,), prior_head="diagonal",
                      progress=False)
    result = train(cfg, tmp_path)
    policy = MLPPolicy.load(result["weights"])
    block = policy.weights[-1][-A.NUM_ACTIONS:]
    gains = np.diag(block)
    assert not np.allclose(gains, cfg.prior_gain)  # the per-action gains learned
    assert not (block - np.diag(gains)).any()  # and the prior block stayed diagonal
    obs, mask = next(_decisions())
    assert max_logit_error(result["model"], policy, obs, mask) < 1e-4
    # Continuing from the export restores the same network.
    again = train(TrainConfig(**{**cfg.__dict__, "learning_rate": 0.0, "total_steps": 32, "init_from": result["weights"]}),
                  tmp_path / "again")
    np.testing.assert_allclose(MLPPolicy.load(again["weights"]).weights[-1], policy.weights[-1], atol=1e-6)
