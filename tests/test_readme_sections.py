"""README sections that users copy are run verbatim, in the order they appear, in a fresh folder.

A ```bash block runs line by line (each line must exit 0; a `yuugi play` line is answered `quit`); a ```python block whose first line is a
comment naming a file (``# my_policy.py``) is written to that file, any other ```python block runs
with the interpreter. Sections are found by their heading, so a renamed or moved section fails here.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"```(bash|python)\n(.*?)```", re.S)


def section(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start: end if end != -1 else len(text)]


def run_blocks(body: str, cwd: Path) -> list[str]:
    outputs = []
    for lang, code in FENCE.findall(body):
        if lang == "bash":
            for line in code.splitlines():
                line = line.split("  #")[0].strip()
                if not line:
                    continue
                argv = shlex.split(line.split(">")[0])
                target = line.split(">")[1].strip() if ">" in line else None
                if argv[0] == "yuugi":  # the console script, run with this interpreter
                    argv = [sys.executable, "-m", "yuugi.training.cli.main", *argv[1:]]
                done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600, input="quit\n")
                assert done.returncode == 0, f"{line!r} exited {done.returncode}:\n{done.stderr[-2000:]}"
                if target:
                    (cwd / target).write_text(done.stdout)
                outputs.append(done.stdout)
        else:
            first = code.splitlines()[0]
            named = re.fullmatch(r"# (\w+\.py)", first.strip())
            if named:
                (cwd / named.group(1)).write_text(code)
                continue
            done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"python block failed:\n{code}\n{done.stderr[-2000:]}"
            outputs.append(done.stdout)
    return outputs


@pytest.mark.long
def test_benchmark_your_policy_runs_verbatim(tmp_path):
    outputs = run_blocks(section("Benchmark your policy"), tmp_path)
    joined = "\n".join(outputs)
    assert "mine" in joined and "first" in joined and "ppo" in (tmp_path / "ladder.json").read_text()


def test_one_seat_against_fixed_opponents_runs_verbatim(tmp_path):
    run_blocks(section("One seat against fixed opponents (Gymnasium)"), tmp_path)
