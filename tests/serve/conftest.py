"""The web tables' tests need the serve extra: CI must have it (a test fails with one line saying how to
install it), elsewhere they skip with that line."""
from __future__ import annotations

import importlib.util
import os
from typing import Any, Callable, Iterator

import pytest

INSTALL_SERVE = 'pip install -e ".[serve]" (starlette, uvicorn, websockets; httpx2 for the TestClient)'


def need(modules: tuple[str, ...], how: str) -> None:
    """Fail (under CI) or skip with ``how`` when any of ``modules`` cannot be imported (``a|b``: either)."""
    missing = [m for m in modules if all(importlib.util.find_spec(alt) is None for alt in m.split("|"))]
    if missing:
        line = f"missing {', '.join(missing)}: {how}"
        if os.environ.get("CI"):
            pytest.fail(line, pytrace=False)
        pytest.skip(line)


@pytest.fixture(autouse=True)
def _serve_extra() -> None:
    need(("starlette", "uvicorn", "websockets", "httpx2|httpx"), INSTALL_SERVE)


@pytest.fixture()
def make_client() -> Iterator[Callable[..., Any]]:
    """``make_client(**create_app_kw)``: an entered TestClient (one event loop for all its websockets),
    closed after the test."""
    from tests.serve.helpers import client

    opened: list[Any] = []

    def make(**kw: Any) -> Any:
        c = client(**kw)
        c.__enter__()
        opened.append(c)
        return c

    yield make
    for c in reversed(opened):
        c.__exit__(None, None, None)
