"""Distillation: recording a search's decisions (yuugi.training.train.distill) and cloning them (TrainConfig.bc_data)."""
from __future__ import annotations

import io
import json

import numpy as np
import pytest

from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.registry import cpu
from yuugi.envs import make_game
from yuugi.training.train.distill import RecordingSearch, load, load_many, record, save
from yuugi.training.eval.evaluate import play_games, seat_layout
from yuugi.training.train.selfplay import TrainConfig, train


class HighestLegal:
    """A stand-in search whose choice is known in advance: the highest legal action."""

    def act_state(self, game, state, seats, rng):
        mask = game.legal_mask(state)
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


def _recorded(games: int = 6) -> tuple[RecordingSearch, np.ndarray]:
    game = make_game("nigejozu")
    recorder = RecordingSearch(HighestLegal())
    seating = seat_layout("alternate", np.arange(games), 2)
    play_games(game, seating, [recorder, cpu("nigejozu", "random")], np.arange(games), np.random.default_rng(0))
    return recorder, seating


def test_recording_keeps_each_choice_with_the_searchs_action() -> None:
    recorder, _ = _recorded()
    masks = np.unpackbits(np.concatenate(recorder.masks), axis=1, count=make_game("nigejozu").num_actions).astype(bool)
    actions = np.concatenate(recorder.actions)
    assert len(actions) > 20
    assert (masks.sum(axis=1) > 1).all()  # forced decisions teach nothing and are not kept
    highest = masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)
    np.testing.assert_array_equal(actions, highest)
    # The recorder sits at seat 0 in even games and seat 1 in odd ones: both seats are recorded.
    assert set(np.concatenate(recorder.seats).tolist()) == {0, 1}


def test_a_recorded_file_loads_for_its_game_only(tmp_path) -> None:
    data = record("nigejozu", games=2, batch=2, expert_options={"samples": 2, "top_n": 2}, log=io.StringIO())
    path = tmp_path / "labels.npz"
    save(data, path)
    obs, masks, actions, meta = load(path, make_game("nigejozu"))
    assert meta["games"] == 2 and meta["opponent"] == "normal" and len(obs) == len(actions) == len(masks) > 0
    assert masks[np.arange(len(actions)), actions].all()
    np.testing.assert_array_equal(obs, data["observations"].astype(np.float32))
    assert data["scores"].shape == (2,)
    with pytest.raises(ValueError, match="recorded for nigejozu"):
        load(path, make_game("ninja_slayer"))


def test_a_recording_is_saved_after_every_batch(tmp_path) -> None:
    path = tmp_path / "labels.npz"
    seen = []

    def keep(data):
        save(data, path)
        seen.append((data["meta"]["games"], len(load(path)[2])))

    data = record("nigejozu", games=3, batch=2, expert_options={"samples": 2, "top_n": 2}, log=io.StringIO(),
                  after_batch=keep)
    # Two batches (games 0-1, then game 2); each save holds every decision recorded until then.
    assert [games for games, _ in seen] == [2, 3] and data["meta"]["planned_games"] == 3
    assert 0 < seen[0][1] < seen[1][1] == len(data["actions"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["labels.npz"]  # written whole: no partial file left


def test_several_recorded_files_load_as_one_dataset_in_order(tmp_path) -> None:
    first = record("nigejozu", games=2, batch=2, expert_options={"samples": 2, "top_n": 2}, log=io.StringIO())
    second = record("nigejozu", games=2, seed=1, batch=2, expert_options={"samples": 2, "top_n": 2}, log=io.StringIO())
    save(first, tmp_path / "a.npz")
    save(second, tmp_path / "b.npz")
    obs, masks, actions, metas = load_many([tmp_path / "a.npz", tmp_path / "b.npz"], make_game("nigejozu"))
    np.testing.assert_array_equal(actions, np.concatenate([first["actions"], second["actions"]]))
    assert len(obs) == len(masks) == len(actions) and [m["seed"] for m in metas] == [0, 1]
    with pytest.raises(ValueError, match="no recorded file"):
        load_many([])


def test_training_starts_by_cloning_recorded_decisions(tmp_path) -> None:
    recorder, _ = _recorded(games=10)
    game = make_game("nigejozu")
    data = {"observations": np.concatenate(recorder.observations), "masks": np.concatenate(recorder.masks),
            "actions": np.concatenate(recorder.actions), "seats": np.concatenate(recorder.seats),
            "scores": np.zeros(10), "meta": {"game": "nigejozu", "rules": {}, "games": 10, "seed": 0,
                                              "opponent": "random", "num_actions": game.num_actions}}
    save(data, tmp_path / "labels.npz")
    obs, masks, actions, _ = load(tmp_path / "labels.npz", game)
    cfg = TrainConfig.for_game("nigejozu", total_steps=16, num_envs=4, n_steps=4, batch_size=16, n_epochs=1,
                               net_arch=(32,), bc_data=str(tmp_path / "labels.npz"), bc_epochs=300, progress=False,
                               learning_rate=0.0)
    result = train(cfg, tmp_path / "out")
    meta = json.loads((tmp_path / "out" / "nigejozu_seed0.json").read_text())
    assert meta["bc_data"]["decisions"] == len(actions) and "recorded search decisions" in meta["algorithm"]
    assert meta["bc_losses"][-1] < meta["bc_losses"][0]
    # The heuristic prior alone rarely plays the highest legal action; the clone mostly does.
    policy = MLPPolicy.load(result["weights"])
    policy.deterministic = True
    cloned = policy.act(obs, masks, np.random.default_rng(0))
    heuristic = cpu("nigejozu", "normal").act(obs, masks, np.random.default_rng(0))
    assert (cloned == actions).mean() > max(0.8, (heuristic == actions).mean() + 0.3)


def test_recorded_decisions_are_one_start_among_others(tmp_path) -> None:
    cfg = TrainConfig.for_game("nigejozu", bc_data="x.npz", init_from="y.npz")
    with pytest.raises(ValueError, match="excludes init_from"):
        train(cfg, tmp_path)
