"""The command line: play driven by scripted input, bench, list."""
from __future__ import annotations

import importlib
import json

from yuugi.training.play.play import play

# the module, not the package's re-exported function of the same name
cli = importlib.import_module("yuugi.training.cli.main")


def test_play_survives_a_typo_and_finishes_the_game():
    answers = iter(["not a move", "999"] + ["0"] * 500)
    said: list[str] = []
    result = play("ninja_daifugo", level="easy", seat=0, seed=3, read=lambda prompt: next(answers),
                  write=said.append, series_games=1)
    assert result["finished"]
    text = "\n".join(said)
    assert "'not a move' is not one of the legal moves" in text
    assert "'999' is not one of the legal moves" in text
    assert "you may:" in text and "your total reward" in text
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
    record = json.loads((tmp_path / "nigejozu_seed0.json").read_text())
    assert record["prior"] == "nigejozu_heuristic" and record["bc_losses"] == []
    assert record["rules"] == {"reward_scheme": "score_diff"} and record["config"]["pool_size"] == 0
    assert "weights:" in capsys.readouterr().out


def _interrupt_after(monkeypatch, holder: object, attr: str, calls: int) -> None:
    """Ctrl-C arrives on the ``calls``-th call of ``holder.attr`` (a function of a module, or a method)."""
    real = getattr(holder, attr)
    seen = {"n": 0}

    def interrupting(*args, **kwargs):
        seen["n"] += 1
        if seen["n"] >= calls:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(holder, attr, interrupting)


def _interrupted_train(capsys, argv: list[str]) -> tuple[str, str]:
    assert cli.main(argv) == 130
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    (line,) = captured.err.strip().splitlines()  # one line, no tqdm or warning noise on stderr
    return line, captured.out


def test_ctrl_c_during_training_saves_a_checkpoint_and_says_where(tmp_path, monkeypatch, capsys, recwarn):
    from yuugi.agents.mlp import MLPPolicy
    from yuugi.training.train.sb3_vec import SB3SelfPlayVecEnv

    _interrupt_after(monkeypatch, SB3SelfPlayVecEnv, "step_wait", 40)
    line, _ = _interrupted_train(capsys, ["train", "nigejozu", "--steps", "100000", "--envs", "4",
                                          "--out", str(tmp_path)])
    saved, whole = sorted((tmp_path / "checkpoints").iterdir(), key=lambda p: p.suffix != ".npz")
    assert line.startswith("yuugi train: interrupted (PPO) at ") and f"checkpoint saved: {saved}" in line
    # The whole model (value net too) is saved beside the actor, and continuing from it is what is offered.
    assert whole == saved.with_suffix(".zip") and f"--init-from {whole}" in line
    # 39 vector steps of 4 games finished before the 40th was cut: the file is named by learner steps.
    assert saved.name == f"nigejozu_seed0_{39 * 4:09d}.npz"
    policy = MLPPolicy.load(saved, game="nigejozu", rules={"reward_scheme": "score_diff"})
    assert policy.meta["interrupted"] and policy.meta["steps"] == 39 * 4
    assert not (tmp_path / "nigejozu_seed0.npz").exists()  # an earlier run's result would not be overwritten
    assert not [w for w in recwarn if "tqdm" in type(w.message).__name__.lower()]  # no progress-bar warnings


def test_ctrl_c_before_learning_leaves_one_checkpoint_and_no_empty_folder(tmp_path, monkeypatch, capsys):
    import yuugi.training.train.imitation

    _interrupt_after(monkeypatch, yuugi.training.train.imitation, "clone", 1)  # during behaviour cloning
    line, _ = _interrupted_train(capsys, ["train", "momotaro", "--rule", "num_players=2", "--bc-decisions", "64",
                                          "--envs", "4", "--out", str(tmp_path)])
    assert sorted(p.name for p in (tmp_path / "checkpoints").iterdir()) == ["momotaro_seed0_000000000.npz",
                                                                            "momotaro_seed0_000000000.zip"]
    assert "interrupted (cloning the heuristic) at 0 learner steps" in line


def test_a_run_is_named_after_itself_and_played_as_your_policy(tmp_path, monkeypatch, capsys):
    # Issue 38, item 2: a user's weights never read as a shipped level, at training or at the table.
    assert cli.main(["train", "nigejozu", "--steps", "64", "--envs", "4", "--out", str(tmp_path),
                     "--name", "mine"]) == 0
    assert f"weights: {tmp_path / 'mine.npz'}" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["mine.json", "mine.npz", "mine_curve.csv",
                                                                         "mine_curve.png", "mine_sb3.zip"]
    out = _play_cli(monkeypatch, capsys, ["nigejozu", "--opponent", str(tmp_path / "mine.npz"), "--seed", "1"])
    assert "against your policy mine." in out and "CPU" not in out.splitlines()[0]
    assert "mine (your policy)" in out  # its seat at the table
    for bad in ("runs/mine", "", ".."):
        assert cli.main(["train", "nigejozu", "--name", bad]) == 2
        assert "--name" in capsys.readouterr().err


