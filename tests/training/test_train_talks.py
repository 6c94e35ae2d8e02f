"""``yuugi train`` says what it is doing, shows the learner's results at every update, keeps to its time
budget from start to end, and gives short runs a curve (issue 38, item 1)."""
from __future__ import annotations

import csv
import importlib
import importlib.util
import json
import subprocess
import sys
import time

import pytest

from yuugi.training.rllib.train import RllibTrainConfig

cli = importlib.import_module("yuugi.training.cli.main")  # the module, not the package's main function
RUN_CLI = "import sys; from yuugi.training.cli.main import main; sys.exit(main())"


def test_a_one_minute_run_ends_within_75_seconds_with_a_reward_line(tmp_path):
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", RUN_CLI, "train", "nigejozu", "--minutes", "1", "--out",
                           str(tmp_path)], capture_output=True, text=True, timeout=180)
    took = time.perf_counter() - began
    assert done.returncode == 0, done.stderr
    assert took < 75, f"{took:.0f} s"
    out = done.stdout
    assert "stops at 2,000,000 learner steps or 1:00 of wall time for the whole run" in out
    assert "ep_rew_mean " in out and "won " in out  # the learner's results, at an update or where it stopped
    assert f"weights: {tmp_path / 'nigejozu_seed0.npz'}" in out


def test_every_phase_is_announced_before_a_line_per_update(tmp_path, capsys):
    assert cli.main(["train", "momotaro", "--rule", "num_players=2", "--bc-decisions", "300", "--steps", "64",
                     "--envs", "4", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    order = ["recording the heuristic's decisions: 300 decisions to clone", "cloning the heuristic: ",
             "epoch 1: loss", "PPO: MaskablePPO against the heuristic", "update 1  steps 256  "]
    at = [out.find(text) for text in order]
    assert -1 not in at and at == sorted(at), out
    # A run shorter than a curve interval (10,000 steps) still gets its point.
    with open(tmp_path / "momotaro_seed0_curve.csv") as f:
        assert len(list(csv.DictReader(f))) >= 1


def test_the_time_budget_covers_the_cloning(tmp_path, capsys):
    # 200,000 decisions to record and clone take longer than half of a 6-second budget, which stops them.
    assert cli.main(["train", "ninja_daifugo", "--minutes", "0.1", "--envs", "8", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "half of the time budget reached: cloning " in out
    meta = json.loads((tmp_path / "ninja_daifugo_seed0.json").read_text())
    # Recording all 200,000 decisions alone takes about four minutes here; the run kept near its 24 s
    # (a loaded machine can overrun the budget by the length of a step it cannot cut: building the model,
    # one cloning epoch, one PPO update).
    assert meta["wall_time_s"] < 60
    assert meta["steps"] > 0  # PPO had its half


def test_help_says_what_minutes_bounds(capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["train", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "wall-clock budget of the whole run, cloning included" in text
    assert "--tensorboard DIR" in text and "--name NAME" in text


def test_tensorboard_without_the_package_is_one_line(capsys, tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "tensorboard" else real(name, *a))
    assert cli.main(["train", "nigejozu", "--tensorboard", str(tmp_path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "--tensorboard" in line and "pip install tensorboard" in line


def test_tensorboard_logs_are_written_on_request(tmp_path, capsys):
    logs = tmp_path / "tb"
    assert cli.main(["train", "nigejozu", "--steps", "64", "--envs", "4", "--out", str(tmp_path),
                     "--tensorboard", str(logs)]) == 0
    assert list(logs.rglob("events.out.tfevents.*"))


def test_a_short_rllib_run_samples_about_its_steps():
    # --steps 100 on nigejozu (2 players): an iteration must hold about 100 learner decisions, not 2,048.
    cfg = RllibTrainConfig(game="nigejozu", total_steps=100, envs_per_worker=64).fitted_to_steps(2)
    per_iteration = cfg.rollout_length * cfg.envs_per_worker / 2  # learner decisions: one seat of two
    assert 100 <= per_iteration <= 150
    long = RllibTrainConfig(game="nigejozu", total_steps=1_000_000)
    assert long.fitted_to_steps(2) == long  # a long run keeps its settings


def test_training_leaves_pyplots_backend_alone(tmp_path):
    # A notebook that trains and then plots must still show its plots: drawing the curve file must not
    # switch pyplot's backend (it used to switch it to Agg, and the notebooks' plots vanished).
    import matplotlib

    from yuugi.training.train.selfplay import TrainConfig, train

    before = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        result = train(TrainConfig.for_game("nigejozu", total_steps=64, num_envs=4, n_steps=64, batch_size=64,
                                            n_epochs=1, net_arch=(8,), progress=False), tmp_path)
        assert result["curve"] and (tmp_path / "nigejozu_seed0_curve.png").stat().st_size > 1000
        assert matplotlib.get_backend() == "svg"
    finally:
        matplotlib.use(before)
