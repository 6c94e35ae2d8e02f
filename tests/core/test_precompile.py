"""python -m yuugi.envs.precompile: compiles a game's rules in a fresh process into the on-disk cache."""
from __future__ import annotations

import subprocess
import sys

import pytest
from yuugi.envs.precompile import main, precompile


def test_precompile_runs_every_first_call_of_a_game_in_a_fresh_process():
    seconds = precompile(["nigejozu"], jobs=1)
    assert list(seconds) == ["nigejozu"] and seconds["nigejozu"] > 0


def test_an_unknown_game_is_one_line_and_status_2(capsys):
    assert main(["no_such_game"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no_such_game" in err and "nigejozu" in err


def test_the_module_runs_from_the_command_line():
    done = subprocess.run([sys.executable, "-m", "yuugi.envs.precompile", "nigejozu", "--jobs", "1"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("nigejozu")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failure_in_the_compiling_process_is_raised_with_its_error(monkeypatch, jobs):
    monkeypatch.setattr("yuugi.envs.precompile.FIRST_CALLS", "raise SystemExit('no compiler here')")
    with pytest.raises(RuntimeError, match="no compiler here"):
        precompile(["nigejozu"], jobs=jobs)
