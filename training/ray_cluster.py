"""Connecting to Ray for ``yuugi train --engine rllib`` and ``yuugi eval --workers``.

Ray is an optional extra (``pip install -e ".[ray]"``): nothing under ``envs/`` or ``agents/``
imports it, and the command line says in one line how to install it when it is missing
(:func:`missing_ray`). :func:`connect` joins the cluster at ``address`` (``auto``: the one
``ray start`` runs on this machine; ``ray://HOST:PORT``: a remote head through Ray Client) or, with
no address, starts a private local Ray with ``num_cpus`` CPUs. The local Ray's workers import the
same yuugi as this process; on a cluster every node needs yuugi installed (the same version).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

INSTALL_HINT = 'pip install -e ".[ray]"'
PROJECT_ROOT = Path(__file__).resolve().parents[1]


def missing_ray(need_rllib: bool = False) -> str | None:
    """None when Ray (and RLlib, if asked) can be imported; else the one line that says how to get it."""
    try:
        import ray  # noqa: F401

        if need_rllib:
            import ray.rllib  # noqa: F401
    except ImportError as e:
        what = "Ray with RLlib" if need_rllib else "Ray"
        return f"this needs {what}, which is not installed ({e}); install it with: {INSTALL_HINT}"
    return None


def local_runtime_env() -> dict[str, Any]:
    """Workers of a local Ray find this checkout's packages first (as the driver does)."""
    path = os.pathsep.join(p for p in (str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {"env_vars": {"PYTHONPATH": path}}


def start_local(num_cpus: int) -> None:
    """A private Ray on this machine with ``num_cpus`` CPUs and no dashboard (as the tests start it)."""
    import ray

    ray.init(num_cpus=num_cpus, include_dashboard=False, runtime_env=local_runtime_env(),
             log_to_driver=False, configure_logging=False)


def connect(address: str | None, num_cpus: int) -> None:
    """Join the Ray cluster at ``address``, or start a local one with ``num_cpus`` CPUs (no-op when connected)."""
    import ray

    if ray.is_initialized():
        return
    if address:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    else:
        start_local(num_cpus)
