"""Policies: always legal, batched, and the registry's errors."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.mixed import EpsilonPolicy
from yuugi.agents.mlp import MLPPolicy
from yuugi.agents.policy import RandomPolicy, random_legal
from yuugi.agents.registry import available_levels, cpu, heuristic
from yuugi.agents.search.dispatch import act
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError


def random_positions(game, n_games=64, steps=120, seed=0):
    """States reached by random play, sampled along the way."""
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(n_games) + 1000 * seed)
    out = []
    for k in range(steps):
        mask = game.legal_mask(st)
        if k % 10 == 0:
            out.append(st.copy())
        game.step(st, random_legal(mask, rng))
        done = np.flatnonzero(st.done)
        if done.size:
            st.put(done, game.init(np.arange(done.size) + 10_000 * (k + 1)))
    return out


def test_random_legal_picks_uniformly_among_legal():
    mask = np.zeros((3, 10), dtype=bool)
    mask[0, [2, 5]] = True
    mask[1, 9] = True
    mask[2, :] = True
    rng = np.random.default_rng(0)
    picks = np.stack([random_legal(mask, rng) for _ in range(4000)])
    assert set(picks[:, 0]) == {2, 5} and abs((picks[:, 0] == 2).mean() - 0.5) < 0.05
    assert (picks[:, 1] == 9).all()
    assert abs(np.bincount(picks[:, 2], minlength=10) / 4000 - 0.1).max() < 0.03


SHIPPED = {game: ["random", "easy", "normal", "hard"] for game in ("ninja_daifugo", "momotaro", "nigejozu", "ninja_slayer")}
# Where a game's hard is offered when its defaults are not among the rules it was checked under
# (tests/agents/test_level_records.py): daifugō's was trained and laddered on single symmetric games.
CHECKED_RULES = {"ninja_daifugo": {"series_games": 1, "ninja": "symmetric"}}


@pytest.mark.parametrize("game_name,level", [(g, lv) for g, levels in SHIPPED.items() for lv in levels]
                         + [("ninja_daifugo", p) for p in ("モコ", "ジライヤ", "お館様")])
def test_cpu_policies_never_pick_illegal_actions(game_name, level):
    game = make_game(game_name)
    policy = cpu(game_name, level)
    rng = np.random.default_rng(1)
    for st in random_positions(game):
        live = ~st.done
        mask = game.legal_mask(st)[live]
        obs = game.observe(st, st.to_play)[live]
        playing = st.take(np.flatnonzero(live))  # a search level (ninja_slayer's hard) reads the state
        actions = act(policy, game, playing, playing.to_play.astype(np.int64), obs, mask, rng)
        assert mask[np.arange(len(actions)), actions].all()


def test_mlp_policy_masks_and_round_trips(tmp_path):
    rng = np.random.default_rng(0)
    w = [rng.normal(size=(5, 8)).astype(np.float32), rng.normal(size=(8, 4)).astype(np.float32)]
    b = [np.zeros(8, np.float32), np.array([10.0, 0, 0, 0], np.float32)]  # action 0 favoured
    pol = MLPPolicy(w, b, "relu", {"game": "toy"})
    obs = rng.random((6, 5)).astype(np.float32)
    mask = np.ones((6, 4), dtype=bool)
    mask[:3, 0] = False
    acts = pol.act(obs, mask, rng)
    assert (acts[3:] == 0).all() and (acts[:3] != 0).all()
    pol.save(tmp_path / "toy.npz")
    back = MLPPolicy.load(tmp_path / "toy.npz")
    np.testing.assert_allclose(back.logits(obs), pol.logits(obs), rtol=1e-6)
    assert back.meta == {"game": "toy"} and back.activation == "relu"
    sampled = MLPPolicy(w, b, "relu", deterministic=False).act(obs, mask, rng)
    assert mask[np.arange(6), sampled].all()


def test_epsilon_policy_mixes():
    base = RandomPolicy()
    mask = np.ones((1000, 3), dtype=bool)

    class Zero:
        def act(self, o, m, r):
            return np.zeros(len(m), dtype=np.int64)

    acts = EpsilonPolicy(Zero(), 0.3).act(np.zeros((1000, 1)), mask, np.random.default_rng(0))
    # 30% random of which a third picks 0 again: ~80% zeros.
    assert 0.74 < (acts == 0).mean() < 0.86
    del base


def test_registry_errors(monkeypatch, tmp_path):
    with pytest.raises(OptionError, match="unknown game"):
        cpu("chess", "easy")
    with pytest.raises(OptionError, match="unknown level"):
        cpu("ninja_daifugo", "grandmaster")
    with pytest.raises(OptionError, match="no heuristic"):
        heuristic("chess")
    for game, levels in SHIPPED.items():  # each of these has a resampler, so expert searches it
        own = ["uecda_default"] if game == "ninja_daifugo" else []  # the UECda baseline, daifugō's own level
        assert available_levels(game, **CHECKED_RULES.get(game, {})) == levels + ["expert"] + own
    monkeypatch.setattr("yuugi.agents.shipped.WEIGHTS_DIR", tmp_path)  # a checkout without the weights
    assert available_levels("nigejozu") == ["random", "easy", "normal", "expert"]
    with pytest.raises(OptionError, match="no trained weights"):
        cpu("nigejozu", "hard")


def test_shipped_weights_carry_their_training_record():
    import json

    from yuugi.agents.shipped import WEIGHTS_DIR

    from yuugi.agents.lookahead import looks_ahead

    for game in SHIPPED:
        policy = cpu(game, "hard")
        if looks_ahead(game):  # hard is its network looking a turn ahead: the network is the trained policy
            assert policy.name == "hard" and policy.rollout_spec is policy.guide_spec
            policy = policy.guide_spec
        assert isinstance(policy, MLPPolicy) and policy.meta["game"] == game
        record = json.loads((WEIGHTS_DIR / f"{game}_hard.json").read_text())
        assert record["steps"] > 0 and record["wall_time_s"] > 0 and "seed" in record
        g = make_game(game, **record["rules"])
        # A prior-guided policy reads the observation and the prior (one value per action).
        widened = g.observation_shape[0] + (g.num_actions if policy.prior else 0)
        assert policy.weights[0].shape[0] == widened and record.get("prior") == policy.prior


def test_every_shipped_hard_and_the_default_expert_play_without_torch():
    """The shipped levels run on numpy alone: torch (and the training stack) blocked, each game's
    ``hard`` for every rule set it ships weights for, and ``expert`` with its game's default search
    (whose guide is ``hard`` for nigejozu and momotaro), play a few decisions of real games."""
    import subprocess
    import sys

    code = ("import sys\n"
            "for name in ('torch', 'stable_baselines3', 'sb3_contrib'):\n"
            "    sys.modules[name] = None\n"
            "import numpy as np\n"
            "from yuugi.agents.registry import cpu\n"
            "from yuugi.envs import make_game\n"
            "from yuugi.envs.faces.rollout import policy_table, rollout\n"
            "played = []\n"
            "for game, rules in (('ninja_daifugo', {}), ('nigejozu', {}), ('momotaro', {}),\n"
            "                    ('momotaro', {'num_players': 2}), ('momotaro', {'num_players': 3}),\n"
            "                    ('ninja_slayer', {}), ('ninja_slayer', {'decks': 'sealed'})):\n"
            "    g = make_game(game, **rules)\n"
            "    for level in ('hard', 'expert'):\n"
            "        policy = cpu(game, level, **rules)\n"
            "        if level == 'expert':\n"
            "            policy.think_ms = None\n"
            "        st = g.init(np.arange(2))\n"
            "        steps = [0]\n"
            "        def stop(rows, finished, steps=steps):\n"
            "            steps[0] += 1\n"
            "            return steps[0] >= 6\n"
            "        rollout(g, st, [policy], policy_table(np.zeros((2, g.num_players), dtype=np.int64)),\n"
            "                np.random.default_rng(0), after_round=stop)\n"
            "        played.append((game, g.num_players, level))\n"
            "assert 'torch' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
            "print(len(played))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "14"
