"""``as_policy``: every kind of thing that can choose actions becomes a batched, legal Policy."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from yuugi.agents.adapters import FunctionPolicy, SB3Policy, as_policy
from yuugi.agents.heuristics.nigejozu import NigejozuHeuristic
from yuugi.agents.mixed import EpsilonPolicy
from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.policy import RandomPolicy
from yuugi.agents.weights_format import WeightsError
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError

GAME = make_game("nigejozu")


def batch(n=16, seed=0):
    """Observations and masks of ``n`` nigejozu states reached by random play (the seat to play's view)."""
    rng = np.random.default_rng(seed)
    state = GAME.init(np.arange(n) + 100 * seed)
    for _ in range(int(rng.integers(5, 30))):
        mask = GAME.legal_mask(state)
        live = mask.any(axis=1)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        GAME.step(state, actions, live)
    keep = GAME.legal_mask(state).any(axis=1)
    state = state.take(np.flatnonzero(keep))
    return GAME.observe(state, state.to_play.astype(np.int64)), GAME.legal_mask(state)


def assert_legal(policy, seed=0):
    obs, mask = batch(seed=seed)
    actions = policy.act(obs, mask, np.random.default_rng(seed))
    assert actions.shape == (len(mask),) and actions.dtype.kind == "i"
    assert mask[np.arange(len(mask)), actions].all()
    return obs, mask, actions


def highest_legal(observation, mask, rng):
    return np.array([np.flatnonzero(row)[-1] for row in mask])


highest_legal_policy = FunctionPolicy(highest_legal)  # for the module:attr spec below


def test_a_policy_passes_through_and_a_policy_class_is_built():
    policy = RandomPolicy()
    assert as_policy(policy) is policy
    assert isinstance(as_policy(NigejozuHeuristic), NigejozuHeuristic)


def test_level_names_are_the_registrys_cpus_for_the_game():
    assert isinstance(as_policy("random", game="nigejozu"), RandomPolicy)
    assert isinstance(as_policy("normal", game="nigejozu"), NigejozuHeuristic)
    easy = as_policy("easy", game=GAME)  # a built game works as well as its name
    assert isinstance(easy, EpsilonPolicy) and easy.epsilon == 0.5
    assert isinstance(as_policy("hard", game="nigejozu"), MLPPolicy)
    assert_legal(as_policy("hard", game="nigejozu"))
    with pytest.raises(OptionError, match=r"unknown policy spec 'normal' \(a level name needs the game"):
        as_policy("normal")


def test_a_plain_batched_function_becomes_a_policy():
    policy = as_policy(highest_legal)
    assert isinstance(policy, FunctionPolicy) and policy.name == "highest_legal"
    obs, mask, actions = assert_legal(policy)
    assert actions.tolist() == [np.flatnonzero(row).max() for row in mask]
    broken = as_policy(lambda observation, mask, rng: 0)
    with pytest.raises(ValueError, match=r"must return \d+ integer actions .one per row"):
        broken.act(obs, mask, np.random.default_rng(0))
    floats = as_policy(lambda observation, mask, rng: np.zeros(len(mask)))
    with pytest.raises(ValueError, match="dtype float64"):
        floats.act(obs, mask, np.random.default_rng(0))


def write_highest_legal_npz(path, game=GAME):
    """Weights whose logits are the action indices: the policy plays the highest legal action."""
    weights = [np.zeros((game.observation_shape[0], game.num_actions), np.float32)]
    biases = [np.arange(game.num_actions, dtype=np.float32)]
    MLPPolicy(weights, biases).for_game(game).save(path)
    return path


def test_an_npz_from_yuugi_train_loads_and_is_checked_against_the_game(tmp_path):
    path = write_highest_legal_npz(tmp_path / "mine.npz")
    for spec in (str(path), path):
        policy = as_policy(spec, game="nigejozu")
        assert isinstance(policy, MLPPolicy)
        _, mask, actions = assert_legal(policy)
        assert actions.tolist() == [np.flatnonzero(row).max() for row in mask]
    assert isinstance(as_policy(str(path)), MLPPolicy)  # without a game there is nothing to check against
    with pytest.raises(WeightsError, match="momotaro|nigejozu"):
        as_policy(str(path), game="momotaro")
    with pytest.raises(OptionError, match=r"'.*missing\.npz' names numpy weights \(\.npz\) but there is no such file"):
        as_policy(str(tmp_path / "missing.npz"), game="nigejozu")


def test_module_attr_names_an_instance_a_class_or_a_function(tmp_path, monkeypatch):
    module = tmp_path / "my_bots.py"
    module.write_text("import numpy as np\n"
                      "def lowest(observation, mask, rng):\n"
                      "    return mask.argmax(axis=1)\n"
                      "class Bots:\n"
                      "    class Lowest:\n"
                      "        def act(self, observation, mask, rng):\n"
                      "            return mask.argmax(axis=1)\n"
                      "NOT_A_POLICY = 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_bots", raising=False)
    function = as_policy("my_bots:lowest")
    assert isinstance(function, FunctionPolicy)
    _, mask, actions = assert_legal(function)
    assert actions.tolist() == [np.flatnonzero(row).min() for row in mask]
    assert type(as_policy("my_bots:Bots.Lowest")).__name__ == "Lowest"  # a dotted attribute, a class
    assert as_policy("tests.agents.test_adapters:highest_legal_policy") is highest_legal_policy
    assert isinstance(as_policy("yuugi.agents.policy:RandomPolicy"), RandomPolicy)
    with pytest.raises(OptionError, match="no module 'no_such_module' can be imported"):
        as_policy("no_such_module:bot")
    with pytest.raises(OptionError, match="my_bots has no attribute 'missing'"):
        as_policy("my_bots:missing")
    with pytest.raises(OptionError, match="names int 3, which is neither a policy nor a function"):
        as_policy("my_bots:NOT_A_POLICY")


def test_unknown_things_are_refused_naming_them_and_the_accepted_kinds():
    for bad in ("grandmaster", "weights.pt"):
        with pytest.raises(OptionError, match=rf"unknown policy spec '{bad}'.*accepted: a Policy object or class; "
                                              r"a function .*level name.*\.npz.*\.zip.*module:attr"):
            as_policy(bad, game="nigejozu")
    with pytest.raises(OptionError, match="cannot make a policy of 42; accepted: "):
        as_policy(42)
    with pytest.raises(OptionError, match="class without an act"):
        as_policy(dict)


# ---- Stable-Baselines3 models (the train extra) --------------------------------------------------
@pytest.fixture(scope="module")
def sb3_models(tmp_path_factory):
    """A barely trained MaskablePPO and PPO on nigejozu, saved as .zip (what matters is the wiring)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    from yuugi.seated.single_agent import single_agent

    torch.set_num_threads(1)
    folder = tmp_path_factory.mktemp("sb3")
    env = single_agent("nigejozu", opponents="random")
    maskable = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    maskable.learn(64)
    maskable.save(folder / "maskable.zip")
    plain = PPO("MlpPolicy", single_agent("nigejozu", opponents="random", on_illegal="lose"),
                n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    plain.learn(64)
    plain.save(folder / "plain.zip")
    return maskable, plain, folder


def test_a_maskable_ppo_zip_acts_as_its_predict_with_the_masks(sb3_models):
    maskable, _, folder = sb3_models
    policy = as_policy(str(folder / "maskable.zip"), game="nigejozu")
    assert isinstance(policy, SB3Policy) and policy.maskable and policy.name == "maskable"
    obs, mask, actions = assert_legal(policy)
    expected = [int(maskable.predict(o, action_masks=m, deterministic=True)[0]) for o, m in zip(obs, mask)]
    assert actions.tolist() == expected


def test_an_sb3_model_object_passes_through_the_same_wrapper(sb3_models):
    maskable, plain, _ = sb3_models
    policy = as_policy(maskable, game="nigejozu")
    assert isinstance(policy, SB3Policy) and policy.model is maskable
    assert_legal(policy)
    assert isinstance(as_policy(plain), SB3Policy)


def test_a_model_without_masks_plays_its_best_legal_action(sb3_models):
    import torch

    _, plain, folder = sb3_models
    policy = as_policy(str(folder / "plain.zip"), game="nigejozu")
    assert not policy.maskable
    for seed in range(3):
        obs, mask, actions = assert_legal(policy, seed=seed)
        with torch.no_grad():
            logits = plain.policy.get_distribution(plain.policy.obs_to_tensor(obs)[0]).distribution.logits.numpy()
        assert actions.tolist() == [int(np.flatnonzero(m)[np.argmax(l[m])]) for l, m in zip(logits, mask)]


def test_sb3_zips_are_checked_against_the_game(sb3_models, tmp_path):
    _, _, folder = sb3_models
    with pytest.raises(OptionError, match=r"made for observations \(241,\) and 29 actions; momotaro has"):
        as_policy(str(folder / "maskable.zip"), game="momotaro")
    with pytest.raises(OptionError, match="no such file"):
        as_policy(str(tmp_path / "nope.zip"))
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip")
    with pytest.raises(OptionError, match="not a readable Stable-Baselines3 model"):
        as_policy(str(junk))
