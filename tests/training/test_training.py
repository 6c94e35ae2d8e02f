"""Training end to end at a tiny size, export fidelity, and the evaluation tables."""
from __future__ import annotations

import json
import tempfile

import numpy as np
import pytest

from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.registry import cpu
from yuugi.envs import make_game
from yuugi.training.eval.evaluate import evaluate, format_tables, save_plot
from yuugi.training.train.export import max_logit_error
from yuugi.training.train.selfplay import TrainConfig, train


def test_tiny_training_run_exports_faithful_weights(tmp_path):
    cfg = TrainConfig(game="ninja_daifugo", total_steps=256, num_envs=8, n_steps=16, batch_size=64, n_epochs=1,
                      net_arch=(32,), bc_decisions=500, bc_epochs=1, snapshot_every=64, progress=False)
    result = train(cfg, tmp_path)
    # A run's files carry the run's name (seed 0 by default), never a shipped level's.
    weights = tmp_path / "ninja_daifugo_seed0.npz"
    assert result["weights"] == str(weights) and not list(tmp_path.glob("*hard*"))
    assert weights.exists() and (tmp_path / "ninja_daifugo_seed0_curve.csv").exists()
    meta = json.loads((tmp_path / "ninja_daifugo_seed0.json").read_text())
    assert meta["steps"] >= 256 and meta["seed"] == 0 and meta["wall_time_s"] > 0
    policy = MLPPolicy.load(weights)
    game = make_game("ninja_daifugo", series_games=1, ninja="symmetric")
    st = game.init(np.arange(16))
    obs = game.observe(st, st.to_play)
    # The numpy policy reproduces the torch actor's logits.
    assert max_logit_error(result["model"], policy, obs) < 1e-4
    mask = game.legal_mask(st)
    acts = policy.act(obs, mask, np.random.default_rng(0))
    assert mask[np.arange(16), acts].all()


def test_evaluation_orders_random_below_heuristic(tmp_path):
    result = evaluate("ninja_daifugo", {"random": cpu("ninja_daifugo", "random"),
                                        "normal": cpu("ninja_daifugo", "normal")},
                      games=60, rules={"series_games": 1})
    (pairing,) = result.pairings
    assert pairing.a == "random" and pairing.score_mean < 0 and pairing.decided
    assert result.ratings["normal"][0] > result.ratings["random"][0]
    text = format_tables(result)
    assert "normal" in text and "95% CI" in text
    save_plot(result, tmp_path / "ladder.png")
    assert (tmp_path / "ladder.png").stat().st_size > 1000


def test_training_can_continue_from_exported_weights(tmp_path):
    first = TrainConfig(game="nigejozu", total_steps=128, num_envs=8, n_steps=16, batch_size=64, n_epochs=1,
                        net_arch=(16,), bc_decisions=200, bc_epochs=1, progress=False, prior="none")
    train(first, tmp_path / "a")
    start = MLPPolicy.load(tmp_path / "a" / "nigejozu_seed0.npz")
    second = TrainConfig(game="nigejozu", total_steps=128, num_envs=8, n_steps=16, batch_size=64, n_epochs=1,
                         net_arch=(16,), progress=False, init_from=str(tmp_path / "a" / "nigejozu_seed0.npz"),
                         prior="none", learning_rate=0.0)
    result = train(second, tmp_path / "b")
    meta = json.loads((tmp_path / "b" / "nigejozu_seed0.json").read_text())
    assert len(meta["stages"]) == 2 and meta["steps"] == sum(s["steps"] for s in meta["stages"])
    # With a zero learning rate the actor is exactly the one it started from.
    again = MLPPolicy.load(result["weights"])
    for w0, w1 in zip(start.weights, again.weights):
        np.testing.assert_allclose(w0, w1, atol=1e-6)


def _value_net(model) -> list[np.ndarray]:
    policy = model.policy
    return [p.detach().numpy().copy() for p in [*policy.mlp_extractor.value_net.parameters(),
                                                  *policy.value_net.parameters()]]


