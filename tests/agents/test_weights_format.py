"""Weights files: their game signature, the checks on load, corrupt files, stamping, and the registry's choice."""
from __future__ import annotations

import json
import shutil
import zipfile

import numpy as np
import pytest

from yuugi.agents import registry, shipped, weights_format
from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.weights_format import WeightsError
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError


def _toy(game_name: str, hidden: int = 8, **rules) -> MLPPolicy:
    """A small random network sized for ``game_name`` under ``rules``, signed for it."""
    game = make_game(game_name, **rules)
    rng = np.random.default_rng(0)
    n_obs, n_act = game.observation_shape[0], game.num_actions
    w = [rng.normal(0, 0.3, (n_obs, hidden)).astype(np.float32), rng.normal(0, 0.3, (hidden, n_act)).astype(np.float32)]
    b = [np.zeros(hidden, np.float32), np.zeros(n_act, np.float32)]
    return MLPPolicy(w, b, "tanh", {"game": game_name, "rules": rules}).for_game(game, rules)


def _positions(game_name: str, n: int = 64, **rules) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of live positions reached by random play."""
    game = make_game(game_name, **rules)
    st = game.init(np.arange(n))
    rng = np.random.default_rng(1)
    obs, masks = [], []
    for _ in range(12):
        live = np.flatnonzero(~st.done)
        sub = st.take(live)
        obs.append(game.observe(sub, sub.to_play))
        m = game.legal_mask(sub)
        masks.append(m)
        acts = np.zeros(n, np.int64)
        acts[live] = (rng.random(m.shape) * m).argmax(1)
        game.step(st, acts, active=~st.done)
    return np.concatenate(obs), np.concatenate(masks)


def test_saved_weights_record_game_options_and_layer_shapes(tmp_path):
    _toy("momotaro", num_players=3).save(tmp_path / "m3.npz")
    sig = weights_format.read_signature(tmp_path / "m3.npz")
    # momotaro, 3 players: 56 floats per player and 144 more; 111 actions (the game's documentation page).
    assert sig["game"] == "momotaro" and sig["num_players"] == 3
    assert sig["observation_size"] == 56 * 3 + 144 and sig["num_actions"] == 111
    assert sig["rules"] == {"num_players": 3} and sig["options"]["num_players"] == 3
    assert sig["layers"] == [[56 * 3 + 144, 8], [8, 111]]
    back = MLPPolicy.load(tmp_path / "m3.npz", game="momotaro", rules={"num_players": 3})
    obs, mask = _positions("momotaro", num_players=3)
    np.testing.assert_array_equal(back.act(obs, mask, np.random.default_rng(0)),
                                  _toy("momotaro", num_players=3).act(obs, mask, np.random.default_rng(0)))


def test_another_games_weights_are_refused_at_load_naming_the_file(tmp_path):
    path = tmp_path / "nige.npz"
    _toy("nigejozu").save(path)
    with pytest.raises(WeightsError, match="made for nigejozu, not momotaro") as caught:
        MLPPolicy.load(path, game="momotaro")
    assert str(path) in str(caught.value)


def test_weights_for_other_spaces_name_the_option_that_differs(tmp_path):
    path = tmp_path / "m4.npz"
    _toy("momotaro").save(path)  # 4 players, the default
    with pytest.raises(WeightsError) as caught:
        MLPPolicy.load(path, game="momotaro", rules={"num_players": 2})
    message = str(caught.value)
    assert str(path) in message and "num_players=4 in the file, 2 here" in message
    assert "observation_size 368 in the file, 256 here" in message
    # The same spaces under another reward scheme fit: the options that matter are the spaces'.
    MLPPolicy.load(path, game="momotaro", rules={"reward_scheme": "linear"})


def _rewrite(src, dst, change) -> None:
    """Copy the .npz ``src`` to ``dst`` with ``change(entries)`` applied to its dict of arrays."""
    with np.load(src, allow_pickle=False) as data:
        entries = {k: data[k] for k in data.files}
    change(entries)
    np.savez(dst, **entries)


def _nan_weight(e):
    e["w1"] = e["w1"].copy()
    e["w1"][0, 0] = np.nan


def _inf_bias(e):
    e["b0"] = e["b0"].copy()
    e["b0"][3] = np.inf


CORRUPTIONS = {
    "truncated": (lambda src, dst: dst.write_bytes(src.read_bytes()[: src.stat().st_size // 2]), "truncated or corrupt"),
    "not a zip": (lambda src, dst: dst.write_text("hello"), "truncated or corrupt"),
    "empty": (lambda src, dst: dst.write_bytes(b""), "truncated or corrupt"),
    "bad signature JSON": (lambda src, dst: _rewrite(src, dst, lambda e: e.update(signature=np.str_("{oops"))),
                           "'signature' entry is not valid JSON"),
    "bad meta JSON": (lambda src, dst: _rewrite(src, dst, lambda e: e.update(meta=np.str_("[1,"))),
                      "'meta' entry is not valid JSON"),
    "missing array": (lambda src, dst: _rewrite(src, dst, lambda e: e.pop("w1")), "missing arrays ['w1']"),
    "NaN weight": (lambda src, dst: _rewrite(src, dst, _nan_weight), "array w1 holds 1 NaN or infinite values"),
    "inf bias": (lambda src, dst: _rewrite(src, dst, _inf_bias), "array b0 holds 1 NaN or infinite values"),
    "shapes disagree": (lambda src, dst: _rewrite(src, dst, lambda e: e.update(w1=e["w1"][:, :5], b1=e["b1"][:5])),
                        "differ from the signature's layers"),
    "unknown activation": (lambda src, dst: _rewrite(src, dst, lambda e: e.update(activation=np.str_("gelu"))),
                           "activation 'gelu'"),
    "no format version": (lambda src, dst: _rewrite(src, dst, lambda e: e.pop("format_version")),
                          "no format_version"),
}


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_a_corrupt_file_fails_with_one_error_naming_the_file_and_problem(tmp_path, kind):
    good = tmp_path / "good.npz"
    _toy("nigejozu").save(good)
    bad = tmp_path / f"{kind.replace(' ', '_')}.npz"
    corrupt, problem = CORRUPTIONS[kind]
    corrupt(good, bad)
    with pytest.raises(WeightsError) as caught:
        MLPPolicy.load(bad)
    assert str(bad) in str(caught.value) and problem in str(caught.value)
    assert isinstance(caught.value, OptionError) and isinstance(caught.value, ValueError)


def test_a_missing_file_is_named():
    with pytest.raises(WeightsError, match="nowhere.npz: no such file"):
        MLPPolicy.load("nowhere.npz")


def _unsigned(policy: MLPPolicy, path, version: int = 2) -> None:
    """The file format 2 wrote: no signature."""
    arrays = {f"w{i}": w for i, w in enumerate(policy.weights)} | {f"b{i}": b for i, b in enumerate(policy.biases)}
    np.savez_compressed(path, format_version=np.int64(version), activation=np.str_(policy.activation),
                        meta=np.str_(json.dumps(policy.meta)), prior=np.str_(policy.prior or ""), **arrays)


def test_unsigned_weights_are_refused_with_the_stamp_command_and_stamping_keeps_their_play(tmp_path):
    original = _toy("momotaro", num_players=2)
    path = tmp_path / "old.npz"
    _unsigned(original, path)
    with pytest.raises(WeightsError, match=r"records no game signature.*python -m yuugi\.training\.train\.export stamp"):
        MLPPolicy.load(path)
    signature = weights_format.stamp(path)  # game and rules from the file's own training record
    assert signature["game"] == "momotaro" and signature["num_players"] == 2
    stamped = MLPPolicy.load(path, game="momotaro", rules={"num_players": 2})
    for a, b in zip(original.weights + original.biases, stamped.weights + stamped.biases):
        np.testing.assert_array_equal(a, b)
    obs, mask = _positions("momotaro", num_players=2)
    np.testing.assert_array_equal(stamped.act(obs, mask, np.random.default_rng(0)),
                                  original.act(obs, mask, np.random.default_rng(0)))


def test_stamping_refuses_arrays_that_do_not_fit_the_game(tmp_path):
    path = tmp_path / "old.npz"
    _unsigned(_toy("nigejozu"), path)
    with pytest.raises(WeightsError, match="the first layer reads 241 inputs, the observation has 368"):
        weights_format.stamp(path, "momotaro", {})
    assert "signature" not in np.load(path).files  # nothing written


def test_stamp_command_line(tmp_path, capsys):
    from yuugi.training.train import export

    path = tmp_path / "old.npz"
    _unsigned(_toy("momotaro", num_players=3), path)
    assert export.main(["stamp", str(path), "momotaro", "--rule", "num_players=3"]) == 0
    assert "stamped" in capsys.readouterr().out
    assert weights_format.read_signature(path)["num_players"] == 3
    assert export.main(["stamp", str(path), "momotaro", "--rule", "num_players=2"]) == 2  # 3-player arrays
    assert "first layer reads 312 inputs, the observation has 256" in capsys.readouterr().err


def test_shipped_momotaro_and_nigejozu_weights_are_signed_for_their_game():
    for game, players in (("momotaro", 4), ("nigejozu", 2)):
        sig = weights_format.read_signature(shipped.WEIGHTS_DIR / f"{game}_hard.npz")
        assert sig["game"] == game and sig["num_players"] == players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_momotaro_hard_exists_for_every_player_count(players):
    assert registry.available_levels("momotaro", num_players=players) == ["random", "easy", "normal", "hard", "expert"]
    policy = registry.cpu("momotaro", "hard", num_players=players)
    assert policy.signature["num_players"] == players
    obs, mask = _positions("momotaro", num_players=players)
    acts = policy.act(obs, mask, np.random.default_rng(0))
    assert mask[np.arange(len(acts)), acts].all()


def test_hard_is_listed_only_when_its_weights_read_intact_and_fit(monkeypatch, tmp_path):
    for f in shipped.WEIGHTS_DIR.glob("momotaro_hard*.npz"):
        shutil.copy(f, tmp_path / f.name)
        shutil.copy(f.with_suffix(".json"), tmp_path / f.with_suffix(".json").name)  # the record: where it was checked
    monkeypatch.setattr(shipped, "WEIGHTS_DIR", tmp_path)
    assert "hard" in registry.available_levels("momotaro")
    # Truncate the 4-player file: it still has a name, but it is no longer weights.
    four = tmp_path / "momotaro_hard.npz"
    four.write_bytes(four.read_bytes()[:4000])
    assert registry.available_levels("momotaro") == ["random", "easy", "normal", "expert"]
    with pytest.raises(WeightsError, match="momotaro_hard.npz: not a readable"):
        registry.cpu("momotaro", "hard")
    # A broken file for other rules does not hide the one that fits.
    (tmp_path / "momotaro_hard_9p.npz").write_bytes(b"not weights")
    assert registry.available_levels("momotaro", num_players=2) == ["random", "easy", "normal", "hard", "expert"]
    # Only a 4-player file left, intact: 2 players get no hard level, and the error says what exists.
    for f in tmp_path.glob("momotaro_hard*.npz"):
        f.unlink()
    _toy("momotaro").save(tmp_path / "momotaro_hard.npz")
    assert registry.available_levels("momotaro", num_players=2) == ["random", "easy", "normal", "expert"]
    with pytest.raises(OptionError, match=r"no hard weights fit momotaro with num_players=2.*momotaro_hard\.npz"):
        registry.cpu("momotaro", "hard", num_players=2)


def test_a_truncated_zip_member_is_caught_too(tmp_path):
    # A zip whose directory is intact but whose array data is cut: the error surfaces on reading the array.
    good = tmp_path / "good.npz"
    _toy("nigejozu").save(good)
    bad = tmp_path / "cut.npz"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            dst.writestr(item, data[: len(data) // 3] if item.filename == "w0.npy" else data)
    with pytest.raises(WeightsError, match="cut.npz: not a readable"):
        MLPPolicy.load(bad)


def test_cpu_refuses_bad_rules_at_every_level():
    for level in ("random", "easy", "normal", "hard"):
        with pytest.raises(OptionError, match="num_players"):
            registry.cpu("momotaro", level, num_players=7)
    with pytest.raises(OptionError, match="num_players"):
        registry.available_levels("momotaro", num_players=5)