def test_training_without_snapshots_makes_no_checkpoints_folder(tmp_path, capsys):
    assert cli.main(["train", "nigejozu", "--steps", "64", "--envs", "4", "--out", str(tmp_path)]) == 0
    assert not (tmp_path / "checkpoints").exists()  # no snapshot was due in 64 steps


def test_cli_train_refuses_cloning_for_a_prior_guided_game(capsys, tmp_path):
    assert cli.main(["train", "nigejozu", "--bc-decisions", "100", "--out", str(tmp_path)]) == 2
    assert "--bc-decisions must be 0" in capsys.readouterr().err


# ---- yuugi play --opponent SPEC: a policy of your own at the table ------------------------------------
def _play_cli(monkeypatch, capsys, argv: list[str]) -> str:
    """``yuugi play`` with the person always typing 0 (the first legal move); the text it wrote."""
    monkeypatch.setattr("builtins.input", lambda prompt="": "0")
    assert cli.main(["play"] + argv) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    assert "your total reward" in captured.out and "game abandoned" not in captured.out  # played to the end
    return captured.out


def _spy_module(tmp_path, monkeypatch, name: str) -> None:
    """A module with a recording Policy object ``POLICY`` and a recording function ``first_legal``."""
    (tmp_path / f"{name}.py").write_text(
        "import numpy as np\n"
        "calls = []\n"
        "def first_legal(observation, mask, rng):\n"
        "    calls.append(('function', len(mask)))\n"
        "    return mask.argmax(axis=1)\n"
        "class LastLegal:\n"
        "    name = 'lastpick'\n"
        "    def act(self, observation, mask, rng):\n"
        "        calls.append(('policy', len(mask)))\n"
        "        return (mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)).astype(np.int64)\n"
        "POLICY = LastLegal()\n")
    monkeypatch.syspath_prepend(str(tmp_path))


def test_play_seats_a_function_named_module_attr(tmp_path, monkeypatch, capsys):
    import importlib

    _spy_module(tmp_path, monkeypatch, "play_spy_function")
    out = _play_cli(monkeypatch, capsys, ["nigejozu", "--opponent", "play_spy_function:first_legal", "--seed", "1"])
    calls = importlib.import_module("play_spy_function").calls
    assert calls and {kind for kind, _ in calls} == {"function"}  # the CPU seat was played by it
    assert "against your policy first_legal." in out


def test_play_seats_a_policy_object_in_every_cpu_seat_of_four(tmp_path, monkeypatch, capsys):
    import importlib

    _spy_module(tmp_path, monkeypatch, "play_spy_policy")
    out = _play_cli(monkeypatch, capsys, ["momotaro", "--opponent", "play_spy_policy:POLICY", "--seed", "2"])
    assert {kind for kind, _ in importlib.import_module("play_spy_policy").calls} == {"policy"}
    assert "against your policy lastpick in 3 seats." in out


def test_play_seats_one_spec_per_cpu_seat_in_order(tmp_path, monkeypatch, capsys):
    _spy_module(tmp_path, monkeypatch, "play_spy_mixed")
    out = _play_cli(monkeypatch, capsys, ["momotaro", "--seat", "1", "--seed", "3", "--opponent", "easy",
                                          "--opponent", "play_spy_mixed:POLICY", "--opponent", "random"])
    assert "against an easy CPU, your policy lastpick and a random CPU." in out


def test_play_seats_exported_weights(tmp_path, monkeypatch, capsys):
    from tests.training.test_eval_policy import make_npz

    path = make_npz(tmp_path / "mynet.npz")
    out = _play_cli(monkeypatch, capsys, ["nigejozu", "--opponent", str(path), "--seed", "1"])
    assert "against your policy mynet." in out


def test_play_seats_a_maskable_ppo_zip(tmp_path, monkeypatch, capsys):
    from tests.training.test_eval_policy import make_maskable_ppo_zip

    path = make_maskable_ppo_zip(tmp_path / "ppo_net.zip")
    out = _play_cli(monkeypatch, capsys, ["nigejozu", "--opponent", str(path), "--seed", "1"])
    assert "against your policy ppo_net." in out


def test_play_refuses_a_bad_opponent_in_one_line(capsys):
    assert cli.main(["play", "nigejozu", "--opponent", "missing.npz"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("yuugi play: error: --opponent missing.npz: ") and "no such file" in line
    assert "module:attr" in line and ".zip" in line
    assert cli.main(["play", "momotaro", "--opponent", "easy", "--opponent", "easy"]) == 2
    assert "one SPEC for every CPU seat, or 3" in capsys.readouterr().err
    assert cli.main(["play", "nigejozu", "--opponent", "easy", "--level", "hard"]) == 2
    assert "not both" in capsys.readouterr().err
