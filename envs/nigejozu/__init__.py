"""逃げ上手の若君 天下統一ボードゲーム (nigejozu): see :mod:`yuugi.envs.nigejozu_v0` for the documentation."""
from .game import Nigejozu

__all__ = ["Nigejozu"]
