"""The whole SB3 model of a ``yuugi train`` run, so a later run continues its value net too.

The exported ``.npz`` (:mod:`yuugi.agents.mlp`) holds the actor alone: it is what plays. A run continued
from it (``init_from=FILE.npz``) starts with a fresh value net, whose first updates then pull the
actor about while the critic learns what the positions are worth. ``<game>_sb3.zip`` is SB3's own
``model.save`` file (actor, value net and optimizer state) with the run's training record added as
one more member, ``yuugi_meta.json``; ``init_from=FILE.zip`` loads all of it into a model built with
the same settings (``MaskablePPO.set_parameters`` with an exact match), and the record continues
the run's stages.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

META_MEMBER = "yuugi_meta.json"


def is_model_file(path: str | Path) -> bool:
    """Whether ``path`` (an ``--init-from`` file) is a whole SB3 model (``.zip``), not exported actor weights."""
    return str(path).endswith(".zip")


def save_model(model: Any, path: str | Path, meta: dict[str, Any]) -> Path:
    """Write ``model`` (SB3) to ``path`` with ``meta`` inside; returns the path."""
    path = Path(path)
    model.save(path)  # SB3 appends nothing when the name ends in .zip
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr(META_MEMBER, json.dumps(meta, ensure_ascii=False))
    return path


def read_meta(path: str | Path) -> dict[str, Any]:
    """The training record saved in a model file; ValueError naming the file if it holds none."""
    try:
        with zipfile.ZipFile(path) as archive:
            return json.loads(archive.read(META_MEMBER))
    except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: not a model saved by yuugi train ({err})") from err


def load_model(model: Any, path: str | Path, game: str, prior: str | None) -> dict[str, Any]:
    """Load every parameter saved in ``path`` into ``model`` (built for ``game`` with the same settings)."""
    meta = read_meta(path)
    if meta.get("game") != game:
        raise ValueError(f"{path}: saved for {meta.get('game')}, not {game}")
    if meta.get("prior") != prior:
        raise ValueError(f"{path}: its action prior {meta.get('prior')!r} differs from the model's ({prior!r})")
    try:
        model.set_parameters(str(path), exact_match=True)
    except (RuntimeError, ValueError, KeyError) as err:  # shapes or layers that differ
        raise ValueError(f"{path}: its network does not match this run's settings ({str(err).splitlines()[0]})") from err
    return meta
