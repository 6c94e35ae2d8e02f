"""A bad command line is one line naming the problem and the valid choices, exit status 2, no traceback."""
from __future__ import annotations

import importlib

import pytest
from yuugi.training.play.play import play

# the module, not the package's re-exported function of the same name
cli = importlib.import_module("yuugi.training.cli.main")


def _one_line_error(capsys, argv: list[str]) -> str:
    code = cli.main(argv)
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2, captured
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err + captured.out
    return lines[0]


# argv -> what the line must say (the problem, then the valid choices or range)
CASES = {
    "unknown game (eval)": (["eval", "chess"], ["unknown game 'chess'", "momotaro", "nigejozu", "ninja_daifugo"]),
    "unknown game (play)": (["play", "chess"], ["unknown game 'chess'", "choose from"]),
    "unknown game (train)": (["train", "chess"], ["unknown game 'chess'", "choose from"]),
    "unknown game (bench)": (["bench", "chess"], ["unknown game 'chess'", "choose from"]),
    "unknown level (eval)": (["eval", "nigejozu", "--levels", "normal", "grandmaster"],
                             ["unknown level 'grandmaster' for nigejozu", "random, easy, normal, hard"]),
    "unknown level (play)": (["play", "ninja_daifugo", "--level", "boss"],
                             ["unknown level 'boss'", "random, easy, normal, hard", "お館様"]),
    "unknown option": (["eval", "momotaro", "--rule", "colour=red"],
                       ["unknown momotaro option(s) ['colour']", "num_players"]),
    "bad option value": (["play", "momotaro", "--rule", "num_players=7"], ["num_players", "7"]),
    "rule without =": (["eval", "momotaro", "--rule", "num_players"], ["--rule expects KEY=VALUE"]),
    "seat out of range": (["play", "momotaro", "--seat", "5"], ["--seat must be 0..3", "4 players", "got 5"]),
    "seat out of range for 2 players": (["play", "momotaro", "--seat", "2", "--rule", "num_players=2"],
                                        ["--seat must be 0..1"]),
    "negative seat": (["play", "nigejozu", "--seat", "-1"], ["--seat", "at least 0", "-1"]),
    "negative seed (eval)": (["eval", "nigejozu", "--seed", "-1"], ["--seed", "0..4294967295", "-1"]),
    "negative seed (play)": (["play", "nigejozu", "--seed", "-1"], ["--seed", "0..4294967295"]),
    "negative seed (train)": (["train", "nigejozu", "--seed", "-1"], ["--seed", "0..4294967295"]),
    "huge seed": (["eval", "nigejozu", "--seed", str(2**64)], ["--seed", "0..4294967295"]),
    "zero games": (["eval", "nigejozu", "--games", "0"], ["--games", "at least 1", "got 0"]),
    "games not a number": (["eval", "nigejozu", "--games", "many"], ["--games", "expected an integer"]),
    "zero steps": (["train", "nigejozu", "--steps", "0"], ["--steps", "at least 1"]),
    "zero envs": (["train", "nigejozu", "--envs", "0"], ["--envs", "at least 1"]),
    "negative minutes": (["train", "nigejozu", "--minutes", "-3"], ["--minutes", "positive"]),
    "one level only": (["eval", "nigejozu", "--levels", "normal"], ["at least two levels"]),
    "a level twice": (["eval", "nigejozu", "--levels", "normal", "normal"], ["normal more than once"]),
    "resume without save": (["eval", "nigejozu", "--resume"], ["--resume", "--save"]),
    "no command": ([], ["required", "command"]),
    "serve: port out of range": (["serve", "--port", "99999"], ["--port", "0..65535"]),
    "serve: rules without a game": (["serve", "--rule", "ninja=off"], ["need the GAME"]),
    "serve: level and opponent": (["serve", "nigejozu", "--level", "hard", "--opponent", "x.npz"], ["not both"]),
    "serve: unknown level": (["serve", "nigejozu", "--level", "grandmaster"], ["unknown level 'grandmaster'"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_command_line_is_one_line_and_status_2(capsys, case):
    argv, says = CASES[case]
    line = _one_line_error(capsys, argv)
    for text in says:
        assert text in line, line


def test_hard_for_rules_without_weights_is_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("yuugi.agents.shipped.WEIGHTS_DIR", tmp_path)  # a checkout without weights
    line = _one_line_error(capsys, ["eval", "nigejozu", "--levels", "normal", "hard"])
    assert "no trained weights for 'nigejozu'" in line and "yuugi train nigejozu" in line


def test_a_corrupt_init_from_file_is_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really")
    line = _one_line_error(capsys, ["train", "nigejozu", "--init-from", str(bad), "--out", str(tmp_path / "o")])
    assert str(bad) in line and "not a readable" in line
    assert not (tmp_path / "o").exists()  # refused before anything was made


def test_a_model_file_that_is_not_a_runs_is_one_line(capsys, tmp_path):
    import zipfile

    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK\x03\x04 not really")
    line = _one_line_error(capsys, ["train", "nigejozu", "--init-from", str(bad), "--out", str(tmp_path / "o")])
    assert "bad.zip: not a model saved by yuugi train" in line
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("yuugi_meta.json", '{"game": "momotaro"}')
    line = _one_line_error(capsys, ["train", "nigejozu", "--init-from", str(other), "--out", str(tmp_path / "o")])
    assert "saved for momotaro, not nigejozu" in line
    assert not (tmp_path / "o").exists()


def test_bad_recorded_decisions_are_one_line_before_training(capsys, tmp_path):
    import io

    from yuugi.training.train.distill import record, save

    out = tmp_path / "o"
    line = _one_line_error(capsys, ["train", "nigejozu", "--bc-data", str(tmp_path / "none.npz"), "--out", str(out)])
    assert "none.npz: no such file" in line and "yuugi.training.train.distill" in line
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really")
    line = _one_line_error(capsys, ["train", "nigejozu", "--bc-data", str(bad), "--out", str(out)])
    assert "bad.npz: not a file recorded by python -m yuugi.training.train.distill" in line
    labels = tmp_path / "labels.npz"
    save(record("nigejozu", games=1, batch=1, expert_options={"samples": 2, "top_n": 2}, log=io.StringIO()), labels)
    line = _one_line_error(capsys, ["train", "momotaro", "--bc-data", str(labels), "--out", str(out)])
    assert "recorded for nigejozu, not momotaro" in line
    line = _one_line_error(capsys, ["train", "nigejozu", "--bc-data", str(labels), "--init-from", str(labels),
                                    "--out", str(out)])
    assert "--bc-data is the policy's start" in line
    line = _one_line_error(capsys, ["train", "nigejozu", "--engine", "rllib", "--bc-data", str(labels)])
    assert "--bc-data" in line and "--engine sb3" in line
    # Recorded for the game, but at another player count: its observations have another width
    # (momotaro's observation is 56 floats per player plus 144), so nothing trained could use it.
    four = tmp_path / "four_players.npz"
    save(record("momotaro", games=1, batch=1, rules={"num_players": 4}, expert_options={"samples": 2, "top_n": 2},
                log=io.StringIO()), four)
    line = _one_line_error(capsys, ["train", "momotaro", "--rule", "num_players=2", "--bc-data", str(four),
                                    "--out", str(out)])
    assert "four_players.npz: recorded for momotaro with observations (368,)" in line and "(256,)" in line
    assert "--rule" in line
    assert not out.exists()  # refused before anything was made


@pytest.mark.parametrize("flag", ["--save", "--plot"])
def test_save_into_a_missing_folder_fails_before_the_run(capsys, monkeypatch, tmp_path, flag):
    def no_run(*args, **kwargs):
        raise AssertionError("the evaluation must not start")

    monkeypatch.setattr("yuugi.training.eval.evaluate.evaluate", no_run)
    target = tmp_path / "no" / "such" / "ladder.json"
    line = _one_line_error(capsys, ["eval", "nigejozu", "--games", "4", flag, str(target)])
    assert flag in line and str(tmp_path / "no" / "such") in line and "does not exist" in line
    assert not (tmp_path / "no").exists()


def test_save_onto_a_folder_is_refused(capsys, tmp_path):
    line = _one_line_error(capsys, ["eval", "nigejozu", "--games", "4", "--save", str(tmp_path)])
    assert "is a folder" in line


@pytest.mark.parametrize("answer", ["²", "3²", "٠", "０"])
def test_play_reads_only_ascii_digits_as_numbers(answer):
    # '²' passes str.isdigit() but int() refuses it; int() reads '٠' (Arabic-Indic zero) and '０' (full-width
    # zero) as 0, always a legal move's number: none of them is an ASCII number, so each gets the hint.
    answers = iter([answer, "q"])
    said: list[str] = []
    result = play("nigejozu", level="random", seat=0, seed=2, read=lambda prompt: next(answers), write=said.append)
    assert not result["finished"] and "game abandoned." in said
    assert f"'{answer}' is not one of the legal moves" in "\n".join(said)


def test_play_command_seats_hard_for_two_player_momotaro(capsys, monkeypatch):
    answers = iter(["q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert cli.main(["play", "momotaro", "--level", "hard", "--rule", "num_players=2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "against a hard CPU." in out and "game abandoned." in out  # one opponent: one CPU


def test_the_installed_command_exits_2_with_one_line():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "yuugi.training.cli.main", "eval", "momotaro", "--games", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ["yuugi eval: error: argument --games: must be at least 1, got 0 "
                                        "(see yuugi eval --help)"]


def test_a_level_outside_its_checked_rules_is_one_warning_line(capsys):
    """daifugō's hard was checked only under series_games=1, ninja='symmetric': under series_games=1 with
    the faithful ninja layer, eval still rates it when asked by name, and says so in one line."""
    from yuugi.agents import level_records

    level_records._WARNED.clear()
    assert cli.main(["eval", "ninja_daifugo", "--rule", "series_games=1", "--levels", "normal", "hard",
                     "--games", "2"]) == 0
    err = capsys.readouterr().err.splitlines()
    said = [line for line in err if "checked against normal only under" in line]
    assert len(said) == 1 and said[0].startswith("yuugi eval: warning: ninja_daifugo hard")
    assert not [line for line in err if "main.py" in line or "Traceback" in line]
