"""ninja_slayer's ``hard`` (plays with numpy only; its weights say what they were trained on), the action
prior its training starts from, and the per-seat ladder tool that rates it (``training.slayer_ladder``).

The tests of the shipped weights run once ``agents/weights/ninja_slayer_hard.npz`` exists: ``hard`` is
shipped only when it beats ``normal`` on the ladder (training so far has not, see the training notes).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
WEIGHTS = ROOT / "agents" / "weights"
shipped = pytest.mark.skipif(not (WEIGHTS / "ninja_slayer_hard.npz").exists(),
                             reason="ninja_slayer's hard is not shipped (it has not beaten normal yet)")

# With torch (and the rest of the training stack) made unimportable, build ``hard`` through the
# registry and play whole games against ``normal`` on constructed and sealed decks; every action
# must be legal and the games must end. Then torch must still be absent from the process.
_PLAY_WITHOUT_TORCH = """
import sys
for name in ("torch", "stable_baselines3", "sb3_contrib"):
    sys.modules[name] = None  # any `import name` now raises ImportError
import numpy as np
from agents.mlp import MLPPolicy
from agents.registry import available_levels, cpu
from envs import make_game

for decks in ("constructed", "sealed"):
    assert "hard" in available_levels("ninja_slayer", decks=decks), decks
    hard, normal = cpu("ninja_slayer", "hard", decks=decks), cpu("ninja_slayer", "normal")
    assert isinstance(hard, MLPPolicy)
    game = make_game("ninja_slayer", decks=decks)
    st = game.init(np.arange(6))
    rng = np.random.default_rng(0)
    hard_seat = np.arange(6) % 2
    moves = 0
    while not st.done.all():
        live = np.flatnonzero(~st.done)
        seats = st.to_play[live].astype(np.int64)
        obs, mask = game.observe(st, st.to_play)[live], game.legal_mask(st)[live]
        actions = np.zeros(st.batch_size, dtype=np.int64)
        mine = seats == hard_seat[live]
        if mine.any():
            actions[live[mine]] = hard.act(obs[mine], mask[mine], rng)
            moves += int(mine.sum())
        if (~mine).any():
            actions[live[~mine]] = normal.act(obs[~mine], mask[~mine], rng)
        assert mask[np.arange(len(live)), actions[live]].all(), "an illegal action"
        game.step(st, actions, active=~st.done)
    assert moves > 50, moves
assert [m for m in ("torch", "stable_baselines3", "sb3_contrib") if sys.modules.get(m) is not None] == []
print("ok")
"""


@shipped
def test_hard_plays_whole_games_with_torch_blocked() -> None:
    done = subprocess.run([sys.executable, "-c", _PLAY_WITHOUT_TORCH], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@shipped
def test_hard_weights_record_their_decks_and_options() -> None:
    from agents.registry import cpu
    from agents.weights_format import read_signature
    from envs import make_game

    record = json.loads((WEIGHTS / "ninja_slayer_hard.json").read_text())
    # Trained over mixed decks: each seat's deck is any of D1–D4 or a fresh sealed deck, per game.
    assert record["game"] == "ninja_slayer" and record["rules"]["decks"] in ("any", ["any", "any"])
    assert record["steps"] > 0 and record["wall_time_s"] > 0
    signature = read_signature(WEIGHTS / "ninja_slayer_hard.npz")
    assert signature["options"]["decks"] == ["any", "any"]
    assert signature["rules"] == record["rules"]
    # The options recorded are every option of the game, so the rule set can be rebuilt from them.
    assert make_game("ninja_slayer", **signature["options"]).num_actions == signature["num_actions"] == 293
    assert cpu("ninja_slayer", "hard").meta["rules"] == record["rules"]


def test_ladder_scores_each_seat_on_its_own() -> None:
    import numpy as np

    from training.slayer_ladder import play_step, summary

    # Four games: won by 2, won by 2, lost by 2, a draw: ahead = (1 + 1 + 0 + ½) / 4, one draw.
    s = summary(np.array([2.0, 2.0, -2.0, 0.0]), seed=0)
    assert s["games"] == 4 and s["score"] == 0.5 and s["ahead"] == 0.625 and s["draws"] == 1
    assert not s["decided"]  # four games cannot exclude a tie with this spread
    lo, hi = s["score_ci95"]
    assert -2.0 <= lo <= 0.5 <= hi <= 2.0
    assert summary(np.full(50, 2.0), seed=0)["decided"]
    # The stronger side sits at seat g mod 2 in game g, and its score is its return minus the other's.
    from agents.registry import cpu
    from envs import make_game

    game = make_game("ninja_slayer", decks="D1")
    played = play_step(game, cpu("ninja_slayer", "normal"), cpu("ninja_slayer", "random"), games=6, seed=3,
                       rng=np.random.default_rng(0))
    np.testing.assert_array_equal(played[:, 0], [0, 1, 0, 1, 0, 1])
    assert set(played[:, 1]) <= {-2.0, 0.0, 2.0} and played[:, 1].mean() > 0


def test_training_plays_mixed_decks_guided_by_the_heuristic() -> None:
    from training.selfplay import TRAIN_RULES, TrainConfig

    assert TRAIN_RULES["ninja_slayer"] == {"decks": "any"}
    cfg = TrainConfig.for_game("ninja_slayer")
    assert cfg.prior_name() == "ninja_slayer_heuristic" and cfg.bc_decisions == 0


def test_prior_guided_policy_with_a_dominant_prior_plays_the_heuristics_choice() -> None:
    from agents.heuristics.ninja_slayer import NinjaSlayerHeuristic
    from agents.mlp import MLPPolicy
    from agents.priors import FLOOR, make_prior
    from envs import make_game

    game = make_game("ninja_slayer", decks="any")
    rng = np.random.default_rng(5)
    st = game.init(np.arange(48))
    for _ in range(30):  # random play into the middle of games
        mask = game.legal_mask(st)
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        game.step(st, acts, active=~st.done)
    live = ~st.done
    obs, mask = game.observe(st, st.to_play)[live], game.legal_mask(st)[live]
    multi = mask.sum(axis=1) > 1
    assert multi.sum() >= 10
    prior = make_prior("ninja_slayer_heuristic")(obs, mask)
    assert np.all(prior[~mask] == FLOOR) and np.all((prior >= FLOOR) & (prior <= 0.0))
    n_obs, n_act, hidden = obs.shape[1], mask.shape[1], 8
    w0 = rng.normal(0, 0.01, (n_obs + n_act, hidden)).astype(np.float32)
    head = np.concatenate([rng.normal(0, 0.01, (hidden, n_act)), 100.0 * np.eye(n_act)]).astype(np.float32)
    pol = MLPPolicy([w0, head], [np.zeros(hidden, np.float32), np.zeros(n_act, np.float32)], "tanh",
                    prior="ninja_slayer_heuristic")
    chosen = pol.act(obs, mask, rng)
    assert mask[np.arange(len(chosen)), chosen].all()
    # Where there is a choice, the action played is one the heuristic scores best (ties aside).
    scores = np.where(mask, NinjaSlayerHeuristic().scores(obs, mask), -np.inf)
    picked = scores[np.arange(len(chosen)), chosen]
    assert np.all(picked[multi] >= scores.max(axis=1)[multi] - 1e-6)
