"""yuugi.training.eval.expert_ladder: a run spread over sittings (--resume) gives the games of one sitting."""
from __future__ import annotations

import json

import pytest

from yuugi.training.eval import expert_ladder

# A small, clock-free search (fixed rounds): the run is reproducible, so sittings can be compared.
ARGS = ["nigejozu", "--games", "4", "--batch", "2", "--rounds", "1", "--samples", "2", "--top-n", "2",
        "--guide", "normal", "--rollout", "random", "--against", "easy", "--seed", "3"]


def first_batch_only(path, capsys) -> None:
    """Run ARGS but stop after the first batch, as a run killed mid-way would (its file keeps that batch)."""
    class Stop(Exception):
        pass

    real = expert_ladder.measure

    def one_batch(*a, on_batch=None, **k):
        def save_then_stop(result):
            on_batch(result)
            raise Stop

        return real(*a, on_batch=save_then_stop, **k)

    expert_ladder.measure = one_batch
    try:
        with pytest.raises(Stop):
            expert_ladder.main(ARGS + ["--json", str(path)])
    finally:
        expert_ladder.measure = real
    capsys.readouterr()


def test_resumed_run_equals_one_sitting(tmp_path, capsys):
    whole = tmp_path / "whole.json"
    expert_ladder.main(ARGS + ["--json", str(whole)])
    one = json.loads(whole.read_text())
    assert one["complete"] and len(one["game_scores"]) == 4

    split = tmp_path / "split.json"
    first_batch_only(split, capsys)
    partial = json.loads(split.read_text())
    assert not partial["complete"] and len(partial["game_scores"]) == 2
    expert_ladder.main(ARGS + ["--json", str(split), "--resume"])
    two = json.loads(split.read_text())
    assert two["complete"]
    assert two["game_scores"] == one["game_scores"]
    assert two["score"] == one["score"] and two["score_ci95"] == one["score_ci95"]
    # the search statistics add up over the sittings (decisions are counted, not timed)
    assert two["decisions"] == one["decisions"] and two["rollouts"] == one["rollouts"]
    assert "--resume" not in two["command"]


def test_resume_refuses_other_settings_and_finished_runs(tmp_path, capsys):
    path = tmp_path / "run.json"
    first_batch_only(path, capsys)
    other = [a if a != "easy" else "normal" for a in ARGS]  # another opponent
    with pytest.raises(SystemExit) as e:
        expert_ladder.main(other + ["--json", str(path), "--resume"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "other settings" in err and "'easy'" in err and "'normal'" in err

    expert_ladder.main(ARGS + ["--json", str(path), "--resume"])
    capsys.readouterr()
    with pytest.raises(SystemExit):
        expert_ladder.main(ARGS + ["--json", str(path), "--resume"])
    assert "nothing to resume" in capsys.readouterr().err

    with pytest.raises(SystemExit):
        expert_ladder.main(ARGS + ["--json", str(tmp_path / "missing.json"), "--resume"])
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        expert_ladder.main(ARGS + ["--resume"])
    assert "give --json" in capsys.readouterr().err


def test_a_finished_run_extends_to_more_games(tmp_path, capsys):
    """Game g is the same game in runs of any length: 4 games then 6 is the 6-game run."""
    six = [a if a != "4" else "6" for a in ARGS]
    whole = tmp_path / "six.json"
    expert_ladder.main(six + ["--json", str(whole)])
    grown = tmp_path / "grown.json"
    expert_ladder.main(ARGS + ["--json", str(grown)])
    expert_ladder.main(six + ["--json", str(grown), "--resume"])
    capsys.readouterr()
    one, two = json.loads(whole.read_text()), json.loads(grown.read_text())
    assert two["games"] == 6 and two["complete"]
    assert two["game_scores"] == one["game_scores"] and two["score_ci95"] == one["score_ci95"]


def test_horizon_turns_sets_where_rollouts_stop_and_the_record_says_so(tmp_path, capsys):
    from yuugi.agents.search.game_search import HORIZONS

    shipped = HORIZONS["nigejozu"].turns
    path = tmp_path / "one_turn.json"
    expert_ladder.main(ARGS + ["--horizon-turns", "1", "--json", str(path)])
    assert json.loads(path.read_text())["search"]["horizon"].startswith("1 turn ahead")
    assert HORIZONS["nigejozu"].turns == shipped  # the run's own copy, not the shipped search
    default = tmp_path / "default.json"
    expert_ladder.main(ARGS + ["--json", str(default)])
    assert json.loads(default.read_text())["search"]["horizon"].startswith(f"{shipped} turns ahead")
    capsys.readouterr()
    for game, turns, says in (("momotaro", "2", "does not apply"), ("nigejozu", "0", "at least 1")):
        with pytest.raises(SystemExit) as stop:
            expert_ladder.main([game, "--horizon-turns", turns, "--games", "2"])
        assert stop.value.code == 2 and says in capsys.readouterr().err
