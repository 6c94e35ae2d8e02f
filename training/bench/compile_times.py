"""How long a game's compiled rules take to be ready: cold (nothing cached) and warm (cached on disk).

Each measurement is a fresh Python process that imports yuugi, builds the game and makes the first call
of every kernel a face makes (init, legal mask, observe, step, the fused step), as a new training job,
a Ray worker or a CI job does. ``cold`` starts from an empty numba cache (``NUMBA_CACHE_DIR`` pointed
at a new folder), ``warm`` runs again on the cache the cold run filled. The import of yuugi itself is
timed apart (``import``), so the figures say what the rules add.

    python -m yuugi.training.bench.compile_times nigejozu ninja_daifugo
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from typing import Any

from yuugi.envs.precompile import FIRST_CALLS

# FIRST_CALLS with the import of yuugi and the first calls timed apart
_TIMED = ("import time\nt0 = time.perf_counter()\nimport yuugi.envs\nt1 = time.perf_counter()\n" + FIRST_CALLS
          + "t2 = time.perf_counter()\nprint(json.dumps({'import': t1 - t0, 'first_calls': t2 - t1}))\n")


def _run(game: str, rules: dict[str, Any], cache: str) -> dict[str, float]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", _TIMED, game, json.dumps(rules)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compile_times(game: str, **rules: Any) -> dict[str, float]:
    """Seconds for the first calls of ``game``'s kernels in a new process: cold, then warm."""
    with tempfile.TemporaryDirectory() as cache:
        cold = _run(game, rules, cache)
        warm = _run(game, rules, cache)
    return {"import": warm["import"], "cold": cold["first_calls"], "warm": warm["first_calls"]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m yuugi.training.bench.compile_times", description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="+")
    args = p.parse_args(argv)
    print(f"{'game':<16}{'import s':>10}{'cold s':>10}{'warm s':>10}")
    for game in args.games:
        t = compile_times(game)
        print(f"{game:<16}{t['import']:>10.2f}{t['cold']:>10.2f}{t['warm']:>10.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
