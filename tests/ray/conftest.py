"""One local Ray for the whole tests/ray session (2 CPUs, no dashboard), started on first use."""
from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ray: needs the ray extra; starts a local Ray (CI runs them once)")


@pytest.fixture(scope="session")
def local_ray():
    ray = pytest.importorskip("ray", reason='the ray extra is not installed (pip install -e ".[ray]")')

    from yuugi.training.rllib.cluster import start_local

    if not ray.is_initialized():
        start_local(num_cpus=2)
    yield ray
    ray.shutdown()