def test_training_continues_from_the_whole_model_with_its_value_net(tmp_path):
    settings = dict(total_steps=128, num_envs=8, n_steps=16, batch_size=64, n_epochs=1, net_arch=(16,),
                    progress=False)
    first = train(TrainConfig.for_game("nigejozu", seed=1, **settings), tmp_path / "a")
    saved = tmp_path / "a" / "nigejozu_seed1_sb3.zip"
    assert saved.exists()
    trained_critic = _value_net(first["model"])
    # A zero learning rate: whatever the continued run starts with, it ends with.
    whole = train(TrainConfig.for_game("nigejozu", seed=2, init_from=str(saved), learning_rate=0.0, **settings),
                  tmp_path / "b")
    for w0, w1 in zip(trained_critic, _value_net(whole["model"])):
        np.testing.assert_allclose(w0, w1, atol=1e-6)
    meta = json.loads((tmp_path / "b" / "nigejozu_seed2.json").read_text())
    assert len(meta["stages"]) == 2 and meta["stages"][0]["seed"] == 1
    # From the exported actor alone, the value net starts afresh (another seed's initialisation).
    actor_only = train(TrainConfig.for_game("nigejozu", seed=2, learning_rate=0.0, **settings,
                                            init_from=str(tmp_path / "a" / "nigejozu_seed1.npz")), tmp_path / "c")
    assert any(not np.allclose(w0, w1) for w0, w1 in zip(trained_critic, _value_net(actor_only["model"])))
    # Nor into a network of another shape, nor one saved for another prior (none).
    with pytest.raises(ValueError, match="does not match this run's settings"):
        train(TrainConfig.for_game("nigejozu", init_from=str(saved), **{**settings, "net_arch": (8,)}), tmp_path / "f")
    plain = tmp_path / "d"
    train(TrainConfig(game="nigejozu", prior="none", bc_decisions=0, **settings), plain)
    with pytest.raises(ValueError, match="action prior None differs"):
        train(TrainConfig.for_game("nigejozu", init_from=str(plain / "nigejozu_seed0_sb3.zip"), **settings), tmp_path / "e")


def test_training_progress_bar_works(tmp_path):
    cfg = TrainConfig(game="nigejozu", total_steps=64, num_envs=4, n_steps=16, batch_size=32, n_epochs=1,
                      net_arch=(8,), bc_decisions=0, progress=True)
    result = train(cfg, tmp_path)
    assert result["meta"]["steps"] >= 64


def test_prior_guided_training_exports_faithful_weights(tmp_path):
    cfg = TrainConfig.for_game("nigejozu", total_steps=256, num_envs=8, n_steps=16, batch_size=64, n_epochs=1,
                               net_arch=(16,), snapshot_every=128, progress=False)
    assert cfg.prior_name() == "nigejozu_heuristic"  # the game's default
    result = train(cfg, tmp_path)
    policy = MLPPolicy.load(result["weights"])
    assert policy.prior == "nigejozu_heuristic" and result["meta"]["prior"] == "nigejozu_heuristic"
    assert result["meta"]["bc_losses"] == []  # the prior is the warm start: nothing is cloned
    assert sorted(p.name for p in (tmp_path / "checkpoints").iterdir())[:1] == ["nigejozu_seed0_000000128.npz"]
    game = make_game("nigejozu")
    st = game.init(np.arange(16))
    obs, mask = game.observe(st, st.to_play), game.legal_mask(st)
    assert max_logit_error(result["model"], policy, obs, mask) < 1e-4
    # The head's prior columns start at prior_gain·I, so a 256-step run still follows the heuristic.
    head = policy.weights[-1][-game.num_actions:]
    assert np.allclose(np.diag(head), cfg.prior_gain, atol=0.05)
    assert MLPPolicy.load(sorted((tmp_path / "checkpoints").iterdir())[0]).prior == "nigejozu_heuristic"


def test_game_training_defaults_merge_with_overrides():
    cfg = TrainConfig.for_game("nigejozu", rules={"troops_per_player": 12}, pool_size=2)
    assert cfg.rules == {"reward_scheme": "score_diff", "troops_per_player": 12} and cfg.pool_size == 2
    assert TrainConfig.for_game("ninja_daifugo") == TrainConfig(game="ninja_daifugo")


def test_cloning_and_a_prior_are_not_mixed_silently(tmp_path):
    cfg = TrainConfig(game="nigejozu", total_steps=64, num_envs=4, n_steps=16, batch_size=32, bc_decisions=100,
                      progress=False)
    with pytest.raises(ValueError, match="bc_decisions=0"):
        train(cfg, tmp_path)


def test_training_leaves_no_folder_in_the_temporary_directory(tmp_path, monkeypatch):
    # SB3 makes an SB3-<date-time> folder in the temporary directory for a model without a logger of its
    # own, at every learn() call, even when it writes nothing there.
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)  # (the suite names one for user-style models)
    cfg = TrainConfig(game="nigejozu", total_steps=64, num_envs=4, n_steps=16, batch_size=32, n_epochs=1,
                      net_arch=(8,), bc_decisions=0, progress=False)
    train(cfg, tmp_path / "out")
    assert not list(temporary.glob("SB3-*"))
