"""The command line: play driven by scripted input, bench, list."""
from __future__ import annotations

import json

from training import cli
from training.play import play


def test_play_survives_a_typo_and_finishes_the_game():
    answers = iter(["not a move", "999"] + ["0"] * 500)
    said: list[str] = []
    result = play("ninja_daifugo", level="easy", seat=0, seed=3, read=lambda prompt: next(answers),
                  write=said.append, series_games=1)
    assert result["finished"]
    text = "\n".join(said)
    assert "'not a move' is not one of the legal moves" in text
    assert "'999' is not one of the legal moves" in text
    assert "legal moves: [0]" in text and "your total reward" in text
    # A single game: the person's reward is one of the finishing rewards.
    assert round(result["reward"], 3) in (1.0, 0.333, -0.333, -1.0)


def test_play_by_move_name_and_quit():
    said: list[str] = []
    answers = iter(["q"])
    result = play("ninja_daifugo", seat=0, seed=1, read=lambda p: next(answers), write=said.append, series_games=1,
                  ninja="off")
    assert not result["finished"] and "game abandoned." in said


def test_cli_bench_json(capsys):
    assert cli.main(["bench", "ninja_daifugo", "--batch", "4", "--seconds", "0.2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["ours"]
    assert {r["face"] for r in rows} == {"aec", "core"}
    assert all(r["decisions"] > 0 for r in rows)


def test_cli_bench_with_peers_prints_ratios(capsys):
    assert cli.main(["bench", "nigejozu", "--batch", "16", "--seconds", "0.2", "--peers"]) == 0
    out = capsys.readouterr().out
    assert "os:dou_dizhu" in out and "x" in out.splitlines()[-1]


def test_cli_list(capsys):
    assert cli.main(["list"]) == 0
    assert "ninja_daifugo" in capsys.readouterr().out


def test_cli_train_uses_the_games_training_settings(tmp_path, capsys):
    # nigejozu trains prior-guided with the chip-margin reward, without cloning, unless told otherwise.
    assert cli.main(["train", "nigejozu", "--steps", "64", "--envs", "4", "--out", str(tmp_path)]) == 0
    record = json.loads((tmp_path / "nigejozu_hard.json").read_text())
    assert record["prior"] == "nigejozu_heuristic" and record["bc_losses"] == []
    assert record["rules"] == {"reward_scheme": "score_diff"} and record["config"]["pool_size"] == 0
    assert "weights:" in capsys.readouterr().out
