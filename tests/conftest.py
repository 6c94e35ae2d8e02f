"""Test-suite settings: CI runs hypothesis derandomized, so a red CI always reproduces; the longest tests
start first."""
from __future__ import annotations

import os
import sys

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the tests marked ``long`` (a minute or more each) to the front, keeping every other order.

    pytest-xdist hands out tests in collection order; a multi-minute test collected last keeps one
    worker busy long after the others have finished (the suite took 790 s on 2 workers that way, 557 s
    with these first). Started first, they run beside the short tests. Every worker collects the same
    items, so every worker sorts them the same way.
    """
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_configure(config: pytest.Config) -> None:
    """With several xdist workers, compile every game's rules once, in parallel, before the workers start.

    Each worker would otherwise compile each game it meets (a cold checkout, as in CI): the same minutes
    of numba compilation paid once per worker. Workers then load the rules from the on-disk cache.
    """
    workers = config.getoption("numprocesses", None)
    if hasattr(config, "workerinput") or not (workers == "auto" or (isinstance(workers, int) and workers >= 2)):
        return
    from yuugi.envs import available_games
    from yuugi.envs.precompile import precompile

    sys.__stderr__.write("compiling every game's rules once before the workers start ...\n")
    try:
        seconds = precompile(available_games(), jobs=2)
    except RuntimeError as e:  # the game's own tests will fail and say why; the others still run
        sys.__stderr__.write(f"precompiling failed, the workers compile for themselves: {e}\n")
        return
    sys.__stderr__.write("compiled rules: " + ", ".join(f"{game} {s:.0f} s" for game, s in seconds.items()) + "\n")


@pytest.fixture(autouse=True, scope="session")
def sb3_log_folder(tmp_path_factory: pytest.TempPathFactory):
    """SB3 models made the way a user makes them (tests of the single-agent ids, the adapters, the vector
    face) create an ``SB3-<date-time>`` folder in the temporary directory at each ``learn()``, unless
    ``SB3_LOGDIR`` names one: the suite's own, under pytest's temporary folder."""
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3_logs"))
    yield
    if before is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = before
