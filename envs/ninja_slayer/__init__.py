"""ニンジャスレイヤーTCG (ninja_slayer): see :mod:`yuugi.envs.ninja_slayer_v0` for the documentation."""
from .game import NinjaSlayer

__all__ = ["NinjaSlayer"]
