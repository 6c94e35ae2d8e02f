"""yuugi.training.eval.expert_ladder: a run spread over sittings (--resume) gives the games of one sitting."""
from __future__ import annotations

import json

import numpy as np
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


def test_value_network_values_the_horizon_with_that_file_and_the_record_names_it(tmp_path, capsys):
    from yuugi.agents.search.game_search import HORIZONS
    from yuugi.agents.search.valued_horizon import ValuedTurnsAhead
    from yuugi.agents.win_network import WinNetwork

    shipped = ValuedTurnsAhead(1).for_game(expert_ladder.make_game("nigejozu"))._valued.network
    mine = tmp_path / "mine.npz"
    shipped.save(mine)
    path = tmp_path / "run.json"
    expert_ladder.main(ARGS + ["--value-network", str(mine), "--json", str(path)])
    assert json.loads(path.read_text())["search"]["horizon"].endswith("valued by the win network mine.npz")
    assert HORIZONS["nigejozu"].network is None  # the run's own copy, not the shipped search
    capsys.readouterr()
    other_inputs = tmp_path / "three_inputs.npz"
    WinNetwork([np.ones((3, 1), np.float32)], [np.zeros(1, np.float32)]).save(other_inputs)
    for game, network, says in (("momotaro", str(mine), "does not apply"),
                                ("nigejozu", str(tmp_path / "absent.npz"), "is not a file"),
                                ("nigejozu", str(other_inputs), "reads")):
        with pytest.raises(SystemExit) as stop:
            expert_ladder.main([game, "--value-network", network, "--games", "2"])
        assert stop.value.code == 2 and says in capsys.readouterr().err


def test_mirror_plays_each_deal_from_every_seat_and_cancels_a_seats_luck(tmp_path, capsys, monkeypatch):
    """A game whose seat 0 always wins: unmirrored the expert's score swings with its seat, mirrored each
    deal's two games cancel, so the score is 0 with an interval of width 0."""
    dealt = []

    def seat_zero_wins(game, seating, policies, seeds, rng):
        dealt.append((np.asarray(seeds).copy(), seating.copy()))
        return np.tile([1.0, -1.0], (len(seeds), 1))

    monkeypatch.setattr(expert_ladder, "play_games", seat_zero_wins)
    mirrored = tmp_path / "mirrored.json"
    expert_ladder.main(ARGS + ["--mirror", "--seed-base", "50", "--json", str(mirrored)])
    seeds = np.concatenate([s for s, _ in dealt])
    expert_seat = np.concatenate([np.argmin(seating, axis=1) for _, seating in dealt])
    assert seeds.tolist() == [50, 50, 51, 51] and expert_seat.tolist() == [0, 1, 0, 1]
    record = json.loads(mirrored.read_text())
    assert record["mirror"] is True and record["game_scores"] == [2.0, -2.0, 2.0, -2.0]
    assert record["score"] == 0.0 and record["score_ci95"] == [0.0, 0.0]
    assert record["seeds"].startswith("50..51, each dealt 2 times")
    plain = tmp_path / "plain.json"
    expert_ladder.main(ARGS + ["--seed-base", "50", "--json", str(plain)])
    assert "mirror" not in json.loads(plain.read_text())
    assert json.loads(plain.read_text())["score_ci95"][1] > 0.0  # games scored ±2 without their pairs
    capsys.readouterr()
    for extra, says in ((["--layout", "alternate"], "field layout"), (["--games", "3"], "multiples of 2")):
        with pytest.raises(SystemExit) as stop:
            expert_ladder.main(ARGS + ["--mirror"] + extra)
        assert stop.value.code == 2 and says in capsys.readouterr().err
