"""``yuugi.envs``, ``yuugi.agents`` and ``yuugi.seated`` import with the runtime dependencies alone
(numpy, numba, gymnasium, pettingzoo).

A fresh interpreter blocks the training extras (``sys.modules[name] = None`` makes importing them
raise ImportError) and imports every module under them; the SB3 vector face, which
needs stable-baselines3, lives in ``training`` and must fail there, which shows that the block works.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = ("torch", "stable_baselines3", "sb3_contrib", "ray", "matplotlib", "openskill")

SCRIPT = f"""
import importlib, json, pkgutil, sys
for name in {BLOCKED!r}:
    sys.modules[name] = None
import yuugi.seated
from yuugi import agents, envs, seated
imported, failed = [], {{}}
for package in (envs, agents, seated):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            importlib.import_module(info.name)
            imported.append(info.name)
        except Exception as e:
            failed[info.name] = repr(e)
try:
    import yuugi.training.train.sb3_vec
    blocked = False
except ImportError:
    blocked = True
print(json.dumps({{"imported": imported, "failed": failed, "blocked": blocked}}))
"""


def test_envs_and_agents_import_without_the_training_extras() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["failed"] == {}
    assert result["blocked"], "importing yuugi.training.train.sb3_vec should fail with stable_baselines3 blocked"
    # every module was reached: the core, each game's package and the agents
    names = set(result["imported"])
    assert {"yuugi.envs.faces.rollout", "yuugi.envs.faces.vector", "yuugi.envs.spec", "yuugi.agents.registry", "yuugi.agents.priors",
            "yuugi.seated.single_agent"} <= names
    assert not any(name.startswith("yuugi.envs.core.sb3") for name in names)
