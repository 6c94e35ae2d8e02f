"""Ninja daifugō (忍者大富豪): see :mod:`yuugi.envs.ninja_daifugo_v0` for the environment's documentation."""
from .game import NinjaDaifugo

__all__ = ["NinjaDaifugo"]
