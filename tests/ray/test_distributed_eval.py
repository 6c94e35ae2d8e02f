"""``yuugi eval --workers N`` plays the round-robin as Ray tasks and prints the table a local run prints."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.ray

GAMES = 600  # two chunks of 500 games per pairing: chunks of one pairing run on different workers


def _cli(capsys, argv):
    from yuugi.training.cli.main import main

    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def _network(path, seed):
    """A numpy network for nigejozu with random weights: it plays by argmax, drawing no random numbers."""
    import numpy as np

    from yuugi.agents.mlp import MLPPolicy
    from yuugi.envs import make_game

    rng = np.random.default_rng(seed)
    MLPPolicy([rng.normal(size=(241, 32)), rng.normal(size=(32, 29))], [np.zeros(32), np.zeros(29)]) \
        .for_game(make_game("nigejozu")).save(path)
    return str(path)


def test_distributed_table_equals_the_local_one(local_ray, capsys, tmp_path):
    """Policies that draw no random numbers (the shipped hard network, two argmax networks) play games
    fixed by their seeds, so `yuugi eval --workers 2` prints exactly the local table."""
    argv = ["eval", "nigejozu", "--levels", "hard", "--policy", f"net1={_network(tmp_path / 'a.npz', 1)}",
            "--policy", f"net2={_network(tmp_path / 'b.npz', 2)}", "--games", str(GAMES), "--seed", "3"]
    local = _cli(capsys, argv)
    spread = _cli(capsys, argv + ["--workers", "2"])
    assert spread == local
    assert "net1" in local and "hard" in local


def test_hard_outside_its_checked_rules_is_starred_on_workers_too(local_ray, capsys):
    """nigejozu's hard was checked under its default rules only: under its training rules (score_diff
    rewards) its rows are starred, with the note under the tables, on Ray workers as locally."""
    argv = ["eval", "nigejozu", "--rule", "reward_scheme=score_diff", "--levels", "normal", "hard",
            "--games", str(GAMES), "--seed", "5"]
    local = _cli(capsys, argv)
    spread = _cli(capsys, argv + ["--workers", "2"])
    assert spread == local
    assert "hard*" in local and "* hard:" in local


def test_policies_that_draw_random_numbers_give_the_local_table_too(local_ray, capsys):
    """random and easy draw from a generator of each batch of games (the run's seed, the pairing and
    the batch), in the local evaluator as in a Ray task: the tables are equal."""
    argv = ["eval", "nigejozu", "--levels", "random", "easy", "normal", "--games", str(GAMES), "--seed", "4"]
    local = _cli(capsys, argv)
    spread = _cli(capsys, argv + ["--workers", "2"])
    assert spread == local
    assert "random" in local and "easy" in local


def test_a_mirrored_run_gives_the_local_table_too(local_ray, capsys):
    """Mirrored, a chunk deals game g with deal g // n's seed, as the local evaluator does, so the tables
    (intervals over deals included) are equal; 3 players in the field layout put a deal across the chunks'
    boundary at game 500."""
    argv = ["eval", "momotaro", "--rule", "num_players=3", "--layout", "field", "--mirror", "--levels", "random",
            "easy", "--games", str(GAMES), "--seed", "2"]
    local = _cli(capsys, argv)
    spread = _cli(capsys, argv + ["--workers", "2"])
    assert spread == local
    assert "mirrored: games 3d to 3d+2 play deal d" in local


def test_any_number_of_workers_gives_the_same_result(local_ray):
    """Each chunk has its own generator, so random and easy play the same games on 1 or 2 workers."""
    from yuugi.training.rllib.distributed_eval import evaluate_distributed
    from yuugi.training.eval.evaluate import format_tables

    policies = {"random": "random", "easy": "easy", "normal": "normal"}
    one = evaluate_distributed("nigejozu", policies, games=GAMES, seed=5, workers=1)
    two = evaluate_distributed("nigejozu", policies, games=GAMES, seed=5, workers=2)
    assert format_tables(one) == format_tables(two)
    assert one.ratings == two.ratings
    assert [p.score_mean for p in one.pairings] == [p.score_mean for p in two.pairings]
    # and they are real games: the heuristic beats random by a clear margin
    assert one.pairings[1].a == "random" and one.pairings[1].score_ci[1] < 0


def test_chunk_scores_depend_only_on_the_chunk(local_ray):
    """A chunk played alone gives the scores it gives inside a whole run (no hidden state between chunks)."""
    from yuugi.agents.registry import cpu
    from yuugi.training.rllib.distributed_eval import chunk_scores, evaluate_distributed

    run = evaluate_distributed("nigejozu", {"random": "random", "easy": "easy"}, games=GAMES, seed=9, workers=2)
    second = chunk_scores("nigejozu", {}, cpu("nigejozu", "random"), cpu("nigejozu", "easy"), 0, 1, 500, GAMES, 9,
                          "alternate")
    first = chunk_scores("nigejozu", {}, cpu("nigejozu", "random"), cpu("nigejozu", "easy"), 0, 1, 0, 500, 9,
                         "alternate")
    import numpy as np

    scores = np.concatenate([first, second])
    assert run.pairings[0].score_mean == pytest.approx(float(scores.mean()), abs=1e-12)
