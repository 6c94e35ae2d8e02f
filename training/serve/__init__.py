"""``yuugi serve``: the web tables (needs the ``serve`` extra: starlette, uvicorn, websockets)."""
from __future__ import annotations

from typing import Any

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> Any:  # starlette is imported only when the app is asked for
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(name)
