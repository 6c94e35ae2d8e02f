"""The layout holds: one import root, layers that import only downward, and code that lints clean.

import-linter reads packages from the file system, so it is pointed at a staging folder whose
``yuugi/`` holds links to the repository's top-level folders (the installed layout, without an install).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _stage(where: Path, envs: Path = ROOT / "envs") -> Path:
    pkg = where / "yuugi"
    pkg.mkdir(parents=True)
    (pkg / "envs").symlink_to(envs)
    for name in ("agents", "training"):
        (pkg / name).symlink_to(ROOT / name)
    for item in (ROOT / "yuugi").iterdir():
        if item.name != "__pycache__":
            (pkg / item.name).symlink_to(item)
    return where


def _lint_imports(staged: Path) -> subprocess.CompletedProcess:
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.fail("lint-imports is missing: install the test extra (pip install -e '.[test]')")
    env = {**os.environ, "PYTHONPATH": str(staged)}
    return subprocess.run([exe, "--no-cache", str(ROOT / "pyproject.toml")], cwd=staged, env=env,
                          capture_output=True, text=True, timeout=300)


def test_import_contracts_hold(tmp_path):
    out = _lint_imports(_stage(tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "BROKEN" not in out.stdout and "0 broken" in out.stdout


@pytest.mark.parametrize("module, line", [
    ("core/_upward.py", "import yuugi.agents.registry\n"),    # envs importing a layer above it
    ("core/_knows_a_game.py", "import yuugi.envs.nigejozu\n"),  # the kernel knowing a game
])
def test_the_contracts_catch_a_forbidden_import(tmp_path, module, line):
    envs = tmp_path / "envs_copy"
    shutil.copytree(ROOT / "envs", envs, ignore=shutil.ignore_patterns("__pycache__"))
    (envs / module).write_text(line)
    out = _lint_imports(_stage(tmp_path / "staged", envs=envs))
    assert out.returncode != 0 and "BROKEN" in out.stdout, out.stdout


def test_ruff_finds_nothing():
    exe = shutil.which("ruff")
    if exe is None:
        pytest.fail("ruff is missing: install the test extra (pip install -e '.[test]')")
    out = subprocess.run([exe, "check", "--no-cache", str(ROOT)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_finds_nothing_in_the_kernel(tmp_path):
    """The game contract, compilation, streams, schema and options type-check (``yuugi.envs.core``)."""
    exe = shutil.which("mypy")
    if exe is None:
        pytest.fail("mypy is missing: install the test extra (pip install -e '.[test]')")
    staged = _stage(tmp_path / "staged")
    env = {**os.environ, "MYPYPATH": str(staged)}
    out = subprocess.run([exe, "--ignore-missing-imports", "--follow-imports=silent", "--no-incremental",
                          "-p", "yuugi.envs.core"], cwd=staged, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr


def test_training_files_live_in_rooms():
    loose = sorted(p.name for p in (ROOT / "training").glob("*.py") if p.name != "__init__.py")
    assert loose == [], f"training/ files outside a room: {loose}"


def test_a_users_own_agents_and_training_folders_do_not_shadow_yuugi(tmp_path):
    """A project with its own agents/ and training/ packages imports yuugi and plays against hard."""
    for name in ("agents", "training", "envs"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('the user project {name} was imported')\n")
        (tmp_path / name / "registry.py").write_text("raise ImportError('wrong registry')\n")
    code = textwrap.dedent("""
        import numpy as np
        import yuugi.envs, yuugi.agents.registry
        game = yuugi.envs.make_game("nigejozu")
        hard = yuugi.agents.registry.cpu("nigejozu", "hard")
        state = game.init(np.arange(4))
        rng = np.random.default_rng(0)
        for _ in range(10_000):
            if state.done.all():
                break
            mask = game.legal_mask(state)
            seat = state.to_play
            obs = game.observe(state, seat)
            game.step(state, hard.act(obs, mask, rng), active=~state.done)
        assert state.done.all()
        print("played", int(state.done.sum()))
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "played 4"
