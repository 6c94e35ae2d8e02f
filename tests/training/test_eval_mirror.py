"""``yuugi eval --mirror``: each deal played from every seating of the layout, so a deal's luck cancels."""
from __future__ import annotations

import csv
import importlib
import io
import json

import numpy as np
import pytest
from yuugi.training.eval import evaluate
from yuugi.training.eval.mirror import MirrorError

# the module, not the package's re-exported function of the same name
cli = importlib.import_module("yuugi.training.cli.main")


def first_legal(observation, mask, rng):
    """Deterministic: the lowest legal action, whoever plays it."""
    return mask.argmax(axis=1).astype(np.int64)


def _dealt(monkeypatch) -> list[tuple[np.ndarray, np.ndarray]]:
    """Record each batch's seeds and seating as evaluate plays them (the games themselves are played)."""
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    real = evaluate.play_games

    def play_games(game, seating, policies, seeds, rng, on_finished=None):
        seen.append((np.asarray(seeds).copy(), seating.copy()))
        return real(game, seating, policies, seeds, rng, on_finished=on_finished)

    monkeypatch.setattr(evaluate, "play_games", play_games)
    return seen


@pytest.mark.parametrize("game_name,rules,layout,per_deal", [
    ("nigejozu", {}, "alternate", 2),
    ("momotaro", {"num_players": 4}, "field", 4),
    ("momotaro", {"num_players": 4}, "alternate", 2),
    ("momotaro", {"num_players": 3}, "field", 3),
])
def test_each_deal_is_played_from_every_seating_in_games_in_a_row(monkeypatch, game_name, rules, layout, per_deal):
    seen = _dealt(monkeypatch)
    games = 2 * per_deal
    evaluate.evaluate(game_name, {"A": first_legal, "B": first_legal}, games=games, seed=2, rules=rules,
                      layout=layout, mirror=True)
    seeds = np.concatenate([s for s, _ in seen])
    seating = np.concatenate([lay for _, lay in seen])
    first = 2 * evaluate.SEED_STRIDE
    assert seeds.tolist() == [first] * per_deal + [first + 1] * per_deal
    for deal in (seating[:per_deal], seating[per_deal:]):
        assert len({tuple(row) for row in deal}) == per_deal  # every seating once
        a_seats = (deal == 0).sum(axis=0)
        assert len(set(a_seats.tolist())) == 1  # A sat at every seat equally often within the deal


@pytest.mark.parametrize("game_name,rules,layout", [
    ("nigejozu", {}, "alternate"),
    ("momotaro", {"num_players": 4}, "field"),
    ("momotaro", {"num_players": 4}, "alternate"),
    ("ninja_slayer", {}, "field"),
])
def test_a_deterministic_policy_against_itself_scores_exactly_zero_on_every_deal(game_name, rules, layout):
    """The same deterministic play from every seating: whatever the deal gives one seat, A has it once and
    B has it as often, so each deal's scores sum to 0, and the interval over deals is [0, 0]."""
    result = evaluate.evaluate(game_name, {"A": first_legal, "B": first_legal}, games=8, seed=1, rules=rules,
                               layout=layout, mirror=True)
    (pairing,) = result.pairings
    assert pairing.games == 8
    assert pairing.score_mean == pytest.approx(0.0, abs=1e-12)
    assert pairing.score_ci == pytest.approx((0.0, 0.0), abs=1e-12)


def test_a_games_count_that_splits_a_deal_is_refused():
    with pytest.raises(MirrorError, match="multiple of 4, got 6"):
        evaluate.evaluate("momotaro", {"A": first_legal, "B": first_legal}, games=6, rules={"num_players": 4},
                          layout="field", mirror=True)


def test_cli_mirror_is_recorded_in_json_and_csv_and_a_split_deal_is_one_line(capsys):
    base = ["eval", "nigejozu", "--levels", "random", "easy", "--games", "4", "--mirror"]
    assert cli.main(base + ["--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["mirror"] is True and "mirrored: games 2d to 2d+1 play deal d" in record["seating"]
    assert cli.main(base + ["--format", "csv"]) == 0
    (row,) = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["mirror"] == "yes"
    assert cli.main(["eval", "momotaro", "--levels", "random", "easy", "--games", "6", "--mirror",
                     "--layout", "field"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--mirror" in err and "multiple of 4, got 6" in err and "Traceback" not in err


def test_resume_keeps_mirror_as_a_setting_and_reads_older_saves_as_unmirrored(tmp_path, monkeypatch, capsys):
    args = ["eval", "nigejozu", "--levels", "random", "easy", "normal", "--games", "4", "--seed", "3"]
    part = tmp_path / "part.json"
    real, calls = evaluate.play_games, []

    def cut_at_the_second_pairing(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    with monkeypatch.context() as m:
        m.setattr(evaluate, "play_games", cut_at_the_second_pairing)
        assert cli.main(args + ["--save", str(part)]) == 130
    capsys.readouterr()
    assert cli.main(args + ["--mirror", "--save", str(part), "--resume"]) == 2
    assert "other settings: mirror (saved false, now true)" in capsys.readouterr().err
    older = json.loads(part.read_text())
    del older["mirror"]  # saved before evaluations recorded it: those runs were unmirrored
    part.write_text(json.dumps(older))
    assert cli.main(args + ["--save", str(part), "--resume"]) == 0
    assert json.loads(part.read_text())["complete"]
