"""Connecting to Ray for ``yuugi train --engine rllib`` and ``yuugi eval --workers``.

Ray is an optional extra (``pip install -e ".[ray]"``): nothing under ``envs/`` or ``agents/``
imports it, and the command line says in one line how to install it when it is missing
(:func:`missing_ray`). :func:`connect` joins the cluster at ``address`` (``auto``: the one
``ray start`` runs on this machine; ``ray://HOST:PORT``: a remote head through Ray Client) or, with
no address, starts a private local Ray with ``num_cpus`` CPUs. The local Ray's workers import the
same yuugi as this process; on a cluster every node needs yuugi installed (the same version).
"""
from __future__ import annotations

import importlib.util
import os
import socket
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

    # address="local": a new Ray even when RAY_ADDRESS or a `ray start` on this machine names another
    ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, runtime_env=local_runtime_env(),
             log_to_driver=False, configure_logging=False)


class ClusterError(Exception):
    """The Ray cluster named by ``--address`` cannot be joined (said in one line)."""


def check_address(address: str) -> None:
    """``auto``, ``HOST:PORT`` (a head's GCS address, from a node of the cluster) or ``ray://HOST:PORT``."""
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, _, port = rest.rpartition(":")
    if address == "auto" or (host and port.isdigit()):
        return
    raise ClusterError(f"--address {address!r}: give auto (the Ray this machine's `ray start` joined), HOST:PORT "
                       "(the head's address, on a node of the cluster) or ray://HOST:PORT (Ray Client, port 10001)")


def reachable(address: str, timeout: float = 5.0) -> None:
    """Something listens at ``address``'s HOST:PORT (Ray itself would retry for minutes before saying no)."""
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, _, port = rest.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ClusterError(f"--address {address!r}: nothing answers at {host}:{port} ({e.strerror or e}). Start a "
                           "head there with `ray start --head` (Ray Client listens on 10001, the head on 6379)") from None


def connect(address: str | None, num_cpus: int) -> None:
    """Join the Ray cluster at ``address``, or start a local one with ``num_cpus`` CPUs (no-op when connected).

    An address that cannot be joined raises :class:`ClusterError` with Ray's reason in one line.
    """
    import ray

    if ray.is_initialized():
        return
    if not address:
        start_local(num_cpus)
        return
    check_address(address)
    if address.startswith("ray://") and importlib.util.find_spec("grpc") is None:
        raise ClusterError(f"--address {address!r}: ray:// goes through Ray Client, which needs grpcio; install it "
                           'with: pip install "ray[client]"')
    if address != "auto":
        reachable(address)
    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as e:  # ConnectionError, TimeoutError, ValueError, RuntimeError (gRPC) as Ray raises them
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise ClusterError(f"--address {address!r}: cannot join the Ray cluster there ({reason}). Start one with "
                           "`ray start --head` (and `ray start --address=HEAD:6379` on the other machines)") from None
