"""Where the shipped trained weights are, and which files a game ships.

Its own module so that every layer that reads the shipped weights (the level registry, the search's
guides, the match-up tables) finds them the same way without importing each other.
"""
from __future__ import annotations

from pathlib import Path

WEIGHTS_DIR = Path(__file__).parent / "weights"


def shipped_weights(game: str) -> list[Path]:
    """Every shipped ``hard`` weights file of ``game``: ``<game>_hard.npz`` and ``<game>_hard_<variant>.npz``."""
    return sorted(WEIGHTS_DIR.glob(f"{game}_hard.npz")) + sorted(WEIGHTS_DIR.glob(f"{game}_hard_*.npz"))
