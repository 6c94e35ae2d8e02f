"""ninja_slayer's training setup for ``hard`` (mixed decks, the tuned heuristic's action prior) and the
per-seat ladder tool that rates the levels (``yuugi.training.eval.slayer_ladder``)."""
from __future__ import annotations

import numpy as np


def test_ladder_scores_each_seat_on_its_own() -> None:
    import numpy as np

    from yuugi.training.eval.slayer_ladder import play_step, summary

    # Four games: won by 2, won by 2, lost by 2, a draw: ahead = (1 + 1 + 0 + ½) / 4, one draw.
    s = summary(np.array([2.0, 2.0, -2.0, 0.0]), seed=0)
    assert s["games"] == 4 and s["score"] == 0.5 and s["ahead"] == 0.625 and s["draws"] == 1
    assert not s["decided"]  # four games cannot exclude a tie with this spread
    lo, hi = s["score_ci95"]
    assert -2.0 <= lo <= 0.5 <= hi <= 2.0
    assert summary(np.full(50, 2.0), seed=0)["decided"]
    # The stronger side sits at seat g mod 2 in game g, and its score is its return minus the other's.
    from yuugi.agents.registry import cpu
    from yuugi.envs import make_game

    game = make_game("ninja_slayer", decks="D1")
    played = play_step(game, cpu("ninja_slayer", "normal"), cpu("ninja_slayer", "random"), games=6, seed=3,
                       rng=np.random.default_rng(0))
    np.testing.assert_array_equal(played[:, 0], [0, 1, 0, 1, 0, 1])
    assert set(played[:, 1]) <= {-2.0, 0.0, 2.0} and played[:, 1].mean() > 0


def test_training_plays_mixed_decks_guided_by_the_heuristic() -> None:
    from yuugi.training.train.selfplay import TRAIN_RULES, TrainConfig

    assert TRAIN_RULES["ninja_slayer"] == {"decks": "any"}
    cfg = TrainConfig.for_game("ninja_slayer")
    assert cfg.prior_name() == "ninja_slayer_tuned" and cfg.bc_decisions == 0
    assert cfg.pool_size == 0  # trained against normal, the level it must beat


def test_prior_guided_policy_with_a_dominant_prior_plays_the_heuristics_choice() -> None:
    from yuugi.agents.heuristics.ninja_slayer import NinjaSlayerHeuristic
    from yuugi.agents.mlp import MLPPolicy
    from yuugi.agents.priors import FLOOR, make_prior
    from yuugi.envs import make_game

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


def test_a_step_appended_to_a_saved_ladder_may_play_more_games(tmp_path) -> None:
    import json

    import pytest

    from yuugi.training.eval.slayer_ladder import main

    path = str(tmp_path / "ladder.json")
    assert main(["--levels", "random", "easy", "--games", "4", "--seed", "3", "--rule", "decks=D1",
                 "--save", path]) == 0
    assert main(["--levels", "easy", "normal", "--games", "6", "--seed", "3", "--rule", "decks=D1",
                 "--save", path, "--append", "--plot", str(tmp_path / "ladder.png")]) == 0
    record = json.loads(open(path).read())
    assert [(s["weaker"], s["stronger"], s["games"]) for s in record["steps"]] == [("random", "easy", 4),
                                                                                 ("easy", "normal", 6)]
    assert record["games_per_step"] == [4, 6] and len(record["commands"]) == 2
    # a ladder appended to before can be appended to again
    assert main(["--levels", "normal", "hard=normal", "--games", "2", "--seed", "3", "--rule", "decks=D1",
                 "--save", path, "--append"]) == 0
    record = json.loads(open(path).read())
    assert record["games_per_step"] == [4, 6, 2] and len(record["commands"]) == 3
    with pytest.raises(SystemExit, match="other seed"):  # another seed's deals are not the same ladder
        main(["--levels", "normal", "hard=normal", "--games", "4", "--seed", "4", "--rule", "decks=D1",
              "--save", path, "--append"])
