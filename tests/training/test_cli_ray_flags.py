"""The Ray flags of ``yuugi train`` and ``yuugi eval``: refused in one line where they cannot work.

Without Ray installed (simulated: ``import ray`` fails in a fresh interpreter), ``--engine rllib``
and ``--workers`` say how to install it and exit with status 2; the default engine and local
evaluation never import Ray.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from yuugi.training.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def _without_ray(argv: list[str]) -> subprocess.CompletedProcess:
    script = ("import sys; sys.modules['ray'] = None\n"
              "from yuugi.training.cli.main import main\n"
              f"code = main({argv!r})\n"
              "assert 'ray' not in [m for m in sys.modules if sys.modules[m] is not None], 'ray was imported'\n"
              "sys.exit(code)\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("argv, flag", [
    (["train", "nigejozu", "--engine", "rllib", "--steps", "10"], "--engine rllib"),
    (["eval", "nigejozu", "--levels", "random", "easy", "--games", "2", "--workers", "2"], "--workers"),
])
def test_missing_ray_is_one_line_with_the_install_command(argv, flag):
    out = _without_ray(argv)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"yuugi {argv[0]}: error: {flag}:")
    assert 'pip install -e ".[ray]"' in lines[0]


def test_local_eval_never_imports_ray():
    out = _without_ray(["eval", "nigejozu", "--levels", "random", "easy", "--games", "4", "--format", "csv"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("game,layout,a,b")


@pytest.mark.parametrize("argv, problem", [
    (["train", "nigejozu", "--workers", "2"], "--workers and --address spread training over Ray: give --engine rllib"),
    (["train", "nigejozu", "--address", "auto"], "give --engine rllib"),
    (["eval", "nigejozu", "--address", "auto"], "--address runs the games on a Ray cluster: give --workers N too"),
])
def test_ray_flags_without_their_partner_are_refused(argv, problem, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert problem in err and len(err.strip().splitlines()) == 1


def test_workers_must_be_positive_for_eval(capsys):
    assert main(["eval", "nigejozu", "--workers", "0"]) == 2
    assert "--workers: must be at least 1, got 0" in capsys.readouterr().err


def test_engine_choices_are_named(capsys):
    assert main(["train", "nigejozu", "--engine", "jax"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'jax'" in err and "sb3" in err and "rllib" in err
