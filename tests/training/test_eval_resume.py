"""Ctrl-C during ``yuugi eval`` keeps the finished pairings; ``--resume`` finishes them as an unbroken run would."""
from __future__ import annotations

import importlib
import json

import pytest
from yuugi.training.eval import evaluate

# the module, not the package's re-exported function of the same name
cli = importlib.import_module("yuugi.training.cli.main")

ARGS = ["eval", "nigejozu", "--levels", "random", "easy", "normal", "--games", "12", "--seed", "3"]


def _interrupt_on_call(monkeypatch, calls: int) -> None:
    """Ctrl-C arrives during the ``calls``-th batch of games (one batch per pairing at this size)."""
    real = evaluate.play_games
    seen = {"n": 0}

    def play_games(*args, **kwargs):
        seen["n"] += 1
        if seen["n"] == calls:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(evaluate, "play_games", play_games)


def _record(path) -> dict:
    return json.loads(path.read_text())


def test_interrupted_eval_keeps_its_pairings_and_resume_matches_an_unbroken_run(tmp_path, monkeypatch, capsys):
    whole = tmp_path / "whole.json"
    assert cli.main(ARGS + ["--save", str(whole)]) == 0
    capsys.readouterr()

    broken = tmp_path / "broken.json"
    with monkeypatch.context() as m:
        _interrupt_on_call(m, 3)  # pairings 1 and 2 finish, the third is cut
        assert cli.main(ARGS + ["--save", str(broken)]) == 130
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert lines == [f"yuugi eval: interrupted with 2 of 3 pairings finished, saved in {broken}; "
                     "finish them with the same command and --resume"]
    assert "Traceback" not in captured.out + captured.err
    saved = _record(broken)
    assert not saved["complete"] and [(p["a"], p["b"]) for p in saved["pairings"]] == [("random", "easy"),
                                                                                       ("random", "normal")]
    assert saved["pairings"] == _record(whole)["pairings"][:2]

    assert cli.main(ARGS + ["--save", str(broken), "--resume"]) == 0
    resumed, unbroken = _record(broken), _record(whole)
    assert resumed["complete"] and "resume" not in resumed
    assert resumed["pairings"] == unbroken["pairings"] and resumed["ratings"] == unbroken["ratings"]


def test_resume_refuses_other_settings_and_finished_runs(tmp_path, monkeypatch, capsys):
    saved = tmp_path / "part.json"
    with monkeypatch.context() as m:
        _interrupt_on_call(m, 2)
        assert cli.main(ARGS + ["--save", str(saved)]) == 130
    capsys.readouterr()
    other_seed = [a if a != "3" else "4" for a in ARGS]
    assert cli.main(other_seed + ["--save", str(saved), "--resume"]) == 2
    assert "other settings: seed (saved 3, now 4)" in capsys.readouterr().err
    assert cli.main(ARGS + ["--save", str(saved), "--resume"]) == 0
    capsys.readouterr()
    assert cli.main(ARGS + ["--save", str(saved), "--resume"]) == 2
    assert "holds a finished evaluation" in capsys.readouterr().err
    assert cli.main(ARGS + ["--save", str(tmp_path / "none.json"), "--resume"]) == 2
    assert "does not exist (nothing to resume)" in capsys.readouterr().err


def test_interrupted_eval_without_save_shows_what_finished(monkeypatch, capsys):
    _interrupt_on_call(monkeypatch, 2)
    assert cli.main(ARGS) == 130
    captured = capsys.readouterr()
    assert "random" in captured.out and "easy" in captured.out  # the finished pairing's table
    (line,) = captured.err.strip().splitlines()
    assert line.startswith("yuugi eval: interrupted with 1 of 3 pairings finished") and "--save FILE" in line


def test_evaluate_resume_state_round_trips_through_json():
    from yuugi.agents.registry import cpu

    policies = {lv: cpu("nigejozu", lv) for lv in ("random", "easy", "normal")}
    states = []
    whole = evaluate.evaluate("nigejozu", policies, games=10, seed=1, on_pairing=lambda r, s: states.append(s))
    assert len(states) == 3
    again = evaluate.evaluate("nigejozu", policies, games=10, seed=1, resume=json.loads(json.dumps(states[0])))
    assert again.pairings == whole.pairings and again.ratings == whole.ratings


@pytest.mark.parametrize("games", [0, -5, 2.5, True])
def test_evaluate_refuses_a_games_count_that_is_not_positive(games):
    from yuugi.agents.registry import cpu

    with pytest.raises(ValueError, match="games must be a positive integer"):
        evaluate.evaluate("nigejozu", {lv: cpu("nigejozu", lv) for lv in ("random", "easy")}, games=games)


FIELD = ["eval", "momotaro", "--rule", "num_players=4", "--levels", "random", "easy", "--policy", "e2=easy",
         "--layout", "field", "--games", "8", "--seed", "5"]


def test_a_field_layout_run_with_a_policy_of_ones_own_resumes_exactly(tmp_path, monkeypatch, capsys):
    whole = tmp_path / "whole.json"
    assert cli.main(FIELD + ["--save", str(whole)]) == 0
    broken = tmp_path / "broken.json"
    with monkeypatch.context() as m:
        _interrupt_on_call(m, 2)
        assert cli.main(FIELD + ["--save", str(broken)]) == 130
    saved = _record(broken)
    assert saved["layout"] == "field" and saved["policies"] == {"e2": "easy"} and len(saved["pairings"]) == 1
    capsys.readouterr()
    alternate = [a if a != "field" else "alternate" for a in FIELD]
    assert cli.main(alternate + ["--save", str(broken), "--resume"]) == 2
    assert 'layout (saved "field", now "alternate")' in capsys.readouterr().err
    other = [a if a != "e2=easy" else "e2=normal" for a in FIELD]
    assert cli.main(other + ["--save", str(broken), "--resume"]) == 2
    assert "policies (saved" in capsys.readouterr().err
    assert cli.main(FIELD + ["--save", str(broken), "--resume"]) == 0
    resumed, unbroken = _record(broken), _record(whole)
    assert resumed["pairings"] == unbroken["pairings"] and resumed["ratings"] == unbroken["ratings"]
